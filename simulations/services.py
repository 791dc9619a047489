"""Writes of simulation jobs: create (simulation or balance), run one chunk, cancel, fail.

Chunks are idempotent: a chunk's outcomes are written once per (job, chunk index) under the job's row
lock, and games_done grows only when that row is new, so a chunk played twice is counted once. The last
chunk written adds up every chunk (in index order: the result does not depend on which worker played what,
nor in which order) and finishes the job.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import socket
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.module_loading import import_string

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import DomainError, NotFound, ValidationFailed
from decks.rules import Code, DeckInput, validate_matchup
from games import engine
from games.catalog_snapshot import snapshot_hash
from games.decks_glue import ResolvedDeck, conflict_choice, resolve_deck, validate_pairing
from games.game_types import DEFAULT_GAME_TYPE, get_game_type
from games.services import game_options
from games.simulation import DEFAULT_MAX_PLIES, play_games, tally, wilson_interval
from simulations import runner
from simulations.balance import propose_swaps
from simulations.models import (
    ACTIVE_STATUSES,
    JobKind,
    JobStatus,
    SimulationChunk,
    SimulationJob,
    SimulationRunnerSlot,
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
    if kind.deck_simulation and (deck_a is not None or deck_b is not None):
        return import_string(kind.deck_simulation)(
            user=user, kind=kind, deck_a=deck_a, deck_b=deck_b, bots=bots, games=games, seed=seed,
            options=options, chunk_games=chunk_games, max_plies=max_plies,
        )
    if not kind.uses_decks:
        given = sorted(n for n, v in (("deck_a", deck_a), ("deck_b", deck_b), ("conflict", conflict)) if v)
        if given:
            raise ValidationFailed(
                f"{kind.label} is played with one shared deck: leave {', '.join(given)} out.",
                code="deck_not_allowed",
                field=given[0],
            )
        rules = kind.options(dict(options or {}))
        seat_bots = dict(zip(kind.seats, bots, strict=True))
        return _job_new(
            user=user,
            kind=JobKind.SIMULATION,
            games=games,
            seed=seed,
            chunk_games=chunk_games,
            request={"game_type": kind.name, "bots": seat_bots, "options": dict(options or {})},
            catalog=None,
            codes=set(),
            bots=seat_bots,
            variants=[{"label": "as given", "setup": kind.new_setup(seed=0, options=rules).to_json()}],
            max_plies=max_plies,
            game_type=kind.name,
            snapshot=kind.live_snapshot(),
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


def _war_casual(options: dict[str, Any] | None) -> bool:
    options = dict(options or {})
    if set(options) - {"casual"} or not isinstance(options.get("casual", False), bool):
        raise ValidationFailed("The War decks take only the option casual (true or false).",
                               code="invalid_options")
    return bool(options.get("casual", False))


def _war_simulation_create(
    *, user: Any, kind: Any, deck_a: Any, deck_b: Any, bots: tuple[str, str], games: int, seed: int | None,
    options: dict[str, Any] | None, chunk_games: int | None, max_plies: int,
) -> SimulationJob:
    """The War bot games between two The War decks (saved or starters), p1 with deck_a, p2 with deck_b."""
    from games.the_war_glue import war_deck_resolve, war_decks_rules

    if deck_a is None or deck_b is None:
        raise ValidationFailed("Give deck_a and deck_b.", code="deck_required", field="deck_a")
    decks = {"p1": war_deck_resolve(user=user, ref=deck_a), "p2": war_deck_resolve(user=user, ref=deck_b)}
    rules = war_decks_rules(decks=decks, casual=_war_casual(options))
    seat_bots = dict(zip(kind.seats, bots, strict=True))
    return _job_new(
        user=user,
        kind=JobKind.SIMULATION,
        games=games,
        seed=seed,
        chunk_games=chunk_games,
        request={
            "game_type": kind.name,
            "decks": {s: d.source | {"label": d.label, "nation": d.army} for s, d in decks.items()},
            "bots": seat_bots,
            "options": dict(options or {}),
        },
        catalog=None,
        codes=set(),
        bots=seat_bots,
        variants=[{"label": "as given", "setup": kind.new_setup(seed=0, options=rules).to_json()}],
        max_plies=max_plies,
        game_type=kind.name,
        snapshot=kind.live_snapshot(),
    )


def war_balance_create(
    *, user: Any, deck_id: int, opponent: dict[str, Any], bots: tuple[str, str], games: int,
    seed: int | None, options: dict[str, Any] | None, proposals: int, chunk_games: int | None, max_plies: int,
) -> SimulationJob:
    """The War: swaps within the deck's army pool that keep it legal (decks.rules_the_war), each proposal
    (and the deck as it is, when the pair is legal) simulated against `opponent` (p1: the deck)."""
    from games.the_war_glue import war_deck_resolve, war_decks_rules
    from simulations.balance_the_war import war_propose_swaps
    from vocabulary.the_war import load_catalog

    kind = get_game_type("the-war")
    casual = _war_casual(options)
    catalog = load_catalog()
    mine = war_deck_resolve(user=user, ref={"deck_id": deck_id}, catalog=catalog)
    theirs = war_deck_resolve(user=user, ref=opponent, catalog=catalog)
    seat_bots = dict(zip(kind.seats, bots, strict=True))
    variants: list[dict[str, Any]] = []
    try:
        current = war_decks_rules(decks={"p1": mine, "p2": theirs}, casual=casual, catalog=catalog)
    except ValidationFailed:
        current = None
    if current is not None:
        variants.append({
            "label": "current deck", "current": True,
            "proposal": {"remove": {}, "add": {}, "changes": 0, "card_difference": 0, "point_difference": 0},
            "setup": kind.new_setup(seed=0, options=current).to_json(),
        })
    found = war_propose_swaps(catalog, army=mine.army, entries=mine.entries, casual=casual, limit=proposals)
    for number, proposal in enumerate(found, start=1):
        swapped = type(mine)(army=mine.army, entries=proposal.entries, label=mine.label, source=mine.source)
        try:
            rules = war_decks_rules(decks={"p1": swapped, "p2": theirs}, casual=casual, catalog=catalog)
        except ValidationFailed:
            continue
        variants.append({
            "label": f"proposal {number}", "current": False, "proposal": proposal.to_dict(),
            "setup": kind.new_setup(seed=0, options=rules).to_json(),
        })
    if not variants:
        raise ValidationFailed("No swap within the deck's army pool makes these decks a legal pair.",
                               code="no_legal_swap")
    return _job_new(
        user=user,
        kind=JobKind.BALANCE,
        games=games,
        seed=seed,
        chunk_games=chunk_games,
        request={
            "game_type": kind.name,
            "deck": mine.source | {"label": mine.label, "nation": mine.army, "side": "p1"},
            "opponent": theirs.source | {"label": theirs.label, "nation": theirs.army, "side": "p2"},
            "bots": seat_bots,
            "options": dict(options or {}),
            "matchup_legal": current is not None,
            "violations": [],
        },
        catalog=None,
        codes=set(),
        bots=seat_bots,
        variants=variants,
        max_plies=max_plies,
        game_type=kind.name,
        snapshot=kind.live_snapshot(),
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
    A The War deck (decks game the-war): war_balance_create."""
    from decks.models import Deck

    if Deck.objects.filter(pk=deck_id, game="the-war").exists():
        return war_balance_create(
            user=user, deck_id=deck_id, opponent=opponent, bots=bots, games=games, seed=seed,
            options=options, proposals=proposals, chunk_games=chunk_games, max_plies=max_plies,
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


def _worker_name() -> str:
    import os

    return f"{socket.gethostname()}:{os.getpid()}"


def simulation_chunk_run(*, job_id: Any, index: int) -> bool:
    """Play chunk `index` of a job and record it once. False when there was nothing to do (the job is
    finished or cancelled, or the chunk is already recorded). Safe to call any number of times."""
    job = SimulationJob.objects.filter(pk=job_id).first()
    if job is None or job.status not in ACTIVE_STATUSES:
        return False
    if not 0 <= index < job.chunks_total:
        raise NotFound(f"Job {job_id} has no chunk {index}.", code="chunk_not_found")
    if SimulationChunk.objects.filter(job_id=job.pk, index=index).exists():
        return False
    if job.status == JobStatus.QUEUED:
        SimulationJob.objects.filter(pk=job.pk, status=JobStatus.QUEUED).update(
            status=JobStatus.RUNNING, started_at=timezone.now()
        )
    spec = job.spec
    kind = get_game_type(spec.get("game_type"))
    catalog = kind.catalog_from_snapshot(spec["catalog"], spec["catalog_hash"])
    variant, start, end = job.chunk_bounds(index)
    setup = kind.setup_from_json(spec["variants"][variant]["setup"])
    started = time.perf_counter()
    outcomes = play_games(
        catalog=catalog,
        setup=setup,
        bots=spec["bots"],
        base_seed=job.seed,
        indices=range(start, end),
        max_plies=spec["max_plies"],
        game_type=kind.name,
    )
    seconds = time.perf_counter() - started
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().defer("spec", "result").get(pk=job.pk)
        if job.status not in ACTIVE_STATUSES:
            return False
        _chunk, created = SimulationChunk.objects.get_or_create(
            job=job,
            index=index,
            defaults={"outcomes": outcomes, "worker": _worker_name(), "seconds": seconds},
        )
        if not created:
            return False
        job.games_done += len(outcomes)
        fields = ["games_done"]
        if SimulationChunk.objects.filter(job=job).count() == job.chunks_total:
            job.finished_at = timezone.now()
            job.result = _job_result(job)
            job.status = JobStatus.DONE
            fields += ["finished_at", "result", "status"]
        job.save(update_fields=fields)
    return True


def simulation_fail(*, job_id: Any, error: str) -> None:
    with transaction.atomic():
        job = SimulationJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status not in ACTIVE_STATUSES:
            return
        job.status = JobStatus.FAILED
        job.error = error[:2000]
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "error", "finished_at"])


# ------------------------------------------------------------------------------------------- results


def _report(job: SimulationJob, variant: int, outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    data = tally(
        outcomes, workers=1, seconds=0.0, bots=job.spec["bots"], game_type=job.spec.get("game_type")
    ).to_dict()
    for key in ("workers", "seconds", "games_per_second"):
        data.pop(key)
    data["end_reasons"] = data.pop("result_kinds")
    data["outcomes_digest"] = hashlib.sha256(
        json.dumps(outcomes, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    return data


def _job_result(job: SimulationJob) -> dict[str, Any]:
    """Every chunk added up in index order: the same whatever played them, and in whatever order."""
    by_variant: dict[int, list[dict[str, Any]]] = {}
    workers = set()
    for chunk in job.chunks.order_by("index").only("index", "outcomes", "worker"):
        variant, _start, _end = job.chunk_bounds(chunk.index)
        by_variant.setdefault(variant, []).extend(chunk.outcomes)
        workers.add(chunk.worker)
    seconds = (job.finished_at - (job.started_at or job.created_at)).total_seconds()
    timing = {
        "seconds": round(seconds, 3),
        "games_per_second": round(job.games_total / seconds, 2) if seconds > 0 else None,
        "worker_processes": len(workers),
    }
    variants = job.spec["variants"]
    reports = [_report(job, v, by_variant.get(v, [])) for v in range(len(variants))]
    if job.kind == JobKind.SIMULATION:
        return {**reports[0], "timing": timing}
    side = job.request["deck"]["side"]
    ranked = []
    for variant, report in zip(variants, reports, strict=True):
        wins = report["seats"][side]["wins"]
        ranked.append(
            {
                "label": variant["label"],
                "current": variant["current"],
                **variant["proposal"],
                "win_rate": report["seats"][side]["rate"],
                "ci95": report["seats"][side]["ci95"],
                "distance_from_even": round(abs(wins / job.games - 0.5), 4) if job.games else None,
                "report": report,
            }
        )
    current = next((r for r in ranked if r["current"]), None)
    if current is not None:
        low, high = wilson_interval(current["report"]["seats"][side]["wins"], job.games)
        current["lopsided"] = not (low <= 0.5 <= high)
    ranked.sort(key=lambda r: (r["distance_from_even"], r["changes"], r["label"]))
    return {
        "side": side,
        "current": current,
        "proposals": [r for r in ranked if not r["current"]],
        "ranking": [r["label"] for r in ranked],
        "timing": timing,
    }


# ------------------------------------------------------------------------- runs without a broker


def _lease() -> timedelta:
    return timedelta(seconds=settings.SIMULATION_LOCAL_LEASE_SECONDS)


@transaction.atomic
def runner_slot_claim(*, holder: str) -> tuple[str, Any]:
    """Take a free slot of the SIMULATION_LOCAL_CONCURRENCY and the oldest active job nobody runs.

    ("run", (slot index, job id)); ("wait", None) when jobs wait but every slot is held; ("idle", None)
    when no job waits. The slots are rows (locked, SKIP LOCKED), so the cap holds over every process and
    host sharing the database; a slot whose lease ran out (its process died) is free, and its job too."""
    cap = max(1, int(settings.SIMULATION_LOCAL_CONCURRENCY))
    now = timezone.now()
    SimulationRunnerSlot.objects.bulk_create(
        [SimulationRunnerSlot(index=i) for i in range(cap)], ignore_conflicts=True
    )
    _free_slots_of_dead_processes(now=now)
    held = SimulationRunnerSlot.objects.filter(lease_until__gt=now, job__isnull=False).values("job_id")
    job = (
        SimulationJob.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(status__in=ACTIVE_STATUSES)
        .exclude(pk__in=held)
        .order_by("created_at", "pk")
        .only("pk")
        .first()
    )
    if job is None:
        return "idle", None
    slot = (
        SimulationRunnerSlot.objects.select_for_update(skip_locked=True)
        .filter(index__lt=cap)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now))
        .order_by("index")
        .first()
    )
    if slot is None:
        return "wait", None
    slot.job_id, slot.holder, slot.lease_until = job.pk, holder, now + _lease()
    slot.save(update_fields=["job", "holder", "lease_until"])
    return "run", (slot.index, job.pk)


def _free_slots_of_dead_processes(*, now: Any) -> None:
    """A slot held by a process of this host that is gone (a restart) is free at once, not after its lease."""
    host = socket.gethostname()
    for slot in SimulationRunnerSlot.objects.filter(lease_until__gt=now, holder__startswith=f"{host}:"):
        pid = slot.holder.split(":")[1]
        if pid.isdigit() and not _process_alive(int(pid)):
            SimulationRunnerSlot.objects.filter(index=slot.index, holder=slot.holder).update(lease_until=now)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def runner_slot_renew(*, index: int, holder: str) -> bool:
    """Extend the lease of a slot still held by `holder` (False: it was lost, stop running its job)."""
    return bool(
        SimulationRunnerSlot.objects.filter(index=index, holder=holder).update(
            lease_until=timezone.now() + _lease()
        )
    )


def runner_slot_release(*, index: int, holder: str) -> None:
    SimulationRunnerSlot.objects.filter(index=index, holder=holder).update(
        job=None, holder="", lease_until=None
    )
