"""The Battlefront rules on the core decision machine: one RuleBook, its frames and decisions.

Frames: `game` (stages logistics -> [deploy frame] -> battle -> hand_limit -> end_turn -> logistics) and
`deploy` (players alternate one card or a pass; two passes in a row end it). Decisions: `deploy`, `discard`.
Every reading the text leaves open is listed in games/engine/battlefront/README.md (rulings table) with the
sentence it rests on and its test.
"""
from __future__ import annotations

from typing import Any

from ..core.errors import SetupError
from ..core.machine import Decision, RuleBook, Stage, declare_resume, emit
from .actions import ACTION_CLASSES, Action, Discard, Pass, Play, PlaySpecial
from .cards import TYPES, BattlefrontCatalog, Card, SpecialUse
from .setup import (
    CAPTURE_LEAD,
    FRONTS,
    FRONTS_TO_WIN,
    HAND_DEAL,
    HAND_LIMIT,
    MAX_PER_FRONT_PER_TURN,
    OTHER,
    SEATS,
    GameSetup,
)
from .state import BattlefrontState, DeployFrame, GameFrame

RULES = RuleBook("battlefront", ACTION_CLASSES, Action)

# OPTIONAL 2 FRONT VICTORY CONDITIONS, in printed order: (kind, pairs of fronts)
TWO_FRONT_VICTORIES = (
    ("breakthrough", (("C", "CR"), ("C", "CL"))),   # "Center and CR or CL (Breakthrough Victory)"
    ("outflank", (("L", "CL"), ("R", "CR"))),       # "L & CL or R & CR: (Outflank Victory)"
    ("envelopment", (("L", "R"),)),                 # "L & R: (Envelopment Victory)"
)


# ---- what a card is on a front ---------------------------------------------------------------------
def _profile(card: Card | SpecialUse) -> tuple[str | None, int, bool, tuple[str, ...], tuple[str, ...]]:
    """(type, force, scout, extra types, negated types): a card as played (a Special card: as its use)."""
    ab = card.abilities
    # an extra / negate ability always names its type (Ability.from_dict checks it)
    return (card.type, card.force or 0, any(a.kind == "scout" for a in ab),
            tuple(a.type for a in ab if a.kind == "extra" and a.type is not None),
            tuple(a.type for a in ab if a.kind == "negate" and a.type is not None))


_PROFILES: dict[int, tuple[BattlefrontCatalog, dict[Any, tuple]]] = {}


def profiles(catalog: BattlefrontCatalog) -> dict[Any, tuple]:
    """code -> profile for the printed cards, (nationality, use id) -> profile for Special uses (cached)."""
    hit = _PROFILES.get(id(catalog))
    if hit is not None and hit[0] is catalog:
        return hit[1]
    table: dict[Any, tuple] = {code: _profile(c) for code, c in catalog.cards.items()}
    for nat, uses in catalog.special_uses.items():
        for u in uses:
            table[(nat, u.id)] = _profile(u)
    if len(_PROFILES) >= 16:
        _PROFILES.clear()
    _PROFILES[id(catalog)] = (catalog, table)
    return table


def profile_of(st: BattlefrontState, seat: str, code: str) -> tuple:
    """The profile of `seat`'s card `code` on a front (a Special card: the use it was played as)."""
    table = profiles(st.catalog)
    use = st.uses.get(code)
    if use is not None:
        return table[(st.nationality(seat), use)]
    return table[code]


def resolve_front(cards: dict[str, list[tuple]]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """Each seat's Force at one front and the indices of its negated cards, from each seat's profiles in
    play order. "Negated cards do not contribute their Force."; each negating card negates ONE opposing card
    of its type at that front: the strongest not yet negated (the earlier played on equal force); a negated
    card still negates (negation takes only Force)."""
    negated: dict[str, list[int]] = {s: [] for s in cards}
    for seat, mine in cards.items():
        theirs = cards[OTHER[seat]]
        hit = negated[OTHER[seat]]
        for p in mine:
            for t in p[4]:
                best = -1
                for i, q in enumerate(theirs):
                    if q[0] == t and i not in hit and (best < 0 or q[1] > theirs[best][1]):
                        best = i
                if best >= 0:
                    hit.append(best)
    forces = {seat: sum(p[1] for i, p in enumerate(mine) if i not in negated[seat])
              for seat, mine in cards.items()}
    return forces, negated


def front_cards(st: BattlefrontState, front: str) -> dict[str, list[tuple]]:
    return {seat: [profile_of(st, seat, c) for c in st.fronts[front][seat]] for seat in SEATS}


def front_forces(st: BattlefrontState, front: str) -> tuple[dict[str, int], dict[str, list[int]]]:
    return resolve_front(front_cards(st, front))


_ALLOWED: dict[tuple, frozenset[str]] = {}


def allowed_types(mine: list[tuple] | tuple) -> frozenset[str]:
    """The types a player may still assign to a front holding his cards `mine` (profiles): "a maximum of:
    1 Leader ... 1 Fortification", plus one more of a type per card of his there that says "Play an Extra
    <type>". Memoised on the profiles (bounded)."""
    key = tuple(mine)
    hit = _ALLOWED.get(key)
    if hit is None:
        if len(_ALLOWED) >= 50_000:
            _ALLOWED.clear()
        hit = _ALLOWED[key] = _allowed_types(key)
    return hit


def _allowed_types(mine: tuple) -> frozenset[str]:
    have: dict[str | None, int] = {}
    extra: dict[str, int] = {}
    for p in mine:
        have[p[0]] = have.get(p[0], 0) + 1
        for t in p[3]:
            extra[t] = extra.get(t, 0) + 1
    return frozenset(t for t in TYPES if have.get(t, 0) < 1 + extra.get(t, 0))


def blocked_type(st: BattlefrontState, seat: str, t: str | None) -> bool:
    """OPTIONAL BLITZKRIEG RULES: "The Attacker cannot use Fortification cards. The Defender cannot use Plane
    cards." """
    attacker = st.setup.options.blitzkrieg_attacker
    if attacker is None:
        return False
    return (t == "F" and seat == attacker) or (t == "P" and seat != attacker)


# ---- set-up ----------------------------------------------------------------------------------------
def new_game(catalog: BattlefrontCatalog, setup: GameSetup) -> BattlefrontState:
    if not isinstance(setup, GameSetup):
        raise SetupError("setup must be a battlefront GameSetup")
    deck = list(catalog.cards)  # THE DECK: "The deck contains 1 copy of every card in the card list."
    if len(deck) == 0:
        raise SetupError("the catalog has no cards")
    sc = setup.options.special_cards
    if sc is not None:
        if not catalog.special_cards:
            raise SetupError("the catalog has no Special cards")
        for seat in SEATS:
            if not catalog.special_uses.get(sc[seat]):
                raise SetupError(f"the catalog has no Special uses for {sc[seat]}")
        deck += list(catalog.special_cards)  # "Include 5 "Special" cards in the deck (Type = X)"
    st = BattlefrontState(catalog, setup)
    st.rng.shuffle(deck)
    st.deck = deck
    st.frames = [GameFrame("logistics")]
    RULES.advance(st)
    return st


# ---- the turn ---------------------------------------------------------------------------------------
def _deal(st: BattlefrontState, seat: str, n: int) -> list[str]:
    got = []
    deck = st.deck
    for _ in range(n):
        if not deck:
            break
        got.append(deck.pop())
    st.hands[seat].extend(got)
    return got


def _stage_logistics(st: BattlefrontState, fr: GameFrame) -> None:
    """LOGISTICS PHASE: "Each player is dealt 7 cards from the deck." (one at a time, west first, as far as
    the deck goes); then the DEPLOYMENT PHASE coin flip."""
    st.turn += 1
    st.scouted = dict.fromkeys(SEATS)
    fr.changed = False
    emit(st, "turn_started", {"turn": st.turn})
    dealt: dict[str, list[str]] = {s: [] for s in SEATS}
    for _ in range(HAND_DEAL):
        for seat in SEATS:
            dealt[seat] += _deal(st, seat, 1)
    if any(dealt.values()):
        fr.changed = True
    emit(st, "dealt", {"counts": {s: len(dealt[s]) for s in SEATS}, "deck_size": len(st.deck)})
    for seat in SEATS:
        if dealt[seat]:
            emit(st, "dealt_cards", {"seat": seat, "cards": dealt[seat]}, seat)
    first = SEATS[st.rng.getrandbits(1)]  # "Flip a coin to see who goes first."
    st.first_seat = first
    if fr.opening is None:
        fr.opening = first
    emit(st, "coin_flip", {"first": first})
    RULES.move(fr, "battle")
    st.frames.append(DeployFrame(first))


def _step_deploy(st: BattlefrontState, fr: DeployFrame) -> Decision | None:
    if fr.passes >= 2:  # both players passed in a row: the deployment phase ends
        st.frames.pop()
        return None
    seat = fr.seat
    if not st.hands[seat]:  # nothing to play (public: the hand size): pass without asking
        emit(st, "passed", {"seat": seat, "empty_hand": True})
        fr.passes += 1
        fr.seat = OTHER[seat]
        return None
    return Decision(seat, "deploy", {"turn": st.turn, "first": st.first_seat,
                                     "placed": dict(fr.placed[seat]), "opponent_passed": fr.passes > 0})


_UNSET: Any = object()


DeployOption = tuple[str, str | None, tuple[str, ...] | None]


def _deploy_options(st: BattlefrontState, fr: DeployFrame) -> list[DeployOption]:
    """(card, use, the fronts it may go to now | None for a use without a front), in hand order: every hand
    card, a Special card once per use of the player's nationality."""
    seat = fr.seat
    table = profiles(st.catalog)
    nat = st.nationality(seat)
    uses = st.uses
    placed = fr.placed[seat]
    captured = st.captured
    fronts = st.fronts
    allowed: list[tuple[str, frozenset[str]]] = []
    for f in FRONTS:
        if captured[f] is None and placed.get(f, 0) < MAX_PER_FRONT_PER_TURN:
            mine = tuple(table[(nat, uses[c])] if c in uses else table[c] for c in fronts[f][seat])
            allowed.append((f, allowed_types(mine)))
    blocked = [t for t in ("F", "P") if blocked_type(st, seat, t)]
    to: dict[str | None, tuple[str, ...] | None] = dict.fromkeys(blocked, ())
    to[None] = None
    out: list[DeployOption] = []
    for code in st.hands[seat]:
        p = table.get(code)
        if p is not None:
            t = p[0]
            fs = to.get(t, _UNSET)
            if fs is _UNSET:
                fs = to[t] = tuple([f for f, ok in allowed if t in ok])
            out.append((code, None, fs))
            continue
        for u in st.catalog.special_uses.get(nat or "", ()):  # a Special card: one option per use
            t = u.type
            fs = to.get(t, _UNSET)
            if fs is _UNSET:
                fs = to[t] = tuple([f for f, ok in allowed if t in ok])
            out.append((code, u.id, fs))
    return out


def legal_deploy(st: BattlefrontState, fr: DeployFrame) -> list[tuple]:
    """Every hand card (a Special card: each use of the player's nationality) onto every front it may go to
    now, in hand order then front order; then pass."""
    seat = fr.seat
    keys: list[tuple] = []
    for code, use, fs in _deploy_options(st, fr):
        if fs is None:
            keys.append(("play_special", seat, code, use))
        else:
            keys += [("play", seat, code, f, use) for f in fs]
    keys.append(("pass", seat))
    return keys


def key_at_deploy(st: BattlefrontState, fr: DeployFrame, pick) -> tuple:
    """legal_deploy(st, fr)[pick(n)], building only that key (self-play with index-picking bots)."""
    seat = fr.seat
    options = _deploy_options(st, fr)
    i = pick(sum(1 if fs is None else len(fs) for _c, _u, fs in options) + 1)
    for code, use, fs in options:
        if fs is None:
            if i == 0:
                return ("play_special", seat, code, use)
            i -= 1
        elif i < len(fs):
            return ("play", seat, code, fs[i], use)
        else:
            i -= len(fs)
    return ("pass", seat)


def act_deploy(st: BattlefrontState, fr: DeployFrame, action: Play | PlaySpecial | Pass) -> None:
    seat = action.seat
    if isinstance(action, Pass):
        emit(st, "passed", {"seat": seat})
        fr.passes += 1
        fr.seat = OTHER[seat]
        return
    fr.passes = 0
    fr.seat = OTHER[seat]
    st.game_frame().changed = True
    code = action.card
    st.hands[seat].remove(code)
    if isinstance(action, PlaySpecial):  # Industrial Giant: "Discard & draw 2 cards"
        nat = st.nationality(seat)
        use = st.catalog.use(nat, action.use) if nat is not None else None
        count = use.abilities[0].count if use and use.abilities else None
        st.discards[seat].append(code)
        drawn = _deal(st, seat, 2 if count is None else count)
        emit(st, "special_used", {"seat": seat, "card": code, "use": action.use, "drew": len(drawn)})
        if drawn:
            emit(st, "drew_cards", {"seat": seat, "cards": drawn}, seat)
        return
    front = action.front
    st.fronts[front][seat].append(code)
    if action.use is not None:
        st.uses[code] = action.use
    placed = fr.placed[seat]
    placed[front] = placed.get(front, 0) + 1
    data = {"seat": seat, "card": code, "front": front}
    if action.use is not None:
        data["use"] = action.use
    emit(st, "played", data)
    if profile_of(st, seat, code)[2]:  # "If you play a Scout card, you may look at your opponent's hand."
        seen = sorted(st.hands[OTHER[seat]])
        st.scouted[seat] = seen
        emit(st, "scouted", {"seat": seat, "card": code})
        emit(st, "scouted_hand", {"seat": seat, "cards": seen}, seat)


def victory_kind(st: BattlefrontState, seat: str) -> str | None:
    mine = {f for f, s in st.captured.items() if s == seat}
    if st.setup.options.two_front_victory:
        for kind, pairs in TWO_FRONT_VICTORIES:
            if any(a in mine and b in mine for a, b in pairs):
                return kind
    if len(mine) >= FRONTS_TO_WIN:
        return "three_fronts"
    return None


def _finish(st: BattlefrontState, fr: GameFrame, winner: str | None, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {
        "kind": kind,
        "winner": winner,
        "captured": {s: [f for f in FRONTS if st.captured[f] == s] for s in SEATS},
        "markers": {s: sum(st.markers[f][s] for f in FRONTS) for s in SEATS},
        "turns": st.turn,
        "first_player": fr.opening,
    }
    emit(st, "game_over", dict(st.result))


def _stage_battle(st: BattlefrontState, fr: GameFrame) -> None:
    """BATTLE PHASE: add up Force per front; the higher gains a Victory Marker; 3 more markers than the
    opponent at a front captures it; then the victory conditions."""
    report: dict[str, Any] = {}
    for front in FRONTS:
        if st.captured[front] is not None:  # a captured front fights no more
            continue
        forces, negated = front_forces(st, front)
        w, e = (forces[s] for s in SEATS)
        marker = SEATS[0] if w > e else SEATS[1] if e > w else None
        entry: dict[str, Any] = {"force": forces, "marker": marker,
                                 "negated": {s: [st.fronts[front][s][i] for i in sorted(negated[s])]
                                             for s in SEATS}}
        if marker is not None:
            fr.changed = True
            m = st.markers[front]
            m[marker] += 1
            if m[marker] - m[OTHER[marker]] >= CAPTURE_LEAD:
                st.captured[front] = marker
                entry["captured_by"] = marker
        report[front] = entry
    st.last_battle = {"turn": st.turn, "fronts": report}
    emit(st, "battle", {"turn": st.turn, "fronts": report})
    for front, entry in report.items():
        if "captured_by" in entry:
            emit(st, "captured", {"front": front, "seat": entry["captured_by"]})
    kinds = {s: kind for s in SEATS if (kind := victory_kind(st, s)) is not None}
    winners = list(kinds)
    if len(winners) == 1:
        _finish(st, fr, winners[0], kinds[winners[0]])
        return
    if len(winners) == 2:  # both reached a victory condition in the same battle phase
        counts = {s: sum(1 for f in FRONTS if st.captured[f] == s) for s in SEATS}
        w, e = (counts[s] for s in SEATS)
        if w != e:
            best = SEATS[0] if w > e else SEATS[1]
            _finish(st, fr, best, kinds[best])
        else:
            _finish(st, fr, None, "simultaneous")
        return
    RULES.move(fr, "hand_limit")


def _stage_hand_limit(st: BattlefrontState, fr: GameFrame) -> Decision | None:
    """ "Maximum hand size is 8 cards. Discard excess cards at end of turn." (the player chooses)."""
    for seat in SEATS:
        n = len(st.hands[seat])
        if n > HAND_LIMIT:
            return Decision(seat, "discard", {"excess": n - HAND_LIMIT, "hand_limit": HAND_LIMIT})
    RULES.move(fr, "end_turn")
    return None


def legal_discard(st: BattlefrontState, fr: GameFrame) -> list[tuple]:
    assert st.decision is not None  # the machine asks only for the pending decision's legal actions
    seat = st.decision.seat
    return [("discard", seat, c) for c in st.hands[seat]]


def act_discard(st: BattlefrontState, fr: GameFrame, action: Discard) -> None:
    st.hands[action.seat].remove(action.card)
    st.discards[action.seat].append(action.card)
    emit(st, "discarded", {"seat": action.seat, "count": 1})
    emit(st, "discarded_card", {"seat": action.seat, "card": action.card}, action.seat)


def _stage_end_turn(st: BattlefrontState, fr: GameFrame) -> None:
    """A turn in which no card was dealt, no card was played and no Victory Marker was won changed nothing,
    and the next would be the same: the game ends (more captured fronts wins, then more Victory Markers)."""
    if not fr.changed:
        cap = {s: sum(1 for f in FRONTS if st.captured[f] == s) for s in SEATS}
        vm = {s: sum(st.markers[f][s] for f in FRONTS if st.captured[f] is None) for s in SEATS}
        score = {s: (cap[s], vm[s]) for s in SEATS}
        w, e = (score[s] for s in SEATS)
        _finish(st, fr, SEATS[0] if w > e else SEATS[1] if e > w else None, "stalled")
        return
    RULES.move(fr, "logistics")


# the turn, top to bottom: each stage and the stages it may hand the game frame to (RULES.move checks)
RULES.frame("game", stages={
    "logistics": Stage(_stage_logistics, then=("battle",)),  # pushes the deploy frame, which runs first
    "battle": Stage(_stage_battle, then=("hand_limit",)),  # or the game ends
    "hand_limit": Stage(_stage_hand_limit, then=("end_turn",)),  # asks `discard` until nobody is above 8
    "end_turn": Stage(_stage_end_turn, then=("logistics",)),  # or the game ends (R12)
})
RULES.frame("deploy", _step_deploy)
RULES.decision("deploy", legal=legal_deploy, act=act_deploy, key_at=key_at_deploy)
RULES.decision("discard", legal=legal_discard, act=act_discard)

advance = RULES.advance
legal_keys = RULES.legal_keys
legal_key_at = RULES.legal_key_at
legal_actions = RULES.legal_actions
materialize = RULES.materialize
apply = RULES.apply
apply_legal = RULES.apply_legal
DECISION_KINDS = tuple(RULES.decisions)
declare_resume(BattlefrontState, advance)  # BattlefrontState.from_json recomputes the decision
