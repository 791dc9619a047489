"""The generic conformance driver (OpenSpiel's `test_consistent` is the model): play one game of any game
type through its GameType and check what every game must keep.

The game is played as the games service plays it: after every action the state is stored and read back,
its JSON object keys in PostgreSQL jsonb's order (shorter keys first), and the next action is applied to
the state read back. The checks, each filed under its property:

* `ends`: the game ends (status finished, no decision) before the driver's ply cap; the result kind says
  whether a rule or a guard ended it.
* `illegal`: at the checked plies (below), the current decision's action sent by the other seat, an
  action of the deciding seat that is not legal now and an action of an unknown type each raise the
  engine's typed error (IllegalAction / MalformedAction) and leave the state byte-identical (its JSON
  text, keys in order); after the end, any action raises IllegalAction `game_over`.
* `round_trip`: at every ply the state is read back from its JSON with every object's keys reordered (in
  jsonb's order at even plies, shuffled at odd ones) and the game goes on from the state read back: the
  same state (hash) at every ply, and the same final state as the same game never read back (the same
  future).
* `round_trip_views`: at the checked plies, every seat's view and the spectator's view of the state read
  back are the same JSON values (an object's key order aside: jsonb does not keep it), and so are the
  legal actions (in order).
* `replay`: the setup and the log (as stored: jsonb order) replayed from the seed give the final state
  whose hash the service publishes (`final_state_sha256`, the hash of the stored state).
* `view_shape`: at the checked plies, every game's view carries the pending decision in the same place
  (issue 37): `decision` is `{seat, kind}` for a seat that does not decide and for the spectator, and
  `{seat, kind, prompt, legal_actions}` for the seat that does, its legal actions those of the state (in
  order) and its prompt of the shape its engine declares for the kind (`prompt_schemas`, JSON Schema:
  the API's prompt component); a copy at the root (The War's deprecated `legal_actions`) is the same list.
* `json_types`: at the checked plies, the state's JSON and every view hold only strings, integers, booleans,
  None, lists and objects with string keys: no floats (the games service encodes a view with orjson, whose
  floats read differently from DRF's `1e-07`) and no keys of other types (json.dumps would rewrite them).
* `view_invariance`: at the checked plies, for each seat and the spectator, the cards that viewer cannot
  see are dealt again (adapters.py); the viewer's whole view (decision kind, prompt and legal actions
  included) is byte-identical.

The checked plies: every `check_every`-th ply, and the first ply at which each decision kind comes to each
seat (check_every=1 under `-m slow`).
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import jsonschema

from games.engine.core.errors import IllegalAction, MalformedAction

from .adapters import SPECTATOR, Adapter, strings_in

PROPERTIES = ("ends", "illegal", "round_trip", "round_trip_views", "replay", "view_shape", "json_types",
              "view_invariance")
MAX_FAILURES = 5  # per property and game: the first ones tell the story


def state_digest(data: Any) -> str:
    """games.selectors.state_digest: the published `final_state_sha256` of a stored state."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def jsonb_key(key: str) -> tuple[int, bytes]:
    """PostgreSQL jsonb's order of an object's keys: shorter first, then by their bytes."""
    raw = key.encode()
    return len(raw), raw


def as_stored(value: Any, rnd: random.Random | None = None) -> Any:
    """A copy of an engine's JSON as a JSON column gives it back: JSON types only (a tuple is a list, a
    non-string key a string, as json.dumps writes them), and every object's keys in jsonb's order, or
    shuffled when `rnd` is given. (One walk instead of json.dumps, json.loads and a reorder: this runs at
    every ply.)"""
    if isinstance(value, dict):
        keys = list(value)
        pairs = value
        if not all(isinstance(k, str) for k in keys):
            keys = [k if isinstance(k, str) else json.dumps(k).strip('"') for k in value]
            pairs = dict(zip(keys, value.values(), strict=True))
        if rnd is None:
            keys.sort()  # UTF-8 keeps code point order: by their bytes
            keys.sort(key=len if all(k.isascii() for k in keys) else jsonb_key)  # stable: shorter first
        else:
            rnd.shuffle(keys)
        return {k: as_stored(pairs[k], rnd) if isinstance(pairs[k], (dict, list, tuple)) else pairs[k]
                for k in keys}
    return [as_stored(v, rnd) if isinstance(v, (dict, list, tuple)) else v for v in value]


def jsonb_order(value: Any) -> Any:
    return as_stored(value)


def first_difference(a: Any, b: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ (shortened for a message); the order of an object's keys counts
    only when nothing else differs."""
    found = _value_difference(a, b, path)
    if found is None and json.dumps(a) != json.dumps(b):
        return f"{path}: the same values, object keys in another order"
    return found


def _value_difference(a: Any, b: Any, path: str) -> str | None:
    if type(a) is not type(b):
        return f"{path}: {_short(a)} != {_short(b)}"
    if isinstance(a, dict):
        if set(a) != set(b):
            return f"{path}: keys {sorted(set(a) ^ set(b))} in one only"
        for k in a:
            found = _value_difference(a[k], b[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _value_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} items != {len(b)}"
    return None if a == b else f"{path}: {_short(a)} != {_short(b)}"


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 160 else text[:157] + "..."


@dataclass
class GameRun:
    game: str
    policy: str
    seed: int
    plies: int = 0
    result_kind: str | None = None
    by_guard: bool = False
    failures: dict[str, list[str]] = field(default_factory=lambda: {p: [] for p in PROPERTIES})
    redeals: int = 0  # views compared after a re-deal

    def fail(self, prop: str, message: str) -> None:
        found = self.failures[prop]
        if len(found) < MAX_FAILURES:
            found.append(f"{self.game} {self.policy} seed {self.seed} ply {self.plies}: {message}")


def play(adapter: Adapter, policy: str, seed: int, *, check_every: int = 10) -> GameRun:
    """Play one game (module docstring). The state's round trip and hash are checked at every ply; the
    views, legal actions, illegal actions and re-deals every `check_every` plies and the first time each
    decision kind comes to each seat."""
    gt = adapter.game_type
    catalog = adapter.catalog()
    setup = adapter.setup(catalog, seed)
    setup_json = adapter.setup_json(setup)
    # the driver's own randomness (never the game's RNG), one for the referee's choices and the key orders,
    # one for the checks (so that a game does not depend on how often it is checked)
    rnd = random.Random(f"{adapter.name}:{policy}:{seed}")
    check_rnd = random.Random(f"checks:{adapter.name}:{policy}:{seed}")
    viewers = (*gt.seats, SPECTATOR)
    bots = ({s: gt.bot(policy, catalog=catalog, salt=f"{seed}:{s}") for s in gt.seats}
            if policy in ("random", "heuristic") else {})
    needs_view = policy != "random"
    run = GameRun(adapter.name, policy, seed)
    log: list[dict[str, Any]] = []
    seen: set[tuple[str, str] | None] = set()

    def view_of(st: Any, viewer: str | None) -> dict[str, Any]:
        return gt.public_view(st) if viewer is SPECTATOR else gt.view(st, viewer)

    state = gt.new_state(catalog, setup)  # the stored game: read back before every action
    direct: Any = gt.new_state(catalog, setup)  # the same game never read back
    while True:
        data = state.to_json()
        run.plies = state.ply
        decision = state.decision
        kind = (decision.kind, decision.seat) if decision is not None else None
        sample = state.ply % check_every == 0 or kind not in seen
        seen.add(kind)

        # the round trip, as stored: object keys in jsonb's order (even plies) or shuffled (odd plies)
        stored = gt.state_from_json(as_stored(data, rnd if state.ply % 2 else None), catalog)
        if (again := stored.to_json()) != data:
            run.fail("round_trip", f"the state read back from reordered JSON differs: "
                                   f"{first_difference(again, data)}")
        views: dict[str | None, Any] = {}
        if sample:
            views = {v: view_of(state, v) for v in viewers}
            for v in viewers:  # JSON objects are unordered (jsonb reorders them): their key order is free
                if (got := view_of(stored, v)) != views[v]:
                    run.fail("round_trip_views",
                             f"the view of {v or 'the spectator'} differs after a round trip through "
                             f"reordered JSON: {first_difference(views[v], got)}")
            legal_json = [a.to_json() for a in gt.legal_actions(state)]
            if [a.to_json() for a in gt.legal_actions(stored)] != legal_json:
                run.fail("round_trip_views",
                         "the legal actions differ after a round trip through reordered JSON")
            _check_view_shape(run, gt.engine.prompt_schemas, views, decision, legal_json)
            _check_json_types(run, {"the state": data, **{f"the view of {v or 'the spectator'}": views[v]
                                                          for v in viewers}})
            _check_illegal(adapter, run, state, json.dumps(data), decision, legal_json, log)
            _check_redeal(adapter, run, data, views, decision, check_rnd)
        if decision is None or state.ply >= adapter.max_plies:
            state = stored
            break
        seat = decision.seat
        legal = gt.legal_actions(stored)
        # a random bot reads only the ply
        view = (views.get(seat) or view_of(stored, seat)) if needs_view else {"ply": stored.ply, "seat": seat}
        action_json = _choose(policy, bots, seat, view, legal, rnd)
        if sample and adapter.redeal_hands is not None:
            _check_next_decision(adapter, run, data, views, action_json, check_rnd)
        try:
            gt.apply(stored, gt.parse_action(action_json))
        except gt.errors:
            if action_json["type"] not in adapter.report_types:
                raise
            action_json = rnd.choice(legal).to_json()  # a report the referee refused (state unchanged)
            gt.apply(stored, gt.parse_action(action_json))
        if direct is not None:
            try:
                gt.apply(direct, gt.parse_action(action_json))
            except gt.errors as exc:
                run.fail("round_trip", f"the same game never read back refuses {action_json}: {exc}")
                direct = None
        log.append(action_json)
        state = stored  # the game goes on from the state read back

    run.result_kind = (state.result or {}).get("kind")
    capped = state.decision is not None
    run.by_guard = capped or run.result_kind in adapter.guards
    if capped or state.status != "finished":
        run.fail("ends", f"not over after {state.ply} plies (status {state.status!r})")

    final = state.to_json()
    if direct is not None and (unread := direct.to_json()) != final:
        run.fail("round_trip", "the game read back from reordered JSON before every action ends in another "
                               f"state than the same game never read back: {first_difference(final, unread)}")
    published = state_digest(final)  # the stored state's hash, as the service publishes it
    try:
        replayed = gt.replay(catalog, jsonb_order(setup_json), [jsonb_order(a) for a in log]).to_json()
    except gt.errors as exc:
        run.fail("replay", f"the log does not replay: {exc}")
        return run
    if state_digest(replayed) != published:
        run.fail("replay", f"the replay's final state hash {state_digest(replayed)[:12]} is not the "
                           f"published {published[:12]}: {first_difference(replayed, final)}")
    return run


@cache
def _validator(schema_json: str) -> Any:
    """A checked schema's validator, made once (jsonschema.validate checks the schema at every call)."""
    schema = json.loads(schema_json)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _check_json_types(run: GameRun, documents: dict[str, Any]) -> None:
    """The `json_types` property (module docstring)."""
    for name, document in documents.items():
        if (found := _odd_json_value(document, "$")) is not None:
            run.fail("json_types", f"{name} holds {found}")


def _odd_json_value(value: Any, path: str) -> str | None:
    if value is None or isinstance(value, (str, int)):  # bool is an int; a float is not
        return None
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if (found := _odd_json_value(item, f"{path}[{i}]")) is not None:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"the key {key!r} of type {type(key).__name__} at {path}"
            if (found := _odd_json_value(item, f"{path}.{key}")) is not None:
                return found
        return None
    return f"{value!r:.60} of type {type(value).__name__} at {path}"


def _check_view_shape(run: GameRun, prompts: Any, views: dict[Any, Any], decision: Any,
                      legal_json: list[Any]) -> None:
    """The `view_shape` property (module docstring)."""
    for viewer, view in views.items():
        got = json.loads(json.dumps(view.get("decision")))  # as JSON: tuples are lists
        name = viewer or "the spectator"
        if decision is None:
            if got is not None:
                run.fail("view_shape", f"the view of {name} shows a decision after the end: {got}")
            continue
        deciding = viewer == decision.seat
        keys = {"seat", "kind", "prompt", "legal_actions"} if deciding else {"seat", "kind"}
        if not isinstance(got, dict) or set(got) != keys or (got["seat"], got["kind"]) != (decision.seat,
                                                                                            decision.kind):
            run.fail("view_shape", f"the view of {name} shows the {decision.kind} decision of "
                                   f"{decision.seat} as {got!r:.200}: expected the keys {sorted(keys)}")
            continue
        if "legal_actions" in view and view["legal_actions"] != got.get("legal_actions", []):
            run.fail("view_shape", f"the view of {name} lists other legal actions at its root than under "
                                   "its decision")
        if not deciding:
            continue
        if got["legal_actions"] != json.loads(json.dumps(legal_json)):
            run.fail("view_shape", f"the {decision.kind} decision of {name} lists other legal actions than "
                                   "the state's")
        try:
            _validator(json.dumps(prompts.get(decision.kind, {}), sort_keys=True)).validate(got["prompt"])
        except jsonschema.ValidationError as exc:
            run.fail("view_shape", f"the prompt of the {decision.kind} decision is not of the shape its "
                                   f"engine declares: {exc.message}")


def shown(view: dict[str, Any]) -> set[str]:
    """What the rules show a deciding seat of the hidden cards (Battlecards' capture browses a face-down
    stack): the strings of its decision's prompt and legal actions, which a re-deal leaves in place. The
    rest of a view must show no hidden card: those are dealt again."""
    decision = view.get("decision") or {}
    return set(strings_in([decision.get("prompt"), decision.get("legal_actions"), view.get("legal_actions")]))


def _check_redeal(adapter: Adapter, run: GameRun, data: dict[str, Any], views: dict[Any, Any],
                  decision: Any, rnd: random.Random) -> None:
    gt = adapter.game_type
    catalog = adapter.catalog()
    for v, view in views.items():
        dealt = adapter.redeal(data, v, catalog, rnd, shown(view))
        try:
            st = gt.state_from_json(dealt, catalog)
            got = gt.public_view(st) if v is SPECTATOR else gt.view(st, v)
        except gt.errors as exc:
            run.fail("view_invariance", f"a state re-dealt for {v or 'the spectator'} does not load: {exc}")
            continue
        run.redeals += 1
        if json.dumps(got) != json.dumps(view):
            run.fail("view_invariance",
                     f"re-dealing the cards {v or 'the spectator'} cannot see changes that view (decision "
                     f"{decision and decision.kind!r} of {decision and decision.seat}): "
                     f"{first_difference(view, got)}")


def _check_next_decision(adapter: Adapter, run: GameRun, data: dict[str, Any], views: dict[Any, Any],
                         action_json: dict[str, Any], rnd: random.Random) -> None:
    """For each viewer, the action the game takes, applied to the state and to the state with the hands the
    viewer cannot see dealt again from the bottom of their decks (what the action may draw or reveal stays
    put): the decision that follows is the same, in full when the viewer took the action, else its kind
    and seat. Skipped when the re-deal made the action illegal (a card that left its player's hand) or the
    action showed the viewer a card the re-deal moved (an emergency deployment into a battle)."""
    gt = adapter.game_type
    catalog = adapter.catalog()
    for v, view in views.items():
        dealt_json = adapter.redeal_hands(data, v, catalog, rnd, shown(view))
        moved = _moved(data, dealt_json)
        dealt = gt.state_from_json(dealt_json, catalog)
        if _view(gt, dealt, v) != view:
            continue  # the view differs already (the view_invariance check says so)
        try:
            gt.apply(dealt, gt.parse_action(action_json))
        except gt.errors:
            continue
        same = gt.state_from_json(data, catalog)
        try:
            gt.apply(same, gt.parse_action(action_json))
        except gt.errors:
            continue  # the state read back refuses it (the round_trip check says so)
        seen = {name: _view(gt, st, v) for name, st in (("state", same), ("re-dealt", dealt))}
        if any(moved & set(strings_in(seen_view)) for seen_view in seen.values()):
            continue  # the action showed the viewer cards the re-deal moved: what follows may differ
        # the viewer's own decision in full (its prompt and legal actions are about its own cards); another
        # seat's by its kind and seat
        mine = action_json.get("seat") == v
        after = {name: {k: seen[name].get(k) for k in ("decision", "legal_actions")} if mine else
                 (st.decision and (st.decision.kind, st.decision.seat))
                 for name, st in (("state", same), ("re-dealt", dealt))}
        if after["state"] != after["re-dealt"]:
            d, e = same.decision, dealt.decision
            who = v or "the spectator"
            run.fail("view_invariance",
                     f"after {action_json}, the next decision as {who} sees it depends on cards {who} cannot "
                     f"see ({d and d.kind!r} of {d and d.seat}; re-dealt: {e and e.kind!r} of "
                     f"{e and e.seat}): {first_difference(after['state'], after['re-dealt'])}")


def _moved(a: Any, b: Any) -> set[str]:
    """The strings at the places where two JSON documents of one shape differ (the cards a re-deal moved)."""
    if a == b:  # an equal subtree moved nothing (compared in C: most of a re-dealt state is untouched)
        return set()
    if isinstance(a, dict) and isinstance(b, dict):
        return {s for k in a.keys() & b.keys() for s in _moved(a[k], b[k])}
    if isinstance(a, list) and isinstance(b, list):
        return {s for x, y in zip(a, b, strict=False) for s in _moved(x, y)}
    return {x for x in (a, b) if isinstance(x, str)} if a != b else set()


def _view(gt: Any, st: Any, viewer: str | None) -> dict[str, Any]:
    return gt.public_view(st) if viewer is SPECTATOR else gt.view(st, viewer)


def _choose(policy: str, bots: dict[str, Any], seat: str, view: dict[str, Any], legal: list[Any],
            rnd: random.Random) -> dict[str, Any]:
    if policy == "referee":
        from .adapters import random_referee

        return random_referee(view, legal, rnd)
    return bots[seat].choose(view, legal, seat).to_json()


def _check_illegal(adapter: Adapter, run: GameRun, state: Any, text: str, decision: Any,
                   legal_json: list[dict[str, Any]], log: list[dict[str, Any]]) -> None:
    gt = adapter.game_type
    tries: list[tuple[str, dict[str, Any], type[Exception], str | None]] = []
    if decision is None:
        if log:
            tries.append(("an action after the end", log[-1], IllegalAction, "game_over"))
    else:
        seat = decision.seat
        other = gt.other_seat(seat)
        if legal_json:
            tries.append(("the other seat's copy of a legal action", {**legal_json[0], "seat": other},
                          IllegalAction, "not_your_turn"))
        stale = next((a for a in reversed(log) if a.get("seat") == seat and a not in legal_json
                      and a["type"] not in adapter.report_types), None)
        if stale is not None:
            tries.append(("an earlier action that is not legal now", stale, IllegalAction, None))
        tries.append(("an action of an unknown type", {"type": "no-such-action", "seat": seat},
                      MalformedAction, None))
    for what, action, error, code in tries:
        try:
            gt.apply(state, gt.parse_action(action))
        except error as exc:
            if code is not None and exc.code != code:
                run.fail("illegal", f"{what} {action} raised code {exc.code!r}, not {code!r}")
        except Exception as exc:  # noqa: BLE001 - the wrong error is the finding
            run.fail("illegal", f"{what} {action} raised {type(exc).__name__}: {exc}, not {error.__name__}")
        else:
            run.fail("illegal", f"{what} {action} was applied")
        if state.decision != decision:
            run.fail("illegal", f"{what} {action} changed the pending decision")
            return
    after = json.dumps(state.to_json())
    if after != text:
        names = "; ".join(f"{what} {action}" for what, action, _, _ in tries)
        run.fail("illegal", f"one of these changed the state ({names}): "
                            f"{first_difference(json.loads(text), json.loads(after))}")
