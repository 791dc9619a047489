"""An activated Strategy card: contact and its retry, the target (one hex, or column then row in revision
2), the LOS report, drift, area attacks, and where the card goes after it resolves."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, required
from .actions import (
    Activate,
    Los,
    RetryContact,
    Target,
    TargetColumn,
    TargetRow,
)
from .hexes import Board, Hex, drift
from .setup import DRIFT_NUMBERS, LOS, Card
from .state import Activation, TideOfIronState
from .toolkit import (
    after_action,
    board_of,
    effective_cost,
    emit_event,
    hex_named,
    make_claim,
    reported_int,
    retry_allowed,
    roll_die,
    units_in,
    uses_protocol,
)


def on_activate(st: TideOfIronState, a: Activate) -> None:
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
    emit_event(
        st,
        "card_activated",
        {"seat": seat, "card": a.card, "printed_cost": card.cost, "cost": cost, "command": st.command[seat]},
    )
    if not card.keywords:
        _finish(st, seat, card, placed_round=st.round)
        after_action(st)
        return
    st.pending = Activation(seat, a.card)
    resolve(st)


def on_retry(st: TideOfIronState, a: RetryContact) -> None:
    seat = a.seat
    entry = next((e for e in st.play[seat] if e["card"] == a.card and retry_allowed(st, seat, e)), None)
    if entry is None:
        raise IllegalAction(
            f"{a.card} cannot seek contact now (once in every later round, as an action)", code="no_retry"
        )
    st.play[seat].remove(entry)  # held by the resolution; back in the play area if contact fails again
    emit_event(st, "contact_retried", {"seat": seat, "card": a.card, "round": st.round})
    st.pending = Activation(seat, a.card, from_play=True, entry=entry)
    resolve(st)


def resolve(st: TideOfIronState) -> None:
    """Resolve the pending card's keywords in order until one needs a decision or the card is done."""
    p = st.pending
    assert p is not None
    seat = p.seat
    card = st.catalog.card(p.card)
    while p.step < len(card.keywords):
        kw = card.keywords[p.step]
        if kw.keyword == "establish-contact":
            assert kw.value is not None  # its target number (TideOfIronCatalog.from_dicts checks it)
            die = roll_die(st)
            made = die >= kw.value  # "equal to or higher than the target number"
            emit_event(
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
                    emit_event(st, "placed_in_play_area", {"seat": seat, "card": card.code, "waiting": True})
                st.pending = None
                after_action(st)
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
                for h in board_of(st).neighbours(centre):
                    if units_in(st, h.name):
                        _area_attack(st, seat, card, kw, h, kind="wide_blast_attack")
        p.step += 1
        p.need = None
    _finish(st, seat, card, placed_round=st.round)
    st.pending = None
    after_action(st)


def _drift(st: TideOfIronState, p: Activation) -> bool:
    """Roll the red and the black die from the target hex; False when the final hex is off the board."""
    seat = p.seat
    target = Hex.parse(required(p.target, "target hex"))
    basis = required(p.los, "LOS report")
    # "or the target token is located in a hex either containing, or adjacent to, any friendly unit"
    if any(u["side"] == seat and Hex.parse(u["hex"]).distance(target) <= 1 for u in st.units.values()):
        basis = "adjacent" if DRIFT_NUMBERS[basis] > DRIFT_NUMBERS["adjacent"] else basis
    number = DRIFT_NUMBERS[basis]
    black, red = roll_die(st), roll_die(st)
    out = drift(board_of(st), target, drift_number=number, black=black, red=red, marker=st.options.marker)
    emit_event(
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
            "half_hex": board_of(st).is_half(out.final),
        },
    )
    if not out.on_board:
        # "the Strategy card has no additional effect, and is placed back in the game box"
        st.box.append(p.card)
        emit_event(
            st,
            "card_resolved",
            {"seat": seat, "card": p.card, "outcome": "drifted_off_board", "to": "box"},
        )
        st.pending = None
        after_action(st)
        return False
    p.final = out.final.name
    return True


def _area_attack(st: TideOfIronState, seat: str, card: Card, kw: Any, h: Hex, *, kind: str) -> None:
    """One area attack on one hex: the attacker's dice once, then each affected unit's own defense dice.
    Vehicles are unaffected by suppressive attacks; friendly units are hit like enemy ones."""
    units = units_in(st, h.name)
    affected = [(label, u) for label, u in units if not (kw.suppressive and u["kind"] == "vehicle")]
    for label, u in units:
        if (label, u) not in affected:
            emit_event(
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
        emit_event(
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
    dice = [roll_die(st) for _ in range(kw.value)]
    successes = sum(1 for d in dice if d >= kw.success_on)
    emit_event(
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
        defense = [roll_die(st) for _ in range(cover)]
        saved = sum(1 for d in defense if d >= st.options.defense_success_on)
        emit_event(
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
        emit_event(st, "placed_in_play_area", {"seat": seat, "card": card.code, "waiting": False})
    else:
        st.box.append(card.code)
        emit_event(st, "card_resolved", {"seat": seat, "card": card.code, "outcome": "resolved", "to": "box"})


def on_target(st: TideOfIronState, a: Target) -> None:
    _place_target(st, a.seat, hex_named(st, a.hex))


def _place_target(st: TideOfIronState, seat: str, h: Hex) -> None:
    p = st.pending
    assert p is not None  # the target decisions exist only while an activation is pending
    p.column = None
    p.target, p.need = h.name, None
    emit_event(st, "target_placed", {"seat": seat, "card": p.card, "hex": h.name})
    p.step += 1
    resolve(st)


def target_columns(board: Board) -> list[int]:
    """The columns holding a full hex (every column of an even row)."""
    return sorted({h.col for h in board.hexes()})


def target_rows(board: Board, column: int | None) -> list[int]:
    """The rows where the column is a full hex (column 0 is a half hex in odd rows)."""
    return [r for r in range(board.height) if column is not None and board.on_board(Hex(column, r))]


def on_target_column(st: TideOfIronState, a: TargetColumn) -> None:
    """ "placing the target token on any board hex", in two steps: the column first."""
    column = reported_int(a.column, 0, board_of(st).width - 1, "column")
    if column not in target_columns(board_of(st)):
        raise IllegalAction(f"column {column} holds no full hex", code="not_a_board_hex")
    p = st.pending
    assert p is not None  # the target decisions exist only while an activation is pending
    p.column = column


def on_target_row(st: TideOfIronState, a: TargetRow) -> None:
    p = st.pending
    assert p is not None and p.column is not None  # target_row follows target_column
    row = reported_int(a.row, 0, board_of(st).height - 1, "row")
    _place_target(st, a.seat, hex_named(st, Hex(p.column, row).name))


def officer_ok(st: TideOfIronState, seat: str) -> bool:
    """ "within LOS of a non-fatigued squad containing an officer": a player who reported units of his side
    claims an officer's LOS only with one of them a squad with an officer (revision 2; with no unit reported,
    the other player's confirmation decides)."""
    if not uses_protocol(st):
        return True
    own = [u for u in st.units.values() if u["side"] == seat]
    return not own or any(u["kind"] == "squad" and u["officer"] for u in own)


def on_los(st: TideOfIronState, a: Los) -> None:
    if a.los not in LOS:
        raise IllegalAction(f"los is one of {list(LOS)}")
    p = st.pending
    assert p is not None  # the los decision exists only while an activation is pending
    if a.los == "officer" and not officer_ok(st, a.seat):
        raise IllegalAction(
            "an officer's LOS needs one of your reported squads with an officer", code="no_officer"
        )
    if uses_protocol(st) and a.los != "none":  # "none" is the least the player can claim: never disputed
        make_claim(st, a.seat, {"type": "los", "los": a.los, "card": p.card, "target": p.target})
        return
    settle_los(st, a.los)


def settle_los(st: TideOfIronState, los: str) -> None:
    p = st.pending
    assert p is not None  # a LOS claim is made while its activation is pending
    p.los, p.need = los, None
    resolve(st)
