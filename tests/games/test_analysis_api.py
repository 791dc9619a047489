"""GET/POST /api/games/{id}/analysis/ (issue 41): who may ask and read, bounded per user, re-used, its
progress, and that it shows no more than the replay shows its reader (the hidden-information oracle)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.analysis_selectors import analysis_available
from games.engine import battlefront as bf
from games.game_types import GAME_TYPES
from games.models import AnalysisStatus, Game, GameAnalysis
from games.services import analysis as analysis_services
from tests.games.conftest import json_strings
from tests.games.test_replay_privacy import _finished_bot_game, _private_gb_deck

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.GAMES_ANALYSIS_ITERATIONS = 6
    settings.GAMES_ANALYSIS_RUNNER = "inline"
    return settings


def finished_battlefront(
    api: Any, user: Any, *, moves: int = 3, spectators: bool = True, seed: int = 41
) -> str:
    """A Battlefront game of `user` (east) against the heuristic bot: `moves` of his random legal actions,
    then he resigns."""
    body = {"game_type": "battlefront", "opponent": {"kind": "bot", "bot": "heuristic"}, "seat": "east",
            "seed": seed, "spectators": {"allowed": spectators}}
    created = api(user).post("/api/games/", body, format="json")
    assert created.status_code == 201, created.json()
    gid = created.json()["id"]
    me = bf.RandomBot(salt="analysis-test")
    for _ in range(moves):
        view = api(user).get(f"/api/games/{gid}/view/").json()
        if view["status"] == "finished":
            return gid
        legal = [bf.Action.from_json(a) for a in view["view"]["decision"]["legal_actions"]]
        action = me.choose(view["view"], legal, "east")
        answer = api(user).post(f"/api/games/{gid}/actions/", {"version": view["version"],
                                                                 "action": action.to_json()}, format="json")
        assert answer.status_code == 200, answer.json()
    assert api(user).post(f"/api/games/{gid}/resign/").status_code == 200
    return gid


def url(gid: str) -> str:
    return f"/api/games/{gid}/analysis/"


@pytest.fixture
def ask(api, django_capture_on_commit_callbacks) -> Any:
    """POST the analysis request as `user`; the job (inline, unless a test queues only) runs at its commit."""

    def post(user: Any, gid: str) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return api(user).post(url(gid))

    return post


def test_a_player_asks_once_and_everyone_reads_the_stored_analysis(
    catalog_rows, api, alice, carol, monkeypatch, ask
):
    gid = finished_battlefront(api, alice)
    assert api(None).get(url(gid)).json()["status"] == "none"
    dispatched = []
    real = analysis_services.analysis_runner.dispatch
    monkeypatch.setattr(analysis_services.analysis_runner, "dispatch",
                        lambda **kw: (dispatched.append(kw), real(**kw)))
    first = ask(alice, gid)
    assert first.status_code == 202, first.json()
    done = api(alice).get(url(gid)).json()
    assert done["status"] == "done" and done["plies_done"] == done["plies_total"] > 0
    assert done["iterations"] == 6 and done["moves_shown"] is True
    for entry in done["plies"]:
        assert set(entry["wins"]) == {"west", "east"}
        assert abs(sum(entry["wins"].values()) - 1) < 1e-6
        assert entry["played"]["seat"] == entry["seat"]
    # re-used: a second request (the player's or another user's) returns the stored one, no new job
    again = ask(carol, gid)
    assert again.status_code == 200 and again.json()["plies"] == done["plies"]
    assert len(dispatched) == 1
    # anyone may read it, as the replay (Battlefront's replay is whole: the moves are shown)
    public = api(None).get(url(gid)).json()
    assert public["plies"] == done["plies"] and public["moves_shown"] is True


def test_authorization_matrix(catalog_rows, api, alice, bob, carol, settings, ask):
    settings.GAMES_ANALYSIS_RUNNER = "none"
    running = api(alice).post("/api/games/", {"game_type": "battlefront", "opponent": {"kind": "human"}},
                              format="json").json()["id"]
    assert api(bob).post(f"/api/games/{running}/join/").status_code == 200
    # a game being played: unseen by strangers (404), not finished for its players (409); anonymous POST 401
    assert api(carol).get(url(running)).status_code == 404
    assert ask(carol, running).status_code == 404
    assert ask(None, running).status_code == 401
    for player in (alice, bob):
        for method in ("get", "post"):
            answer = getattr(api(player), method)(url(running))
            assert (answer.status_code, answer.json()["code"]) == (409, "game_not_finished")
    # finished, spectators not allowed: players may ask; another user may read but not ask (403)
    assert api(alice).post(f"/api/games/{running}/resign/").status_code == 200
    assert api(None).get(url(running)).status_code == 200
    assert ask(None, running).status_code == 401
    refused = ask(carol, running)
    assert (refused.status_code, refused.json()["code"]) == (403, "spectators_not_allowed")
    assert ask(bob, running).status_code == 202
    # spectators allowed: anyone signed in may ask
    watched = finished_battlefront(api, alice, spectators=True, seed=7)
    assert ask(carol, watched).status_code == 202
    # no such game
    missing = "00000000-0000-4000-8000-000000000041"
    assert api(carol).get(url(missing)).json()["code"] == "game_not_found"


def test_one_analysis_under_way_per_user(catalog_rows, api, alice, settings, ask):
    settings.GAMES_ANALYSIS_RUNNER = "none"  # queued only: it stays under way
    first, second = finished_battlefront(api, alice, seed=1), finished_battlefront(api, alice, seed=2)
    assert ask(alice, first).status_code == 202
    assert ask(alice, first).status_code == 200  # the same one, under way
    refused = ask(alice, second)
    assert refused.status_code == 429
    assert refused.json() | {"detail": ""} == {"status": 429, "code": "analysis_quota", "detail": "",
                                                "limit": 1, "actual": 1}
    assert api(alice).get(url(first)).json()["status"] == "queued"
    analysis_services.game_analysis_run(analysis_id=first)
    assert api(alice).get(url(first)).json()["status"] == "done"
    assert ask(alice, second).status_code == 202  # the first one ended


def test_progress_is_visible_while_it_runs(catalog_rows, api, alice, settings, monkeypatch, ask):
    settings.GAMES_ANALYSIS_RUNNER = "none"
    gid = finished_battlefront(api, alice, moves=4)
    assert ask(alice, gid).status_code == 202
    monkeypatch.setattr(analysis_services, "PROGRESS_SECONDS", 0)
    seen: list[tuple[str, int]] = []
    real = analysis_services.analyse_game

    def spy(**kw: Any) -> Any:
        inner = kw["on_ply"]

        def on_ply(result: Any) -> None:
            inner(result)
            now = api(alice).get(url(gid)).json()
            seen.append((now["status"], now["plies_done"]))

        return real(**{**kw, "on_ply": on_ply})

    monkeypatch.setattr(analysis_services, "analyse_game", spy)
    analysis_services.game_analysis_run(analysis_id=gid)
    assert seen == [("running", n) for n in range(1, len(seen) + 1)] and len(seen) > 1


def test_a_failed_analysis_starts_again_from_where_it_stopped(catalog_rows, api, alice, ask):
    gid = finished_battlefront(api, alice)
    assert ask(alice, gid).status_code == 202
    whole = GameAnalysis.objects.get(pk=gid).plies
    GameAnalysis.objects.filter(pk=gid).update(status=AnalysisStatus.FAILED, plies=whole[:2], plies_done=2)
    assert ask(alice, gid).status_code == 202
    assert GameAnalysis.objects.get(pk=gid).plies == whole  # the same search: the same estimates


def test_a_stalled_analysis_is_started_again_by_the_next_request(catalog_rows, api, alice, settings, ask):
    settings.GAMES_ANALYSIS_RUNNER = "none"  # queued, never run: as if its process died
    gid = finished_battlefront(api, alice)
    assert ask(alice, gid).status_code == 202
    assert ask(alice, gid).status_code == 200  # under way: the same one
    long_ago = timezone.now() - timedelta(seconds=settings.GAMES_ANALYSIS_STALE_SECONDS + 1)
    GameAnalysis.objects.filter(pk=gid).update(updated_at=long_ago)
    assert ask(alice, gid).status_code == 202  # stalled: dispatched again


def test_a_game_type_without_a_search_bot_cannot_be_analysed(catalog_rows, api, alice, bob, ask):
    """Tide of Iron (a referee: no bots, so no search to analyse with): a finished match is refused."""
    assert not analysis_available(game_type=GAME_TYPES["tide-of-iron"])
    made = api(alice).post("/api/games/", {"game_type": "tide-of-iron", "opponent": {
        "kind": "human", "username": bob.username}}, format="json")
    assert made.status_code == 201, made.json()
    gid = made.json()["id"]
    assert api(bob).post(f"/api/games/{gid}/join/", {}, format="json").status_code == 200
    assert api(bob).post(f"/api/games/{gid}/resign/", {}, format="json").status_code == 200
    refused = ask(alice, gid)
    assert (refused.status_code, refused.json()["code"]) == (409, "analysis_not_available")
    assert api(alice).get(url(gid)).json()["available"] is False


def test_oracle_battlefront_analysis_names_only_what_the_deciding_seat_saw(
    catalog_rows, api, alice, carol, ask
):
    """Every move the analysis names at a ply (played or preferred) is in the deciding seat's own view then,
    and every reader sees the moves the replay shows him (Battlefront's replay is whole after the end)."""
    gid = finished_battlefront(api, alice, moves=5)
    assert ask(alice, gid).status_code == 202
    replay = api(None).get(f"/api/games/{gid}/replay/").json()
    assert replay["deck_lists_public"] is True
    catalog = bf.BattlefrontCatalog.from_dicts(**replay["catalog"])
    for reader in (alice, carol, None):
        shown = api(reader).get(url(gid)).json()
        assert [p["played"] for p in shown["plies"]] == replay["actions"][: len(shown["plies"])]
        state = bf.replay(catalog, bf.GameSetup.from_json(replay["setup"]), [])
        checked = 0
        for entry, action in zip(shown["plies"], replay["actions"], strict=False):
            seen = json_strings(bf.view(state, entry["seat"]))
            for move in (entry["played"], entry["best"]):
                if move and move.get("card"):
                    assert move["card"] in seen, f"ply {entry['ply']}: {move} is not in the seat's view"
                    checked += 1
            bf.apply(state, bf.Action.from_json(action))
        assert checked > 0


def test_oracle_a_private_deck_is_not_published_by_the_analysis(catalog_rows, catalog, api, alice, carol):
    """Battlecards with a private deck: strangers get the progress, never a ply (a move may name a card that
    stayed in a hand, and an estimate is computed from that hand). The analysis is stored directly: the
    check is the read's, whatever the search."""
    deck = _private_gb_deck(alice, catalog)
    gid = _finished_bot_game(api, alice, my_deck={"deck_id": deck.pk})
    mine = api(alice).get(f"/api/games/{gid}/replay/").json()
    public_log = api(carol).get(f"/api/games/{gid}/replay/").json()
    never_played = set(mine["setup"]["decks"]["allies"]) - json_strings(public_log["log"])
    assert never_played
    hidden = sorted(never_played)[0]
    GameAnalysis.objects.create(
        game=Game.objects.get(pk=gid), requested_by=alice, status=AnalysisStatus.DONE, iterations=6,
        plies_total=1, plies_done=1,
        plies=[{"ply": 0, "seat": "allies", "wins": {"allies": 0.4, "axis": 0.6},
                "played": {"type": "pass", "seat": "allies"}, "played_value": 0.2,
                "best": {"type": "play", "seat": "allies", "card": hidden}, "best_value": 0.4,
                "flagged": True, "choices": 3}],
    )
    assert hidden in json_strings(api(alice).get(url(gid)).json())
    for reader in (api(carol), api(None)):
        shown = reader.get(url(gid)).json()
        assert shown["moves_shown"] is False
        assert shown["plies"] == [] and shown["plies_done"] == 1 and shown["status"] == "done"
        assert not never_played & json_strings(shown)
