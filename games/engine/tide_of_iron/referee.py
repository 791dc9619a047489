"""The referee's other choices: discards (revision 1), passing the turn, the phases and the end of the match,
the board reports (command points, units, cover), and revision 2's confirm/dispute protocol of reports."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalAction, required
from .actions import (
    COMMAND_POINTS,
    COVER_DICE,
    OFFICER,
    UNIT_KINDS,
    Confirm,
    Discard,
    Dispute,
    EndMatch,
    NextPhase,
    PassTurn,
    PlaceUnit,
    RemoveUnit,
    ReportCommand,
    SetCover,
)
from .activation import settle_los
from .setup import LEGACY_REVISION, OTHER, SEATS
from .state import TideOfIronState
from .toolkit import (
    DISPUTED,
    PHASE_DISPUTES,
    RESULTS,
    draw_cards,
    emit_event,
    hex_named,
    make_claim,
    reported_int,
    uses_protocol,
)


def on_discard(st: TideOfIronState, a: Discard) -> None:
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
    emit_event(st, "card_discarded", {"seat": a.seat, "card": a.card})


def on_pass(st: TideOfIronState, a: PassTurn) -> None:
    st.turn_seat = OTHER[a.seat]
    emit_event(st, "turn_passed", {"seat": a.seat, "to": st.turn_seat})


def on_next_phase(st: TideOfIronState, a: NextPhase) -> None:
    if uses_protocol(st) and st.disputes[OTHER[a.seat]] < PHASE_DISPUTES:
        make_claim(st, a.seat, {"type": "phase", "round": st.round, "phase": st.phase})
        return
    _advance_phase(st, a.seat)


def _advance_phase(st: TideOfIronState, by: str) -> None:
    st.disputes = dict.fromkeys(SEATS, 0)
    first = st.options.first_player
    if st.phase == "action":
        st.phase = "command"
    elif st.phase == "command":
        st.phase = "status"
        emit_event(st, "phase", {"round": st.round, "phase": "status", "by": by})
        scenario = st.catalog.scenarios[st.options.scenario]
        for seat in (first, OTHER[first]):
            draw_cards(st, seat, scenario.seats[seat]["status_draw"])
        st.turn_seat = first
        return
    else:
        st.round += 1
        st.phase = "action"
    st.turn_seat = first
    emit_event(st, "phase", {"round": st.round, "phase": st.phase, "by": by})


def on_end(st: TideOfIronState, a: EndMatch) -> None:
    if a.result not in RESULTS:
        raise IllegalAction(f"result is one of {list(RESULTS)}")
    if uses_protocol(st):
        make_claim(st, a.seat, {"type": "result", "result": a.result})
        return
    _end_match(st, a.seat, a.result)


def _end_match(st: TideOfIronState, by: str, result: str, **extra: Any) -> None:
    st.status = "finished"
    st.winner = None if result == "draw" else result
    st.result = {"kind": "reported", "result": result, "by": by, "round": st.round, **extra}
    emit_event(st, "match_ended", dict(st.result))


def on_report_command(st: TideOfIronState, a: ReportCommand) -> None:
    points = reported_int(a.points, *COMMAND_POINTS, "points")
    if uses_protocol(st):
        make_claim(st, a.seat, {"type": "command", "points": points, "previous": st.command[a.seat]})
        return
    _set_command(st, a.seat, points)


def _set_command(st: TideOfIronState, seat: str, points: int) -> None:
    st.command[seat] = points
    emit_event(st, "command_reported", {"seat": seat, "points": points})


def on_confirm(st: TideOfIronState, a: Confirm) -> None:
    claim, st.claim = required(st.claim, "claim"), None
    emit_event(st, "claim_confirmed", {**claim, "confirmed_by": a.seat})
    by = claim["by"]
    if claim["type"] == "command":
        _set_command(st, by, claim["points"])
    elif claim["type"] == "phase":
        _advance_phase(st, by)
    elif claim["type"] == "result":
        _end_match(st, by, claim["result"], confirmed_by=a.seat)
    else:  # los
        settle_los(st, claim["los"])


def on_dispute(st: TideOfIronState, a: Dispute) -> None:
    """The referee cannot see the board: a disputed report is not taken. Command points keep the previous
    count; the phase goes on and the disputing player decides (once per phase); a disputed result ends the
    match as "no result", never a victory; a disputed LOS counts as none (drift number 6, or 3 next to a
    reported friendly unit), settled before the drift dice are rolled."""
    claim, st.claim = required(st.claim, "claim"), None
    outcome = DISPUTED[claim["type"]]
    emit_event(st, "claim_disputed", {**claim, "disputed_by": a.seat, "outcome": outcome})
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
        emit_event(st, "match_ended", dict(st.result))
    elif claim["type"] == "los":
        settle_los(st, "none")


def on_place(st: TideOfIronState, a: PlaceUnit) -> None:
    h = hex_named(st, a.hex)
    if a.side not in SEATS or a.kind not in UNIT_KINDS or a.officer not in (None, *OFFICER):
        raise IllegalAction(
            f"side is one of {list(SEATS)}, kind one of {list(UNIT_KINDS)}, officer yes/no", code="bad_report"
        )
    officer = a.officer == "yes"
    if officer and a.kind != "squad":
        raise IllegalAction("an officer is in a squad", code="bad_report")
    st.units[a.unit] = {"hex": h.name, "side": a.side, "kind": a.kind, "officer": officer}
    emit_event(st, "unit_placed", {"unit": a.unit, **st.units[a.unit]})


def on_remove(st: TideOfIronState, a: RemoveUnit) -> None:
    if a.unit not in st.units:
        raise IllegalAction(f"no unit {a.unit!r} on the board", code="bad_report")
    del st.units[a.unit]
    emit_event(st, "unit_removed", {"unit": a.unit})


def on_set_cover(st: TideOfIronState, a: SetCover) -> None:
    h = hex_named(st, a.hex)
    cover = reported_int(a.cover, *COVER_DICE, "cover")
    if cover:
        st.cover[h.name] = cover
    else:
        st.cover.pop(h.name, None)
    emit_event(st, "cover_reported", {"hex": h.name, "cover": cover})
