"""Issue 39: a decision as steps (web.decision_steps), over real engines' legal actions. At every step at most
15 controls show, every choice either sends one legal action or narrows to a smaller set, and walking every
path offers exactly the server's legal actions: none left out, none made up."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import registry
from web.decision_steps import SHOWN, decision_step, read_pick

FIRE = [{"type": "fire", "seat": "allies", "unit": u, "target": t} for u in ("c1", "c2", "c3", "c4", "c5")
        for t in ("c10", "c11", "c12", "c13", "c14", "c15", "c16", "c17", "c18", "c19", "c20", "c21", "c22")]
FIRE += [{"type": "hold", "seat": "allies", "unit": u} for u in ("c1", "c2", "c3", "c4", "c5")]


def same(actions: list[dict], legal: list[dict]) -> bool:
    return sorted(json.dumps(a, sort_keys=True) for a in actions) == sorted(
        json.dumps(a, sort_keys=True) for a in legal)


def walk(legal: list[dict], names: dict, cards: set[str]) -> tuple[list[dict], int]:
    """Every action a player can reach through the steps, and the most controls one step showed."""
    reached: list[dict] = []
    most = 0
    todo: list[tuple[dict, int]] = [({}, 0)]
    while todo:
        pick, page = todo.pop()
        step = decision_step(legal, pick, names, cards, page)
        controls = len(step["choices"]) + bool(step["back"]) + (step["more"] is not None)
        most = max(most, controls)
        assert step["choices"], "a step without a choice"
        for choice in step["choices"]:
            if choice["json"]:
                reached.append(json.loads(choice["json"]))
            else:
                narrowed = read_pick(choice["pick"])
                assert len(narrowed) > len(pick)
                todo.append((narrowed, 0))
        if step["more"] is not None:
            todo.append((pick, step["more"]))
    return reached, most


def test_a_fire_step_is_a_unit_then_its_targets_or_hold():
    names = {f"c{i}": f"card {i}" for i in range(30)}
    cards = set(names)
    first = decision_step(FIRE, {}, names, cards)
    assert first["field"] == "unit" and len(first["choices"]) == 5
    assert {c["card"] for c in first["choices"]} == {"c1", "c2", "c3", "c4", "c5"}  # lit on the table
    second = decision_step(FIRE, read_pick(first["choices"][0]["pick"]), names, cards)
    assert second["chosen"] == ["card 1"] and second["back"] == "{}"
    assert len(second["choices"]) == 12 and second["more"] == 1  # 13 targets and hold: two pages
    labels = [c["label"] for c in second["choices"]]
    assert labels[0] == "fire · target: card 10"  # the unit is said above, not again
    rest = decision_step(FIRE, read_pick(first["choices"][0]["pick"]), names, cards, page=1)
    assert [c["label"] for c in rest["choices"]] == ["fire · target: card 22", "hold"]
    assert rest["choices"][-1]["pass"] and rest["more"] is None
    reached, most = walk(FIRE, names, cards)
    assert same(reached, FIRE) and most <= 15


def test_a_stale_pick_starts_the_decision_over():
    step = decision_step(FIRE, {"unit": "c99"}, {}, set())
    assert step["pick"] == {} and step["field"] == "unit"
    assert read_pick("[1]") == {} and read_pick("not json") == {} and read_pick(None) == {}


def test_a_pick_made_before_the_last_move_does_not_narrow_the_next_decision():
    """The page's redraw sends the version its pick was made at (?at=): the stream may ask for a redraw
    while a move is on its way, and the board of the next move must not come back narrowed by the fields
    chosen for the last one (a unit's targets, say, when another unit is to fire)."""
    text = '{"unit": "c14"}'
    assert read_pick(text, at="41", version=41) == {"unit": "c14"}  # a redraw at the same version
    assert read_pick(text, at="40", version=41) == {}  # the game moved on
    assert read_pick(text) == {"unit": "c14"}  # a step chosen on the page (no ?at=)


def test_a_small_decision_is_its_actions_whole():
    legal = FIRE[:3] + FIRE[-1:]
    step = decision_step(legal, {}, {}, set())
    assert [json.loads(c["json"]) for c in step["choices"]] == legal and step["back"] is None


# the most legal actions a decision of the first 150 random plies offers, at least (The War's stay small)
@pytest.mark.parametrize(("game", "at_least"), [("battlecards", SHOWN + 1), ("battlefront", SHOWN + 1),
                                                ("the-war", 5)])
def test_every_decision_of_a_random_game_walks_to_exactly_its_legal_actions(game, at_least):
    engine = registry.get(game).engine
    catalog, setup = engine.example_game(5)
    state = engine.new_game(catalog, setup)
    rng = random.Random(5)
    biggest = 0
    for _ in range(150):
        if state.status != "active":
            break
        legal = [a.to_json() for a in engine.legal_actions(state)]
        biggest = max(biggest, len(legal))
        cards = {v for a in legal for v in a.values() if isinstance(v, str)}
        reached, most = walk(legal, {}, cards)
        assert same(reached, legal)
        assert most <= 15
        engine.apply(state, engine.legal_actions(state)[rng.randrange(len(legal))])
    assert biggest >= at_least  # Battlecards and Battlefront: decisions too big for one step


def test_the_table_draws_cards_as_faces_that_open_large_and_lights_the_offered_ones():
    from django.template import Context, Template

    payload = {"cards": {"bf-major": {"code": "bf-major", "name": "Major", "type": "L", "force": 5,
                                      "rulings": [{"text": "Counts as a leader."}]}}}
    view = {"deck_size": 28, "hand": [{"code": "bf-major", "type": "L", "force": 5}],
            "fronts": [{"front": "R", "cards": {"west": [{"code": "bf-major", "negated": True}]}}]}
    page = Template("{% load web_tags %}{% zone view names faces %}").render(Context({
        "view": view, "names": {"bf-major": "Major"}, "faces": {"bf-major": "/f/bf-major.svg"},
        "payload": payload, "decision": {"marks": {"bf-major": "pick"}},
    }))
    assert '<span class="badge"><span class="k">deck size</span> 28</span>' in page  # a counter: a badge
    assert page.count('<details class="card lit" data-card="bf-major"') == 2  # in hand and on a front
    assert '<ul class="stack cards-row">' in page  # the hand: a row of faces
    assert 'width="96" height="134"' in page and 'width="300" height="420"' in page  # on the table; large
    assert "<dt>force</dt><dd>5</dd>" in page and "Counts as a leader." in page  # its values and rulings
    assert '<span class="badge">negated yes</span>' in page  # a mark of the card in play
