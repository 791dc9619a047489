"""`manage.py simulate`: bot-vs-bot games on every core; win rates with 95% Wilson intervals."""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.utils import OperationalError, ProgrammingError

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import DomainError
from games import engine
from games.decks_glue import resolve_deck, validate_pairing
from games.game_types import DEFAULT_GAME_TYPE, GAME_TYPES, get_game_type
from games.services import game_options
from games.simulation import BOTS, DEFAULT_MAX_PLIES, SEATS, simulate
from games.simulation_catalog import NO_CATALOG_TABLES, deck_ref, simulation_catalog


def _options(opts: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = dict.fromkeys(opts["option"], True)
    if opts.get("max_battle_rounds") is not None:
        options["max_battle_rounds"] = opts["max_battle_rounds"]
    return options


class Command(BaseCommand):
    help = (
        "Play N bot-vs-bot games between two decks (deck ids or starter set codes) with the rules engine, "
        "over all cores by default, and print win rates per seat (95% Wilson interval), average turns "
        "and games per second. Nothing is written to the database. --game battlefront plays Battlefront "
        "(one shared deck: no --decks; --bots are west, east)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            choices=sorted(GAME_TYPES),
            default=DEFAULT_GAME_TYPE,
            help="Which game (default battlecards).",
        )
        parser.add_argument(
            "--decks",
            nargs=2,
            metavar=("A", "B"),
            help="Battlecards: two decks, deck ids or starter set codes (one of each side).",
        )
        parser.add_argument(
            "--axis",
            default=None,
            metavar="ARMIES",
            help="Battlecards team, uneven or combined game (with --allies, instead of --decks): the axis "
            "armies, comma-separated nation codes or starter set codes, e.g. DE,DE or DE,JP.",
        )
        parser.add_argument(
            "--allies",
            default=None,
            metavar="ARMIES",
            help="The allied armies of a team game, e.g. GB,GB (2v2 with --axis DE,DE), GB,US,RU.",
        )
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--seed", type=int, default=1, help="Base seed; game i gets a seed derived from it."
        )
        parser.add_argument(
            "--bots",
            nargs=2,
            metavar=("BOT_A", "BOT_B"),
            default=["heuristic", "heuristic"],
            choices=BOTS,
            help="Bot playing deck A, then deck B (a team game: every axis army, then every allied army).",
        )
        parser.add_argument(
            "--workers", type=int, default=os.cpu_count() or 1, help="Processes (default: every core)."
        )
        parser.add_argument(
            "--max-plies",
            type=int,
            default=DEFAULT_MAX_PLIES,
            help="Stop a game (counted unfinished) after this many actions.",
        )
        parser.add_argument(
            "--theater", default=None, help="Conflict deck theater (default: the shared one)."
        )
        parser.add_argument("--conflict-mode", default="thin", choices=["thin", "fat", "packs"])
        parser.add_argument(
            "--packs", nargs="*", default=[], help="Expansion packs with --conflict-mode packs."
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME",
            help="Turn on an optional rule, e.g. --option larger_standing_armies.",
        )
        parser.add_argument(
            "--options-json",
            default=None,
            metavar="JSON",
            help="Battlefront: its optional rules as JSON, e.g. "
            '\'{"special_cards": {"west": "DE", "east": "RU"}}\'.',
        )
        parser.add_argument(
            "--max-battle-rounds",
            type=int,
            default=None,
            metavar="N",
            help="Settle a battle still running after N rounds as a stalemate (a self-play guard, not a "
            "rule; counted as round_cap_battles). Default: no limit, as the rulebook.",
        )
        parser.add_argument(
            "--catalog",
            choices=["auto", "db", "fixtures"],
            default="auto",
            help="Card definitions from the database (auto falls back to fixtures/catalog).",
        )
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")
        parser.add_argument(
            "--queue",
            action="store_true",
            help=(
                "Submit the run as a simulation job instead (stored in the database; played by the Celery "
                "workers when CELERY_BROKER_URL is set, else in this process) and print its id."
            ),
        )
        parser.add_argument(
            "--wait", action="store_true", help="With --queue: wait for the job and print its result."
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        if opts["workers"] < 1:
            raise CommandError("--workers must be at least 1")
        options = dict.fromkeys(opts["option"], True)
        if opts["options_json"]:
            try:
                extra = json.loads(opts["options_json"])
            except ValueError as exc:
                raise CommandError(f"--options-json is not JSON: {exc}") from exc
            if not isinstance(extra, dict):
                raise CommandError("--options-json must be a JSON object")
            options.update(extra)
        opts["options"] = options
        team = bool(opts.get("axis") or opts.get("allies"))
        if team and (opts["decks"] or opts["game"] != DEFAULT_GAME_TYPE):
            raise CommandError("--axis/--allies make a Battlecards team game: drop --decks")
        if team and not (opts.get("axis") and opts.get("allies")):
            raise CommandError("a team game needs both --axis and --allies")
        if opts["game"] == DEFAULT_GAME_TYPE and not opts["decks"] and not team:
            raise CommandError("--decks A B (or --axis and --allies) is required for Battlecards")
        if opts["game"] == DEFAULT_GAME_TYPE and opts["options_json"]:
            raise CommandError("--options-json is for Battlefront; turn Battlecards rules on with --option")
        if opts["queue"]:
            self._submit(opts)
            return
        if opts["game"] != DEFAULT_GAME_TYPE:
            self._shared_deck_game(opts)
            return
        catalog = simulation_catalog(opts["catalog"], notice=self.stderr.write)
        if team:
            self._team_game(opts, catalog)
            return
        try:
            deck_a = resolve_deck(user=None, ref=deck_ref(opts["decks"][0]), catalog=catalog)
            deck_b = resolve_deck(user=None, ref=deck_ref(opts["decks"][1]), catalog=catalog)
            conflict = {"theater": opts["theater"], "mode": opts["conflict_mode"], "packs": opts["packs"]}
            _choice, conflict_codes = validate_pairing(
                catalog=catalog, first=deck_a, second=deck_b, conflict=conflict
            )
            rules = game_options(_options(opts), simulation=True)
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from exc
        except (OperationalError, ProgrammingError) as exc:  # a deck id read from an unmigrated database
            raise CommandError(f"deck ids need the database's decks: {NO_CATALOG_TABLES}.") from exc

        setup = engine.GameSetup(
            seed=opts["seed"],
            decks={deck_a.side: deck_a.codes, deck_b.side: deck_b.codes},
            nations={deck_a.side: deck_a.nation, deck_b.side: deck_b.nation},
            conflict_deck=tuple(conflict_codes),
            options=rules,
        )
        bots = {deck_a.side: opts["bots"][0], deck_b.side: opts["bots"][1]}
        dicts = snapshot_dicts(catalog, set(deck_a.codes) | set(deck_b.codes) | set(conflict_codes))
        # Workers never touch the database (they are forked after the catalog is read, and only play).
        report = simulate(
            catalog_dicts=dicts,
            setup=setup,
            bots=bots,
            games=opts["games"],
            seed=opts["seed"],
            workers=opts["workers"],
            max_plies=opts["max_plies"],
        )
        data = report.to_dict()
        data["decks"] = {deck_a.side: deck_a.label, deck_b.side: deck_b.label}
        if opts["json"]:
            self.stdout.write(json.dumps(data, indent=2))
            return
        self.stdout.write(
            f"{report.games} games, {report.workers} worker(s), seed {opts['seed']}, "
            f"{report.seconds:.2f}s: {report.games_per_second:.2f} games/s"
        )
        self._write_rates(data, {seat: f"{data['decks'][seat]} ({bots[seat]} bot)" for seat in SEATS})
        self.stdout.write(f"  unfinished: {report.unfinished}; results: {dict(report.result_kinds)}")
        self.stdout.write(f"  average turns {data['average_turns']}, average actions {data['average_plies']}")
        if rules.max_battle_rounds is not None:
            self.stdout.write(
                f"  battles settled by the {rules.max_battle_rounds}-round cap: {report.round_cap_battles}"
            )

    def _write_rates(self, data: dict[str, Any], labels: dict[str, str]) -> None:
        """One line per seat (a side in a team game): its label, wins and win rate with the 95% interval."""
        for seat, label in labels.items():
            info = data["seats"][seat]
            low, high = info["ci95"]
            self.stdout.write(
                f"  {seat:<6} {label}: {info['wins']} wins, "
                f"{info['rate'] * 100:.1f}% [95% CI {low * 100:.1f}-{high * 100:.1f}%]"
            )

    def _team_game(self, opts: dict[str, Any], catalog: Any) -> None:
        """A team (FAQ Optional Rule 3), uneven (Optional Rule 4) or combined-set game from starter decks:
        engine.team_setup, one bot per army (--bots: the axis armies' kind, then the allied armies')."""
        armies = {side: [a.strip() for a in opts[side].split(",") if a.strip()] for side in SEATS}
        theaters = (opts["theater"],) if opts["theater"] else None
        try:
            rules = game_options(_options(opts), simulation=True)
            setup = engine.team_setup(catalog, opts["seed"], axis=armies["axis"], allies=armies["allies"],
                                      theaters=theaters, options=rules)
            engine.new_game(catalog, setup)  # the set-up checks (e.g. OR1 with uneven teams) before forking
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from exc
        except engine.EngineError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        bots = {army: opts["bots"][SEATS.index(engine.side_of(army))] for army in setup.armies}
        codes = {c for deck in setup.decks.values() for c in deck} | set(setup.conflict_deck)
        report = simulate(
            catalog_dicts=snapshot_dicts(catalog, codes),
            setup=setup,
            bots=bots,
            games=opts["games"],
            seed=opts["seed"],
            workers=opts["workers"],
            max_plies=opts["max_plies"],
        )
        data = report.to_dict()
        data["armies"] = {army: setup.nations[army] for army in setup.armies}
        if opts["json"]:
            self.stdout.write(json.dumps(data, indent=2))
            return
        order = ", ".join(f"{a} {setup.nations[a]}" for a in setup.armies)
        self.stdout.write(
            f"{report.games} team games ({order}), {report.workers} worker(s), seed {opts['seed']}, "
            f"{report.seconds:.2f}s: {report.games_per_second:.2f} games/s"
        )
        self._write_rates(data, {side: f"{'+'.join(armies[side])} ({opts['bots'][i]} bots)"
                                 for i, side in enumerate(SEATS)})
        self.stdout.write(f"  unfinished: {report.unfinished}; results: {dict(report.result_kinds)}")
        self.stdout.write(f"  average turns {data['average_turns']}, average actions {data['average_plies']}")

    def _shared_deck_game(self, opts: dict[str, Any]) -> None:
        """A game type without decks (Battlefront): the shared deck from its card fixtures."""
        kind = get_game_type(opts["game"])
        if opts["decks"]:
            raise CommandError(f"{kind.label} has one shared deck: drop --decks")
        try:
            rules = kind.options(opts["options"])
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from exc
        bots = dict(zip(kind.seats, opts["bots"], strict=True))
        report = simulate(
            catalog_dicts=kind.live_snapshot(),
            setup=kind.new_setup(seed=opts["seed"], options=rules),
            bots=bots,
            games=opts["games"],
            seed=opts["seed"],
            workers=opts["workers"],
            max_plies=opts["max_plies"],
            game_type=kind.name,
        )
        data = {"game": kind.name, **report.to_dict(), "options": rules.to_json()}
        if opts["json"]:
            self.stdout.write(json.dumps(data, indent=2))
            return
        self.stdout.write(
            f"{kind.label}: {report.games} games, {report.workers} worker(s), seed {opts['seed']}, "
            f"{report.seconds:.2f}s: {report.games_per_second:.2f} games/s"
        )
        self._write_rates(data, {seat: f"({bots[seat]} bot)" for seat in kind.seats})
        self.stdout.write(f"  draws: {report.draws}; unfinished: {report.unfinished}; "
                          f"results: {dict(report.result_kinds)}")
        self.stdout.write(f"  average turns {data['average_turns']}, average actions {data['average_plies']}")

    def _submit(self, opts: dict[str, Any]) -> None:
        """--queue: the same run as a job of the simulations app (cards from the database)."""
        import time

        from simulations import runner
        from simulations.models import ACTIVE_STATUSES, SimulationJob
        from simulations.selectors import simulation_payload
        from simulations.services import simulation_create

        try:
            decks = opts["decks"] or [None, None]
            job = simulation_create(
                user=None,
                game_type=opts["game"],
                deck_a=deck_ref(decks[0]) if decks[0] else None,
                deck_b=deck_ref(decks[1]) if decks[1] else None,
                bots=tuple(opts["bots"]),
                games=opts["games"],
                seed=opts["seed"],
                options=_options(opts) if opts["game"] == DEFAULT_GAME_TYPE else opts["options"],
                conflict=(
                    {"theater": opts["theater"], "mode": opts["conflict_mode"], "packs": opts["packs"]}
                    if opts["game"] == DEFAULT_GAME_TYPE
                    else None
                ),
                max_plies=opts["max_plies"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.code}: {exc.detail}") from exc
        wait = opts["wait"] or runner.mode() != "celery"  # a thread of this process ends with it: wait
        self.stderr.write(
            f"job {job.pk}: {job.games_total} games in {job.chunks_total} chunks ({runner.mode()})"
        )
        while wait:
            job = SimulationJob.objects.get(pk=job.pk)
            if job.status not in ACTIVE_STATUSES:
                break
            time.sleep(0.2)
        payload = simulation_payload(job)
        self.stdout.write(json.dumps(payload, indent=2) if (opts["json"] or wait) else str(job.pk))
