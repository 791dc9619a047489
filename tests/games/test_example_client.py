"""The example client (standard library only) plays a whole game against the bot on a running server."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from games.models import Game

EXAMPLE = Path(__file__).resolve().parents[2] / "games" / "examples" / "play_vs_bot.py"


def _load_example():
    spec = importlib.util.spec_from_file_location("play_vs_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # `make test-fast` leaves it out (a whole game)
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_full_game_against_the_bot(live_server, catalog_rows, capsys):
    example = _load_example()
    status = example.main(
        [
            "--server",
            live_server.url,
            "--username",
            "example-user",
            "--password",
            "Example-pass-1942",
            "--register",
            "--seed",
            "1944",
            "--bot",
            "random",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out  # a normal end is a success, whoever won
    assert "commitment verified" in out
    game = Game.objects.get()
    assert game.status == "finished" and game.end_reason == "victory"
    assert f"winner {game.winner}" in out


@pytest.mark.slow  # `make test-fast` leaves it out (a whole game)
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_full_battlefront_game_against_the_bot(live_server, catalog_rows, capsys):
    example = _load_example()
    status = example.main(
        [
            "--server",
            live_server.url,
            "--username",
            "front-user",
            "--password",
            "Example-pass-1940",
            "--register",
            "--game",
            "battlefront",
            "--options",
            '{"special_cards": {"west": "GB", "east": "DE"}}',
            "--seed",
            "1940",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "commitment verified" in out
    game = Game.objects.get()
    assert game.game_type == "battlefront" and game.status == "finished"
    assert game.options == {"special_cards": {"west": "GB", "east": "DE"}}
    assert f"winner {game.winner or None}" in out


@pytest.mark.slow  # `make test-fast` leaves it out (a whole game)
@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_full_team_game_with_bots_for_every_other_army(
    live_server, catalog_rows, capsys
):
    """An uneven game (optional rule 4): the client plays the 2nd British army beside a British bot army,
    against a German bot army."""
    example = _load_example()
    status = example.main(
        [
            "--server",
            live_server.url,
            "--username",
            "team-user",
            "--password",
            "Example-pass-1943",
            "--register",
            "--axis",
            "DE",
            "--allies",
            "GB,GB",
            "--me",
            "allies-2",
            "--seed",
            "1943",
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "I play allies-2" in out and "allies-1  GB (heuristic bot, teammate)" in out
    assert "axis-1    DE (heuristic bot, enemy)" in out
    game = Game.objects.get()
    assert game.lineup == {"axis": ["DE"], "allies": ["GB", "GB"]} and game.status == "finished"
    assert game.end_reason in ("victory", "draw")
    assert f"winner {game.winner or None}" in out


@pytest.mark.django_db(transaction=True)
def test_the_example_client_plays_a_full_the_war_game_against_the_bot(live_server, catalog_rows, capsys):
    example = _load_example()
    status = example.main(
        ["--server", live_server.url, "--username", "war-user", "--password", "Example-pass-1941",
         "--register",
         "--game", "the-war", "--deck", "tw-starter-red-army", "--bot-deck", "tw-starter-wehrmacht",
         "--bot", "random", "--seed", "1941", "--max-actions", "25"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "commitment verified" in out and "stopping after 25 actions" in out
    game = Game.objects.get()  # a whole game is tests/games/test_the_war_api.py's (here: 25 moves, resign)
    assert game.game_type == "the-war" and game.status == "finished" and game.winner in ("p1", "p2")
