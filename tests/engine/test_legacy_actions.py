"""Action logs stored before issue 22 still replay: the `choose` options that packed several values into one
string ("give:<army>", "trade:<army>:<card>", "seats:<army>", a stack ref) parse into the typed choice, and
the games the engine played then (tests/engine/legacy/games_before_issue_22.json), answers to the A-bomb
window asked as a `fire` decision included, replay to the same state."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.engine import (
    Action,
    GameSetup,
    IllegalAction,
    apply,
    legal_actions,
    load_catalog_dir,
    new_game,
    replay,
)
from games.engine.battlecards.actions import Choose
from tests.engine.helpers import rng_as_numbers

CATALOG = load_catalog_dir()
GAMES = json.loads((Path(__file__).parent / "legacy" / "games_before_issue_22.json").read_text())["games"]


@pytest.mark.parametrize(("option", "typed"), [
    ("give:allies-2", Choose("allies-1", "give", army="allies-2")),
    ("trade:allies-2:c17", Choose("allies-1", "trade", army="allies-2", card="c17")),
    ("seats:allies-2", Choose("allies-1", "seats", army="allies-2")),
    ("ground:1", Choose("allies-1", "stack", stack="ground:1")),
    ("sea:0", Choose("allies-1", "stack", stack="sea:0")),
    ("bc:c40", Choose("allies-1", "stack", stack="bc:c40")),
    ("fight", Choose("allies-1", "fight")),
    ("axis-2", Choose("allies-1", "axis-2")),
    ("trade:allies-2", Choose("allies-1", "trade:allies-2")),  # not an old form: left as is (illegal)
])
def test_an_old_string_option_parses_into_the_typed_choice(option, typed):
    action = Action.from_json({"type": "choose", "seat": "allies-1", "option": option})
    assert action == typed
    assert Action.from_json(action.to_json()) == typed  # the new form round-trips


def test_the_new_form_is_written_with_its_typed_fields():
    action = Choose("axis-1", "trade", army="axis-2", card="c5")
    assert action.to_json() == {"type": "choose", "seat": "axis-1", "option": "trade", "army": "axis-2",
                                "card": "c5"}
    # typed fields given: the option is taken as it is, never split
    assert Action.from_json({"type": "choose", "seat": "axis-1", "option": "ground:0", "stack": "ground:0"}) \
        == Choose("axis-1", "ground:0", stack="ground:0")


@pytest.mark.parametrize("game", GAMES, ids=[g["name"] for g in GAMES])
def test_a_log_stored_before_issue_22_replays_to_the_same_state(game):
    old_forms = {a["option"].partition(":")[0] for a in game["actions"]
                 if a["type"] == "choose" and ":" in a["option"]}
    if game["name"].startswith("team"):
        assert {"give", "trade", "seats"} <= old_forms  # the fixture holds every old team-play form
    st = replay(CATALOG, GameSetup.from_json(game["setup"]), game["actions"])
    assert st.ply == game["plies"]
    data = json.dumps(rng_as_numbers(st.to_json()), sort_keys=True).encode()
    assert hashlib.sha256(data).hexdigest() == game["state_sha256"]


def test_an_old_option_that_was_never_legal_is_still_refused():
    setup = GameSetup.from_json(GAMES[0]["setup"])
    with pytest.raises(IllegalAction):  # the first decision is the set-up deployment of axis-1
        replay(CATALOG, setup, [{"type": "choose", "seat": "axis-1", "option": "trade:axis-2:c1"}])


def test_the_answers_to_the_a_bomb_window_asked_as_a_fire_decision_before_issue_22_replay():
    """C8's out-of-turn A-bomb window was a `fire` decision before issue 22 (the actions: `pass` or the
    A-bomb's `play_card`); it is its own `a_bomb_window` decision now, answered by the same actions."""
    game = next(g for g in GAMES if "A-bomb window" in g["name"])
    st = new_game(CATALOG, GameSetup.from_json(game["setup"]))
    answers = []
    for action in game["actions"]:
        if st.decision.kind == "a_bomb_window":
            assert {a.type for a in legal_actions(st)} <= {"pass", "play_card"}
            answers.append(action["type"])
        apply(st, action)
    assert answers and set(answers) <= {"pass", "play_card"}
    assert len(answers) == int(game["name"].split(": ")[1].split()[0])  # as many as the old engine asked
    data = json.dumps(rng_as_numbers(st.to_json()), sort_keys=True).encode()
    assert hashlib.sha256(data).hexdigest() == game["state_sha256"]
