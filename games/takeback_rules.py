"""Takebacks, the pure part (no Django): which log actions are in effect, and whether undoing a run of them
would hand the asking seat hidden information it already saw.

Used by games.services.takebacks (the service), games.selectors (the replay's `actions`),
games.services.play.game_rebuild_state (and so `manage.py verify_games`), the hidden-information oracles of
the tests and tests/bench/takeback_share.py.

**The log stays append-only.** A takeback is one more log entry (kind "takeback", action type "takeback")
naming `undo_from_seq`: every engine action at or after that seq is out of effect from then on. The actions in
effect, in seq order, replay the game (`effective_actions`).

**The hidden-information rule.** A takeback of the actions a_1..a_k (the asking seat's last N actions and
everything after the first of them, bots' answers included) is refused when, for any seat of the asking side
(the asking seat and, in a team game, every army of its side), any of them
* consumed the game's random numbers (its RNG state moved: a shuffle or reshuffle; after the rewind the same
  draws would come again, so the seat would know them), or
* showed it a card it could not see before a_1: a card identifier that was hidden from it before a_1 (absent
  from its view then) appears in its view after some a_i, or in an event of a_i it may see. Identifiers are
  the card instance ids of Battlecards (c12...) and The War (p1.07) and the card codes of Battlefront (one
  card per code), so a draw, a face-down card turned up, a conflict card turned for a shot, a card the
  opponent plays from his hand, a scout's look at a hand are all caught. A card shown by its code only
  (Battlecards' standing intelligence shows the enemy hand's codes, The War's scout party, deck hits and
  losses pile show codes) counts too: a code shown more often than before (so in The War a card put to the
  face-up losses pile counts, whatever its origin: the rule errs on the refusing side).

The rule looks at what the seats were shown, not at what they could infer (an opponent who passes may have
no card to play): a choice made in public is public. It looks at every seat of the asking side, not only the
asker: an army that gives forces to its teammate shows him each card, and taking the transfer back would
leave the teammate knowing which cards lie face down in the giver's stacks. What the undone actions showed
the answering side stays known to it: that side accepts knowingly (it answers for all its seats).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TAKEBACK_KIND = "takeback"  # games.models.LogKind.TAKEBACK
REQUEST, DECLINE, ACCEPT = "takeback_request", "takeback_decline", "takeback"  # the entries' action types


def effective_actions(entries: Iterable[Sequence[Any]]) -> list[Sequence[Any]]:
    """The log entries whose engine actions are in effect, in seq order, from log entries in seq order, each
    a tuple (kind, seq, action, ...) (returned as given): an accepted takeback drops every engine action at
    or after its `undo_from_seq`."""
    kept: list[Sequence[Any]] = []
    for entry in entries:
        kind, _seq, action = entry[0], entry[1], entry[2]
        if kind == "action":
            kept.append(entry)
        elif kind == TAKEBACK_KIND and isinstance(action, Mapping) and action.get("type") == ACCEPT:
            start = int(action["undo_from_seq"])
            kept = [e for e in kept if e[1] < start]
    return kept


def card_identifiers(state: Any) -> tuple[frozenset[str], frozenset[str]]:
    """(every card identifier of the game, every card code): Battlecards and The War name card instances
    by id (Battlecards' state.code, The War's state.codes: id -> code); Battlefront names its cards by
    code (one card per code)."""
    code = getattr(state, "code", None)
    if not isinstance(code, Mapping):
        code = getattr(state, "codes", None)
    if isinstance(code, Mapping):
        return frozenset(code), frozenset(code.values())
    catalog = state.catalog
    codes = frozenset(catalog.cards) | frozenset(getattr(catalog, "special_cards", {}) or {})
    return codes, codes


def _walk(value: Any) -> Iterator[Any]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend(item.values())
            yield from (k for k in item if isinstance(k, str))
        elif isinstance(item, list | tuple):
            if item and all(isinstance(v, str) for v in item):
                yield tuple(item)  # a list of bare strings: also counted as one list (codes-only lists)
            stack.extend(item)
        else:
            yield item


@dataclass(frozen=True)
class Seen:
    """What one seat was shown: the card identifiers, and how often each code appears in a list of bare
    codes (a hand shown by its codes only)."""

    ids: frozenset[str]
    bare_codes: Counter

    @classmethod
    def of(cls, payload: Any, *, ids: frozenset[str], codes: frozenset[str]) -> Seen:
        found: set[str] = set()
        bare: Counter = Counter()
        distinct = ids != codes  # Battlefront: a code is the card itself, the id check covers it
        for item in _walk(payload):
            if isinstance(item, str):
                if item in ids:
                    found.add(item)
            elif isinstance(item, tuple) and distinct and all(v in codes for v in item):
                bare.update(item)
        return cls(frozenset(found), bare)


@dataclass(frozen=True)
class Reveal:
    """Why a run of actions may not be taken back: `index` of the action (0: the first undone), `reason`
    "card" (a hidden card shown) or "random" (the RNG was used), `seat` the seat shown the card (for
    "random": the first seat looked at)."""

    index: int
    reason: str
    seat: str = ""


def _may_see(visible_to: str, seat: str) -> bool:
    return visible_to == "all" or visible_to == seat or seat.startswith(visible_to + "-")


def _event_payload(event: Any) -> tuple[str, Any]:
    if isinstance(event, Mapping):
        return event.get("visible_to", "all"), event.get("data")
    return event.visible_to, event.data


@dataclass
class RevealCheck:
    """Follows one seat through a run of actions from the state before the first of them."""

    seat: str
    before: Seen
    ids: frozenset[str]
    codes: frozenset[str]
    rng: Any

    @classmethod
    def start(cls, *, state: Any, seat: str, view: Mapping[str, Any]) -> RevealCheck:
        ids, codes = card_identifiers(state)
        return cls(seat=seat, before=Seen.of(view, ids=ids, codes=codes), ids=ids, codes=codes,
                   rng=rng_fingerprint(state))

    def step(self, *, state_after: Any, events: Iterable[Any], view_after: Mapping[str, Any]) -> str | None:
        """The reason the action just applied revealed something to the seat ("random", "card"), or None."""
        if rng_fingerprint(state_after) != self.rng:
            return "random"
        shown = [view_after, *(data for to, data in map(_event_payload, events) if _may_see(to, self.seat))]
        for payload in shown:
            seen = Seen.of(payload, ids=self.ids, codes=self.codes)
            if seen.ids - self.before.ids:
                return "card"
            if any(n > self.before.bare_codes[c] for c, n in seen.bare_codes.items()):
                return "card"
        return None


def rng_fingerprint(state: Any) -> Any:
    """The RNG's position (any draw of a random number moves it)."""
    rng = getattr(state, "rng", None)
    return rng.getstate() if rng is not None else None


def first_reveal(*, engine: Any, state: Any, seats: Sequence[str], actions: list[Any]) -> Reveal | None:
    """Apply `actions` (engine Actions) to `state` (changed in place) and say whether one of them revealed
    hidden information to one of `seats` (the first action that did, and to whom: seats in their order), or
    None when the run may be taken back."""
    checks = [RevealCheck.start(state=state, seat=seat, view=engine.view(state, seat)) for seat in seats]
    for index, action in enumerate(actions):
        events = engine.apply(state, action)
        for check in checks:
            view_after = engine.view(state, check.seat)
            reason = check.step(state_after=state, events=events, view_after=view_after)
            if reason is not None:
                return Reveal(index=index, reason=reason, seat=check.seat)
    return None
