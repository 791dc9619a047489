"""The analysis on the replay page (issue 41): asked for there, drawn as an inline SVG whose points link to
their plies, the flagged moves in the game's words, and no more than the API shows the reader."""

from __future__ import annotations

import re

import pytest

from games.models import AnalysisStatus, Game, GameAnalysis
from games.selectors import game_card_names
from tests.games.conftest import json_strings, token_client
from tests.games.test_analysis_api import finished_battlefront
from tests.games.test_replay_privacy import _finished_bot_game, _private_gb_deck

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.GAMES_ANALYSIS_ITERATIONS = 6
    settings.GAMES_ANALYSIS_RUNNER = "inline"


def test_ask_on_the_replay_page_then_see_the_graph(
    client, catalog_rows, alice, django_capture_on_commit_callbacks
):
    gid = finished_battlefront(token_client, alice)
    page = client.get(f"/play/{gid}/replay/").content.decode()
    assert "Log in</a> to ask for an analysis" in page and "<svg" not in page
    client.force_login(alice)
    page = client.get(f"/play/{gid}/replay/?ply=2").content.decode()
    assert "Analyse this game" in page
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"/play/{gid}/replay/analysis/", {"ply": "2"})
    assert asked.status_code == 302 and asked["Location"] == f"/play/{gid}/replay/?ply=2"
    page = client.get(asked["Location"]).content.decode()
    analysis = GameAnalysis.objects.get(pk=gid)
    assert analysis.status == AnalysisStatus.DONE
    points = re.findall(r'<a href="/play/[^"]+/replay/\?ply=(\d+)" class="point([^"]*)" data-ply="\1"', page)
    assert [int(p) for p, _ in points] == list(range(analysis.plies_total + 1))  # each ply, then the end
    assert [p for p, cls in points if "current" in cls] == ["2"]
    assert "hx-trigger" not in page.split('id="analysis"')[1].split(">")[0]  # done: no polling
    # the fragment the page polls while it runs
    fragment = client.get(f"/play/{gid}/replay/analysis/").content.decode()
    assert fragment.strip().startswith('<section id="analysis"') and "<svg" in fragment


def test_a_running_analysis_shows_its_progress_and_polls(client, catalog_rows, alice, settings):
    settings.GAMES_ANALYSIS_RUNNER = "none"
    gid = finished_battlefront(token_client, alice)
    client.force_login(alice)
    client.post(f"/play/{gid}/replay/analysis/")
    page = client.get(f"/play/{gid}/replay/").content.decode()
    assert "Analysis under way: 0 of" in page and 'hx-trigger="every 3s"' in page


def test_flagged_moves_read_in_the_games_words(client, catalog_rows, alice):
    gid = finished_battlefront(token_client, alice)
    GameAnalysis.objects.create(
        game=Game.objects.get(pk=gid), requested_by=alice, status=AnalysisStatus.DONE, iterations=6,
        plies_total=1, plies_done=1,
        plies=[{"ply": 0, "seat": "east", "wins": {"east": 0.3, "west": 0.7},
                "played": {"type": "play", "seat": "east", "card": "bf-light-tanks", "front": "C"},
                "played_value": 0.1, "best": {"type": "pass", "seat": "east"}, "best_value": 0.3,
                "flagged": True, "choices": 9}],
    )
    page = client.get(f"/play/{gid}/replay/").content.decode()
    item = re.search(r'<ol class="flagged-moves">(.*?)</ol>', page, re.S).group(1)
    assert "ply 0" in item and "alice played" in item
    assert "Light Tanks" in item and "bf-light-tanks" not in item  # the card by its name
    assert "the search preferred <q>pass</q>" in item and "20 points" in item


def test_oracle_a_private_deck_stays_hidden_on_the_page(client, catalog_rows, catalog, alice, carol):
    deck = _private_gb_deck(alice, catalog)
    gid = _finished_bot_game(token_client, alice, my_deck={"deck_id": deck.pk})
    mine = token_client(alice).get(f"/api/games/{gid}/replay/").json()
    public = token_client(carol).get(f"/api/games/{gid}/replay/").json()
    hidden = sorted(set(mine["setup"]["decks"]["allies"]) - json_strings(public["log"]))[0]
    GameAnalysis.objects.create(
        game=Game.objects.get(pk=gid), requested_by=alice, status=AnalysisStatus.DONE, iterations=6,
        plies_total=1, plies_done=1,
        plies=[{"ply": 0, "seat": "allies", "wins": {"allies": 0.4, "axis": 0.6},
                "played": {"type": "pass", "seat": "allies"}, "played_value": 0.2,
                "best": {"type": "play", "seat": "allies", "card": hidden}, "best_value": 0.4,
                "flagged": True, "choices": 3}],
    )
    client.force_login(alice)
    assert "the search preferred" in client.get(f"/play/{gid}/replay/").content.decode()
    client.force_login(carol)
    page = client.get(f"/play/{gid}/replay/").content.decode()
    assert "shown to its players only" in page and "analysis-graph" not in page
    assert hidden not in page and "the search preferred" not in page
    name = game_card_names(game_id=gid, codes={hidden})[hidden]
    assert name not in page or name in json_strings(public)  # its name only if the public replay shows it
