"""`manage.py simulate`: bot-vs-bot games without the database, reproducible whatever the worker count."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db.utils import OperationalError, ProgrammingError

from games.models import Game


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_simulate_prints_win_rates_with_confidence_intervals_and_writes_nothing(catalog_rows):
    args = [
        "--decks",
        "gb-we-starter",
        "de-we-starter",
        "--games",
        "4",
        "--seed",
        "11",
        "--bots",
        "heuristic",
        "random",
    ]
    one = json.loads(_run(*args, "--workers", "1", "--json"))
    two = json.loads(_run(*args, "--workers", "2", "--json"))
    assert one["games"] == 4 and one["bots"] == {"allies": "heuristic", "axis": "random"}
    wins = one["seats"]["axis"]["wins"] + one["seats"]["allies"]["wins"]
    assert wins + one["unfinished"] <= 4 and wins >= 1
    for seat in ("axis", "allies"):
        low, high = one["seats"][seat]["ci95"]
        assert 0 <= low <= one["seats"][seat]["rate"] <= high <= 1
    # The same seeds give the same games on any number of workers.
    assert one["seats"] == two["seats"] and one["average_turns"] == two["average_turns"]
    assert two["workers"] == 2
    text = _run(*args, "--workers", "1")
    assert "95% CI" in text and "games/s" in text and "average turns" in text
    assert not Game.objects.exists()


def test_simulate_reads_the_fixture_catalog_without_a_database():
    data = json.loads(
        _run(
            "--decks",
            "gb-we-starter",
            "de-we-starter",
            "--games",
            "2",
            "--workers",
            "1",
            "--catalog",
            "fixtures",
            "--json",
        )
    )
    assert data["games"] == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--decks", "gb-we-starter", "gb-we-starter"],
        ["--decks", "gb-we-starter", "no-such-starter"],
        ["--decks", "gb-we-starter", "de-we-starter", "--games", "0"],
        ["--decks", "gb-we-starter", "de-we-starter", "--option", "no_such_rule"],
    ],
)
def test_simulate_refuses_bad_arguments(args):
    with pytest.raises(CommandError):
        _run(*args, "--catalog", "fixtures", "--workers", "1")


def test_heuristic_bots_judge_cards_from_the_games_catalog_not_the_files(catalog_rows, monkeypatch):
    """With --catalog db a HeuristicBot never reloads the fixture files: it reads the catalog it is given."""
    from games.engine.battlecards import bots as engine_bots
    from games.simulation import make_bot
    from vocabulary.battlecards import load_catalog_dir

    def no_files(*args, **kwargs):
        raise AssertionError("a bot reloaded the catalog from the fixture files")

    monkeypatch.setattr(engine_bots, "load_catalog_dir", no_files)
    data = json.loads(
        _run(
            "--decks", "gb-we-starter", "de-we-starter", "--games", "2", "--workers", "1",
            "--bots", "heuristic", "heuristic", "--catalog", "db", "--json",
        )
    )
    assert data["games"] == 2 and data["bots"] == {"axis": "heuristic", "allies": "heuristic"}

    catalog = load_catalog_dir()
    bot = make_bot("heuristic", catalog=catalog)
    assert bot.catalog is catalog
    code = next(iter(catalog.arsenal))
    assert bot.points(code) == catalog.arsenal[code].points


@pytest.mark.parametrize(
    ("decks", "theater"), [(("us-starter", "jp-starter"), "PAC"), (("ru-starter", "de-ef-starter"), "EF")]
)
def test_simulate_plays_any_theater(decks, theater):
    """`--theater PAC` / `--theater EF`: the Pacific and Eastern Front conflict decks (fixtures/README.md)."""
    data = json.loads(
        _run("--decks", *decks, "--theater", theater, "--games", "2", "--workers", "1",
             "--catalog", "fixtures", "--bots", "heuristic", "heuristic", "--json")
    )
    assert data["games"] == 2 and data["unfinished"] == 0
    assert data["seats"]["axis"]["wins"] + data["seats"]["allies"]["wins"] + data.get("draws", 0) == 2


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("no such table: cards_catalogversion"),  # SQLite
        ProgrammingError('relation "cards_catalogversion" does not exist'),  # PostgreSQL
    ],
)
def test_simulate_on_an_unmigrated_database_falls_back_to_the_fixtures_with_a_notice(error, monkeypatch):
    """`--catalog auto` (the default) on a database without the card tables plays from fixtures/catalog."""

    def unmigrated() -> None:
        raise error

    monkeypatch.setattr("cards.selectors.catalog_definitions", unmigrated)
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "simulate", "--decks", "gb-we-starter", "de-we-starter", "--games", "2", "--workers", "1", "--json",
        stdout=out, stderr=err,
    )
    assert json.loads(out.getvalue())["games"] == 2  # stdout stays pure JSON
    notice = err.getvalue()
    assert notice.count("\n") == 1 and "fixtures" in notice and "migrate" in notice, notice


@pytest.mark.parametrize(
    "error", [OperationalError("no such table: cards_catalogversion"), ProgrammingError("no relation")]
)
def test_simulate_with_the_database_catalog_on_an_unmigrated_database_says_what_to_run(error, monkeypatch):
    def unmigrated() -> None:
        raise error

    monkeypatch.setattr("cards.selectors.catalog_definitions", unmigrated)
    with pytest.raises(CommandError, match="make migrate.*load_catalog"):
        _run("--decks", "gb-we-starter", "de-we-starter", "--games", "2", "--workers", "1", "--catalog", "db")


def test_simulate_with_deck_ids_on_an_unmigrated_database_says_what_to_run(monkeypatch):
    def unmigrated(**kwargs) -> None:
        raise OperationalError("no such table: decks_deck")

    monkeypatch.setattr("simulations.management.commands.simulate.resolve_deck", unmigrated)
    with pytest.raises(CommandError, match="deck ids need the database.*make migrate"):
        _run("--decks", "1", "2", "--games", "2", "--workers", "1", "--catalog", "fixtures")


@pytest.mark.parametrize(
    ("axis", "allies", "armies"),
    [
        ("DE,DE", "GB,GB", {"axis-1": "DE", "allies-1": "GB", "axis-2": "DE", "allies-2": "GB"}),
        ("DE", "GB,GB", {"allies-1": "GB", "axis-1": "DE", "allies-2": "GB"}),  # OR4: the bigger side first
        ("DE,JP", "GB,US", {"axis-1": "DE", "allies-1": "GB", "axis-2": "JP", "allies-2": "US"}),
    ],
)
def test_simulate_plays_team_uneven_and_combined_games_reproducibly(axis, allies, armies):
    """Issue 16: `simulate --axis ... --allies ...` plays team games (one bot per army, in turn order) and
    reports the wins per side; the same seed gives the same outcomes on 1 or 2 workers."""
    args = ["--axis", axis, "--allies", allies, "--games", "3", "--seed", "5", "--catalog", "fixtures",
            "--json"]
    one = json.loads(_run(*args, "--workers", "1"))
    two = json.loads(_run(*args, "--workers", "2"))
    assert one["armies"] == armies and list(one["bots"]) == list(armies)
    assert set(one["seats"]) == {"axis", "allies"}
    wins = one["seats"]["axis"]["wins"] + one["seats"]["allies"]["wins"]
    assert wins + one["draws"] + one["unfinished"] == 3
    for key in ("seats", "draws", "unfinished", "result_kinds", "average_turns"):
        assert one[key] == two[key]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--axis", "DE"], "both --axis and --allies"),
        (["--axis", "DE", "--allies", "GB", "--decks", "gb-we-starter", "de-we-starter"], "drop --decks"),
        (["--axis", "DE", "--allies", "GB,GB", "--option", "larger_standing_armies"], "uneven teams"),
        (["--axis", "GB", "--allies", "DE"], "fights for"),
        (["--axis", "DE", "--allies", "XX"], "XX"),
    ],
)
def test_simulate_refuses_bad_team_games(args, message):
    with pytest.raises(CommandError, match=message):
        _run(*args, "--games", "1", "--catalog", "fixtures")
