"""The activation being resolved is a slotted dataclass (issue 22: no frame is a dict), stored as the very
JSON dict it was before it was typed: a fresh activation without "entry", a contact retry with its
play-area entry."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from games.engine import tide_of_iron as toi
from games.engine.tide_of_iron.state import Activation
from tests.engine.tide_of_iron.conftest import ScriptedDice, act, catalog, give
from vocabulary.tide_of_iron import read_documents

CARD = "toi-sustained-blanket"


def _rolling(st: toi.TideOfIronState, *dice: int, **action) -> None:
    """Apply `action` with the scripted dice, then give the match its own RNG back (it is serialised)."""
    rng, st.rng = st.rng, ScriptedDice(*dice)
    act(st, **action)
    assert st.rng.dice == []
    st.rng = rng


def _round_trip(st: toi.TideOfIronState) -> dict:
    data = json.loads(json.dumps(st.to_json()))
    again = toi.TideOfIronState.from_json(data, catalog())
    assert again == st and again.decision == st.decision and again.to_json() == data
    return data


def test_the_activation_is_a_slotted_dataclass_and_no_mapping():
    assert dataclasses.is_dataclass(Activation) and Activation.__dictoffset__ == 0
    assert not any(hasattr(Activation, m) for m in ("__getitem__", "get", "setdefault"))


def test_an_activation_and_a_retry_keep_their_stored_json(new_match):
    st = new_match()
    give(st, "allies", CARD)
    act(st, "allies", "report_command", points="3")
    _rolling(st, 4, seat="allies", type_="activate", card=CARD)  # contact: the referee asks for the target
    assert isinstance(st.pending, Activation) and st.decision.kind == "target_column"
    assert _round_trip(st)["pending"] == {"seat": "allies", "card": CARD, "step": 1, "target": None,
                                          "los": None, "final": None, "need": "target", "from_play": False}
    act(st, "allies", "target", hex="8,8")
    assert _round_trip(st)["pending"]["need"] == "los"

    st = new_match()
    give(st, "allies", CARD)
    act(st, "allies", "report_command", points="3")
    _rolling(st, 3, seat="allies", type_="activate", card=CARD)  # no contact: it waits in the play area
    act(st, "axis", "pass_turn")
    for _ in range(3):  # action -> command -> status -> round 2
        act(st, "allies", "next_phase")
    _rolling(st, 4, seat="allies", type_="retry_contact", card=CARD)
    assert _round_trip(st)["pending"] == {
        "seat": "allies", "card": CARD, "step": 1, "target": None, "los": None, "final": None,
        "need": "target", "from_play": True, "entry": {"card": CARD, "round": 1, "pending": True, "tried": 1}}


@pytest.mark.parametrize("pending", [{"seat": "allies"}, {"seat": "allies", "card": CARD, "step": 0,
                                     "target": None, "los": None, "final": None, "need": None,
                                     "from_play": False, "extra": 1}])
def test_a_malformed_activation_is_a_state_error(new_match, pending):
    data = new_match().to_json()
    data["pending"] = pending
    with pytest.raises(toi.StateError):
        toi.TideOfIronState.from_json(data, catalog())


def test_establish_contact_without_a_target_number_is_a_bad_catalog():
    cards, decks = copy.deepcopy(read_documents())
    for card in cards["cards"]:
        for k in card.get("keywords") or ():
            if k["keyword"] == "establish-contact":
                del k["value"]
    with pytest.raises(toi.SetupError) as err:
        toi.TideOfIronCatalog.from_dicts(cards=cards["cards"], decks=decks["decks"],
                                         scenarios=decks["scenarios"])
    assert err.value.code == "bad_catalog" and "target number" in err.value.message
