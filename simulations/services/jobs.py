"""Simulation jobs written: created (a simulation of two decks, or a balance proposal), cancelled."""


import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.module_loading import import_string

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import DomainError, ValidationFailed
from decks.rules import Code, DeckInput, validate_matchup
from games import engine
from games.catalog_snapshot import snapshot_hash
from games.decks_glue import ResolvedDeck, conflict_choice, resolve_deck, validate_pairing
from games.game_types import DEFAULT_GAME_TYPE, GameType, game_type_or_none, get_game_type
from games.services import game_options
from games.simulation import DEFAULT_MAX_PLIES
from simulations import runner
from simulations.balance import propose_swaps
from simulations.models import (
    ACTIVE_STATUSES,
    JobKind,
    JobStatus,
    SimulationJob,
)
from simulations.selectors import simulation_get

SEED_BITS = 62


class QuotaExceeded(DomainError):
    status = 429
    code = "simulation_quota"
    default_detail = "You have reached your simulation quota."


def _live_catalog() -> Any:
    from cards.selectors import catalog_definitions

    return catalog_definitions()


def _check_quota(*, user: Any, games_total: int) -> None:
    """Games per job, active jobs and games per day of one user (the user row is locked: no race)."""
    if games_total > settings.SIMULATION_MAX_GAMES_PER_JOB:
        raise ValidationFailed(
            f"A job plays at most {settings.SIMULATION_MAX_GAMES_PER_JOB} games; this one asks for "
            f"{games_total}.",
            code="too_many_games",
            limit=settings.SIMULATION_MAX_GAMES_PER_JOB,
            actual=games_total,
        )
    if user is None:
        return
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    jobs = SimulationJob.objects.filter(owner=user)
    active = jobs.filter(status__in=ACTIVE_STATUSES).count()
    if active >= settings.SIMULATION_MAX_ACTIVE_JOBS:
        raise QuotaExceeded(
            f"You already have {active} simulation job(s) queued or running (at most "
            f"{settings.SIMULATION_MAX_ACTIVE_JOBS}); wait for one or cancel it.",
            limit=settings.SIMULATION_MAX_ACTIVE_JOBS,
            actual=active,
        )
    since = timezone.now() - timedelta(days=1)
    today = jobs.filter(created_at__gte=since).aggregate(n=Sum("games_total"))["n"] or 0
    if today + games_total > settings.SIMULATION_MAX_GAMES_PER_DAY:
        raise QuotaExceeded(
            f"At most {settings.SIMULATION_MAX_GAMES_PER_DAY} simulated games per day; you have used "
            f"{today}.",
            limit=settings.SIMULATION_MAX_GAMES_PER_DAY,
            actual=today,
        )


def _bots(*, first: ResolvedDeck, second: ResolvedDeck, bots: tuple[str, str]) -> dict[str, str]:
    return {first.side: bots[0], second.side: bots[1]}


def _setup_json(
    *,
    first: ResolvedDeck,
    first_codes: tuple[str, ...],
    second: ResolvedDeck,
    conflict: tuple[str, ...],
    options: Any,
) -> dict[str, Any]:
    setup = engine.GameSetup(
        seed=0,  # each game gets game_seed(job seed, game index)
        decks={first.side: tuple(first_codes), second.side: tuple(second.codes)},
        nations={first.side: first.nation, second.side: second.nation},
        conflict_deck=tuple(conflict),
        options=options,
    )
    return setup.to_json()


def _job_new(
    *,
    user: Any,
    kind: str,
    games: int,
    seed: int | None,
    chunk_games: int | None,
    request: dict[str, Any],
    catalog: Any,
    codes: set[str],
    bots: dict[str, str],
    variants: list[dict[str, Any]],
    max_plies: int,
    game_type: str = DEFAULT_GAME_TYPE,
    snapshot: dict[str, Any] | None = None,
) -> SimulationJob:
    if snapshot is None:
        snapshot = snapshot_dicts(catalog, codes)
    chunk_games = max(1, min(chunk_games or settings.SIMULATION_CHUNK_GAMES, games))
    per_variant = -(-games // chunk_games)
    games_total = games * len(variants)
    _check_quota(user=user, games_total=games_total)
    job = SimulationJob.objects.create(
        owner=user,
        kind=kind,
        games=games,
        seed=secrets.randbits(SEED_BITS) if seed is None else seed,
        chunk_games=chunk_games,
        chunks_total=per_variant * len(variants),
        games_total=games_total,
        request=request,
        spec={
            "game_type": game_type,
            "catalog": snapshot,
            "catalog_hash": snapshot_hash(snapshot),
            "bots": bots,
            "max_plies": max_plies,
            "variants": variants,
        },
    )
    job_id, chunks = job.pk, job.chunks_total
    transaction.on_commit(lambda: runner.dispatch(job_id=job_id, chunks=chunks))
    return job


@dataclass(frozen=True)
class SeatJobPlan:
    """What a seat game gives a job (its definition's deck_simulation or deck_balance hook, or its options
    alone): the variants' setups, the request's own fields (shown before its bots and options) and the
    outcome fields of a balance request (shown after them)."""

    variants: list[dict[str, Any]]
    request: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] = field(default_factory=dict)


def _seat_job(
    *, user: Any, kind: GameType, job_kind: str, plan: SeatJobPlan, bots: tuple[str, str], games: int,
    seed: int | None, options: dict[str, Any] | None, chunk_games: int | None, max_plies: int,
) -> SimulationJob:
    """A job of a game played by seats (each seat its bot), its cards the game's live snapshot."""
    seat_bots = dict(zip(kind.seats, bots, strict=True))
    return _job_new(
        user=user,
        kind=job_kind,
        games=games,
        seed=seed,
        chunk_games=chunk_games,
        request={"game_type": kind.name, **plan.request, "bots": seat_bots, "options": dict(options or {}),
                 **plan.outcome},
        catalog=None,
        codes=set(),
        bots=seat_bots,
        variants=plan.variants,
        max_plies=max_plies,
        game_type=kind.name,
        snapshot=kind.live_snapshot(),
    )


@transaction.atomic
def simulation_create(
    *,
    user: Any,
    deck_a: dict[str, Any] | None = None,
    deck_b: dict[str, Any] | None = None,
    bots: tuple[str, str] = ("heuristic", "heuristic"),
    games: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    conflict: dict[str, Any] | None = None,
    chunk_games: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    game_type: str = DEFAULT_GAME_TYPE,
) -> SimulationJob:
    """Queue `games` bot games between two legal, matched decks (own, public or starters).

    A game type without decks (Battlefront) takes no decks nor conflict: `bots` are its two seats' bots."""
    kind = get_game_type(game_type)
    if not kind.bots_available:
        raise ValidationFailed(
            f"{kind.label} is refereed between players: it has no bots to simulate.",
            code="bots_not_available",
            field="game_type",
        )
    plan: SeatJobPlan | None = None
    if kind.deck_simulation and (deck_a is not None or deck_b is not None):
        plan = import_string(kind.deck_simulation)(
            user=user, kind=kind, deck_a=deck_a, deck_b=deck_b, options=options,
        )
    elif not kind.uses_decks:
        given = sorted(n for n, v in (("deck_a", deck_a), ("deck_b", deck_b), ("conflict", conflict)) if v)
        if given:
            raise ValidationFailed(
                f"{kind.label} is played with one shared deck: leave {', '.join(given)} out.",
                code="deck_not_allowed",
                field=given[0],
            )
        setup = kind.new_setup(seed=0, options=kind.options(dict(options or {})))
        plan = SeatJobPlan(variants=[{"label": "as given", "setup": setup.to_json()}])
    if plan is not None:
        return _seat_job(
            user=user, kind=kind, job_kind=JobKind.SIMULATION, plan=plan, bots=bots, games=games, seed=seed,
            options=options, chunk_games=chunk_games, max_plies=max_plies,
        )
    if deck_a is None or deck_b is None:
        raise ValidationFailed("Give deck_a and deck_b.", code="deck_required", field="deck_a")
    catalog = _live_catalog()
    first = resolve_deck(user=user, ref=deck_a, catalog=catalog)
    second = resolve_deck(user=user, ref=deck_b, catalog=catalog)
    choice, conflict_codes = validate_pairing(catalog=catalog, first=first, second=second, conflict=conflict)
    engine_options = game_options(dict(options or {}), simulation=True)
    variant = {
        "label": "as given",
        "setup": _setup_json(
            first=first,
            first_codes=first.codes,
            second=second,
            conflict=conflict_codes,
            options=engine_options,
        ),
    }
    return _job_new(
        user=user,
        kind=JobKind.SIMULATION,
        games=games,
        seed=seed,
        chunk_games=chunk_games,
        request={
            "decks": {
                first.side: first.source | {"label": first.label, "nation": first.nation},
                second.side: second.source | {"label": second.label, "nation": second.nation},
            },
            "bots": _bots(first=first, second=second, bots=bots),
            "options": dict(options or {}),
            "conflict": choice.to_dict(),
        },
        catalog=catalog,
        codes=set(first.codes) | set(second.codes) | set(conflict_codes),
        bots=_bots(first=first, second=second, bots=bots),
        variants=[variant],
        max_plies=max_plies,
    )


@transaction.atomic
def balance_create(
    *,
    user: Any,
    deck_id: int,
    opponent: dict[str, Any],
    bots: tuple[str, str] = ("heuristic", "heuristic"),
    games: int,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    conflict: dict[str, Any] | None = None,
    proposals: int = 4,
    chunk_games: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> SimulationJob:
    """Propose swaps that make deck `deck_id` a legal (and even) matchup against `opponent`, and queue a
    job that simulates each proposal (and the deck as it is, when legal) to rank them toward 50%.
    A deck of a game whose definition has a deck_balance hook (The War) is balanced by that hook."""
    from decks.models import Deck

    kind = game_type_or_none(Deck.objects.filter(pk=deck_id).values_list("game", flat=True).first())
    if kind is not None and kind.deck_balance:
        plan = import_string(kind.deck_balance)(
            user=user, kind=kind, deck_id=deck_id, opponent=opponent, options=options, proposals=proposals,
        )
        return _seat_job(
            user=user, kind=kind, job_kind=JobKind.BALANCE, plan=plan, bots=bots, games=games, seed=seed,
            options=options, chunk_games=chunk_games, max_plies=max_plies,
        )
    catalog = _live_catalog()
    mine = resolve_deck(user=user, ref={"deck_id": deck_id}, catalog=catalog)
    theirs = resolve_deck(user=user, ref=opponent, catalog=catalog)
    choice = conflict_choice(catalog=catalog, first=mine, second=theirs, conflict=conflict)
    engine_options = game_options(dict(options or {}), simulation=True)
    deck_input = DeckInput(mine.nation, dict(mine.entries))
    opp_input = DeckInput(theirs.nation, dict(theirs.entries))
    now = validate_matchup(catalog, deck_input, opp_input, choice)
    if not now.deck_b.is_valid:
        raise ValidationFailed(
            "The opponent's deck is not a legal deck.",
            code="opponent_deck_invalid",
            violations=[v.to_dict() for v in now.deck_b.violations],
        )
    if any(v.code == Code.SAME_SIDE for v in now.violations):
        raise ValidationFailed("A deck needs an opponent of the other side.", code="same_side")
    found = propose_swaps(catalog, deck_input, opp_input, choice, limit=proposals)
    variants: list[dict[str, Any]] = []
    codes = set(mine.codes) | set(theirs.codes) | set(now.conflict_deck)
    if now.is_legal:
        variants.append(
            {
                "label": "current deck",
                "current": True,
                "proposal": {
                    "remove": {},
                    "add": {},
                    "changes": 0,
                    "card_difference": now.balanced_card_difference,
                    "point_difference": now.balanced_point_difference,
                },
                "setup": _setup_json(
                    first=mine,
                    first_codes=mine.codes,
                    second=theirs,
                    conflict=now.conflict_deck,
                    options=engine_options,
                ),
            }
        )
    for number, proposal in enumerate(found, start=1):
        deck_codes = tuple(code for code in sorted(proposal.entries) for _ in range(proposal.entries[code]))
        codes |= set(deck_codes)
        variants.append(
            {
                "label": f"proposal {number}",
                "current": False,
                "proposal": proposal.to_dict(),
                "setup": _setup_json(
                    first=mine,
                    first_codes=deck_codes,
                    second=theirs,
                    conflict=now.conflict_deck,
                    options=engine_options,
                ),
            }
        )
    if not found and not now.is_legal:
        raise ValidationFailed(
            "No swap of a few cards within the deck's nation list makes this matchup legal.",
            code="no_legal_swap",
            violations=[v.to_dict() for v in now.violations],
        )
    return _job_new(
        user=user,
        kind=JobKind.BALANCE,
        games=games,
        seed=seed,
        chunk_games=chunk_games,
        request={
            "deck": mine.source | {"label": mine.label, "nation": mine.nation, "side": mine.side},
            "opponent": theirs.source | {"label": theirs.label, "nation": theirs.nation, "side": theirs.side},
            "bots": _bots(first=mine, second=theirs, bots=bots),
            "options": dict(options or {}),
            "conflict": choice.to_dict(),
            "matchup_legal": now.is_legal,
            "violations": [v.to_dict() for v in now.violations],
        },
        catalog=catalog,
        codes=codes,
        bots=_bots(first=mine, second=theirs, bots=bots),
        variants=variants,
        max_plies=max_plies,
    )


@transaction.atomic
def simulation_cancel(*, job_id: Any, user: Any) -> SimulationJob:
    simulation_get(job_id=job_id, user=user)  # 404 unless it is the user's job
    job = SimulationJob.objects.select_for_update().get(pk=job_id)
    if job.status in ACTIVE_STATUSES:
        job.status = JobStatus.CANCELLED
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "finished_at"])
    return job
