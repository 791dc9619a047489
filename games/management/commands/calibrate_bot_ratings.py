"""`manage.py calibrate_bot_ratings`: seed the bots' Glicko-2 ratings with rated bot-versus-bot games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import DomainError
from games import engine
from games.decks_glue import resolve_deck, validate_pairing
from games.game_types import DEFAULT_GAME_TYPE, get_game_type
from games.rating_selectors import BOT_RATED_GAME_TYPES
from games.services import game_options
from games.services.ratings import bot_ratings_calibrate
from games.simulation import BOTS, DEFAULT_MAX_PLIES
from games.simulation_catalog import deck_ref, simulation_catalog

DEFAULT_DECKS = ("gb-we-starter", "de-we-starter")


class Command(BaseCommand):
    help = (
        "Seed the bots' ratings: play N rated games between two bot kinds (they swap seats every game) in "
        "each game type asked for, and rate every finished one with Glicko-2 (each game its own rating "
        "period, as for players' rated games). Battlecards plays two decks (default: the British and German "
        "Western Europe starters). Prints each bot's rating after the run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            choices=[*sorted(BOT_RATED_GAME_TYPES), "all"],
            default="all",
            help="The game type whose bot ratings to seed (default: every one).",
        )
        parser.add_argument("--games", type=int, default=200, help="Rated games per game type (default 200)")
        parser.add_argument("--seed", type=int, default=1, help="Base seed; game i's seed derives from it.")
        parser.add_argument(
            "--bots", nargs=2, metavar=("BOT_A", "BOT_B"), choices=BOTS, default=["heuristic", "random"]
        )
        parser.add_argument(
            "--decks",
            nargs=2,
            metavar=("A", "B"),
            default=list(DEFAULT_DECKS),
            help="Battlecards: the two decks (deck ids or starter set codes, one of each side).",
        )
        parser.add_argument(
            "--reset", action="store_true", help="Start the bots from a newcomer's rating (1500, RD 350)."
        )
        parser.add_argument(
            "--catalog",
            choices=["auto", "db", "fixtures"],
            default="auto",
            help="Card definitions (Battlecards).",
        )
        parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES)

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        if opts["bots"][0] == opts["bots"][1]:
            raise CommandError("--bots: two different bot kinds (a bot against itself says nothing)")
        names = sorted(BOT_RATED_GAME_TYPES) if opts["game"] == "all" else [opts["game"]]
        for name in names:
            catalog, setup = self._setup(name, opts)
            report = bot_ratings_calibrate(
                game_type=name,
                catalog=catalog,
                setup=setup,
                games=opts["games"],
                seed=opts["seed"],
                bots=tuple(opts["bots"]),
                reset=opts["reset"],
                max_plies=opts["max_plies"],
            )
            self.stdout.write(
                f"{get_game_type(name).label}: {report.games} rated games ({report.draws} draws, "
                f"{report.unfinished} unfinished and not rated), seed {opts['seed']}"
            )
            for bot, rating in report.ratings.items():
                self.stdout.write(
                    f"  {bot:<10} {rating.rating:7.1f}  RD {rating.deviation:5.1f}  "
                    f"volatility {rating.volatility:.5f}  ({report.wins[bot]} wins)"
                )

    def _setup(self, name: str, opts: dict[str, Any]) -> tuple[Any, Any]:
        """The catalog and the set-up the calibration games are dealt from (each game reseeded)."""
        kind = get_game_type(name)
        if name != DEFAULT_GAME_TYPE:
            return kind.catalog_from_dicts(kind.live_snapshot()), kind.new_setup(
                seed=opts["seed"], options=kind.options({})
            )
        live = simulation_catalog(opts["catalog"], notice=self.stderr.write)
        try:
            deck_a = resolve_deck(user=None, ref=deck_ref(opts["decks"][0]), catalog=live)
            deck_b = resolve_deck(user=None, ref=deck_ref(opts["decks"][1]), catalog=live)
            thin = {"theater": None, "mode": "thin", "packs": []}
            _choice, conflict = validate_pairing(catalog=live, first=deck_a, second=deck_b, conflict=thin)
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from exc
        setup = engine.GameSetup(
            seed=opts["seed"],
            decks={deck_a.side: deck_a.codes, deck_b.side: deck_b.codes},
            nations={deck_a.side: deck_a.nation, deck_b.side: deck_b.nation},
            conflict_deck=tuple(conflict),
            options=game_options({}),
        )
        codes = set(deck_a.codes) | set(deck_b.codes) | set(conflict)
        return kind.catalog_from_dicts(snapshot_dicts(live, codes)), setup
