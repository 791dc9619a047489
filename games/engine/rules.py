"""The rules: set-up, the frame machine that drives turns and battles, legal actions and apply.

The game is a stack of frames (plain dicts in `state.frames`). `advance` runs the top frame's step
function until one needs a decision from a player; every step either mutates and returns None, or
returns a Decision without mutating, so a serialised state always resumes at the same decision.
Rulings are cited as in the FAQ: G = generals/leaders, S = ships, GU = ground units,
CA = counterattacks, C = cards, GP = game play, R1.1/R1.2 = official rules updates.
"""
from __future__ import annotations

from typing import Any

from .actions import (
    ACTION_TYPES,
    Action,
    Autokill,
    Choose,
    Draw,
    EmergencyDeploy,
    Fire,
    Hold,
    Pass,
    PlayCard,
    Retrieve,
    Support,
    Withdraw,
)
from .cards import KINDS, ArsenalCardDef, BattlecardDef, Catalog, Forces
from .errors import EngineError, IllegalAction, MalformedAction
from .events import Event
from .setup import SEATS, GameSetup
from .state import OTHER, Decision, GameState, new_player


# Legal actions are enumerated as compact keys (type, seat, *fields), which are cheap to build, and
# turned into Action values only when asked for (legal_actions) or chosen.
def KDraw(seat): return ("draw", seat)  # noqa: E704
def KEmergencyDeploy(seat): return ("emergency_deploy", seat)  # noqa: E704
def KDeploy(seat, card, stack): return ("deploy", seat, card, stack)  # noqa: E704
def KPlayCard(seat, card, target=None, option=None): return ("play_card", seat, card, target, option)  # noqa: E704
def KChoose(seat, option): return ("choose", seat, option)  # noqa: E704
def KPass(seat): return ("pass", seat)  # noqa: E704
def KFire(seat, unit, target): return ("fire", seat, unit, target)  # noqa: E704
def KAutokill(seat, unit, target): return ("autokill", seat, unit, target)  # noqa: E704
def KHold(seat, unit): return ("hold", seat, unit)  # noqa: E704
def KWithdraw(seat, unit): return ("withdraw", seat, unit)  # noqa: E704
def KSplit(seat, card): return ("split", seat, card)  # noqa: E704
def KRetrieve(seat, card): return ("retrieve", seat, card)  # noqa: E704
def KTake(seat, card, stack): return ("take", seat, card, stack)  # noqa: E704


KEPT_EFFECTS = frozenset({
    "counterattack", "delay-tactics", "misinformation", "military-intelligence", "stolen-plans",
    "pre-emptive-strike", "a-bomb", "chemical-warfare", "mine-fields", "lack-of-valor", "air-raid",
    "scorched-earth", "industrial-complex", "industrial-strike", "sabotage",
})
TURN_START_EFFECTS = frozenset({"counterattack", "pre-emptive-strike", "air-raid", "industrial-complex",
                                "industrial-strike", "sabotage"})
RESPONSE_EFFECTS = frozenset({"delay-tactics", "misinformation"})
WINDOW_EFFECTS = frozenset({"mine-fields", "lack-of-valor", "military-intelligence", "stolen-plans",
                            "chemical-warfare"})
SUPPORT_KINDS = ("infantry_support", "artillery_support", "ship_support")
SUPPORTER_KINDS = frozenset(SUPPORT_KINDS) | {"carrier_bonus"}
BIG_GUN_KINDS = ("big_guns", "heavy_guns", "ship_support")  # S3: support ships firing alone fire as big guns
AIR_RAID = Forces(air=True)
# Special victory conditions: "if all <aggressor> ground units are destroyed, the defender wins" (Normandy).
# CA2: it always concerns the aggressor of THIS battle, so a counterattack by the other side reverses it.
GROUND_SPECIALS = frozenset({"defender-wins-if-aggressor-ground-destroyed", "aggressor-loses-if-no-ground"})


# ---------------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------------
def _validate_setup(catalog: Catalog, setup: GameSetup) -> None:
    for seat in SEATS:
        nation = catalog.nations.get(setup.nations[seat])
        if nation is None:
            raise EngineError("bad_setup", f"unknown nation {setup.nations[seat]!r}")
        if nation.side != seat:
            raise EngineError("bad_setup", f"nation {nation.code} fights for {nation.side}, not {seat}")
        singles: set[str] = set()
        for code in setup.decks[seat]:
            card = catalog.arsenal.get(code)
            if card is None:
                raise EngineError("bad_setup", f"unknown arsenal card {code!r}")
            if card.side != seat:
                raise EngineError("bad_setup", f"{code} is not an {seat} card")
            if card.is_general or card.is_leader:
                # TO SET UP THE GAME: "only one representation of each LEADER or GENERAL" per arsenal deck
                if code in singles:
                    raise EngineError("bad_setup", f"{code} is a general or leader: only one copy per deck")
                singles.add(code)
    for code in setup.conflict_deck:
        if code not in catalog.conflict and code not in catalog.battlecards:
            raise EngineError("bad_setup", f"unknown conflict card {code!r}")


def new_game(catalog: Catalog, setup: GameSetup) -> GameState:
    _validate_setup(catalog, setup)
    st = GameState(catalog, setup)
    rng = st.rng
    entries: list[tuple[str | None, str]] = []
    for seat in SEATS:
        entries.extend((seat, code) for code in setup.decks[seat])
    entries.extend((None, code) for code in setup.conflict_deck)
    # Instance ids come from a shuffled numbering, so an id says nothing about a card's code or position.
    numbers = list(range(1, len(entries) + 1))
    rng.shuffle(numbers)
    for seat in SEATS:
        st.players[seat] = new_player(setup.nations[seat])
    for (seat, code), n in zip(entries, numbers, strict=True):
        cid = f"c{n}"
        st.code[cid] = code
        if seat is not None:
            st.owner[cid] = seat
            st.players[seat]["deck"].append(cid)
        elif code in catalog.conflict and catalog.conflict[code].effect == "battlecard-list":
            st.aside.append(cid)  # set aside face up (TO SET UP THE GAME)
        else:
            st.conflict_deck.append(cid)
    st.rebuild_derived()
    for seat in SEATS:
        rng.shuffle(st.players[seat]["deck"])
    rng.shuffle(st.conflict_deck)
    total = sum(st.defs[c].victory_points for c in st.conflict_deck if isinstance(st.defs[c], BattlecardDef))
    st.vp_threshold = (total + 1) // 2  # "at least half": 38 of 75 in the Western Europe deck
    opts = setup.options
    for seat in SEATS:
        for _ in range(opts.initial_draw):
            cid = _draw_arsenal(st, seat)
            if cid is not None:
                st.players[seat]["hand"].append(cid)
    st.frames = [
        {"kind": "game", "next": "axis"},
        _deploy_frame("allies", opts.initial_deploy, None, "initial"),
        _deploy_frame("axis", opts.initial_deploy, None, "initial"),
    ]
    advance(st)
    return st


# ---------------------------------------------------------------------------------------------
# small helpers
# ---------------------------------------------------------------------------------------------
def _ev(st: GameState, type_: str, data: dict[str, Any], vis: str = "all") -> None:
    if st.record_events:
        st._events.append(Event(type_, data, vis))



def _draw_arsenal(st: GameState, seat: str) -> str | None:
    p = st.players[seat]
    if not p["deck"]:
        if not p["discard"]:
            return None  # GP6: a fully deployed arsenal ignores further deployment
        p["deck"] = p["discard"]
        p["discard"] = []
        st.rng.shuffle(p["deck"])
        if st.record_events:
            _ev(st, "arsenal_reshuffled", {"seat": seat, "cards": len(p["deck"])})
    return p["deck"].pop()


def _flip_conflict(st: GameState) -> str | None:
    if not st.conflict_deck:
        if not st.conflict_discard:
            return None
        st.conflict_deck = st.conflict_discard
        st.conflict_discard = []
        st.rng.shuffle(st.conflict_deck)
        if st.record_events:
            _ev(st, "conflict_reshuffled", {"cards": len(st.conflict_deck)})
    return st.conflict_deck.pop()


def _action_number(st: GameState) -> tuple[int, str | None]:
    cid = _flip_conflict(st)
    if cid is None:
        return 0, None
    st.conflict_discard.append(cid)
    return st.defs[cid].action_number, cid


def _stack(st: GameState, seat: str, ref: str) -> list[str] | None:
    if ref.startswith("bc:"):
        return st.players[seat]["occupied"].get(ref[3:])
    try:
        kind, idx = ref.split(":")
        stacks = st.players[seat]["stacks"][kind]
        i = int(idx)
    except (ValueError, KeyError):
        return None
    return stacks[i] if 0 <= i < len(stacks) else None



def _nonempty_refs(st: GameState, seat: str, min_size: int = 1, occupied: bool = True) -> list[str]:
    out = []
    for kind in KINDS:
        for i, s in enumerate(st.players[seat]["stacks"][kind]):
            if len(s) >= min_size:
                out.append(f"{kind}:{i}")
    if occupied:
        out.extend(f"bc:{bc}" for bc, s in st.players[seat]["occupied"].items() if len(s) >= min_size)
    return out


def _deployed(st: GameState, seat: str) -> list[str]:
    out: list[str] = []
    for kind in KINDS:
        for s in st.players[seat]["stacks"][kind]:
            out.extend(s)
    for s in st.players[seat]["occupied"].values():
        out.extend(s)
    return out


def _remove_deployed(st: GameState, seat: str, cid: str) -> bool:
    p = st.players[seat]
    for s in p["occupied"].values():
        if cid in s:
            s.remove(cid)
            return True
    d = st.defs[cid]
    stacks = p["stacks"]
    lst = stacks.get(d.kind) if isinstance(d, ArsenalCardDef) else None
    if lst is not None:  # a card sits in a stack of its own kind: look there first
        for i, s in enumerate(lst):
            if cid in s:
                s.remove(cid)
                if not s and len(lst) > 1:
                    del lst[i]  # C1: a divided stack ends when it is completely destroyed
                return True
    for lst in stacks.values():
        for i, s in enumerate(lst):
            if cid in s:
                s.remove(cid)
                if not s and len(lst) > 1:
                    del lst[i]  # C1: a divided stack ends when it is completely destroyed
                return True
    return False


def _kept_with(st: GameState, seat: str, effects: frozenset[str] | set[str]) -> list[str]:
    return [c for c in st.players[seat]["kept"] if st.defs[c].effect in effects]


def _battle(st: GameState) -> dict[str, Any] | None:
    for fr in reversed(st.frames):
        if fr["kind"] == "battle":
            return fr
    return None


def _destroy(st: GameState, holder: str, cid: str, cause: str) -> None:
    """A deployed unit is destroyed: to its OWNER's arsenal discard (C5)."""
    _remove_deployed(st, holder, cid)
    st.players[st.owner[cid]]["discard"].append(cid)
    fr = _battle(st)
    if fr is not None:
        _leave_battle(st, fr, holder, cid)
    if st.record_events:
        _ev(st, "destroyed", {"seat": holder, "card": cid, "code": st.code[cid], "cause": cause})


def _leave_battle(st: GameState, fr: dict[str, Any], seat: str, cid: str) -> None:
    units = fr["units"][seat]
    if cid in units:
        units.remove(cid)
    present = fr["present"][seat]
    if cid in present:
        present.remove(cid)
    affected: set[str] = set()
    if fr["supports"]:
        # GP7: support vanishes the moment its source (or recipient) leaves
        affected = {s[1] for s in fr["supports"] if s[0] == cid}
        fr["supports"] = [s for s in fr["supports"] if s[0] != cid and s[1] != cid]
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        return
    ab = st.abil[cid]
    if "general_aura" in ab or "radar" in ab:
        _touch(st)
        return
    vals.umemo[seat].clear()
    vals.ftargets[seat].pop(cid, None)  # cid as a shooter
    vals.fkeys[seat].pop(cid, None)
    vals.gone[seat].append(cid)  # cid as a target: dropped from the enemy's target lists (_fire_targets)
    for table in (vals.side, vals.A, vals.D, vals.sup):
        table.pop(cid, None)
    for r in affected:
        if r in vals.side:
            vals.sup[r] = [s for s in vals.sup.get(r, ()) if s[0] != cid]
            vals.refresh(r)


def _industry_extra(st: GameState, seat: str) -> int:
    p = st.players[seat]
    extra = sum(st.defs[c].param("extra", 0) for c in p["industry"])
    for cid in _deployed(st, seat):
        ab = st.abil[cid].get("industry")
        if ab is not None:
            extra += ab.get("extra")
    return extra


def _has_ability_deployed(st: GameState, seat: str, kind: str) -> bool:
    return any(kind in st.abil[c] for c in _deployed(st, seat))


def _prereqs_met(st: GameState, bc: str) -> bool:
    """FAQ CA3: each prerequisite names who must hold which battlecard, whoever attacks."""
    for pr in st.defs[bc].prerequisites:
        seat = pr.holder if pr.holder in SEATS else st.side_of_nation(pr.holder)
        if seat is None:
            return False
        if not any(st.code[w] == pr.battlecard for w in st.players[seat]["won"]):
            return False
    return True


def _stated_aggressor(st: GameState, bc: str) -> str | None:
    agg = st.defs[bc].aggressor
    if agg == "drawing-player":
        return None
    return st.side_of_nation(agg)


# ---------------------------------------------------------------------------------------------
# the machine
# ---------------------------------------------------------------------------------------------
def advance(st: GameState) -> None:
    st._legal_cache = None
    while st.status == "active":
        fr = st.frames[-1]
        kind = fr["kind"]
        d = BATTLE_STAGES[fr["stage"]](st, fr) if kind == "battle" else STEP[kind](st, fr)
        if d is not None:
            st.decision = d
            return
    st.decision = None


def legal_keys(st: GameState) -> list[tuple]:
    """The legal actions as keys (type, seat, *fields); cached until the next action."""
    if st.decision is None:
        return []
    cache = st._legal_cache
    if cache is not None and cache[0] == st.ply:
        return cache[1]
    keys = LEGAL[st.decision.kind](st, st.frames[-1])
    st._legal_cache = (st.ply, keys, None)
    return keys


def legal_actions(st: GameState) -> list[Action]:
    return [materialize(k) for k in legal_keys(st)]


_ACTIONS: dict[tuple, Action] = {}  # actions are immutable values: one object per key, reused


def materialize(key: tuple) -> Action:
    action = _ACTIONS.get(key)
    if action is None:
        if len(_ACTIONS) >= 100_000:
            _ACTIONS.clear()
        action = _ACTIONS[key] = ACTION_TYPES[key[0]](*key[1:])
    return action


def apply(st: GameState, action: Action) -> list[Event]:
    """Validate `action`, then apply it. On any error the state is unchanged."""
    if isinstance(action, dict):
        action = Action.from_json(action)
    if not isinstance(action, Action):
        raise MalformedAction("not an action")
    if st.status != "active" or st.decision is None:
        raise IllegalAction("the game is over", code="game_over")
    if action.seat != st.decision.seat:
        raise IllegalAction(f"it is {st.decision.seat}'s decision", code="not_your_turn")
    if action.key() not in legal_keys(st):
        raise IllegalAction(f"{action} is not legal now ({st.decision.kind})")
    return apply_legal(st, action)


def apply_legal(st: GameState, action: Action) -> list[Event]:
    """Apply an action taken as-is from legal_actions(st) for the current decision, without checking it
    again (self-play loops). Anything else must go through apply()."""
    st._events = []
    ACT[st.decision.kind](st, st.frames[-1], action)
    st.ply += 1
    advance(st)
    events = st._events
    st._events = []
    return events


def _finish(st: GameState, winner: str | None, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {"kind": kind, "points": {seat: st.vp(seat) for seat in SEATS}, "turns": st.turn}
    st.frames = []
    st.decision = None
    if st.record_events:
        _ev(st, "game_over", {"winner": winner, **st.result})


def _finish_on_points(st: GameState, kind: str) -> None:
    a, b = st.vp("axis"), st.vp("allies")
    _finish(st, "axis" if a > b else "allies" if b > a else None, kind)


def _check_victory(st: GameState, first: str) -> bool:
    for seat in (first, OTHER[first]):
        enemy_nation = st.players[OTHER[seat]]["nation"]
        for w in st.players[seat]["won"]:
            if st.defs[w].homeland_of == enemy_nation:
                _finish(st, seat, "total")
                return True
    for seat in (first, OTHER[first]):
        if st.vp(seat) >= st.vp_threshold > 0:
            _finish(st, seat, "standard")
            return True
    return False


# ---- game / turn ------------------------------------------------------------------------------
def step_game(st: GameState, fr: dict) -> Decision | None:
    players = st.players
    held = len(players["axis"]["won"]) + len(players["allies"]["won"])
    total = st.n_battlecards
    if st.turn and total and held >= total:
        _finish_on_points(st, "all-battles-decided")
        return None
    if st.turn >= st.setup.options.max_turns:
        _finish_on_points(st, "turn-limit")
        return None
    seat = fr["next"]
    fr["next"] = OTHER[seat]
    st.turn += 1
    st.active_seat = seat
    st.frames.append({"kind": "turn", "seat": seat, "stage": "start"})
    if st.record_events:
        _ev(st, "turn_started", {"turn": st.turn, "seat": seat})
    return None


def step_turn(st: GameState, fr: dict) -> Decision | None:
    if fr["stage"] == "start":
        return Decision(fr["seat"], "turn_start", {"turn": st.turn})
    st.frames.pop()
    return None


def legal_turn_start(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    enemy = OTHER[seat]
    p = st.players[seat]
    acts: list[tuple] = [KDraw(seat)]
    if p["hand"]:
        acts.append(KEmergencyDeploy(seat))
    if st.setup.options.occupying_force and _can_transfer(st, seat):
        acts.append(KChoose(seat, "transfer"))  # Optional Rule 5.4: between any two stacks
    enemy_ic = bool(st.players[enemy]["industry"])
    for cid in p["kept"]:
        eff = st.defs[cid].effect
        if eff == "counterattack":
            for bc in st.players[enemy]["won"]:
                if _prereqs_met(st, bc):
                    acts.append(KPlayCard(seat, cid, target=bc))
        elif eff in ("pre-emptive-strike", "industrial-complex"):
            acts.append(KPlayCard(seat, cid))
        elif eff == "air-raid":
            acts.append(KPlayCard(seat, cid, option="battle"))
            if enemy_ic:
                acts.append(KPlayCard(seat, cid, option="industry"))
        elif eff == "industrial-strike":
            if enemy_ic:
                acts.append(KPlayCard(seat, cid))
        elif eff == "sabotage":
            acts.append(KPlayCard(seat, cid, option="general"))
            acts.append(KPlayCard(seat, cid, option="leader"))
            if enemy_ic:
                acts.append(KPlayCard(seat, cid, option="industry"))
    return acts


def _discard_kept(st: GameState, seat: str, cid: str) -> None:
    st.players[seat]["kept"].remove(cid)
    st.conflict_discard.append(cid)
    if st.record_events:
        _ev(st, "card_played", {"seat": seat, "card": cid, "code": st.code[cid]})


def _destroy_industry(st: GameState, seat: str) -> None:
    ic = st.players[seat]["industry"].pop(0)
    st.conflict_discard.append(ic)
    if st.record_events:
        _ev(st, "industry_destroyed", {"seat": seat, "card": ic, "code": st.code[ic]})


def act_turn_start(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    enemy = OTHER[seat]
    if isinstance(a, Draw):
        fr["stage"] = "end"
        cid = _flip_conflict(st)
        if cid is None:
            if st.record_events:
                _ev(st, "conflict_deck_empty", {})
            return
        _push_card(st, seat, cid)
    elif isinstance(a, Choose):  # Optional Rule 5.4: transfer up to 3 cards instead of drawing
        fr["stage"] = "end"
        st.frames.append({"kind": "transfer", "seat": seat, "moved": 0, "src": None, "dst": None})
    elif isinstance(a, EmergencyDeploy):
        fr["stage"] = "end"
        if st.record_events:
            _ev(st, "emergency_deploy", {"seat": seat, "cards": len(st.players[seat]["hand"])})
        st.frames.append(_deploy_frame(seat, len(st.players[seat]["hand"]), None, "emergency"))
    elif isinstance(a, PlayCard):
        eff = st.defs[a.card].effect
        if eff != "industrial-complex":
            _discard_kept(st, seat, a.card)
        if eff == "counterattack":
            fr["stage"] = "end"
            st.frames.append({"kind": "battlecard", "seat": seat, "card": a.target, "stage": "emergency",
                              "aggressor": seat, "counter": True, "pre": False})
            if st.record_events:
                _ev(st, "counterattack", {"seat": seat, "battlecard": a.target, "code": st.code[a.target]})
        elif eff == "pre-emptive-strike":
            fr["stage"] = "end"
            limit = len(st.conflict_deck) + len(st.conflict_discard) + 1
            for _ in range(limit):
                cid = _flip_conflict(st)
                if cid is None:
                    break
                if isinstance(st.defs[cid], BattlecardDef):
                    if st.record_events:
                        _ev(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
                    st.frames.append({"kind": "battlecard", "seat": seat, "card": cid, "stage": "check",
                                      "aggressor": seat, "counter": False, "pre": True})
                    break
                st.conflict_discard.append(cid)
                if st.record_events:
                    _ev(st, "conflict_turned", {"card": cid, "code": st.code[cid]})
        elif eff == "air-raid":
            if a.option == "industry":
                _destroy_industry(st, enemy)  # C18: at any time, not in lieu of drawing
            else:
                fr["stage"] = "end"
                st.frames.append(_battle_frame(st, card=None, aggressor=seat, mode="air_raid",
                                               counter=False))
        elif eff == "industrial-complex":
            st.players[seat]["kept"].remove(a.card)
            st.players[seat]["industry"].append(a.card)
            if st.record_events:
                _ev(st, "industry_built", {"seat": seat, "card": a.card, "code": st.code[a.card]})
        elif eff == "industrial-strike":
            _destroy_industry(st, enemy)
        elif eff == "sabotage":
            if a.option == "industry":
                _destroy_industry(st, enemy)
            else:
                st.frames.append({"kind": "sabotage", "seat": enemy, "cls": a.option})


# ---- Optional Rule 5.4: transfer between stacks -------------------------------------------------
def _ref_of(st: GameState, seat: str, cid: str) -> str | None:
    for bc, s in st.players[seat]["occupied"].items():
        if cid in s:
            return f"bc:{bc}"
    for kind in KINDS:
        for i, s in enumerate(st.players[seat]["stacks"][kind]):
            if cid in s:
                return f"{kind}:{i}"
    return None


def _can_transfer(st: GameState, seat: str) -> bool:
    """Is there a transfer move (bool(_transfer_moves(st, seat, None, None)), without building them)?"""
    p = st.players[seat]
    if any(p["occupied"].values()):
        return True  # a card under a battlecard may always go back to the usual stack of its kind
    for kind, lst in p["stacks"].items():
        if any(lst) and (len(lst) > 1
                         or any(getattr(st.defs[bc].aggressor_forces, kind) for bc in p["occupied"])):
            return True  # another stack of the kind (divided), or a battlecard calling for it
    return False


def _transfer_moves(st: GameState, seat: str, src: str | None, dst: str | None) -> list[tuple]:
    acts: list[tuple] = []
    for c in (_stack(st, seat, src) or []) if src else _deployed(st, seat):
        here = src or _ref_of(st, seat, c)
        for a in _deploy_options(st, seat, [c]):
            if a[3] != here and (dst is None or a[3] == dst):
                acts.append(a)
    return acts


def step_transfer(st: GameState, fr: dict) -> Decision | None:
    if fr["moved"] >= 3 or (fr["moved"] and not _transfer_moves(st, fr["seat"], fr["src"], fr["dst"])):
        st.frames.pop()
        return None
    return Decision(fr["seat"], "transfer", {"moved": fr["moved"], "from": fr["src"], "to": fr["dst"]})


def legal_transfer(st: GameState, fr: dict) -> list[tuple]:
    return [KPass(fr["seat"])] + _transfer_moves(st, fr["seat"], fr["src"], fr["dst"])


def act_transfer(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        st.frames.pop()
        return
    seat = a.seat
    if fr["src"] is None:
        fr["src"] = _ref_of(st, seat, a.card)
        fr["dst"] = a.stack
    _stack(st, seat, fr["src"]).remove(a.card)
    _stack(st, seat, a.stack).append(a.card)
    fr["moved"] += 1
    if st.record_events:
        _ev(st, "transferred", {"seat": seat, "from": fr["src"], "to": a.stack})


# ---- sabotage of a general / leader (FAQ G4) -----------------------------------------------------
def step_sabotage(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    cands = [c for c in _deployed(st, seat) if fr["cls"] in st.defs[c].classes]
    if cands:  # asked even with one candidate, so the question does not tell how many he has
        return Decision(seat, "sabotage_victim", {"class": fr["cls"]})
    st.frames.pop()
    if st.record_events:
        _ev(st, "sabotage_no_target", {"seat": seat, "class": fr["cls"]})
    return None


def legal_sabotage_victim(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    return [KChoose(seat, c) for c in _deployed(st, seat) if fr["cls"] in st.defs[c].classes]


def act_sabotage_victim(st: GameState, fr: dict, a: Action) -> None:
    st.frames.pop()
    _destroy(st, fr["seat"], a.option, "sabotage")


# ---- deploying ---------------------------------------------------------------------------------
def _deploy_frame(seat: str, count: int, cards: list[str] | None, reason: str) -> dict:
    return {"kind": "deploy", "seat": seat, "count": count, "cards": cards, "reason": reason}


def _deploy_options(st: GameState, seat: str, cands: list[str]) -> list[tuple]:
    stacks = st.players[seat]["stacks"]
    occupied = st.players[seat]["occupied"]
    acts: list[tuple] = []
    for c in cands:
        kind = st.defs[c].kind
        for i in range(len(stacks[kind])):
            acts.append(KDeploy(seat, c, f"{kind}:{i}"))
        for bc in occupied:  # Optional Rule 5.2: unit types the battlecard calls for
            if getattr(st.defs[bc].aggressor_forces, kind):
                acts.append(KDeploy(seat, c, f"bc:{bc}"))
    return acts


def _deploy_candidates(st: GameState, fr: dict) -> list[str]:
    hand = st.players[fr["seat"]]["hand"]
    if fr["cards"] is None:
        return list(hand)
    return [c for c in fr["cards"] if c in hand]


def step_deploy(st: GameState, fr: dict) -> Decision | None:
    cands = _deploy_candidates(st, fr) if fr["count"] > 0 else []
    if not cands:
        st.frames.pop()
        return None
    seat = fr["seat"]
    forced = len(cands) <= fr["count"] and not st.players[seat]["occupied"]
    if forced:
        stacks = st.players[seat]["stacks"]
        if all(len(stacks[st.defs[c].kind]) == 1 for c in cands):
            c = cands[0]
            _do_deploy(st, fr, seat, c, f"{st.defs[c].kind}:0")
            return None
    kind = "initial_deploy" if fr["reason"] == "initial" else "deploy"
    return Decision(seat, kind, {"count": fr["count"], "reason": fr["reason"]})


def legal_deploy(st: GameState, fr: dict) -> list[tuple]:
    return _deploy_options(st, fr["seat"], _deploy_candidates(st, fr))


def _do_deploy(st: GameState, fr: dict | None, seat: str, cid: str, ref: str) -> None:
    p = st.players[seat]
    p["hand"].remove(cid)
    _stack(st, seat, ref).append(cid)  # type: ignore[union-attr]
    if fr is not None and fr["kind"] == "deploy":
        fr["count"] -= 1
    if st.record_events:
        _ev(st, "deployed", {"seat": seat, "stack": ref})
    if st.record_events:
        _ev(st, "deployed_card", {"seat": seat, "stack": ref, "card": cid, "code": st.code[cid]}, seat)
    if "v2_rocket" in st.abil[cid]:
        st.frames.append({"kind": "v2", "seat": seat, "card": cid, "stage": "start"})


def act_deploy(st: GameState, fr: dict, a: Action) -> None:
    _do_deploy(st, fr, a.seat, a.card, a.stack)


# ---- V-2 rocket (Rules update 1.2; FAQ C9) -------------------------------------------------------
_A_BOMB = frozenset({"a-bomb"})


def _abombs(st: GameState, seat: str) -> list[str]:
    return _kept_with(st, seat, _A_BOMB)


def step_v2(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    enemy = OTHER[seat]
    if fr["stage"] == "start":
        # asked whenever the owner holds any kept card, so the question itself reveals nothing
        if st.players[seat]["kept"] and _nonempty_refs(st, enemy):
            return Decision(seat, "v2_effect", {"card": fr["card"]})
        _v2_effect(st, seat)
        fr["stage"] = "replace"
        return None
    # the rocket is spent: discard it and draw a replacement, deployed at once
    _remove_deployed(st, seat, fr["card"])
    st.players[st.owner[fr["card"]]]["discard"].append(fr["card"])
    st.frames.pop()
    new = _draw_arsenal(st, seat)
    if new is None:
        return None
    if "v2_rocket" in st.abil[new]:
        # R1.2: a V-2 drawn to replace a V-2 is discarded with no effect and no replacement
        st.players[seat]["discard"].append(new)
        if st.record_events:
            _ev(st, "v2_rule_1_2", {"seat": seat, "card": new, "code": st.code[new]})
        return None
    st.players[seat]["hand"].append(new)
    if st.record_events:
        _ev(st, "drawn", {"seat": seat, "count": 1})
    st.frames.append(_deploy_frame(seat, 1, [new], "v2"))
    return None


def _v2_effect(st: GameState, seat: str) -> None:
    enemy = OTHER[seat]
    top = _draw_arsenal(st, enemy)
    if top is None:
        if st.record_events:
            _ev(st, "v2_no_effect", {"seat": seat})
        return
    st.players[enemy]["removed"].append(top)
    if st.record_events:
        _ev(st, "v2_hit", {"seat": seat, "removed": top, "code": st.code[top]})


def legal_v2_effect(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    acts: list[tuple] = [KChoose(seat, "v2")]
    for bomb in _abombs(st, seat):
        for ref in _nonempty_refs(st, OTHER[seat]):
            acts.append(KPlayCard(seat, bomb, target=ref))
    return acts


def act_v2_effect(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, PlayCard):
        _a_bomb(st, a.seat, a.card, a.target)  # C9: the A-bomb in place of the V-2's effect
    else:
        _v2_effect(st, a.seat)
    fr["stage"] = "replace"


def _a_bomb(st: GameState, seat: str, card: str, ref: str) -> None:
    """G6, C8-C10: every card in the stack, leaders and generals included, is destroyed (discarded)."""
    enemy = OTHER[seat]
    _discard_kept(st, seat, card)
    stack = _stack(st, enemy, ref)
    if st.record_events:
        _ev(st, "a_bomb", {"seat": seat, "stack": ref, "cards": [[c, st.code[c]] for c in stack]})
    for cid in list(stack):
        _destroy(st, enemy, cid, "a-bomb")


# ---- a drawn conflict card ---------------------------------------------------------------------
def _push_card(st: GameState, seat: str, cid: str) -> None:
    d = st.defs[cid]
    if isinstance(d, BattlecardDef):
        if st.record_events:
            _ev(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
        st.frames.append({"kind": "battlecard", "seat": seat, "card": cid, "stage": "check",
                          "aggressor": seat, "counter": False, "pre": False})
        return
    if d.effect in KEPT_EFFECTS:
        st.players[seat]["kept"].append(cid)
        if st.record_events:
            _ev(st, "card_kept", {"seat": seat})
        if st.record_events:
            _ev(st, "card_kept_private", {"seat": seat, "card": cid, "code": st.code[cid]}, seat)
        return
    if st.record_events:
        _ev(st, "conflict_drawn", {"seat": seat, "card": cid, "code": st.code[cid]})
    st.conflict_discard.append(cid)
    eff = d.effect
    p = st.players[seat]
    if eff == "build-up":
        n = d.param("draw", 0) + _industry_extra(st, seat)
        drawn = _draw_n(st, seat, n)
        st.frames.append(_deploy_frame(seat, min(drawn, d.param("deploy", 0) + (n - d.param("draw", 0))),
                                       None, "build-up"))
    elif eff == "replenish":
        if not p["hand"]:
            _draw_n(st, seat, d.param("draw", 3))
        elif _draw_n(st, seat, 1):
            st.frames.append(_deploy_frame(seat, 1, None, "replenish"))
    elif eff == "divide-and-conquer":
        st.frames.append({"kind": "divide", "seat": seat, "stage": "choose"})
    elif eff == "reorganize-forces":
        st.frames.append({"kind": "reorganize", "seat": seat, "stage": "choose"})
    elif eff == "capture":
        st.frames.append({"kind": "capture", "seat": seat, "stage": "browse"})


def _draw_n(st: GameState, seat: str, n: int) -> int:
    got = 0
    hand = st.players[seat]["hand"]
    for _ in range(n):
        cid = _draw_arsenal(st, seat)
        if cid is None:
            break
        hand.append(cid)
        got += 1
        if st.record_events:
            _ev(st, "drawn_card", {"seat": seat, "card": cid, "code": st.code[cid]}, seat)
    if got and st.record_events:
        _ev(st, "drawn", {"seat": seat, "count": got})
    return got


# ---- Divide & Conquer (C1, C2) ------------------------------------------------------------------
def step_divide(st: GameState, fr: dict) -> Decision | None:
    if fr["stage"] == "choose":
        if not _nonempty_refs(st, OTHER[fr["seat"]], 2, occupied=False):
            st.frames.pop()
            return None
        return Decision(fr["seat"], "divide_choose", {})
    if fr["need"] <= 0:
        st.frames.pop()
        return None
    return Decision(OTHER[fr["seat"]], "divide_stack", {"stack": fr["src"], "new_stack": fr["dst"],
                                                        "remaining": fr["need"]})


def legal_divide_choose(st: GameState, fr: dict) -> list[tuple]:
    return [KChoose(fr["seat"], ref) for ref in _nonempty_refs(st, OTHER[fr["seat"]], 2, occupied=False)]


def act_divide_choose(st: GameState, fr: dict, a: Action) -> None:
    enemy = OTHER[fr["seat"]]
    kind = a.option.split(":")[0]
    stacks = st.players[enemy]["stacks"][kind]
    src = _stack(st, enemy, a.option)
    stacks.append([])
    fr.update(stage="split", src=a.option, dst=f"{kind}:{len(stacks) - 1}", need=len(src) // 2)
    if st.record_events:
        _ev(st, "divide", {"seat": enemy, "stack": a.option, "new_stack": fr["dst"]})


def legal_divide_stack(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["seat"]]
    return [KSplit(seat, c) for c in _stack(st, seat, fr["src"])]


def act_divide_stack(st: GameState, fr: dict, a: Action) -> None:
    seat = a.seat
    _stack(st, seat, fr["src"]).remove(a.card)
    _stack(st, seat, fr["dst"]).append(a.card)
    fr["need"] -= 1


# ---- Reorganize Forces (C3, C4) -------------------------------------------------------------------
def step_reorganize(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    if fr["stage"] == "choose":
        return Decision(seat, "reorganize", {"hand": len(st.players[seat]["hand"])})
    return Decision(seat, "reorganize_swap", {"hand_size": fr["size"], "moves_left": fr["max"] - fr["moves"]})


def legal_reorganize(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    if st.players[seat]["hand"]:
        return [KChoose(seat, "swap"), KChoose(seat, "discard_draw")]
    return [KChoose(seat, "draw")]


def act_reorganize(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    p = st.players[seat]
    if a.option == "swap":
        fr.update(stage="swap", size=len(p["hand"]), moves=0, max=len(p["hand"]) + len(_deployed(st, seat)))
        return
    if a.option == "discard_draw":
        players, owner = st.players, st.owner
        for c in p["hand"]:
            # C5: a captured card (in the hand after a Reorganize swap) goes to its OWNER's discard
            players[owner[c]]["discard"].append(c)
        if st.record_events:
            _ev(st, "hand_discarded", {"seat": seat, "cards": [[c, st.code[c]] for c in p["hand"]]})
        p["hand"] = []
    _draw_n(st, seat, 3)
    st.frames.pop()


def legal_reorganize_swap(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    hand = st.players[seat]["hand"]
    acts: list[tuple] = []
    if len(hand) == fr["size"]:
        acts.append(KPass(seat))
    if len(hand) > fr["size"]:
        acts.extend(_deploy_options(st, seat, hand))
    if fr["moves"] < fr["max"]:
        acts.extend(KRetrieve(seat, c) for c in _deployed(st, seat))
    return acts


def act_reorganize_swap(st: GameState, fr: dict, a: Action) -> None:
    seat = fr["seat"]
    if isinstance(a, Pass):
        st.frames.pop()
    elif isinstance(a, Retrieve):
        _remove_deployed(st, seat, a.card)
        st.players[seat]["hand"].append(a.card)
        fr["moves"] += 1
        if st.record_events:
            _ev(st, "retrieved", {"seat": seat})
    else:
        _do_deploy(st, fr, seat, a.card, a.stack)


# ---- Capture (C5, C7) ----------------------------------------------------------------------------
def step_capture(st: GameState, fr: dict) -> Decision | None:
    seat = fr["seat"]
    if fr["stage"] == "browse":
        if not _nonempty_refs(st, OTHER[seat]):
            st.frames.pop()
            return None
        return Decision(seat, "capture_browse", {})
    stack = _stack(st, OTHER[seat], fr["ref"]) or []
    return Decision(seat, "capture_pick", {"stack": fr["ref"], "cards": [
        {"id": c, "code": st.code[c]} for c in stack]})


def legal_capture_browse(st: GameState, fr: dict) -> list[tuple]:
    return [KChoose(fr["seat"], ref) for ref in _nonempty_refs(st, OTHER[fr["seat"]])]


def act_capture_browse(st: GameState, fr: dict, a: Action) -> None:
    fr.update(stage="pick", ref=a.option)
    if st.record_events:
        _ev(st, "capture_browse", {"seat": a.seat, "stack": a.option})


def legal_capture_pick(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["seat"]
    stacks = st.players[seat]["stacks"]
    acts: list[tuple] = []
    for c in _stack(st, OTHER[seat], fr["ref"]) or []:
        kind = st.defs[c].kind
        acts.extend(KTake(seat, c, f"{kind}:{i}") for i in range(len(stacks[kind])))
    return acts


def act_capture_pick(st: GameState, fr: dict, a: Action) -> None:
    enemy = OTHER[a.seat]
    _remove_deployed(st, enemy, a.card)
    _stack(st, a.seat, a.stack).append(a.card)
    st.frames.pop()
    _ev(st, "captured", {"seat": a.seat, "from": enemy, "card": a.card, "code": st.code[a.card],
                         "stack": a.stack})


# ---- a battlecard comes up -----------------------------------------------------------------------
def step_battlecard(st: GameState, fr: dict) -> Decision | None:
    stage = fr["stage"]
    card = fr["card"]
    drawer = fr["seat"]
    if stage == "check":
        if not _prereqs_met(st, card):
            st.conflict_discard.append(card)
            st.frames.pop()
            if st.record_events:
                _ev(st, "battle_prerequisites_unmet", {"card": card, "code": st.code[card]})
            return None
        fr["aggressor"] = _stated_aggressor(st, card) or drawer
        fr["stage"] = "pre" if fr["pre"] and fr["aggressor"] != drawer else "aggr"
        return None
    if stage == "pre":  # C6, C16: the pre-emptive player may always decline
        return Decision(drawer, "preemptive_choice", {"battlecard": card, "code": st.code[card]})
    if stage == "aggr":  # R1.1 aggressor's prerogative, before forces are revealed
        return Decision(fr["aggressor"], "fight_or_decline", {"battlecard": card, "code": st.code[card]})
    defender = OTHER[fr["aggressor"]]
    if stage == "respond":
        if st.players[defender]["kept"]:  # any kept card: whether one can respond stays secret
            return Decision(defender, "battlecard_response", {"battlecard": card, "code": st.code[card]})
        fr["stage"] = "emergency"
        return None
    if stage == "emergency":
        d = st.defs[card]
        if (d.emergency_deployment and st.players[defender]["hand"]
                and d.homeland_of in (None, st.players[defender]["nation"])):
            return Decision(defender, "emergency_deploy", {"battlecard": card, "code": st.code[card]})
        fr["stage"] = "battle"
        return None
    st.frames[-1] = _battle_frame(st, card=card, aggressor=fr["aggressor"], mode="battle",
                                  counter=fr["counter"])
    return None


def legal_fight_or_decline(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["aggressor"] if fr["stage"] == "aggr" else fr["seat"]
    return [KChoose(seat, "fight"), KChoose(seat, "decline")]


def act_fight_or_decline(st: GameState, fr: dict, a: Action) -> None:
    if a.option == "decline":
        st.conflict_discard.append(fr["card"])
        st.frames.pop()
        if st.record_events:
            _ev(st, "battle_declined", {"seat": a.seat, "card": fr["card"], "code": st.code[fr["card"]]})
    else:
        fr["stage"] = "aggr" if fr["stage"] == "pre" else "respond"


def legal_battlecard_response(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["aggressor"]]
    return [KPass(seat)] + [KPlayCard(seat, c) for c in _kept_with(st, seat, RESPONSE_EFFECTS)]


def act_battlecard_response(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        fr["stage"] = "emergency"
        return
    _discard_kept(st, a.seat, a.card)
    card = fr["card"]
    st.frames.pop()
    if st.defs[a.card].effect == "delay-tactics":
        st.conflict_deck.insert(st.rng.randrange(len(st.conflict_deck) + 1), card)
        if st.record_events:
            _ev(st, "delay_tactics", {"seat": a.seat, "card": card, "code": st.code[card]})
        return
    # misinformation: the battlecard is discarded, the next card is drawn; the drawing player stays (C20)
    st.conflict_discard.append(card)
    if st.record_events:
        _ev(st, "misinformation", {"seat": a.seat, "card": card, "code": st.code[card]})
    nxt = _flip_conflict(st)
    if nxt is not None:
        _push_card(st, fr["seat"], nxt)


def legal_emergency_deploy(st: GameState, fr: dict) -> list[tuple]:
    seat = OTHER[fr["aggressor"]]
    return [KEmergencyDeploy(seat), KPass(seat)]


def act_emergency_deploy(st: GameState, fr: dict, a: Action) -> None:
    fr["stage"] = "battle"
    if isinstance(a, EmergencyDeploy):
        hand = st.players[a.seat]["hand"]
        if st.record_events:
            _ev(st, "emergency_deploy", {"seat": a.seat, "cards": len(hand)})
        st.frames.append(_deploy_frame(a.seat, len(hand), None, "emergency"))


# ---------------------------------------------------------------------------------------------
# battles
# ---------------------------------------------------------------------------------------------
def _battle_frame(st: GameState, *, card: str | None, aggressor: str, mode: str, counter: bool) -> dict:
    defender = OTHER[aggressor]
    if mode == "battle":
        d = st.defs[card]
        forces = {aggressor: d.aggressor_forces, defender: d.defender_forces}
        special = d.special_victory
    else:
        forces = {aggressor: AIR_RAID, defender: AIR_RAID}
        special = None
    return {
        "kind": "battle", "mode": mode, "card": card, "aggressor": aggressor, "defender": defender,
        "counter": counter, "special": special, "stage": "optional",
        "kinds": {s: list(forces[s].kinds()) for s in SEATS},
        "opt_classes": {s: list(forces[s].optional_ground_classes) for s in SEATS},
        "need_infantry_free": {s: forces[s].non_artillery_ground_required for s in SEATS},
        "include": dict.fromkeys(SEATS, False), "asked": [],
        "units": {s: [] for s in SEATS}, "present": {s: [] for s in SEATS},
        "withdrawn": {s: [] for s in SEATS},
        "round": 1, "phase": 0, "side": 0, "done": [], "shots": {}, "fired": [], "supports": [],
        "carrier_used": {}, "intel": dict.fromkeys(SEATS, False), "intel_played": dict.fromkeys(SEATS, False),
        "chem": dict.fromkeys(SEATS, 0), "codebreak": dict.fromkeys(SEATS, 0), "had_ground": False,
        "shot": None, "sub_wd": None, "sab_queue": [], "p0": False, "winner": None, "p2_passed": [],
    }


def _occupied_defense(st: GameState, fr: dict, seat: str) -> bool:
    return fr["counter"] and seat == fr["defender"] and fr["card"] in st.players[seat]["occupied"]


def _optional_units(st: GameState, fr: dict, seat: str) -> list[str]:
    """C7, C12, GP5: classes a battlecard makes optional, and radar in battles without ground forces
    (Optional Rule 5.3: radar may also help defend an occupied battlecard)."""
    occupied = _occupied_defense(st, fr, seat)
    if "ground" in fr["kinds"][seat] and not occupied:
        return []
    classes = () if occupied else fr["opt_classes"][seat]
    out = []
    for s in st.players[seat]["stacks"]["ground"]:
        for c in s:
            d = st.defs[c]
            if "radar" in st.abil[c] or any(cl in d.classes for cl in classes):
                out.append(c)
    return out


def _present(st: GameState, fr: dict, seat: str) -> list[str]:
    if _occupied_defense(st, fr, seat):  # Optional Rule 5.3: only the units under the battlecard
        out = list(st.players[seat]["occupied"][fr["card"]])
        if fr["include"][seat]:
            out.extend(_optional_units(st, fr, seat))
        return out
    stacks = st.players[seat]["stacks"]
    out: list[str] = []
    for kind in fr["kinds"][seat]:
        for s in stacks[kind]:
            out.extend(s)
    if fr["include"][seat]:
        out.extend(_optional_units(st, fr, seat))
    return out


def _has_forces(st: GameState, fr: dict, seat: str, present: list[str]) -> bool:
    unit_ids = st.unit_ids
    units = [c for c in present if c in unit_ids]
    if not units:
        return False
    if fr["need_infantry_free"][seat]:
        # GU3: a non-artillery ground unit (not a leader, radar or special device) is needed to start
        return any(
            st.defs[c].kind == "ground" and not st.defs[c].is_artillery
            and "special" not in st.defs[c].classes and "radar" not in st.abil[c]
            for c in units
        )
    return True


def step_battle(st: GameState, fr: dict) -> Decision | None:
    return BATTLE_STAGES[fr["stage"]](st, fr)


def _stage_optional(st: GameState, fr: dict) -> Decision | None:
    for seat in (fr["aggressor"], fr["defender"]):
        # asked on public facts (a non-empty ground stack): what the stack holds stays secret
        optional = "ground" not in fr["kinds"][seat] or _occupied_defense(st, fr, seat)
        if seat not in fr["asked"] and optional and any(st.players[seat]["stacks"]["ground"]):
            fr["asking"] = seat
            return Decision(seat, "commit_optional", {"classes": fr["opt_classes"][seat] + ["radar"]})
    fr["stage"] = "check"
    return None


def legal_commit_optional(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["asking"]
    return [KChoose(seat, "include"), KChoose(seat, "exclude")]


def act_commit_optional(st: GameState, fr: dict, a: Action) -> None:
    fr["asked"].append(a.seat)
    fr["include"][a.seat] = a.option == "include"


def _stage_check(st: GameState, fr: dict) -> Decision | None:
    agg, dfd = fr["aggressor"], fr["defender"]
    has = {s: _has_forces(st, fr, s, _present(st, fr, s)) for s in SEATS}
    if not has[agg] or not has[dfd]:
        if not has[agg] and not has[dfd]:
            if st.record_events:
                _ev(st, "battle_ignored", {"card": fr["card"]})
            fr["winner"] = None
            fr["stage"] = "settle"
            fr["ignored"] = True
            return None
        fr["winner"] = agg if has[agg] else dfd
        if fr["mode"] == "air_raid":
            fr["winner"] = None
        if st.record_events:
            _ev(st, "battle_uncontested", {"card": fr["card"], "winner": fr["winner"]})
        fr["stage"] = "settle"
        return None
    fr["stage"] = "leaders"
    _reveal(st, fr)
    return None


def _reveal(st: GameState, fr: dict) -> None:
    _touch(st)
    for seat in SEATS:
        fr["present"][seat] = _present(st, fr, seat)
    _ev(st, "battle_revealed", {
        "card": fr["card"], "code": st.code.get(fr["card"]) if fr["card"] else None, "mode": fr["mode"],
        "aggressor": fr["aggressor"],
        "forces": {s: [[c, st.code[c]] for c in fr["present"][s]] for s in SEATS},
    })


def _stage_leaders(st: GameState, fr: dict) -> Decision | None:
    """G5, C15: each deployed leader draws and deploys cards at the start of any battle."""
    fr["stage"] = "muster"
    pushes = []
    for seat in (fr["aggressor"], fr["defender"]):
        for c in _deployed(st, seat):
            ab = st.abil[c].get("leader")
            if ab is None:
                continue
            drawn = []
            for _ in range(ab.get("draw")):
                new = _draw_arsenal(st, seat)
                if new is None:
                    break
                st.players[seat]["hand"].append(new)
                drawn.append(new)
            if drawn:
                if st.record_events:
                    _ev(st, "leader_draw", {"seat": seat, "count": len(drawn)})
                pushes.append(_deploy_frame(seat, len(drawn), drawn, "leader"))
    st.frames.extend(reversed(pushes))
    return None


def _stage_muster(st: GameState, fr: dict) -> Decision | None:
    _touch(st)
    sea = False
    for seat in SEATS:
        present = _present(st, fr, seat)
        fr["present"][seat] = present
        fr["units"][seat] = [c for c in present if c in st.unit_ids]
        sea = sea or any(st.defs[c].kind == "sea" for c in fr["units"][seat])
    for seat in SEATS:
        deployed = _deployed(st, seat)
        cb = sum(st.abil[c]["codebreaker"].get("attack_bonus")
                 for c in deployed if "codebreaker" in st.abil[c])
        if sea and cb:  # C13: any battle with a sea unit
            fr["codebreak"][seat] = cb
            fr["intel"][seat] = True
        if any("intelligence" in st.abil[c] for c in deployed):
            fr["intel"][seat] = True
    agg = fr["aggressor"]
    fr["had_ground"] = any(st.defs[c].kind == "ground" for c in fr["units"][agg])
    for seat in (agg, fr["defender"]):
        for c in fr["units"][seat]:
            if "sabotage" in st.abil[c]:
                fr["sab_queue"].append([seat, c])
    fr["stage"] = "window"
    fr["side"] = 0
    _ev(st, "battle_started", {"card": fr["card"], "units": {s: [[c, st.code[c]] for c in fr["present"][s]]
                                                             for s in SEATS}})
    return None


def _window_cards(st: GameState, fr: dict, seat: str) -> list[tuple]:
    enemy = OTHER[seat]
    acts: list[tuple] = []
    enemy_units = fr["units"][enemy]
    for c in st.players[seat]["kept"]:
        eff = st.defs[c].effect
        if eff == "mine-fields" and fr["round"] == 1:
            acts.extend(KPlayCard(seat, c, target=t) for t in enemy_units if st.defs[t].kind == "ground")
        elif eff == "lack-of-valor":
            acts.extend(KPlayCard(seat, c, target=t) for t in enemy_units)
        elif ((eff in ("military-intelligence", "stolen-plans") and not fr["intel_played"][seat])
              or (eff == "chemical-warfare" and not fr["chem"][seat]
                  and any(st.defs[t].kind == "ground" for t in enemy_units))):
            acts.append(KPlayCard(seat, c))
    return acts


def _stage_window(st: GameState, fr: dict) -> Decision | None:
    while fr["side"] < 2:
        seat = (fr["aggressor"], fr["defender"])[fr["side"]]
        if st.players[seat]["kept"]:
            return Decision(seat, "battle_window", {"round": fr["round"]})
        fr["side"] += 1
    fr["stage"] = "phase0"
    fr["p0"] = False
    return None


def legal_battle_window(st: GameState, fr: dict) -> list[tuple]:
    seat = (fr["aggressor"], fr["defender"])[fr["side"]]
    return [KPass(seat)] + _window_cards(st, fr, seat)


def act_battle_window(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        fr["side"] += 1
        return
    seat = a.seat
    enemy = OTHER[seat]
    eff = st.defs[a.card].effect
    _discard_kept(st, seat, a.card)  # C14: discarded after use
    if eff == "mine-fields":  # C13: the player chooses the ground unit (never a leader)
        _destroy(st, enemy, a.target, "mine-fields")
    elif eff == "lack-of-valor":
        _withdraw(st, fr, enemy, a.target, "lack-of-valor")
    elif eff in ("military-intelligence", "stolen-plans"):
        fr["intel"][seat] = True
        fr["intel_played"][seat] = True
        if st.record_events:
            _ev(st, "intelligence", {"enemy_hand": [st.code[c] for c in st.players[enemy]["hand"]]}, seat)
        if eff == "stolen-plans" and st.record_events:
            _ev(st, "intelligence", {"enemy_kept": [st.code[c] for c in st.players[enemy]["kept"]]}, seat)
    elif eff == "chemical-warfare":
        fr["chem"][seat] = st.defs[a.card].param("attack", 13)
    _check_battle_end(st, fr)


def _stage_phase0(st: GameState, fr: dict) -> Decision | None:
    """Phase 0: OSS sabotage before the first round (GU4 note), chemical warfare every round (C11)."""
    if fr["round"] == 1:
        while fr["sab_queue"]:
            seat, unit = fr["sab_queue"][0]
            targets = _sabotage_targets(st, fr, seat, unit)
            if len(targets) > 1:
                return Decision(seat, "sabotage_target", {"unit": unit})
            fr["sab_queue"].pop(0)
            if targets:
                _destroy(st, OTHER[seat], targets[0], "sabotage")
                if _check_battle_end(st, fr):
                    return None
    if not fr["p0"]:
        fr["p0"] = True
        for seat in (fr["aggressor"], fr["defender"]):
            attack = fr["chem"][seat]
            if not attack:
                continue
            enemy = OTHER[seat]
            for t in [t for t in fr["units"][enemy] if st.defs[t].kind == "ground"]:
                d = _defense(st, fr, enemy, t, "air")
                n, _ = _action_number(st)
                hit = d is not None and d < n <= attack
                if st.record_events:
                    _ev(st, "chemical_attack", {"seat": seat, "target": t, "number": n, "hit": hit})
                if hit:
                    _destroy(st, enemy, t, "chemical-warfare")
                    if _check_battle_end(st, fr):
                        return None
    if not _can_hit(st, fr, fr["aggressor"]) and not _can_hit(st, fr, fr["defender"]):
        _stalemate(st, fr)
        return None
    fr.update(stage="phase", phase=1, side=0)
    return None


def _sabotage_targets(st: GameState, fr: dict, seat: str, unit: str) -> list[str]:
    if unit not in fr["units"][seat]:
        return []
    classes = st.abil[unit]["sabotage"].get("target_classes")
    # revealed enemy cards, leaders included (they are in the battle's stacks though they do not fight)
    return [t for t in fr["present"][OTHER[seat]] if any(c in classes for c in st.defs[t].classes)]


def legal_sabotage_target(st: GameState, fr: dict) -> list[tuple]:
    seat, unit = fr["sab_queue"][0]
    return [KChoose(seat, t) for t in _sabotage_targets(st, fr, seat, unit)]


def act_sabotage_target(st: GameState, fr: dict, a: Action) -> None:
    fr["sab_queue"].pop(0)
    _destroy(st, OTHER[a.seat], a.option, "sabotage")
    _check_battle_end(st, fr)


def _stalemate(st: GameState, fr: dict) -> None:
    """Stalemate: the aggressor must withdraw and the defender wins (air raids simply end)."""
    if st.record_events:
        _ev(st, "stalemate", {"round": fr["round"]})
    fr["winner"] = fr["defender"] if fr["mode"] == "battle" else None
    fr["stage"] = "settle"


# ---- values with bonuses -----------------------------------------------------------------------
KIDX = {"ground": 0, "air": 1, "sea": 2}


class _Vals:
    """Current attack and defense of every unit in the battle, every bonus included.

    Tables per unit: A[u] = (vs ground, vs air, vs sea) attack, D[u] = defense against ground/air/sea
    attackers. Built once per battle situation; a new support refreshes only its recipient (see _vals)."""

    __slots__ = ("st", "fr", "aura", "radar", "sup", "A", "D", "side", "umemo", "ftargets", "fkeys",
                 "gone", "done_src", "done_n", "done_set")

    def __init__(self, st: GameState, fr: dict) -> None:
        self.st = st
        self.fr = fr
        abil = st.abil
        self.aura = {}
        self.radar = {}
        self.side = {}
        for s in SEATS:
            auras = []
            for g in fr["units"][s]:
                self.side[g] = s
                ab = abil[g].get("general_aura")
                if ab is not None:
                    auras.append((g, ab.get("attack"), ab.get("defense")))
            self.aura[s] = auras
            self.radar[s] = sum(abil[r]["radar"].get("air_defense_bonus") for r in fr["present"][s]
                                if "radar" in abil[r])
        sup: dict[str, list] = {}
        for entry in fr["supports"]:
            sup.setdefault(entry[1], []).append(entry)
        self.sup = sup
        self.A: dict[str, tuple] = {}
        self.D: dict[str, tuple] = {}
        # legal-move pieces, per seat: umemo from the units in the battle only (dropped when one of the
        # seat's units leaves); ftargets: shooter -> (shots, fired, intel, its fire targets, len(gone of
        # the enemy)), dropped when the values they read change (see refresh and _leave_battle) and
        # lazily stripped of the enemy units gone since; fkeys: shooter -> (that target list, its fire and
        # hold keys); gone: per seat, its units that left the battle, in order
        self.gone: dict[str, list[str]] = {s: [] for s in SEATS}
        self.umemo: dict[str, dict] = {s: {} for s in SEATS}
        self.done_src: list | None = None  # fr["done"] as a set (the list only grows within a round)
        self.done_n = 0
        self.done_set: set[str] = set()
        self.ftargets: dict[str, dict] = {s: {} for s in SEATS}
        self.fkeys: dict[str, dict] = {s: {} for s in SEATS}
        for u in self.side:
            self._compute(u)

    def refresh(self, u: str) -> None:
        """u's values changed: u's own fire targets and every enemy shooter's (u's defense) are stale."""
        seat = self.side[u]
        before = self.D.get(u)
        self._compute(u)
        if self.D[u] != before:  # an attack support leaves u's defense, so the enemy's targets, as they were
            enemy = OTHER[seat]
            self.ftargets[enemy].clear()
            self.fkeys[enemy].clear()
        self.ftargets[seat].pop(u, None)
        self.fkeys[seat].pop(u, None)

    def _compute(self, u: str) -> None:
        seat = self.side[u]
        d = self.st.defs[u]
        sups = self.sup.get(u, ())
        ground = d.kind == "ground"
        aura_a = aura_d = 0
        if ground:
            for g, atk, dfn in self.aura[seat]:
                if g != u:  # G1, G3: other friendly ground units
                    aura_a += atk
                    aura_d += dfn
        cb = self.fr["codebreak"][seat]
        if not sups:  # the common case, without the per-kind support loops below
            add = aura_a + cb
            a0, a1, a2 = d.attack.ground, d.attack.air, d.attack.sea
            self.A[u] = (None if a0 is None else a0 + add, None if a1 is None else a1 + add,
                         None if a2 is None else a2 + add)
            d0, d1, d2 = d.defense.ground, d.defense.air, d.defense.sea
            self.D[u] = (None if d0 is None else d0 + aura_d,
                         None if d1 is None else d1 + aura_d + self.radar[seat],
                         None if d2 is None else d2 + aura_d)
            return
        atk = []
        for tk in KINDS:
            v = getattr(d.attack, tk)
            if v is not None:
                for s in sups:
                    if s[2] == "attack" and (s[4] is None or tk in s[4]):
                        v += s[3]
                v += aura_a + cb
            atk.append(v)
        dfn = []
        for ak in KINDS:
            v = getattr(d.defense, ak)
            if v is not None:
                for s in sups:
                    if s[2] == "defense" or (s[2] == "air_defense" and ak == "air"):
                        v += s[3]
                v += aura_d
                if ak == "air":
                    v += self.radar[seat]
            dfn.append(v)
        self.A[u] = tuple(atk)
        self.D[u] = tuple(dfn)

    def done(self) -> set[str]:
        done = self.fr["done"]
        n = len(done)
        if done is not self.done_src or n < self.done_n:
            self.done_src = done
            self.done_set = set(done)
        elif n != self.done_n:
            self.done_set.update(done[self.done_n:])
        self.done_n = n
        return self.done_set

    def new_round(self) -> None:
        """A new round of the same battle: the supports are gone (fr["supports"], "shots" and "done" are new
        empty lists). Only the units that had support change values; every other memo stays valid (units
        and values are the same, and fire-target entries record the shot count, 0 again for every unit)."""
        supported = [u for u in self.sup if u in self.side]
        self.sup = {}
        for u in supported:
            self.refresh(u)

    def support_added(self, entry: list) -> None:
        self.sup.setdefault(entry[1], []).append(entry)
        if entry[1] in self.side:
            self.refresh(entry[1])

    def attack(self, seat: str, u: str, tkind: str) -> int | None:
        values = self.A.get(u)
        return values[KIDX[tkind]] if values is not None else getattr(self.st.defs[u].attack, tkind)

    def defense(self, seat: str, t: str, akind: str) -> int | None:
        values = self.D.get(t)
        return values[KIDX[akind]] if values is not None else getattr(self.st.defs[t].defense, akind)


def _vals(st: GameState, fr: dict) -> _Vals:
    """Valid until the battle changes (units leave, round ends): _touch() drops it."""
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        return vals
    vals = st._vcache = _Vals(st, fr)
    return vals


def _touch(st: GameState) -> None:
    st._vgen += 1
    st._vcache = None


def _attack(st: GameState, fr: dict, seat: str, u: str, tkind: str) -> int | None:
    return _vals(st, fr).attack(seat, u, tkind)


def _defense(st: GameState, fr: dict, seat: str, t: str, akind: str) -> int | None:
    return _vals(st, fr).defense(seat, t, akind)


def _targetable(st: GameState, fr: dict, seat: str, u: str, t: str) -> bool:
    """S6, S7: before a submarine fires only destroyers and submarines may target it, unless intelligence."""
    if "submarine" in st.abil[t] and t not in fr["fired"] and not fr["intel"][seat]:
        classes = st.defs[u].classes
        return "destroyer" in classes or "submarine" in classes
    return True


def _is_big(st: GameState, u: str) -> bool:
    ab = st.abil[u]
    return "big_guns" in ab or "heavy_guns" in ab or "ship_support" in ab


def _shot_allowed(st: GameState, fr: dict, u: str, tkind: str) -> bool:
    shots = fr["shots"].get(u)
    if not shots:
        return True
    ab = st.abil[u]
    if "double_attack" in ab:
        return len(shots) < 2
    if _is_big(st, u):
        if tkind not in shots:
            return True
        return "heavy_guns" in ab and len(shots) == len(set(shots))  # S1: one more shot at any group
    return False


def _exhausted(st: GameState, fr: dict, seat: str, u: str) -> bool:
    shots = fr["shots"].get(u, ())
    ab = st.abil[u]
    if "double_attack" in ab:
        return len(shots) >= 2
    if _is_big(st, u):
        groups = {st.defs[t].kind for t in fr["units"][OTHER[seat]]}
        if any(g not in shots for g in groups):
            return False
        return not ("heavy_guns" in ab and len(shots) == len(set(shots)))
    return len(shots) >= 1


def _fire_targets(st: GameState, fr: dict, seat: str, u: str) -> list[str]:
    vals = st._vcache  # _vals(st, fr), inlined on this hot path
    if vals is None or vals.fr is not fr:
        vals = _vals(st, fr)
    shots = fr["shots"].get(u)
    intel = fr["intel"][seat]
    fired = fr["fired"]
    # shots and fired (submarines that gave their position away) only grow within a battle, and any
    # change of values or units clears the memo
    n = len(shots) if shots else 0
    nf = len(fired)
    memo = vals.ftargets[seat]
    entry = memo.get(u)
    gone = vals.gone[OTHER[seat]]
    if entry is not None and entry[0] == n and entry[1] == nf and entry[2] == intel:
        out = entry[3]
        if entry[4] != len(gone):
            # enemy units that left since: nothing else about u's targets changed (values changes drop
            # the entry), so the list is the same without them
            left = gone[entry[4]:]
            out = [t for t in out if t not in left]
            memo[u] = (n, nf, intel, out, len(gone))
        return out
    out = _compute_fire_targets(st, fr, seat, u, vals, shots, intel, fired)
    memo[u] = (n, nf, intel, out, len(gone))
    return out


def _compute_fire_targets(st: GameState, fr: dict, seat: str, u: str, vals: _Vals, shots: list | None,
                          intel: bool, fired: list) -> list[str]:
    au = vals.A[u]
    table = vals.D
    kidx = st.kidx
    ki = kidx[u]
    sub_hunter = None
    abil = st.abil
    out = []
    allowed = [_shot_allowed(st, fr, u, k) for k in KINDS] if shots else None
    for t in fr["units"][OTHER[seat]]:
        tk = kidx[t]
        if allowed is not None and not allowed[tk]:
            continue
        a = au[tk]
        if a is None:
            continue
        d = table[t][ki]
        if d is None or a < d:
            continue
        if "submarine" in abil[t] and not intel and t not in fired:
            # S6, S7: before a submarine fires only destroyers and submarines may target it
            if sub_hunter is None:
                classes = st.defs[u].classes
                sub_hunter = "destroyer" in classes or "submarine" in classes
            if not sub_hunter:
                continue
        out.append(t)
    return out


def _has_infantry(st: GameState, fr: dict, seat: str) -> bool:
    # GU5: anything that says "Infantry" (class infantry: SS, SAS, rangers... too) enables armour autokills;
    # special forces that do not (the OSS saboteurs) do not
    return any("infantry" in st.defs[c].classes for c in fr["units"][seat])


def _autokill_targets(st: GameState, fr: dict, seat: str, u: str) -> list[str]:
    ak = st.abil[u].get("autokill")
    if ak is None or fr["shots"].get(u):
        return []
    if ak.get("first_round_only") and fr["round"] != 1:
        return []
    if ak.get("requires_infantry") and not _has_infantry(st, fr, seat):
        return []  # G2: generals need none
    enemy = OTHER[seat]
    # memoised beside u's fire targets (vals.ftargets[seat], cleared when an enemy defense changes) for
    # the same round, fired submarines, intelligence and enemy units (they only leave: vals.gone)
    vals = _vals(st, fr)
    memo = vals.ftargets[seat]
    sig = (fr["round"], len(fr["fired"]), fr["intel"][seat], len(vals.gone[enemy]))
    entry = memo.get(("ak", u))
    if entry is not None and entry[0] == sig:
        return entry[1]
    ukind = st.defs[u].kind
    kinds = ak.get("target_kinds")
    limit = ak.get("max_defense")
    out = []
    for t in fr["units"][enemy]:
        if st.defs[t].kind not in kinds:
            continue
        d = vals.defense(enemy, t, ukind)  # G2: bonuses count when checking the threshold
        if d is not None and d <= limit and _targetable(st, fr, seat, u, t):
            out.append(t)
    memo[("ak", u)] = (sig, out)
    return out


def _can_hit(st: GameState, fr: dict, seat: str) -> bool:
    """Could any unit of `seat` hit any enemy unit with the best possible support and action number?"""
    enemy = OTHER[seat]
    targets = fr["units"][enemy]
    if not targets:
        return False
    vals = _vals(st, fr)
    kidx = st.kidx
    max_action = st.max_action
    chem = fr["chem"][seat]
    if chem:
        for t in targets:
            if kidx[t] == 0:
                d = vals.defense(enemy, t, "air")
                if d is not None and d < chem and d < max_action:
                    return True
    units = fr["units"][seat]
    pool = []  # (source, kind, bonus, target kinds)
    for c in units:
        ab = st.abil[c]
        for k in SUPPORT_KINDS:
            if k in ab:
                pool.append((c, k, ab[k].get("bonus"), ab[k].get("target_kinds")))
        if "carrier_bonus" in ab:
            pool.append((None, "carrier", sum(ab["carrier_bonus"].get("bonuses")), None))
    table_a, table_d = vals.A, vals.D
    abil = st.abil
    phases = st.phase
    for u in units:
        if phases[u] is None:
            continue
        if "autokill" in abil[u] and _autokill_targets(st, fr, seat, u):
            return True
        ui = kidx[u]
        ukind = KINDS[ui]
        au = table_a.get(u)
        extras: dict[int, int] = {}
        for t in targets:
            ti = kidx[t]
            a = au[ti] if au is not None else vals.attack(seat, u, KINDS[ti])
            if a is None:
                continue
            dt = table_d.get(t)
            dv = dt[ui] if dt is not None else vals.defense(enemy, t, ukind)
            if dv is None or dv >= max_action:
                continue
            if "submarine" in abil[t] and not _targetable(st, fr, seat, u, t):
                continue  # S6: a hidden submarine (it fires only if its own side can hit: checked too)
            extra = extras.get(ti)
            if extra is None:
                tk = KINDS[ti]
                extra = 0
                for src, k, bonus, tks in pool:
                    if src == u:
                        continue
                    if k == "artillery_support" and tk not in tks:
                        continue
                    if k == "ship_support" and ukind != "sea":
                        continue
                    extra += bonus
                extras[ti] = extra
            if a + extra > dv:
                return True
    return False


# ---- firing phases -------------------------------------------------------------------------------
def _side_seat(fr: dict) -> str:
    return fr["aggressor"] if fr["side"] == 0 else fr["defender"]


def _actors(st: GameState, fr: dict, seat: str) -> list[str]:
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = _vals(st, fr)
    memo = vals.umemo[seat]
    phase = fr["phase"]
    done_list = fr["done"]
    cached = memo.get(("a", phase))  # (done list, its length, actors): the done list only grows
    if cached is not None and cached[0] is done_list and cached[1] == len(done_list):
        return cached[2]
    units = memo.get(phase)  # `seat`'s units that fire in this phase (memoised until the units change)
    if units is None:
        phases = st.phase
        units = memo[phase] = [u for u in fr["units"][seat] if phases[u] == phase]
    if not units:
        return units
    done = vals.done()
    out = [u for u in units if u not in done]
    memo[("a", phase)] = (done_list, len(done_list), out)
    return out


def _p2_out_window(st: GameState, fr: dict, seat: str) -> bool:
    """C8 (the A-bomb any time in phase 2): is `seat`'s window outside its own phase-2 turn open? The
    defender's comes before the aggressor's phase-2 turn, the aggressor's after the defender's, each only
    when that other turn takes place. Opened on public facts like every play window (the seat holds any
    kept card; the units' phases), until the seat passes; `pass` is always legal.
    fr["p2_passed"] holds seat (own window passed), "out:<seat>" (this window passed) and "turn:<seat>"
    (the seat acted in its own phase-2 turn)."""
    passed = fr["p2_passed"]
    if not st.players[seat]["kept"] or "out:" + seat in passed:
        return False
    other = OTHER[seat]
    if seat == fr["defender"]:
        return bool(_actors(st, fr, other)) or (other not in passed and bool(st.players[other]["kept"]))
    return "turn:" + other in passed


def _stage_phase(st: GameState, fr: dict) -> Decision | None:
    if fr["sub_wd"] is not None:
        seat, unit = fr["sub_wd"]
        return Decision(seat, "sub_withdraw", {"unit": unit})
    shot = fr["shot"]
    if shot is not None:
        if shot["stage"] == "defend":
            return Decision(shot["enemy"], "defend", {"unit": shot["unit"], "target": shot["target"],
                                                      "type": shot["type"]})
        return Decision(shot["seat"], "retarget", {"unit": shot["unit"], "target": shot["target"],
                                                   "type": shot["type"]})
    while True:
        seat = fr["aggressor"] if fr["side"] == 0 else fr["defender"]
        if fr["phase"] == 2 and fr["side"] == 0 and _p2_out_window(st, fr, fr["defender"]):
            # C8: the A-bomb any time in phase 2: the defender before the aggressor's phase-2 shots
            return Decision(fr["defender"], "fire", {"round": fr["round"], "phase": 2})
        if _actors(st, fr, seat) or (
                fr["phase"] == 2 and seat not in fr["p2_passed"] and st.players[seat]["kept"]):
            prev = st.decision  # the same question again: reuse the (immutable) decision
            if prev is not None and prev.kind == "fire" and prev.seat == seat:
                p = prev.prompt
                if p.get("round") == fr["round"] and p.get("phase") == fr["phase"] and len(p) == 2:
                    return prev
            return Decision(seat, "fire", {"round": fr["round"], "phase": fr["phase"]})
        if fr["side"] == 0:
            fr["side"] = 1
            continue
        if fr["phase"] == 2 and _p2_out_window(st, fr, fr["aggressor"]):
            # C8: ... and the aggressor after the defender's phase-2 shots
            return Decision(fr["aggressor"], "fire", {"round": fr["round"], "phase": 2})
        if fr["phase"] < 4:
            fr["phase"] += 1
            fr["side"] = 0
            continue
        break
    if fr["mode"] == "air_raid":  # C15: a one-round air battle
        fr["winner"] = None
        fr["stage"] = "settle"
        return None
    fr.update(stage="withdraw", side=0)
    return None


def _supporters(st: GameState, fr: dict, seat: str, vals: _Vals) -> list[str]:
    """`seat`'s units in the battle with a support ability (memoised until the units change)."""
    memo = vals.umemo[seat]
    out = memo.get("sp")
    if out is None:
        supp = st.supp
        out = memo["sp"] = [c for c in fr["units"][seat] if c in supp]
    return out


def _support_actions(st: GameState, fr: dict, seat: str, *, only_recipient: str | None = None,
                     defense_vs: str | None = None) -> list[tuple]:
    """Supports `seat` may still assign this round (GU1: any time before the supporter fires).

    Attack support is only offered to units that can still fire this round (it would change nothing else).
    """
    acts: list[tuple] = []
    units = fr["units"][seat]
    supp = st.supp
    vals = _vals(st, fr)
    memo = vals.umemo[seat]
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return acts
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    used = fr["carrier_used"]
    # the supporters that may still assign something (the loop below checks each one in full)
    supporters = [c for c in supporters
                  if (c not in done and (phases[c] is None or phases[c] >= phase))
                  or (supp[c][3] and used.get(c, 0) < supp[c][3])]
    if not supporters:
        return acts
    if only_recipient is not None:
        recipients: Any = (only_recipient,)
        shooters: Any = ()
    else:
        recipients = None  # all units: the per-supporter lists below are memoised
        eligible = memo.get(("el", phase))  # units that fire in this phase or later
        if eligible is None:
            eligible = memo[("el", phase)] = [r for r in units if (phases[r] or 0) >= phase]
        shooters = [r for r in eligible if r not in done]
    amask = st.amask
    kidx = st.kidx
    attack = defense_vs is None
    for c in supporters:
        infantry, art_mask, ship, carriers = supp[c]
        if carriers and fr["carrier_used"].get(c, 0) < carriers:
            if attack:
                acts.extend([("support", seat, c, r, "attack") for r in shooters])
            if defense_vs in (None, "air"):
                if recipients is None:
                    keys = memo.get(("sa", c))
                    if keys is None:
                        keys = memo[("sa", c)] = [("support", seat, c, r, "air_defense") for r in units]
                    acts.extend(keys)
                else:
                    acts.extend([("support", seat, c, r, "air_defense") for r in recipients])
        if c in done:
            continue
        ph = phases[c]
        if ph is not None and ph < phase:
            continue
        if infantry:
            if attack:
                acts.extend([("support", seat, c, r, "attack") for r in shooters if r != c])
            if recipients is None:
                keys = memo.get(("sd", c))
                if keys is None:
                    keys = memo[("sd", c)] = [("support", seat, c, r, "defense") for r in units if r != c]
                acts.extend(keys)
            else:
                acts.extend([("support", seat, c, r, "defense") for r in recipients if r != c])
        if not attack:
            continue
        if art_mask:
            acts.extend([("support", seat, c, r, "attack") for r in shooters
                         if r != c and amask[r] & art_mask])
        if ship:
            acts.extend([("support", seat, c, r, "attack") for r in shooters if r != c and kidx[r] == 2])
    return acts


def _abomb_ok(st: GameState, fr: dict, seat: str) -> bool:
    """C8: a double-attack bomber in your air stack; the British also need MI or Stolen Plans."""
    if not any("double_attack" in st.abil[c] for s in st.players[seat]["stacks"]["air"] for c in s):
        return False
    if st.players[seat]["nation"] == "GB":
        return (fr["intel_played"][seat]
                or bool(_kept_with(st, seat, {"military-intelligence", "stolen-plans"}))
                or _has_ability_deployed(st, seat, "intelligence"))
    return True


def _support_segments(st: GameState, fr: dict, seat: str) -> list[tuple]:
    """The supports of a fire decision (as _support_actions builds them) in segments
    (supporter, mode, recipients, excluded, memo key, count): one action ("support", seat, supporter, r, mode)
    per r in recipients other than `excluded`, in order (`count` of them). Lets the actions be counted
    without building them."""
    vals = st._vcache
    if vals is None or vals.fr is not fr:
        vals = _vals(st, fr)
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return []
    supp = st.supp
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    used = fr["carrier_used"]
    units = fr["units"][seat]
    shooters = None
    segs: list[tuple] = []
    for c in supporters:
        infantry, art_mask, ship, carriers = supp[c]
        # a carrier assigns its bonuses besides its own fire; any other supporter until it fires (GU1)
        carrier = carriers and used.get(c, 0) < carriers
        ph = phases[c]
        own = c not in done and (ph is None or ph >= phase)
        if not (carrier or own):
            continue
        if shooters is None:
            memo = vals.umemo[seat]
            eligible = memo.get(("el", phase))  # units that fire in this phase or later
            if eligible is None:
                eligible = memo[("el", phase)] = [r for r in units if (phases[r] or 0) >= phase]
            shooters = [r for r in eligible if r not in done]
        if carrier:
            segs.append((c, "attack", shooters, None, None, len(shooters)))
            segs.append((c, "air_defense", units, None, ("sa", c), len(units)))
        if not own:
            continue
        if infantry:
            segs.append((c, "attack", shooters, c, None, len(shooters) - (c in shooters)))
            segs.append((c, "defense", units, c, ("sd", c), len(units) - 1))  # c is one of the units
        if art_mask:
            amask = st.amask
            rs = [r for r in shooters if r != c and amask[r] & art_mask]
            segs.append((c, "attack", rs, None, None, len(rs)))
        if ship:
            kidx = st.kidx
            rs = [r for r in shooters if r != c and kidx[r] == 2]
            segs.append((c, "attack", rs, None, None, len(rs)))
    return segs


def _fire_parts(st: GameState, fr: dict) -> tuple[str, list[str], list[tuple], list[tuple], list[tuple], int]:
    """A fire decision's legal actions in parts: the actors, then per actor (unit, fire targets, autokill
    targets): its fire actions, autokills and hold ("pass" first when there is no actor: only the A-bomb
    window is open); then the support segments (see _support_segments) and the A-bomb plays; last the
    number of legal actions."""
    seat = fr["aggressor"] if fr["side"] == 0 else fr["defender"]
    asked = st.decision.seat
    if asked != seat:  # C8: the other seat's phase-2 A-bomb window (see _stage_phase): pass or bomb
        tail = _abomb_plays(st, fr, asked)
        return asked, [], [], [], tail, 1 + len(tail)
    actors = _actors(st, fr, seat)
    abil = st.abil
    heads = []
    n = 0 if actors else 1  # "pass" when there is no actor
    if actors:
        # the memo hit of _fire_targets inlined (the common case: the same shots, fired submarines,
        # intelligence and enemy units as when the list was built); anything else goes through it
        vals = st._vcache  # _actors just made sure it is this battle's
        memo = vals.ftargets[seat]
        shots_of = fr["shots"]
        nf = len(fr["fired"])
        intel = fr["intel"][seat]
        ngone = len(vals.gone[OTHER[seat]])
        for u in actors:
            entry = memo.get(u)
            shots = shots_of.get(u)
            if (entry is not None and entry[0] == (len(shots) if shots else 0) and entry[1] == nf
                    and entry[2] == intel and entry[4] == ngone):
                targets = entry[3]
            else:
                targets = _fire_targets(st, fr, seat, u)
            if "autokill" in abil[u]:
                autokills = _autokill_targets(st, fr, seat, u)
                n += len(autokills)
            else:
                autokills = None
            heads.append((u, targets, autokills))
            n += len(targets) + 1  # its fire actions and hold
    sp = st._vcache.umemo[seat].get("sp")  # _supporters' memo: known to be empty, no segments
    segs = _support_segments(st, fr, seat) if sp is None or sp else []
    for seg in segs:
        n += seg[5]
    if fr["phase"] == 2:
        tail = _abomb_plays(st, fr, seat)
        n += len(tail)
    else:
        tail = []
    return seat, actors, heads, segs, tail, n


def _abomb_plays(st: GameState, fr: dict, seat: str) -> list[tuple]:
    """C8, C10: `seat`'s A-bomb plays in phase 2, on any non-empty enemy stack."""
    tail: list[tuple] = []
    if st.players[seat]["kept"]:
        bombs = _abombs(st, seat)
        if bombs and _abomb_ok(st, fr, seat):
            for bomb in bombs:
                tail.extend(KPlayCard(seat, bomb, target=ref) for ref in _nonempty_refs(st, OTHER[seat]))
    return tail


def legal_fire(st: GameState, fr: dict) -> list[tuple]:
    seat, actors, heads, segs, tail, _ = _fire_parts(st, fr)
    acts: list[tuple] = [] if actors else [("pass", seat)]
    memo = _vals(st, fr).fkeys[seat]
    for u, targets, autokills in heads:
        # the fire actions of u and its hold, memoised with its target list
        entry = memo.get(u)
        if entry is not None and entry[0] is targets:
            keys = entry[1]
        else:
            keys = [("fire", seat, u, t) for t in targets]
            keys.append(("hold", seat, u))
            memo[u] = (targets, keys)
        if autokills is not None:
            acts.extend(keys[:-1])
            acts.extend(("autokill", seat, u, t) for t in autokills)
            acts.append(keys[-1])
        else:
            acts.extend(keys)
    if segs:
        memo = _vals(st, fr).umemo[seat]
        for c, mode, recipients, excluded, key, _ in segs:
            if key is None:
                acts.extend([("support", seat, c, r, mode) for r in recipients if r != excluded])
                continue
            keys = memo.get(key)
            if keys is None:
                keys = memo[key] = [("support", seat, c, r, mode) for r in recipients if r != excluded]
            acts.extend(keys)
    if tail:
        acts.extend(tail)
    return acts


def legal_key_at(st: GameState, pick: Any) -> tuple:
    """legal_keys(st)[pick(len(legal_keys(st)))], building only the chosen key where that is cheaper
    (self-play with index-picking bots)."""
    cache = st._legal_cache
    kind = st.decision.kind
    if cache is not None and cache[0] == st.ply:
        keys = cache[1]
        return keys[pick(len(keys))]
    if kind == "withdraw":  # legal_withdraw without building the list: pass, then one per unit
        fr = st.frames[-1]
        seat = _side_seat(fr)
        units = fr["units"][seat]
        i = pick(1 + len(units))
        return ("pass", seat) if i == 0 else ("withdraw", seat, units[i - 1])
    if kind != "fire":
        keys = legal_keys(st)
        return keys[pick(len(keys))]
    fr = st.frames[-1]
    seat, actors, heads, segs, tail, n = _fire_parts(st, fr)
    i = pick(n)
    if not actors:
        if i == 0:
            return ("pass", seat)
        i -= 1
    for u, targets, autokills in heads:
        if i < len(targets):
            return ("fire", seat, u, targets[i])
        i -= len(targets)
        if autokills is not None:
            if i < len(autokills):
                return ("autokill", seat, u, autokills[i])
            i -= len(autokills)
        if i == 0:
            return ("hold", seat, u)
        i -= 1
    for c, mode, recipients, excluded, _, count in segs:
        if i < count:
            if excluded is not None and excluded in recipients and i >= recipients.index(excluded):
                i += 1
            return ("support", seat, c, recipients[i], mode)
        i -= count
    return tail[i]


def _add_support(st: GameState, fr: dict, a: Support) -> None:
    ab = st.abil[a.unit]
    if "carrier_bonus" in ab:
        n = fr["carrier_used"].get(a.unit, 0)
        bonus = ab["carrier_bonus"].get("bonuses")[n]
        fr["carrier_used"][a.unit] = n + 1
        entry = [a.unit, a.recipient, a.mode, bonus, None]
    else:
        kind = next(k for k in SUPPORT_KINDS if k in ab)
        tks = ab[kind].get("target_kinds") if kind == "artillery_support" else None
        entry = [a.unit, a.recipient, a.mode, ab[kind].get("bonus"), list(tks) if tks else None]
        fr["done"].append(a.unit)  # support replaces the supporter's own fire
    fr["supports"].append(entry)
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        vals.support_added(entry)
    if st.record_events:
        _ev(st, "support", {"seat": a.seat, "unit": a.unit, "recipient": a.recipient, "mode": a.mode})


def act_fire(st: GameState, fr: dict, a: Action) -> None:
    seat = a.seat
    kind = a.type
    if fr["phase"] == 2 and fr["side"] == 1 and seat == fr["defender"]:
        mark = "turn:" + seat
        if mark not in fr["p2_passed"]:
            fr["p2_passed"].append(mark)  # C8: the aggressor's A-bomb window follows this turn
    if kind == "fire" or kind == "autokill":
        _declare(st, fr, a)
    elif kind == "support":
        _add_support(st, fr, a)
    elif kind == "hold":
        fr["done"].append(a.unit)
        if st.record_events:
            _ev(st, "hold", {"seat": seat, "unit": a.unit})
    elif kind == "pass":
        # the seat's own phase-2 window, or (C8) its A-bomb window in the other seat's phase-2 turn
        out = seat != (fr["aggressor"] if fr["side"] == 0 else fr["defender"])
        fr["p2_passed"].append("out:" + seat if out else seat)
    elif isinstance(a, PlayCard):
        _a_bomb(st, seat, a.card, a.target)
        _check_battle_end(st, fr)


def _can_defend(st: GameState, fr: dict, seat: str, target: str, akind: str) -> bool:
    """Has `seat` unassigned support that could still shore up `target`'s defense (same as the defend
    window's support actions, without building them)?"""
    vals = st._vcache  # _vals(st, fr), inlined on this hot path
    if vals is None or vals.fr is not fr:
        vals = _vals(st, fr)
    supporters = _supporters(st, fr, seat, vals)
    if not supporters:
        return False
    done = vals.done()
    phase = fr["phase"]
    phases = st.phase
    supp = st.supp
    used = fr["carrier_used"]
    for c in supporters:
        infantry, _, _, carriers = supp[c]
        if carriers and akind == "air" and used.get(c, 0) < carriers:
            return True
        if infantry and c != target and c not in done and (phases[c] or 9) >= phase:
            return True
    return False


def _declare(st: GameState, fr: dict, a: Fire | Autokill) -> None:
    """GU1: the target may strengthen its defense with unassigned support; then the shooter may switch."""
    enemy = OTHER[a.seat]
    akind = st.defs[a.unit].kind
    if _can_defend(st, fr, enemy, a.target, akind):
        fr["shot"] = {"seat": a.seat, "enemy": enemy, "unit": a.unit, "target": a.target, "type": a.type,
                      "stage": "defend", "assigned": False}
        if st.record_events:
            _ev(st, "target_declared", {"seat": a.seat, "unit": a.unit, "target": a.target, "type": a.type})
        return
    _resolve(st, fr, a)


def legal_defend(st: GameState, fr: dict) -> list[tuple]:
    shot = fr["shot"]
    enemy = shot["enemy"]
    return [KPass(enemy)] + _support_actions(st, fr, enemy, only_recipient=shot["target"],
                                            defense_vs=st.defs[shot["unit"]].kind)


def act_defend(st: GameState, fr: dict, a: Action) -> None:
    shot = fr["shot"]
    if isinstance(a, Support):
        _add_support(st, fr, a)
        shot["assigned"] = True
        return
    if shot["assigned"]:
        shot["stage"] = "retarget"
        return
    fr["shot"] = None
    cls = Fire if shot["type"] == "fire" else Autokill
    _resolve(st, fr, cls(shot["seat"], shot["unit"], shot["target"]))


def legal_retarget(st: GameState, fr: dict) -> list[tuple]:
    shot = fr["shot"]
    seat, unit = shot["seat"], shot["unit"]
    if shot["type"] == "fire":
        acts: list[tuple] = [KFire(seat, unit, t) for t in _fire_targets(st, fr, seat, unit)]
    else:
        acts = [KAutokill(seat, unit, t) for t in _autokill_targets(st, fr, seat, unit)]
    return acts + [KHold(seat, unit)]


def act_retarget(st: GameState, fr: dict, a: Action) -> None:
    fr["shot"] = None
    if isinstance(a, Hold):
        fr["done"].append(a.unit)
        return
    # GU1: no card is pulled yet, so the new target may in turn be shored up by unassigned support
    _declare(st, fr, a)


def _resolve(st: GameState, fr: dict, a: Fire | Autokill) -> None:
    seat, u, t = a.seat, a.unit, a.target
    enemy = OTHER[seat]
    if u not in fr["fired"] and "submarine" in st.abil[u]:
        fr["fired"].append(u)  # S7: a submarine that has fired is no longer hidden
    if isinstance(a, Autokill):
        fr["shots"][u] = ["autokill"]
        fr["done"].append(u)
        if st.record_events:
            _ev(st, "autokill", {"seat": seat, "unit": u, "target": t, "code": st.code[t]})
        _destroy(st, enemy, t, "autokill")
    else:
        tk = st.defs[t].kind
        vals = st._vcache  # _vals(st, fr), inlined on this hot path
        if vals is None or vals.fr is not fr:
            vals = _vals(st, fr)
        attack = vals.attack(seat, u, tk)
        defense = vals.defense(enemy, t, st.defs[u].kind)
        n, card = _action_number(st)
        hit = defense < n <= attack  # the action-number rule
        fr["shots"].setdefault(u, []).append(tk)
        if st.record_events:
            _ev(st, "shot", {"seat": seat, "unit": u, "target": t, "attack": attack, "defense": defense,
                             "number": n, "card": card, "hit": hit})
        if hit:
            _destroy(st, enemy, t, "shot")
        ab = st.abil[u]
        if "double_attack" not in ab and not ("big_guns" in ab or "heavy_guns" in ab or "ship_support" in ab):
            fr["done"].append(u)  # _exhausted for a unit that fires once a round: it just did
        elif _exhausted(st, fr, seat, u):
            fr["done"].append(u)
    if _check_battle_end(st, fr):
        return
    if "submarine" in st.abil[u] and u in fr["units"][seat]:
        fr["sub_wd"] = [seat, u]  # S6: may withdraw right after firing


def legal_sub_withdraw(st: GameState, fr: dict) -> list[tuple]:
    seat, unit = fr["sub_wd"]
    return [KWithdraw(seat, unit), KPass(seat)]


def act_sub_withdraw(st: GameState, fr: dict, a: Action) -> None:
    fr["sub_wd"] = None
    if isinstance(a, Withdraw):
        _withdraw(st, fr, a.seat, a.unit, "submarine")
        _check_battle_end(st, fr)


def _withdraw(st: GameState, fr: dict, seat: str, unit: str, cause: str) -> None:
    """GP1: withdrawn units stay deployed but are out of this battle (GP2: for good)."""
    _leave_battle(st, fr, seat, unit)
    fr["withdrawn"][seat].append(unit)
    if st.record_events:
        _ev(st, "withdrawn", {"seat": seat, "unit": unit, "cause": cause})


def _check_battle_end(st: GameState, fr: dict) -> bool:
    if fr["stage"] == "settle":
        return True
    agg, dfd = fr["aggressor"], fr["defender"]
    winner = None
    if not fr["units"][dfd]:
        winner = agg
    elif not fr["units"][agg]:
        winner = dfd
    elif fr["special"] in GROUND_SPECIALS and fr["had_ground"] and not any(
            st.defs[c].kind == "ground" for c in fr["units"][agg] + fr["withdrawn"][agg]):
        winner = dfd  # CA2: applies to whoever is the aggressor of this battle
    else:
        return False
    fr["winner"] = winner if fr["mode"] == "battle" else None
    fr["stage"] = "settle"
    fr["shot"] = None
    fr["sub_wd"] = None
    return True


# ---- withdrawal phase -----------------------------------------------------------------------------
def _stage_withdraw(st: GameState, fr: dict) -> Decision | None:
    while fr["side"] < 2:
        seat = _side_seat(fr)
        if fr["units"][seat]:
            prev = st.decision  # the same question again: reuse the (immutable) decision
            if prev is not None and prev.kind == "withdraw" and prev.seat == seat \
                    and prev.prompt.get("round") == fr["round"] and len(prev.prompt) == 1:
                return prev
            return Decision(seat, "withdraw", {"round": fr["round"]})
        fr["side"] += 1
    if _check_battle_end(st, fr):
        return None
    fr["round"] += 1
    if fr["round"] > st.setup.options.max_battle_rounds:
        _stalemate(st, fr)
        return None
    fr.update(stage="window", side=0, phase=0, done=[], shots={}, supports=[], carrier_used={}, p2_passed=[])
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        vals.new_round()  # keeps the values of the units without support (see _Vals.new_round)
    return None


def legal_withdraw(st: GameState, fr: dict) -> list[tuple]:
    seat = _side_seat(fr)
    return [KPass(seat)] + [KWithdraw(seat, u) for u in fr["units"][seat]]


def act_withdraw(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, Pass):
        fr["side"] += 1
        return
    _withdraw(st, fr, a.seat, a.unit, "withdrawal")
    if _check_battle_end(st, fr):
        return


# ---- settling the battle ---------------------------------------------------------------------------
def _stage_settle(st: GameState, fr: dict) -> Decision | None:
    card, winner = fr["card"], fr["winner"]
    fr["stage"] = "done"
    if fr["mode"] != "battle":
        return None
    if fr.get("ignored"):
        if not fr["counter"]:
            st.conflict_discard.append(card)
        return None
    agg, dfd = fr["aggressor"], fr["defender"]
    if fr["counter"]:
        if winner == agg:  # the counterattacker takes the card from the holder
            st.players[dfd]["won"].remove(card)
            st.players[agg]["won"].append(card)
            left = st.players[dfd]["occupied"].pop(card, None)
            if left:  # units that withdrew from the lost occupied stack go back to the usual stacks
                for c in left:
                    st.players[dfd]["stacks"][st.defs[c].kind][0].append(c)
    else:
        st.players[winner]["won"].append(card)
    if st.setup.options.occupying_force and winner == agg and _stated_aggressor(st, card) == winner \
            and card not in st.players[winner]["occupied"]:
        # Optional Rule 5.1: the battlecard becomes a deployed stack holding the victorious units
        survivors = list(fr["units"][winner])
        for c in survivors:
            _remove_deployed(st, winner, c)
        st.players[winner]["occupied"][card] = survivors
        if st.record_events:
            _ev(st, "occupied", {"seat": winner, "card": card, "units": [[c, st.code[c]] for c in survivors]})
    loser = OTHER[winner]
    _ev(st, "battle_won", {"winner": winner, "card": card, "code": st.code[card],
                           "victory_points": 0 if card in st.scorched else st.defs[card].victory_points})
    if card not in st.scorched and st.players[loser]["kept"]:
        fr["stage"] = "scorch"
        fr["loser"] = loser
    return None


def _stage_scorch(st: GameState, fr: dict) -> Decision | None:
    return Decision(fr["loser"], "scorched_earth", {"battlecard": fr["card"], "code": st.code[fr["card"]]})


def legal_scorched_earth(st: GameState, fr: dict) -> list[tuple]:
    seat = fr["loser"]
    cards = _kept_with(st, seat, {"scorched-earth"})
    return [KPass(seat)] + [KPlayCard(seat, c, target=fr["card"]) for c in cards]


def act_scorched_earth(st: GameState, fr: dict, a: Action) -> None:
    if isinstance(a, PlayCard):
        _discard_kept(st, a.seat, a.card)
        st.scorched.append(fr["card"])  # C17: stays scorched when re-fought
        if st.record_events:
            _ev(st, "scorched_earth", {"seat": a.seat, "card": fr["card"]})
    fr["stage"] = "done"


def _stage_done(st: GameState, fr: dict) -> Decision | None:
    st.frames.pop()
    if st.record_events:
        _ev(st, "battle_over", {"winner": fr["winner"], "card": fr["card"]})
    if fr["mode"] == "battle" and fr["winner"] is not None:
        _check_victory(st, fr["winner"])
    return None


BATTLE_STAGES = {
    "optional": _stage_optional, "check": _stage_check, "leaders": _stage_leaders, "muster": _stage_muster,
    "window": _stage_window, "phase0": _stage_phase0, "phase": _stage_phase, "withdraw": _stage_withdraw,
    "settle": _stage_settle, "scorch": _stage_scorch, "done": _stage_done,
}

STEP = {
    "game": step_game, "turn": step_turn, "deploy": step_deploy, "v2": step_v2, "divide": step_divide,
    "reorganize": step_reorganize, "capture": step_capture, "battlecard": step_battlecard,
    "battle": step_battle, "sabotage": step_sabotage, "transfer": step_transfer,
}

LEGAL = {
    "turn_start": legal_turn_start, "initial_deploy": legal_deploy, "deploy": legal_deploy,
    "v2_effect": legal_v2_effect, "sabotage_victim": legal_sabotage_victim,
    "divide_choose": legal_divide_choose, "divide_stack": legal_divide_stack,
    "reorganize": legal_reorganize, "reorganize_swap": legal_reorganize_swap,
    "capture_browse": legal_capture_browse, "capture_pick": legal_capture_pick,
    "fight_or_decline": legal_fight_or_decline, "preemptive_choice": legal_fight_or_decline,
    "battlecard_response": legal_battlecard_response, "emergency_deploy": legal_emergency_deploy,
    "commit_optional": legal_commit_optional, "battle_window": legal_battle_window,
    "sabotage_target": legal_sabotage_target, "fire": legal_fire, "defend": legal_defend,
    "retarget": legal_retarget, "sub_withdraw": legal_sub_withdraw, "withdraw": legal_withdraw,
    "scorched_earth": legal_scorched_earth, "transfer": legal_transfer,
}

ACT = {
    "turn_start": act_turn_start, "initial_deploy": act_deploy, "deploy": act_deploy,
    "v2_effect": act_v2_effect, "sabotage_victim": act_sabotage_victim,
    "divide_choose": act_divide_choose, "divide_stack": act_divide_stack,
    "reorganize": act_reorganize, "reorganize_swap": act_reorganize_swap,
    "capture_browse": act_capture_browse, "capture_pick": act_capture_pick,
    "fight_or_decline": act_fight_or_decline, "preemptive_choice": act_fight_or_decline,
    "battlecard_response": act_battlecard_response, "emergency_deploy": act_emergency_deploy,
    "commit_optional": act_commit_optional, "battle_window": act_battle_window,
    "sabotage_target": act_sabotage_target, "fire": act_fire, "defend": act_defend,
    "retarget": act_retarget, "sub_withdraw": act_sub_withdraw, "withdraw": act_withdraw,
    "scorched_earth": act_scorched_earth, "transfer": act_transfer,
}

DECISION_KINDS = tuple(LEGAL)  # every kind of decision the engine can ask for
