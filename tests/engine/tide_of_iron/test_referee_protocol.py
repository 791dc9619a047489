"""Issue 36 item 8 at the engine level: the referee protocol of rules revision 2 (README.md, "The referee
protocol"): disputes are bounded, so random play of both seats ends; a legacy match takes reports at once."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import tide_of_iron as toi
from tests.engine.tide_of_iron.conftest import catalog

UNITS = [("D", "5,5", "allies", "squad", "yes"), ("A", "6,5", "axis", "squad", "no")]


def _random_match(seed: int, *, ending: bool, plies: int) -> tuple[toi.TideOfIronState, int]:
    """Both seats choose at random among their legal actions (end_match left out unless `ending`); returns
    the state and the most phase ends disputed in one phase."""
    rnd = random.Random(seed)
    st = toi.new_game(
        catalog(), toi.GameSetup(seed=seed, options=toi.Options(board_width=12, board_height=10))
    )
    for label, hex_, side, kind, officer in UNITS:
        toi.apply(
            st,
            {
                "type": "place_unit",
                "seat": "allies",
                "unit": label,
                "hex": hex_,
                "side": side,
                "kind": kind,
                "officer": officer,
            },
        )
    most = disputed = 0
    for _ in range(plies):
        if st.status != "active":
            break
        legal = toi.legal_actions(st)
        if not ending:
            legal = [a for a in legal if a.type != "end_match"] or legal
        if st.decision.kind == "act" and st.command[st.decision.seat] < 2 and rnd.random() < 0.3:
            action = {"type": "report_command", "seat": st.decision.seat, "points": str(rnd.randint(0, 9))}
        else:
            action = rnd.choice(legal).to_json()
        phase = (st.round, st.phase)
        events = toi.apply(st, action)
        if any(e.type == "claim_disputed" and e.data["type"] == "phase" for e in events):
            disputed += 1
            most = max(most, disputed)
        if (st.round, st.phase) != phase:
            disputed = 0
    return st, most


@settings(max_examples=10, deadline=None)
@given(seed=hs.integers(0, 2**20))
def test_random_play_of_both_seats_ends_and_a_phase_end_is_disputed_at_most_once_by_each(seed):
    st, most = _random_match(seed, ending=False, plies=1500)
    assert most <= 2  # once by each player in a phase
    assert st.round >= 3, "the phases go on under random disputes"
    st, _ = _random_match(seed, ending=True, plies=3000)
    assert st.status == "finished"  # an end_match claim ends the match, confirmed or disputed
    assert st.winner is None or st.result["kind"] == "reported"


def test_a_legacy_match_takes_every_report_at_once():
    setup = toi.GameSetup.from_json({"seed": 3, "options": {"board_width": 12, "board_height": 10}})
    st = toi.new_game(catalog(), setup)
    toi.apply(st, {"type": "report_command", "seat": "allies", "points": "99"})
    assert st.command["allies"] == 99 and st.decision.kind == "act" and "claim" not in st.to_json()
    toi.apply(st, {"type": "end_match", "seat": "allies", "result": "allies"})
    assert st.winner == "allies"
