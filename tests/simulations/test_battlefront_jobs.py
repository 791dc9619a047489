"""Simulation jobs of the second game (issue 15): Battlefront jobs through the same API and workers."""

from __future__ import annotations

import pytest

from games.simulation import play_games, tally
from simulations.models import SimulationJob

pytestmark = pytest.mark.django_db


def bf_job(**overrides):
    body = {"game_type": "battlefront", "games": 5, "seed": 15, "bots": {"a": "heuristic", "b": "random"}}
    body.update(overrides)
    return body


def test_a_battlefront_job_plays_the_same_games_as_a_local_simulation(submit, alice, api):
    response = submit(alice, **bf_job(options={"two_front_victory": True}))
    assert response.status_code == 202, response.json()
    done = api(alice).get(f"/api/simulations/{response.json()['id']}/").json()
    assert done["status"] == "done", done
    assert done["request"] == {
        "game_type": "battlefront",
        "bots": {"west": "heuristic", "east": "random"},
        "options": {"two_front_victory": True},
    }
    result = done["result"]
    assert set(result["seats"]) == {"west", "east"} and result["unfinished"] == 0
    assert result["seats"]["west"]["wins"] + result["seats"]["east"]["wins"] + result["draws"] == 5

    from games.engine import battlefront as bf

    job = SimulationJob.objects.get(pk=done["id"])
    catalog = bf.BattlefrontCatalog.from_dicts(**job.spec["catalog"])
    setup = bf.GameSetup.from_json(job.spec["variants"][0]["setup"])
    assert setup.options.two_front_victory is True
    outcomes = play_games(
        catalog=catalog, setup=setup, bots=job.spec["bots"], base_seed=15, indices=range(5),
        game_type="battlefront",
    )
    local = tally(outcomes, workers=1, seconds=1.0, bots=job.spec["bots"], game_type="battlefront").to_dict()
    assert result["seats"] == local["seats"] and result["average_turns"] == local["average_turns"]


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"deck_a": {"starter": "gb-we-starter"}}, "deck_not_allowed"),
        ({"options": {"special_cards": {"west": "DE"}}}, "invalid_options"),
        ({"game_type": "battlecards"}, "invalid"),  # Battlecards still needs its two decks
    ],
)
def test_bad_battlefront_jobs_are_refused_and_write_nothing(submit, alice, overrides, code):
    response = submit(alice, **bf_job(**overrides))
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert not SimulationJob.objects.exists()
