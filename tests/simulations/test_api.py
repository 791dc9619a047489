"""Simulation jobs through the API: submit (202), progress, results with Wilson intervals, cancel, access."""

from __future__ import annotations

import pytest

from games.simulation import SEATS, play_games, tally
from simulations.models import JobStatus, SimulationChunk, SimulationJob
from simulations.services import simulation_chunk_run
from tests.simulations.conftest import sim_body


def test_a_job_runs_to_the_end_and_shows_win_rates_with_confidence_intervals(submit, alice, api):
    response = submit(alice, **sim_body(games=5))
    assert response.status_code == 202, response.json()
    job = response.json()
    assert job["status"] == "queued" and job["progress"]["games_total"] == 5
    detail = api(alice).get(f"/api/simulations/{job['id']}/")
    assert detail.status_code == 200
    done = detail.json()
    assert done["status"] == "done", done
    assert done["progress"]["games_done"] == 5 and done["progress"]["fraction"] == 1.0
    result = done["result"]
    assert result["games"] == 5
    wins = sum(result["seats"][seat]["wins"] for seat in SEATS)
    assert wins + result["draws"] + result["unfinished"] == 5
    for seat in SEATS:
        low, high = result["seats"][seat]["ci95"]
        assert 0 <= low <= result["seats"][seat]["rate"] <= high <= 1
    assert sum(result["end_reasons"].values()) == 5
    assert result["average_turns"] > 0
    assert result["timing"]["games_per_second"] > 0
    assert done["request"]["bots"] == {"allies": "random", "axis": "random"}


def test_the_result_is_the_local_simulation_of_the_same_seeds(submit, alice, api):
    """Per-game seeds come from (job seed, game index), as in `manage.py simulate`: same games, same tally."""
    job_id = submit(alice, **sim_body(games=4, seed=9)).json()["id"]
    job = SimulationJob.objects.get(pk=job_id)
    from games import engine
    from games.catalog_snapshot import catalog_from_snapshot

    catalog = catalog_from_snapshot(job.spec["catalog"])
    setup = engine.GameSetup.from_json(job.spec["variants"][0]["setup"])
    local = tally(
        play_games(catalog=catalog, setup=setup, bots=job.spec["bots"], base_seed=9, indices=range(4)),
        workers=1,
        seconds=1.0,
        bots=job.spec["bots"],
    ).to_dict()
    for seat in SEATS:
        assert job.result["seats"][seat] == local["seats"][seat]
    assert job.result["average_turns"] == local["average_turns"]


def test_chunks_are_counted_once_and_order_does_not_matter(
    alice, catalog_rows, settings, django_capture_on_commit_callbacks
):
    from simulations.services import simulation_create

    settings.SIMULATION_RUNNER = "inline"
    results = []
    for order in ([0, 1, 2], [2, 0, 1]):
        settings.SIMULATION_RUNNER = "none"  # queue only: the test plays the chunks itself
        job = simulation_create(
            user=alice,
            deck_a={"starter": "gb-we-starter"},
            deck_b={"starter": "de-we-starter"},
            bots=("random", "random"),
            games=5,
            seed=3,
            chunk_games=2,
        )
        for index in order:
            assert simulation_chunk_run(job_id=job.pk, index=index) is True
            assert simulation_chunk_run(job_id=job.pk, index=index) is False  # a redelivery: nothing new
        job.refresh_from_db()
        assert job.status == JobStatus.DONE and job.games_done == 5
        assert SimulationChunk.objects.filter(job=job).count() == 3
        results.append({k: v for k, v in job.result.items() if k != "timing"})
    assert results[0] == results[1]


def test_a_user_sees_only_his_own_jobs(submit, alice, bob, api):
    job_id = submit(alice, **sim_body(games=2)).json()["id"]
    assert api(bob).get(f"/api/simulations/{job_id}/").status_code == 404
    assert api(bob).delete(f"/api/simulations/{job_id}/").status_code == 404
    assert api(bob).get("/api/simulations/").json()["count"] == 0
    listed = api(alice).get("/api/simulations/").json()
    assert [j["id"] for j in listed["results"]] == [job_id]
    assert api(None).get("/api/simulations/").status_code == 401
    assert api(alice).get("/api/simulations/not-a-uuid/").status_code == 404


def test_the_list_uses_a_constant_number_of_queries(submit, alice, api, django_assert_max_num_queries):
    for seed in range(3):
        submit(alice, **sim_body(games=1, seed=seed))
    with django_assert_max_num_queries(4):
        response = api(alice).get("/api/simulations/")
    assert response.json()["count"] == 3


def test_cancel_stops_a_queued_job(api, alice, catalog_rows, settings):
    settings.SIMULATION_RUNNER = "none"  # nothing runs it
    job = api(alice).post("/api/simulations/", sim_body(games=4), format="json").json()
    cancelled = api(alice).delete(f"/api/simulations/{job['id']}/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert simulation_chunk_run(job_id=job["id"], index=0) is False
    assert SimulationChunk.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (sim_body(games=0), 400, "invalid"),
        (sim_body(games=10**6), 400, "too_many_games"),
        (sim_body(deck_b={"starter": "gb-we-starter"}), 400, "illegal_matchup"),
        (sim_body(deck_a={"deck_id": 999999}), 404, "deck_not_found"),
        (sim_body(bots={"a": "genius"}), 400, "invalid"),
        (sim_body(options={"no_such_rule": True}), 400, "invalid_options"),
    ],
)
def test_bad_requests_are_clear_4xx_and_write_nothing(api, alice, catalog_rows, settings, body, status, code):
    settings.SIMULATION_RUNNER = "none"
    response = api(alice).post("/api/simulations/", body, format="json")
    assert response.status_code == status, response.json()
    data = response.json()
    assert data["status"] == status and data["code"] == code
    assert SimulationJob.objects.count() == 0


def test_quotas_bound_active_jobs_and_games_per_day(api, alice, catalog_rows, settings):
    settings.SIMULATION_RUNNER = "none"
    settings.SIMULATION_MAX_ACTIVE_JOBS = 2
    settings.SIMULATION_MAX_GAMES_PER_DAY = 25
    for _ in range(2):
        assert api(alice).post("/api/simulations/", sim_body(games=10), format="json").status_code == 202
    third = api(alice).post("/api/simulations/", sim_body(games=1), format="json")
    assert third.status_code == 429 and third.json()["code"] == "simulation_quota"
    SimulationJob.objects.update(status=JobStatus.DONE)
    over_day = api(alice).post("/api/simulations/", sim_body(games=10), format="json")
    assert over_day.status_code == 429 and over_day.json()["code"] == "simulation_quota"
    assert api(alice).post("/api/simulations/", sim_body(games=5), format="json").status_code == 202


def test_submissions_are_throttled_per_user(api, alice, bob, catalog_rows, settings):
    import copy

    from django.core.cache import cache

    cache.clear()
    settings.SIMULATION_RUNNER = "none"
    rest = copy.deepcopy(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"]["simulations"] = "2/hour"
    settings.REST_FRAMEWORK = rest
    try:
        codes = [
            api(alice).post("/api/simulations/", sim_body(games=1), format="json").status_code
            for _ in range(3)
        ]
        throttled = api(alice).post("/api/simulations/", sim_body(games=1), format="json").json()
        other = api(bob).post("/api/simulations/", sim_body(games=1), format="json").status_code
        listing = api(alice).get("/api/simulations/").status_code
    finally:
        cache.clear()
    assert codes == [202, 202, 429] and throttled["code"] == "throttled"
    assert other == 202 and listing == 200  # per user, and reading is not a submission


def test_manage_py_simulate_can_submit_a_job(transactional_db, catalog_rows, settings):
    import io
    import json

    from django.core.management import call_command

    settings.SIMULATION_RUNNER = "inline"
    out = io.StringIO()
    call_command(
        "simulate",
        "--decks",
        "gb-we-starter",
        "de-we-starter",
        "--games",
        "3",
        "--seed",
        "4",
        "--bots",
        "random",
        "random",
        "--queue",
        "--wait",
        stdout=out,
        stderr=io.StringIO(),
    )
    payload = json.loads(out.getvalue())
    assert payload["status"] == "done" and payload["result"]["games"] == 3
    job = SimulationJob.objects.get(pk=payload["id"])
    assert job.owner is None and job.games_done == 3


def test_without_a_broker_jobs_run_in_a_background_thread(
    transactional_db, catalog_rows, settings, api, alice
):
    """The embedded default (`make run`, no CELERY_BROKER_URL): the request answers, a thread plays."""
    import time

    settings.SIMULATION_RUNNER = "auto"
    settings.CELERY_BROKER_URL = ""
    response = api(alice).post("/api/simulations/", sim_body(games=4), format="json")
    assert response.status_code == 202
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = api(alice).get(f"/api/simulations/{response.json()['id']}/").json()
        if job["status"] == "done":
            break
        time.sleep(0.05)
    assert job["status"] == "done" and job["result"]["games"] == 4
    from simulations.runner import _runners

    for thread in list(_runners):  # the runner gives its slot back and stops: let it, before the flush
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in _runners)


def test_decks_may_be_your_own_or_public_but_not_another_players_private_deck(
    submit, alice, bob, catalog, api
):
    from decks.rules import set_arsenal_counts
    from decks.services import deck_create

    entries = set_arsenal_counts(catalog.sets["de-we-starter"], catalog, "DE")
    public = deck_create(owner=bob, name="bob's public", nation="DE", entries=entries, is_public=True)
    private = deck_create(owner=bob, name="bob's private", nation="DE", entries=entries)
    ok = submit(alice, **sim_body(games=2, deck_b={"deck_id": public.pk}))
    assert ok.status_code == 202, ok.json()
    assert ok.json()["request"]["decks"]["axis"]["deck_id"] == public.pk
    refused = submit(alice, **sim_body(games=2, deck_b={"deck_id": private.pk}))
    assert refused.status_code == 404 and refused.json()["code"] == "deck_not_found"


def test_the_admin_lists_jobs(submit, alice, client, django_user_model):
    submit(alice, **sim_body(games=2))
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "x-admin-pass-1")
    client.force_login(admin)
    page = client.get("/admin/simulations/simulationjob/")
    assert page.status_code == 200 and b"simulation" in page.content
    job = SimulationJob.objects.get()
    detail = client.get(f"/admin/simulations/simulationjob/{job.pk}/change/")
    assert detail.status_code == 200
    assert b"catalog_hash" not in detail.content  # the workers' input (spec) is not shown


def test_a_job_plays_the_pacific_and_eastern_front_theaters(submit, alice):
    """Simulation jobs accept any theater: conflict.theater, or the one the two starters share."""
    pairs = (("us-starter", "jp-starter", "PAC"), ("ru-starter", "de-ef-starter", "EF"))
    for deck_a, deck_b, theater in pairs:
        response = submit(
            alice, **sim_body(deck_a={"starter": deck_a}, deck_b={"starter": deck_b}, games=2,
                              conflict={"theater": theater})
        )
        assert response.status_code == 202, response.json()
        job = SimulationJob.objects.get(pk=response.json()["id"])
        assert job.status == JobStatus.DONE, job.status
        assert job.request["conflict"]["theater"] == theater
        assert job.result["games"] == 2


def test_a_simulation_may_cap_battle_rounds_and_counts_the_capped_battles(submit, alice, api):
    """Issue 12: the round cap is an explicit simulation option (the rulebook has no round limit); the
    result counts the battles it settled."""
    capped = submit(alice, **sim_body(games=3, seed=4, options={"max_battle_rounds": 1})).json()
    result = api(alice).get(f"/api/simulations/{capped['id']}/").json()["result"]
    assert result["round_cap_battles"] > 0  # random bots rarely end a battle in one round
    plain = submit(alice, **sim_body(games=3, seed=4)).json()
    assert api(alice).get(f"/api/simulations/{plain['id']}/").json()["result"]["round_cap_battles"] == 0
