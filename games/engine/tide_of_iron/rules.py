"""The Tide of Iron Strategy-card referee: set-up, the decision, legal actions and `apply`.

The referee holds what neither player should control (the decks' order, every die) and what both see
(HQ areas, play areas, the box, command points and the board as the players report them). A round is an
Action Phase, a Command Phase and a Status Phase; the players advance them (`next_phase`). Every reading
the text leaves open is listed in README.md ("Readings") with the sentence it rests on and its test.

Decisions: `act` (the seat whose turn it is: activate, retry contact, discard (revision 1 only), pass the
turn, next phase, end the match, and the board reports), `target` (place the target token), `los`
(report the LOS to it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import IllegalAction, MalformedAction, SetupError, required
from ..core.events import Event
from ..core.machine import Decision, declare_resume
from .actions import (
    ACTION_CLASSES,
    REPORTS,
    Action,
    Activate,
    Confirm,
    Discard,
    Dispute,
    EndMatch,
    Los,
    NextPhase,
    PassTurn,
    PlaceUnit,
    RemoveUnit,
    ReportCommand,
    RetryContact,
    SetCover,
    Target,
    TargetColumn,
    TargetRow,
)
from .hexes import Board, Hex, HexError, drift
from .setup import DRIFT_NUMBERS, LEGACY_REVISION, LOS, OTHER, SEATS, Card, GameSetup, TideOfIronCatalog
from .state import Activation, TideOfIronState

UNIT_KINDS = ("squad", "vehicle")
RESULTS = ("axis", "allies", "draw")
# revision 2: each player may dispute the end of a phase once in every phase (disputes stay bounded: a
# later phase end he has not disputed is settled at once); README.md, "The referee protocol"
PHASE_DISPUTES = 1
# what a disputed report comes to (the `outcome` of `claim_disputed`)
DISPUTED = {"command": "kept", "phase": "phase_goes_on", "result": "no_result", "los": "none"}


def _protocol(st: TideOfIronState) -> bool:
    """Revision 2: the reports that change the outcome wait for the other player's confirm or dispute."""
    return st.revision != LEGACY_REVISION


def _emit(st: TideOfIronState, type_: str, data: dict[str, Any]) -> None:
    """Every event is public: the HQ and play areas are face up and every die is rolled in the open."""
    if st.record_events:
        st._events.append(Event(type_, data, "all"))


def _die(st: TideOfIronState) -> int:
    return st.rng.randint(1, 6)


def _board(st: TideOfIronState) -> Board:
    return st.options.board


# ---- set-up ---------------------------------------------------------------------------------------------
def new_game(catalog: TideOfIronCatalog, setup: GameSetup) -> TideOfIronState:
    """Shuffle each player's Strategy decks (the scenario's) and draw the opening cards into the HQ areas:
    "At the beginning of the game [...] players will draw Strategy cards from their Strategy decks"."""
    scenario = catalog.scenarios.get(setup.options.scenario)
    if scenario is None:
        raise SetupError(
            f"unknown scenario {setup.options.scenario!r} (one of {sorted(catalog.scenarios)})",
            code="bad_options",
        )
    st = TideOfIronState(catalog, setup)
    st.record_events = False
    for seat in SEATS:
        for deck in scenario.seats[seat]["decks"]:
            if deck not in catalog.decks:
                raise SetupError(f"scenario deck {deck!r} is not in the catalog", code="bad_catalog")
            cards = list(catalog.decks[deck].cards)
            st.rng.shuffle(cards)
            st.decks[seat][deck] = cards
    for seat in SEATS:
        _draw(st, seat, scenario.seats[seat]["start_draw"])
    st.record_events = True
    advance(st)
    return st


def _draw(st: TideOfIronState, seat: str, per_deck: int) -> None:
    """Draw `per_deck` cards from each of the seat's decks; "After the last card of a Strategy card deck is
    drawn, the deck is not replenished. That deck is simply no longer available to the player.\""""
    for deck, cards in st.decks[seat].items():
        for _ in range(per_deck):
            if not cards:
                break
            card = cards.pop()
            st.hq[seat].append(card)
            _emit(st, "card_drawn", {"seat": seat, "deck": deck, "card": card, "left": len(cards)})
            if not cards:
                _emit(st, "deck_exhausted", {"seat": seat, "deck": deck})


# ---- the decision ---------------------------------------------------------------------------------------
def advance(st: TideOfIronState) -> None:
    """Derive the pending decision from the state (nothing is rolled here)."""
    if st.status != "active":
        st.decision = None
        return
    if st.claim is not None:  # the other player confirms or disputes a report first
        st.decision = Decision(OTHER[st.claim["by"]], "confirm", {"claim": dict(st.claim)})
        return
    p = st.pending
    if p is not None and p.need == "target":
        prompt = {"card": p.card, "board": _board(st).to_json()}
        if st.revision == LEGACY_REVISION:  # one step: every full hex is a choice
            st.decision = Decision(p.seat, "target", prompt)
        elif p.column is None:  # revision 2: the column, then the row (a few dozen choices each)
            st.decision = Decision(p.seat, "target_column", prompt)
        else:
            st.decision = Decision(p.seat, "target_row", {**prompt, "column": p.column})
    elif p is not None and p.need == "los":
        st.decision = Decision(p.seat, "los", {"card": p.card, "target": p.target, "los": list(LOS)})
    else:
        seat = st.turn_seat
        st.decision = Decision(
            seat,
            "act",
            {"round": st.round, "phase": st.phase, "command": st.command[seat], "reports": list(REPORTS)},
        )


declare_resume(TideOfIronState, advance)  # TideOfIronState.from_json recomputes the decision


def effective_cost(st: TideOfIronState, seat: str, card: Card) -> int:
    """The printed cost less the lasting reductions in the seat's play area: "When you activate another
    Artillery card, its cost is reduced by 1 (to a minimum of 0)." A card "type" is a word of the deck
    title: "This always refers to the title of a Strategy card deck"."""
    # "another": the activated card is in the HQ area, never one of the play area's cards
    title = st.catalog.deck_title(card.code)
    cost, floor = card.cost, 0
    for entry in st.play[seat]:
        if entry["pending"]:  # a card waiting for contact has not resolved its effects
            continue
        for effect in st.catalog.card(entry["card"]).effects:
            if effect["kind"] == "cost-reduction" and effect["card_type"] in title:
                cost -= effect["amount"]
                floor = max(floor, effect.get("minimum", 0))
    return max(floor, cost) if cost < card.cost else card.cost


def _retry_ok(st: TideOfIronState, seat: str, entry: dict[str, Any]) -> bool:
    """ "Once during every subsequent round, as an action, the player may again seek to establish contact"."""
    return st.phase == "action" and entry["pending"] and entry["tried"] < st.round


def legal_keys(st: TideOfIronState) -> list[tuple]:
    d = st.decision
    if d is None:
        return []
    seat = d.seat
    if d.kind == "target":
        return [("target", seat, h.name) for h in _board(st).hexes()]
    if d.kind == "target_column":
        return [("target_column", seat, str(c)) for c in _target_columns(_board(st))]
    if d.kind == "target_row":
        column = st.pending.column if st.pending is not None else None
        return [("target_row", seat, str(r)) for r in _target_rows(_board(st), column)]
    if d.kind == "los":
        return [("los", seat, los) for los in LOS if los != "officer" or _officer_ok(st, seat)]
    if d.kind == "confirm":
        return [("confirm", seat), ("dispute", seat)]
    keys: list[tuple] = []
    for code in dict.fromkeys(st.hq[seat]):
        card = st.catalog.card(code)
        if card.phase == st.phase and effective_cost(st, seat, card) <= st.command[seat]:
            keys.append(("activate", seat, code))
    for code in dict.fromkeys(e["card"] for e in st.play[seat] if _retry_ok(st, seat, e)):
        keys.append(("retry_contact", seat, code))
    if st.revision == LEGACY_REVISION:  # revision 1 only: reading 14 as it was (README.md, "Rules revisions")
        for code in dict.fromkeys(e["card"] for e in st.play[seat]):
            keys.append(("discard", seat, code))
    keys += [("pass_turn", seat), ("next_phase", seat)]
    keys += [("end_match", seat, r) for r in RESULTS]
    return keys


def materialize(key: tuple) -> Action:
    return ACTION_CLASSES[key[0]](*key[1:])


def legal_actions(st: TideOfIronState) -> list[Action]:
    return [materialize(k) for k in legal_keys(st)]


# ---- apply ----------------------------------------------------------------------------------------------
def apply(st: TideOfIronState, action: Any) -> list[Event]:
    """Validate, then apply one action; returns its events. Errors (state unchanged): malformed_action,
    game_over, not_your_turn, illegal_action (or a more precise code)."""
    if isinstance(action, dict):
        action = Action.from_json(action)
    if not isinstance(action, Action):
        raise MalformedAction("not an action")
    if st.status != "active" or st.decision is None:
        raise IllegalAction("the match is over", code="game_over")
    d = st.decision
    if action.seat != d.seat:
        raise IllegalAction(f"it is {d.seat}'s decision", code="not_your_turn")
    handler = HANDLERS.get((d.kind, action.type))
    if handler is None:
        raise IllegalAction(f"{action.type} is not a choice of the {d.kind} decision")
    st._events = []
    handler(st, action)
    st.ply += 1
    advance(st)
    events, st._events = st._events, []
    return events


def _int(value: str, low: int, high: int, what: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise IllegalAction(f"{what} must be an integer {low}..{high}", code="bad_report") from None
    if not low <= n <= high:
        raise IllegalAction(f"{what} must be an integer {low}..{high}", code="bad_report")
    return n


def _hex(st: TideOfIronState, name: str) -> Hex:
    try:
        return _board(st).hex(name)
    except HexError as exc:
        raise IllegalAction(str(exc), code="not_a_board_hex") from None


def _activate(st: TideOfIronState, a: Activate) -> None:
    seat = a.seat
    if a.card not in st.hq[seat]:
        raise IllegalAction(f"{a.card} is not in your HQ area", code="not_in_hq")
    card = st.catalog.card(a.card)
    if card.phase != st.phase:
        raise IllegalAction(
            f"{card.title} is activated in the {card.phase.title()} Phase", code="wrong_phase"
        )
    cost = effective_cost(st, seat, card)
    if cost > st.command[seat]:
        # "If a player cannot afford the command cost of a Strategy card, he may not activate that card."
        raise IllegalAction(f"{card.title} costs {cost}; you have {st.command[seat]}", code="cannot_afford")
    st.command[seat] -= cost
    st.hq[seat].remove(a.card)
    _emit(
        st,
        "card_activated",
        {"seat": seat, "card": a.card, "printed_cost": card.cost, "cost": cost, "command": st.command[seat]},
    )
    if not card.keywords:
        _finish(st, seat, card, placed_round=st.round)
        _after_action(st)
        return
    st.pending = Activation(seat, a.card)
    _resolve(st)


def _retry(st: TideOfIronState, a: RetryContact) -> None:
    seat = a.seat
    entry = next((e for e in st.play[seat] if e["card"] == a.card and _retry_ok(st, seat, e)), None)
    if entry is None:
        raise IllegalAction(
            f"{a.card} cannot seek contact now (once in every later round, as an action)", code="no_retry"
        )
    st.play[seat].remove(entry)  # held by the resolution; back in the play area if contact fails again
    _emit(st, "contact_retried", {"seat": seat, "card": a.card, "round": st.round})
    st.pending = Activation(seat, a.card, from_play=True, entry=entry)
    _resolve(st)


def _resolve(st: TideOfIronState) -> None:
    """Resolve the pending card's keywords in order until one needs a decision or the card is done."""
    p = st.pending
    assert p is not None
    seat = p.seat
    card = st.catalog.card(p.card)
    while p.step < len(card.keywords):
        kw = card.keywords[p.step]
        if kw.keyword == "establish-contact":
            assert kw.value is not None  # its target number (TideOfIronCatalog.from_dicts checks it)
            die = _die(st)
            made = die >= kw.value  # "equal to or higher than the target number"
            _emit(
                st,
                "contact_roll",
                {"seat": seat, "card": card.code, "die": die, "target_number": kw.value, "established": made},
            )
            if not made:
                # "the player keeps the Strategy card and places it in his play area"; a retry that fails
                # waits for the next round
                entry = p.entry or {"card": card.code, "round": st.round, "pending": True}
                st.play[seat].append({**entry, "tried": st.round})
                if not p.from_play:
                    _emit(st, "placed_in_play_area", {"seat": seat, "card": card.code, "waiting": True})
                st.pending = None
                _after_action(st)
                return
        elif kw.keyword == "target-hex":
            if p.target is None:
                p.need = "target"
                return
        elif kw.keyword == "determine-drift":
            if p.los is None:
                p.need = "los"
                return
            if not _drift(st, p):
                return
        elif kw.keyword in ("area-attack", "wide-blast-radius"):
            centre = Hex.parse(required(p.final or p.target, "target hex"))
            if kw.keyword == "area-attack":
                _area_attack(st, seat, card, kw, centre, kind="area_attack")
            else:
                # "An attack with a wide blast radius affects all the hexes adjacent to the target hex [...]
                # Roll each wide blast radius area attack separately for each adjacent hex."
                for h in _board(st).neighbours(centre):
                    if _units_in(st, h.name):
                        _area_attack(st, seat, card, kw, h, kind="wide_blast_attack")
        p.step += 1
        p.need = None
    _finish(st, seat, card, placed_round=st.round)
    st.pending = None
    _after_action(st)


def _drift(st: TideOfIronState, p: Activation) -> bool:
    """Roll the red and the black die from the target hex; False when the final hex is off the board."""
    seat = p.seat
    target = Hex.parse(required(p.target, "target hex"))
    basis = required(p.los, "LOS report")
    # "or the target token is located in a hex either containing, or adjacent to, any friendly unit"
    if any(u["side"] == seat and Hex.parse(u["hex"]).distance(target) <= 1 for u in st.units.values()):
        basis = "adjacent" if DRIFT_NUMBERS[basis] > DRIFT_NUMBERS["adjacent"] else basis
    number = DRIFT_NUMBERS[basis]
    black, red = _die(st), _die(st)
    out = drift(_board(st), target, drift_number=number, black=black, red=red, marker=st.options.marker)
    _emit(
        st,
        "drift_roll",
        {
            "seat": seat,
            "card": p.card,
            "target": p.target,
            "los": p.los,
            "drift_basis": basis,
            "drift_number": number,
            "black": black,
            "red": red,
            "accurate": out.accurate,
            "direction": out.direction,
            "distance": 0 if out.accurate else black,
            "final": out.final.name,
            "on_board": out.on_board,
            "half_hex": _board(st).is_half(out.final),
        },
    )
    if not out.on_board:
        # "the Strategy card has no additional effect, and is placed back in the game box"
        st.box.append(p.card)
        _emit(
            st,
            "card_resolved",
            {"seat": seat, "card": p.card, "outcome": "drifted_off_board", "to": "box"},
        )
        st.pending = None
        _after_action(st)
        return False
    p.final = out.final.name
    return True


def _units_in(st: TideOfIronState, hex_name: str) -> list[tuple[str, dict[str, Any]]]:
    return sorted((label, u) for label, u in st.units.items() if u["hex"] == hex_name)


def _area_attack(st: TideOfIronState, seat: str, card: Card, kw: Any, h: Hex, *, kind: str) -> None:
    """One area attack on one hex: the attacker's dice once, then each affected unit's own defense dice.
    Vehicles are unaffected by suppressive attacks; friendly units are hit like enemy ones."""
    units = _units_in(st, h.name)
    affected = [(label, u) for label, u in units if not (kw.suppressive and u["kind"] == "vehicle")]
    for label, u in units:
        if (label, u) not in affected:
            _emit(
                st,
                "unit_unaffected",
                {
                    "unit": label,
                    "side": u["side"],
                    "hex": h.name,
                    "kind": u["kind"],
                    "reason": "vehicles are unaffected by suppressive attacks",
                },
            )
    if kind == "wide_blast_attack" and not affected:
        _emit(
            st,
            kind,
            {
                "seat": seat,
                "card": card.code,
                "hex": h.name,
                "rolled": False,
                "dice": [],
                "strength": kw.value,
                "suppressive": kw.suppressive,
                "successes": 0,
            },
        )
        return
    dice = [_die(st) for _ in range(kw.value)]
    successes = sum(1 for d in dice if d >= kw.success_on)
    _emit(
        st,
        kind,
        {
            "seat": seat,
            "card": card.code,
            "hex": h.name,
            "rolled": True,
            "dice": dice,
            "strength": kw.value,
            "success_on": kw.success_on,
            "suppressive": kw.suppressive,
            "successes": successes,
        },
    )
    cover = st.cover.get(h.name, 0)
    for label, u in affected:
        defense = [_die(st) for _ in range(cover)]
        saved = sum(1 for d in defense if d >= st.options.defense_success_on)
        _emit(
            st,
            "unit_attacked",
            {
                "unit": label,
                "side": u["side"],
                "kind": u["kind"],
                "hex": h.name,
                "friendly": u["side"] == seat,
                "attack_successes": successes,
                "cover": cover,
                "defense_dice": defense,
                "defense_successes": saved,
                "hits": max(0, successes - saved),
                "suppressive": kw.suppressive,
            },
        )


def _finish(st: TideOfIronState, seat: str, card: Card, *, placed_round: int) -> None:
    if card.play_area:
        st.play[seat].append(
            {"card": card.code, "round": placed_round, "tried": placed_round, "pending": False}
        )
        _emit(st, "placed_in_play_area", {"seat": seat, "card": card.code, "waiting": False})
    else:
        st.box.append(card.code)
        _emit(st, "card_resolved", {"seat": seat, "card": card.code, "outcome": "resolved", "to": "box"})


def _after_action(st: TideOfIronState) -> None:
    """In the Action Phase an activation (or a retry) is the player's action: the other player decides."""
    if st.phase == "action":
        st.turn_seat = OTHER[st.turn_seat]


def _target(st: TideOfIronState, a: Target) -> None:
    _place_target(st, a.seat, _hex(st, a.hex))


def _place_target(st: TideOfIronState, seat: str, h: Hex) -> None:
    p = st.pending
    assert p is not None  # the target decisions exist only while an activation is pending
    p.column = None
    p.target, p.need = h.name, None
    _emit(st, "target_placed", {"seat": seat, "card": p.card, "hex": h.name})
    p.step += 1
    _resolve(st)


def _target_columns(board: Board) -> list[int]:
    """The columns holding a full hex (every column of an even row)."""
    return sorted({h.col for h in board.hexes()})


def _target_rows(board: Board, column: int | None) -> list[int]:
    """The rows where the column is a full hex (column 0 is a half hex in odd rows)."""
    return [r for r in range(board.height) if column is not None and board.on_board(Hex(column, r))]


def _target_column(st: TideOfIronState, a: TargetColumn) -> None:
    """ "placing the target token on any board hex", in two steps: the column first."""
    column = _int(a.column, 0, _board(st).width - 1, "column")
    if column not in _target_columns(_board(st)):
        raise IllegalAction(f"column {column} holds no full hex", code="not_a_board_hex")
    p = st.pending
    assert p is not None  # the target decisions exist only while an activation is pending
    p.column = column


def _target_row(st: TideOfIronState, a: TargetRow) -> None:
    p = st.pending
    assert p is not None and p.column is not None  # target_row follows target_column
    row = _int(a.row, 0, _board(st).height - 1, "row")
    _place_target(st, a.seat, _hex(st, Hex(p.column, row).name))


def _officer_ok(st: TideOfIronState, seat: str) -> bool:
    """ "within LOS of a non-fatigued squad containing an officer": a player who reported units of his side
    claims an officer's LOS only with one of them a squad with an officer (revision 2; with no unit reported,
    the other player's confirmation decides)."""
    if not _protocol(st):
        return True
    own = [u for u in st.units.values() if u["side"] == seat]
    return not own or any(u["kind"] == "squad" and u["officer"] for u in own)


def _los(st: TideOfIronState, a: Los) -> None:
    if a.los not in LOS:
        raise IllegalAction(f"los is one of {list(LOS)}")
    p = st.pending
    assert p is not None  # the los decision exists only while an activation is pending
    if a.los == "officer" and not _officer_ok(st, a.seat):
        raise IllegalAction(
            "an officer's LOS needs one of your reported squads with an officer", code="no_officer"
        )
    if _protocol(st) and a.los != "none":  # "none" is the least the player can claim: never disputed
        _claim(st, a.seat, {"type": "los", "los": a.los, "card": p.card, "target": p.target})
        return
    _settle_los(st, a.los)


def _discard(st: TideOfIronState, a: Discard) -> None:
    """Revision 1 only. A card placed in the play area stays "until the end of the game, or until the card
    is discarded by its own effects": no sentence lets a player discard it at will (issue 36 item 9)."""
    if st.revision != LEGACY_REVISION:
        raise IllegalAction(
            "a card in the play area stays until the end of the game or until its own effects discard it",
            code="no_discard",
        )
    entry = next((e for e in st.play[a.seat] if e["card"] == a.card), None)
    if entry is None:
        raise IllegalAction(f"{a.card} is not in your play area", code="not_in_play_area")
    st.play[a.seat].remove(entry)
    st.box.append(a.card)
    _emit(st, "card_discarded", {"seat": a.seat, "card": a.card})


def _pass(st: TideOfIronState, a: PassTurn) -> None:
    st.turn_seat = OTHER[a.seat]
    _emit(st, "turn_passed", {"seat": a.seat, "to": st.turn_seat})


def _next_phase(st: TideOfIronState, a: NextPhase) -> None:
    if _protocol(st) and st.disputes[OTHER[a.seat]] < PHASE_DISPUTES:
        _claim(st, a.seat, {"type": "phase", "round": st.round, "phase": st.phase})
        return
    _advance_phase(st, a.seat)


def _advance_phase(st: TideOfIronState, by: str) -> None:
    st.disputes = dict.fromkeys(SEATS, 0)
    first = st.options.first_player
    if st.phase == "action":
        st.phase = "command"
    elif st.phase == "command":
        st.phase = "status"
        _emit(st, "phase", {"round": st.round, "phase": "status", "by": by})
        scenario = st.catalog.scenarios[st.options.scenario]
        for seat in (first, OTHER[first]):
            _draw(st, seat, scenario.seats[seat]["status_draw"])
        st.turn_seat = first
        return
    else:
        st.round += 1
        st.phase = "action"
    st.turn_seat = first
    _emit(st, "phase", {"round": st.round, "phase": st.phase, "by": by})


def _end(st: TideOfIronState, a: EndMatch) -> None:
    if a.result not in RESULTS:
        raise IllegalAction(f"result is one of {list(RESULTS)}")
    if _protocol(st):
        _claim(st, a.seat, {"type": "result", "result": a.result})
        return
    _end_match(st, a.seat, a.result)


def _end_match(st: TideOfIronState, by: str, result: str, **extra: Any) -> None:
    st.status = "finished"
    st.winner = None if result == "draw" else result
    st.result = {"kind": "reported", "result": result, "by": by, "round": st.round, **extra}
    _emit(st, "match_ended", dict(st.result))


def _report_command(st: TideOfIronState, a: ReportCommand) -> None:
    points = _int(a.points, 0, 99, "points")
    if _protocol(st):
        _claim(st, a.seat, {"type": "command", "points": points, "previous": st.command[a.seat]})
        return
    _set_command(st, a.seat, points)


def _set_command(st: TideOfIronState, seat: str, points: int) -> None:
    st.command[seat] = points
    _emit(st, "command_reported", {"seat": seat, "points": points})


# ---- the referee protocol (revision 2) ------------------------------------------------------------------
def _claim(st: TideOfIronState, seat: str, claim: dict[str, Any]) -> None:
    """A report that changes the outcome waits for the other player's confirm or dispute."""
    st.claim = {"by": seat, **claim}
    _emit(st, "claim_made", dict(st.claim))


def _confirm(st: TideOfIronState, a: Confirm) -> None:
    claim, st.claim = required(st.claim, "claim"), None
    _emit(st, "claim_confirmed", {**claim, "confirmed_by": a.seat})
    by = claim["by"]
    if claim["type"] == "command":
        _set_command(st, by, claim["points"])
    elif claim["type"] == "phase":
        _advance_phase(st, by)
    elif claim["type"] == "result":
        _end_match(st, by, claim["result"], confirmed_by=a.seat)
    else:  # los
        _settle_los(st, claim["los"])


def _dispute(st: TideOfIronState, a: Dispute) -> None:
    """The referee cannot see the board: a disputed report is not taken. Command points keep the previous
    count; the phase goes on and the disputing player decides (once per phase); a disputed result ends the
    match as "no result", never a victory; a disputed LOS counts as none (drift number 6, or 3 next to a
    reported friendly unit), settled before the drift dice are rolled."""
    claim, st.claim = required(st.claim, "claim"), None
    outcome = DISPUTED[claim["type"]]
    _emit(st, "claim_disputed", {**claim, "disputed_by": a.seat, "outcome": outcome})
    if claim["type"] == "phase":
        st.disputes[a.seat] += 1
        st.turn_seat = a.seat
    elif claim["type"] == "result":
        st.status = "finished"
        st.winner = None
        st.result = {
            "kind": "no_result",
            "claimed": claim["result"],
            "by": claim["by"],
            "disputed_by": a.seat,
            "round": st.round,
        }
        _emit(st, "match_ended", dict(st.result))
    elif claim["type"] == "los":
        _settle_los(st, "none")


def _settle_los(st: TideOfIronState, los: str) -> None:
    p = st.pending
    assert p is not None  # a LOS claim is made while its activation is pending
    p.los, p.need = los, None
    _resolve(st)


def _place(st: TideOfIronState, a: PlaceUnit) -> None:
    h = _hex(st, a.hex)
    if a.side not in SEATS or a.kind not in UNIT_KINDS or a.officer not in (None, "yes", "no"):
        raise IllegalAction(
            f"side is one of {list(SEATS)}, kind one of {list(UNIT_KINDS)}, officer yes/no", code="bad_report"
        )
    officer = a.officer == "yes"
    if officer and a.kind != "squad":
        raise IllegalAction("an officer is in a squad", code="bad_report")
    st.units[a.unit] = {"hex": h.name, "side": a.side, "kind": a.kind, "officer": officer}
    _emit(st, "unit_placed", {"unit": a.unit, **st.units[a.unit]})


def _remove(st: TideOfIronState, a: RemoveUnit) -> None:
    if a.unit not in st.units:
        raise IllegalAction(f"no unit {a.unit!r} on the board", code="bad_report")
    del st.units[a.unit]
    _emit(st, "unit_removed", {"unit": a.unit})


def _set_cover(st: TideOfIronState, a: SetCover) -> None:
    h = _hex(st, a.hex)
    cover = _int(a.cover, 0, 9, "cover")
    if cover:
        st.cover[h.name] = cover
    else:
        st.cover.pop(h.name, None)
    _emit(st, "cover_reported", {"hex": h.name, "cover": cover})


HANDLERS: dict[tuple[str, str], Callable[[TideOfIronState, Any], None]] = {
    ("act", "activate"): _activate,
    ("act", "retry_contact"): _retry,
    ("act", "discard"): _discard,
    ("act", "pass_turn"): _pass,
    ("act", "next_phase"): _next_phase,
    ("act", "end_match"): _end,
    ("act", "report_command"): _report_command,
    ("act", "place_unit"): _place,
    ("act", "remove_unit"): _remove,
    ("act", "set_cover"): _set_cover,
    ("confirm", "confirm"): _confirm,
    ("confirm", "dispute"): _dispute,
    ("target", "target"): _target,
    ("target_column", "target_column"): _target_column,
    ("target_column", "target"): _target,  # revision 2 still takes the whole hex in one step (not listed)
    ("target_row", "target_row"): _target_row,
    ("los", "los"): _los,
}
DECISION_KINDS = ("act", "target", "target_column", "target_row", "los", "confirm")
