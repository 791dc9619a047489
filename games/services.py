"""Writes of the games app: create, join, resign, submit an action (and let bots answer).

Every write locks the game row (select_for_update) inside one transaction; the version check happens
under that lock, and the action, its log entries, the new engine state and the new version are written
together, or nothing is (any DomainError raised here rolls the whole transaction back).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from config import metrics
from config.errors import Conflict, DomainError, Forbidden, NotFound, ValidationFailed
from games import engine, event_bus
from games.catalog_snapshot import snapshot_dicts, snapshot_hash
from games.decks_glue import check_theater_playable, resolve_deck, validate_deck_alone, validate_pairing
from games.game_types import DEFAULT_GAME_TYPE, GameType, game_type_of, get_game_type, side_of_seat
from games.models import (
    BotKind,
    CatalogSnapshot,
    EndReason,
    Game,
    GameAction,
    GameSeat,
    GameStatus,
    LogKind,
    SeatKind,
)
from games.selectors import (
    game_catalog,
    game_get_for_update,
    open_game_expired,
    open_game_ttl,
    open_games_of,
    seat_of_user,
    user_may_see_game,
)

MAX_BOT_PLIES_PER_REQUEST = 20_000  # a safety net: the engine's own turn limit ends games far sooner
SEED_BITS = 62
MAX_OPTION_INT = 10_000


class EngineRejected(DomainError):
    """The engine refused an action (400): the code is the engine's own (illegal_action, ...)."""

    status = 400
    code = "illegal_action"


SIMULATION_ONLY_OPTIONS = frozenset({"max_battle_rounds"})  # a self-play guard, not a rule (engine README)


def game_options(options: dict[str, Any], *, simulation: bool = False) -> Any:
    """The engine Options from a request's JSON: known names only, each of its default's type (an int
    where the default is None). The battle round cap is for simulations only: games follow the rulebook."""
    defaults = engine.Options()
    for name, value in options.items():
        if not hasattr(defaults, name) or name.startswith("_"):
            raise ValidationFailed(f"Unknown game option {name!r}.", code="invalid_options", option=name)
        if name in SIMULATION_ONLY_OPTIONS and not simulation:
            raise ValidationFailed(
                f"Option {name!r} is for simulations only: games have no round limit.",
                code="invalid_options",
                option=name,
            )
        default = getattr(defaults, name)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_OPTION_INT
        if not ok:
            raise ValidationFailed(
                f"Option {name!r} must be like {default!r}.", code="invalid_options", option=name
            )
    try:
        return engine.Options.from_json(options)
    except engine.EngineError as exc:
        raise ValidationFailed(exc.message, code="invalid_options") from exc


def seed_commitment(seed: int, salt: str) -> str:
    """sha256 over "<seed>:<salt>": published at creation; seed and salt are revealed after the end."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def deal_seed(seed: int, salt: str) -> int:
    """The engine's seed: the game seed mixed with the server's secret salt.

    A player who picks `seed` still cannot reproduce the deal (and so learn the other seat's hand or the
    deck order) while the game runs; after the end seed and salt are published and anyone can recompute it.
    """
    return int(hashlib.sha256(f"deal:{seed}:{salt}".encode()).hexdigest()[:16], 16)


def bot_salt(salt: str) -> str:
    """Bots' choices hash this secret (revealed with the seed at the end), so nobody can predict them."""
    return hashlib.sha256(f"bot:{salt}".encode()).hexdigest()[:16]


def _event_json(event: Any) -> dict[str, Any]:
    to_json = getattr(event, "to_json", None)
    if callable(to_json):
        data = to_json()
        data.setdefault("visible_to", event.visible_to)
        return data
    return {"type": event.type, "data": event.data, "visible_to": event.visible_to}


def _decision_seat(state: Any) -> str:
    decision = state.decision
    return decision.seat if decision is not None else ""


_CHANGING_FIELDS = [
    "status",
    "state",
    "version",
    "last_seq",
    "turn",
    "ply",
    "current_seat",
    "winner",
    "end_reason",
    "result",
    "started_at",
    "finished_at",
    "updated_at",
]


def _save_progress(game: Game) -> None:
    """Write only what play changes (never the bulky, immutable snapshot and setup); on commit, the game's
    event streams are woken (games.event_bus)."""
    game.save(update_fields=_CHANGING_FIELDS)
    event_bus.announce(game_id=game.pk)


def _sync_game_from_state(game: Game, state: Any) -> None:
    game.state = state.to_json()
    game.turn = state.turn
    game.ply = state.ply
    # Nobody is "current" while a seat is still open (or after the end).
    playing = state.status == "active" and game.status == GameStatus.ACTIVE
    game.current_seat = _decision_seat(state) if playing else ""
    if state.status == "finished" and game.status != GameStatus.FINISHED:
        game.status = GameStatus.FINISHED
        game.winner = state.winner or ""
        game.result = dict(state.result or {})
        # The engine finished it: a win, or a draw by the rules (equal points); never "unfinished".
        game.end_reason = EndReason.VICTORY if state.winner else EndReason.DRAW
        game.finished_at = timezone.now()


@dataclass
class _Log:
    """Collects the log rows one transaction appends."""

    game: Game
    rows: list[GameAction]

    def add(self, *, kind: str, seat: str, action: dict, events: list[dict], by_bot: bool = False) -> None:
        self.game.last_seq += 1
        self.game.version += 1
        self.rows.append(
            GameAction(
                game=self.game,
                seq=self.game.last_seq,
                kind=kind,
                seat=seat,
                by_bot=by_bot,
                action=action,
                events=events,
                version=self.game.version,
            )
        )

    def flush(self) -> None:
        if self.rows:
            GameAction.objects.bulk_create(self.rows)


def _run_bots(*, game: Game, state: Any, seats: dict[str, GameSeat], log: _Log) -> None:
    """Bot seats act until the game waits on a human (or ends)."""
    kind = game_type_of(game)
    plies = 0
    bots: dict[str, Any] = {}
    while state.status == "active" and game.status == GameStatus.ACTIVE:
        seat_name = _decision_seat(state)
        seat = seats.get(seat_name)
        if seat is None or seat.kind != SeatKind.BOT:
            return
        bot = bots.get(seat_name)
        if bot is None:
            # A bot sees only its seat's view; its choices hash (salt, ply, seat): no second RNG.
            bot = bots[seat_name] = kind.bot(seat.bot, catalog=state.catalog, salt=bot_salt(game.seed_salt))
        legal = kind.legal_actions(state)
        seen = kind.view(state, seat_name) if getattr(bot, "needs_view", True) else {"ply": state.ply}
        action = bot.choose(seen, legal, seat_name)
        events = kind.apply(state, action)
        log.add(
            kind=LogKind.ACTION,
            seat=seat_name,
            action=action.to_json(),
            events=[_event_json(e) for e in events],
            by_bot=True,
        )
        plies += 1
        if plies >= MAX_BOT_PLIES_PER_REQUEST:  # a safety net: engine games end far sooner
            raise Conflict("The bots did not reach a human decision.", code="bot_stuck")


def _deal(
    *, game: Game, live: Any, mine: Any, theirs: Any, conflict: dict[str, Any] | None
) -> Any:
    """Check the pairing, then set the game up (setup, frozen catalog snapshot, engine state) from its seed.

    Called at creation when both decks are known, else when the second player joins with his deck."""
    choice, conflict_codes = validate_pairing(catalog=live, first=mine, second=theirs, conflict=conflict)
    setup = engine.GameSetup(
        seed=deal_seed(game.seed, game.seed_salt),
        decks={mine.side: tuple(mine.codes), theirs.side: tuple(theirs.codes)},
        nations={mine.side: mine.nation, theirs.side: theirs.nation},
        conflict_deck=tuple(conflict_codes),
        options=game_options(game.options),
    )
    snapshot = snapshot_dicts(live, set(mine.codes) | set(theirs.codes) | set(conflict_codes))
    digest = snapshot_hash(snapshot)
    try:
        state = engine.new_game(game_type_of(game).catalog_from_snapshot(snapshot, digest), setup)
    except engine.EngineError as exc:
        raise ValidationFailed(f"The engine cannot set up this game: {exc.message}", code=exc.code) from exc
    game.catalog_version, game.catalog_hash = _live_catalog_version()
    game.snapshot, _ = CatalogSnapshot.objects.get_or_create(hash=digest, defaults={"data": snapshot})
    game.snapshot_hash = digest
    game.conflict_choice = choice.to_dict()
    game.setup = setup.to_json()
    _sync_game_from_state(game, state)
    return state


def _check_open_game_cap(user: Any) -> None:
    """At most settings.GAMES_MAX_OPEN_PER_USER open (not yet expired) games per user: 409 beyond.

    The user's row is locked so that simultaneous creations cannot both slip under the cap."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    cap = int(settings.GAMES_MAX_OPEN_PER_USER)
    if open_games_of(user=user).count() >= cap:
        raise Conflict(
            f"You already have {cap} open games waiting for an opponent: cancel one (resign) first.",
            code="too_many_open_games",
            limit=cap,
        )


@transaction.atomic
def games_expire_open(*, older_than: timedelta | None = None) -> int:
    """Cancel open games nobody joined within settings.GAMES_OPEN_TTL (or `older_than`): they end without
    a winner (result kind "expired"). Returns how many were cancelled."""
    cutoff = timezone.now() - (older_than if older_than is not None else open_game_ttl())
    expired = 0
    for game in Game.objects.select_for_update().filter(status=GameStatus.OPEN, created_at__lt=cutoff):
        seat = game.seats.filter(user=game.created_by_id).first()
        game.status = GameStatus.FINISHED
        game.winner = ""
        game.current_seat = ""
        game.end_reason = EndReason.UNFINISHED
        game.result = {"kind": "expired"}
        game.finished_at = timezone.now()
        log = _Log(game=game, rows=[])
        log.add(
            kind=LogKind.RESIGN,
            seat=seat.seat if seat else "",
            action={"type": "expire"},
            events=[{"type": "expired", "data": {}, "visible_to": "all"}],
        )
        log.flush()
        _save_progress(game)
        expired += 1
    return expired


@transaction.atomic
def game_create(
    *,
    user: Any,
    my_deck: dict[str, Any] | None = None,
    opponent_deck: dict[str, Any] | None = None,
    opponent: dict[str, Any],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    conflict: dict[str, Any] | None = None,
    game_type: str = DEFAULT_GAME_TYPE,
    seat: str | None = None,
) -> Game:
    """Create a game between two legal, matched decks; `opponent` is {"kind": "bot", "bot": "random" |
    "heuristic"} or {"kind": "human", "username": optional invitee}; `conflict` is {"theater", "mode":
    "thin" | "fat" | "packs", "packs"} (theater defaults to the one both nations fight in). Bots move at
    once when it is their turn. Against a human, `opponent_deck` may be left out: the player who joins
    brings his own deck, and the game is dealt then.

    A game type without decks (Battlefront: one shared deck) takes no deck nor conflict (400
    deck_not_allowed) and lets the creator pick `seat` (default: the type's first seat)."""
    from cards.selectors import catalog_definitions  # the live catalog, read once at creation

    kind = get_game_type(game_type)
    if not kind.uses_decks:
        return _shared_deck_game_create(
            user=user,
            kind=kind,
            refused={"my_deck": my_deck, "opponent_deck": opponent_deck, "conflict": conflict},
            opponent=opponent,
            options=options,
            seed=seed,
            seat=seat,
        )
    if seat is not None:
        raise ValidationFailed(
            f"In {kind.label} your deck's nation decides your seat: leave seat out.",
            code="seat_not_choosable",
            field="seat",
        )
    if my_deck is None:
        raise ValidationFailed("Give my_deck.", code="deck_required", field="my_deck")
    opponent_kind = opponent.get("kind")
    if opponent_deck is None and opponent_kind != SeatKind.HUMAN:
        raise ValidationFailed(
            "A bot needs a deck: give opponent_deck.", code="opponent_deck_required", field="opponent_deck"
        )
    live = catalog_definitions()
    mine = resolve_deck(user=user, ref=my_deck, catalog=live)
    theirs = resolve_deck(user=user, ref=opponent_deck, catalog=live) if opponent_deck is not None else None

    invitee = _invitee(user=user, opponent=opponent)

    options = dict(options or {})
    kind.options(options)  # unknown or ill-typed options are refused now, not at the deal

    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    salt = secrets.token_hex(16)
    game = Game(
        game_type=kind.name,
        created_by=user,
        status=GameStatus.OPEN,
        seed=seed,
        seed_salt=salt,
        seed_hash=seed_commitment(seed, salt),
        snapshot=None,
        snapshot_hash="",
        options=options,
        conflict_choice=dict(conflict or {}),
        setup={},
        state={},
    )
    if opponent_kind == SeatKind.BOT:
        game.status = GameStatus.ACTIVE
        game.started_at = timezone.now()
    if theirs is not None:
        state = _deal(game=game, live=live, mine=mine, theirs=theirs, conflict=conflict)
    else:
        validate_deck_alone(catalog=live, deck=mine)
        state = None
    game.save()

    now = timezone.now()
    other_side = "allies" if mine.side == "axis" else "axis"
    seats = {
        mine.side: GameSeat(
            game=game,
            seat=mine.side,
            kind=SeatKind.HUMAN,
            user=user,
            nation=mine.nation,
            deck_label=mine.label,
            deck_source=mine.source,
            joined_at=now,
        ),
    }
    deck_fields = (
        {"nation": theirs.nation, "deck_label": theirs.label, "deck_source": theirs.source}
        if theirs is not None
        else {"nation": "", "deck_label": "", "deck_source": {}}
    )
    if opponent_kind == SeatKind.BOT:
        seats[theirs.side] = GameSeat(
            game=game, seat=theirs.side, kind=SeatKind.BOT, bot=opponent["bot"], joined_at=now, **deck_fields
        )
    else:
        seats[other_side] = GameSeat(
            game=game, seat=other_side, kind=SeatKind.HUMAN, invited_user=invitee, **deck_fields
        )
    GameSeat.objects.bulk_create(seats.values())

    _start_if_active(game=game, state=state, seats=seats)
    return game


# ------------------------------------------------------------------ team, uneven and combined games

SIDES = ("axis", "allies")
MAX_ARMIES_PER_SIDE = 4
PLAYER_ME, PLAYER_OPEN, PLAYER_BOT = "me", "open", "bot"
UNEVEN_RULE_1 = "Games with uneven teams cannot use Optional Rule #1: Larger Standing Armies."


def army_seat_names(counts: dict[str, int]) -> dict[str, list[str]]:
    """The seat (army id) of each army per side, in the order given: axis-1, axis-2, ..., allies-1, ...
    (games.engine.team_setup numbers them so; a classic 1v1 game keeps the seats axis and allies)."""
    return {side: [f"{side}-{n}" for n in range(1, counts[side] + 1)] for side in SIDES}


def _check_lineup(*, armies: dict[str, list[dict[str, Any]]], live: Any, options: Any) -> None:
    """The armies of a team, uneven or combined game are legal (400 with a code per reason)."""
    counts = {side: len(armies.get(side) or []) for side in SIDES}
    for side in SIDES:
        if counts[side] == 0:
            raise ValidationFailed(
                f"Each side has 1 to {MAX_ARMIES_PER_SIDE} armies: give at least one {side} army.",
                code="side_without_army",
                field=f"armies.{side}",
            )
        if counts[side] > MAX_ARMIES_PER_SIDE:
            raise ValidationFailed(
                f"At most {MAX_ARMIES_PER_SIDE} armies a side (2 to 8 seats in all): {counts[side]} {side} "
                "armies given.",
                code="too_many_armies",
                field=f"armies.{side}",
                limit=MAX_ARMIES_PER_SIDE,
            )
    if counts["axis"] == counts["allies"] == 1:
        raise ValidationFailed(
            "One army a side is a 1v1 game: create it from two decks (my_deck, opponent_deck, opponent). "
            "`armies` is for 3 to 8 players (team play, uneven teams, combined sets).",
            code="not_a_team_game",
            field="armies",
        )
    if abs(counts["axis"] - counts["allies"]) > 1:
        raise ValidationFailed(
            "Teams are equal (optional rule 3) or one army apart (optional rule 4: 1v2, 2v3, 3v4); "
            f"{counts['axis']} axis v {counts['allies']} allies is not a game of the rules.",
            code="teams_too_uneven",
            field="armies",
        )
    if counts["axis"] != counts["allies"] and options.larger_standing_armies:
        raise ValidationFailed(
            UNEVEN_RULE_1, code="uneven_teams_refuse_rule_1", option="larger_standing_armies"
        )
    for side in SIDES:
        for index, army in enumerate(armies[side]):
            nation = army["nation"]
            where = f"armies.{side}.{index}.nation"
            if nation not in live.nations:
                raise ValidationFailed(
                    f"Unknown nation {nation!r}: one of {sorted(live.nations)}.",
                    code="unknown_nation",
                    field=where,
                )
            if live.side_of(nation) != side:
                raise ValidationFailed(
                    f"{live.nations[nation].name} ({nation}) fights for the {live.side_of(nation)}, "
                    f"not the {side}.",
                    code="nation_on_wrong_side",
                    field=where,
                )
            starter = army.get("starter")
            if starter is not None:
                found = live.sets.get(starter)
                if found is None or found.kind != "starter" or found.nation != nation:
                    raise ValidationFailed(
                        f"{starter!r} is not a starter set of {nation}.",
                        code="starter_not_found",
                        field=f"armies.{side}.{index}.starter",
                    )
    mine = [a for side in SIDES for a in armies[side] if a["player"] == PLAYER_ME]
    if len(mine) != 1:
        raise ValidationFailed(
            "Take exactly one army yourself (player: me): one seat per player and game.",
            code="one_seat_per_player",
            field="armies",
        )


def _lineup_invitees(*, user: Any, armies: dict[str, list[dict[str, Any]]]) -> dict[tuple[str, int], Any]:
    """The user each reserved open army waits for, keyed by (side, index); every player sits once."""
    found: dict[tuple[str, int], Any] = {}
    seen: set[int] = {user.pk}
    users = get_user_model().objects
    for side in SIDES:
        for index, army in enumerate(armies[side]):
            name = army.get("invite")
            if army["player"] != PLAYER_OPEN or not name:
                continue
            invitee = users.filter(username=name).first()
            if invitee is None:
                raise ValidationFailed(
                    "No user has this username.", code="unknown_user", field=f"armies.{side}.{index}.invite"
                )
            if invitee.pk in seen:
                raise ValidationFailed(
                    f"{name} would hold two seats of this game: one seat per player and game.",
                    code="one_seat_per_player",
                    field=f"armies.{side}.{index}.invite",
                )
            seen.add(invitee.pk)
            found[(side, index)] = invitee
    return found


def _conflict_theaters(live: Any, conflict_deck: Any) -> list[str]:
    """The theaters whose conflict cards make up a conflict deck."""
    theaters = set()
    for code in conflict_deck:
        card = live.conflict.get(code) or live.battlecards.get(code)
        if card is not None:
            theaters.add(card.theater)
    return sorted(theaters)


@transaction.atomic
def game_create_armies(
    *,
    user: Any,
    armies: dict[str, list[dict[str, Any]]],
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    theaters: list[str] | None = None,
) -> Game:
    """Create a Battlecards game of 3 to 8 seats, one per army (optional rules 3 and 4, combined sets; a
    1v1 game is made from two decks by game_create).

    `armies` is {"axis": [army, ...], "allies": [army, ...]}, each army {"nation", "player": "me" | "open" |
    "bot", "bot"?, "invite"?, "starter"?}; the n-th army of a side sits at seat "<side>-<n>". The creator
    takes the one "me" army; bots take theirs now; open seats wait for POST /join/ {"seat"}.
    Every army plays the starter decks (games.engine.team_setup: one starter set per two armies of a
    nation, the side's armies of a nation drawing from one common arsenal deck) and the conflict deck of
    `theaters` (default: the theaters of the nations involved), dealt now from the seed;
    the game starts when the last open seat is taken (at once when none is open)."""
    from cards.selectors import catalog_definitions

    live = catalog_definitions()
    options = dict(options or {})
    rules = game_options(options)
    _check_lineup(armies=armies, live=live, options=rules)
    invitees = _lineup_invitees(user=user, armies=armies)
    open_seats = any(a["player"] == PLAYER_OPEN for side in SIDES for a in armies[side])
    if open_seats:
        _check_open_game_cap(user)
    if theaters is not None:
        unknown = sorted(set(theaters) - set(live.theaters))
        if unknown:
            raise ValidationFailed(
                f"Unknown theater {unknown[0]!r}: one of {sorted(live.theaters)}.",
                code="unknown_theater",
                field="conflict.theaters",
            )

    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    salt = secrets.token_hex(16)
    nations = {side: [a["nation"] for a in armies[side]] for side in SIDES}
    entries = {side: [a.get("starter") or a["nation"] for a in armies[side]] for side in SIDES}
    try:
        setup = engine.team_setup(
            live,
            deal_seed(seed, salt),
            axis=entries["axis"],
            allies=entries["allies"],
            options=rules,
            theaters=tuple(theaters) if theaters is not None else None,
        )
    except engine.EngineError as exc:
        raise ValidationFailed(f"The engine cannot set up this game: {exc.message}", code=exc.code) from exc
    names = army_seat_names({side: len(nations[side]) for side in SIDES})
    expected = {
        seat: nation for side in SIDES for seat, nation in zip(names[side], nations[side], strict=True)
    }
    if dict(setup.nations) != expected:  # the engine's army ids are the seats, in the order given
        raise RuntimeError(f"team_setup gave armies {dict(setup.nations)}, expected {expected}")
    check_theater_playable(
        catalog=live, theater="+".join(theaters or _conflict_theaters(live, setup.conflict_deck)),
        conflict_deck=setup.conflict_deck,
    )
    snapshot = snapshot_dicts(
        live, {code for deck in setup.decks.values() for code in deck} | set(setup.conflict_deck)
    )
    digest = snapshot_hash(snapshot)
    try:
        catalog = get_game_type(DEFAULT_GAME_TYPE).catalog_from_snapshot(snapshot, digest)
        state = engine.new_game(catalog, setup)
    except engine.EngineError as exc:
        raise ValidationFailed(f"The engine cannot set up this game: {exc.message}", code=exc.code) from exc

    now = timezone.now()
    game = Game(
        game_type=DEFAULT_GAME_TYPE,
        created_by=user,
        status=GameStatus.OPEN if open_seats else GameStatus.ACTIVE,
        started_at=None if open_seats else now,
        seed=seed,
        seed_salt=salt,
        seed_hash=seed_commitment(seed, salt),
        options=options,
        lineup=entries,
        conflict_choice={"theaters": _conflict_theaters(live, setup.conflict_deck)},
        setup=setup.to_json(),
        state={},
    )
    game.catalog_version, game.catalog_hash = _live_catalog_version()
    game.snapshot, _ = CatalogSnapshot.objects.get_or_create(hash=digest, defaults={"data": snapshot})
    game.snapshot_hash = digest
    _sync_game_from_state(game, state)
    game.save()

    seats: dict[str, GameSeat] = {}
    for side in SIDES:
        for index, (army, seat_name) in enumerate(zip(armies[side], names[side], strict=True)):
            nation = army["nation"]
            row = GameSeat(
                game=game,
                seat=seat_name,
                nation=nation,
                deck_label=f"{live.nations[nation].name} starter army ({len(setup.decks[seat_name])} cards "
                f"into the common {nation} arsenal deck)",
                deck_source={"starter_army": nation, "public": True},
            )
            if army["player"] == PLAYER_ME:
                row.kind, row.user, row.joined_at = SeatKind.HUMAN, user, now
            elif army["player"] == PLAYER_BOT:
                row.kind, row.bot, row.joined_at = SeatKind.BOT, army["bot"], now
            else:
                row.kind, row.invited_user = SeatKind.HUMAN, invitees.get((side, index))
            seats[seat_name] = row
    GameSeat.objects.bulk_create(seats.values())
    _start_if_active(game=game, state=state, seats=seats)
    return game


def _start_if_active(*, game: Game, state: Any, seats: dict[str, GameSeat]) -> None:
    """Against a bot the game starts at creation: the bot moves at once when the first decision is its."""
    if game.status == GameStatus.ACTIVE:
        log = _Log(game=game, rows=[])
        _run_bots(game=game, state=state, seats=seats, log=log)
        _sync_game_from_state(game, state)
        log.flush()
        _save_progress(game)


def _invitee(*, user: Any, opponent: dict[str, Any]) -> Any:
    """The user a human opponent's seat is reserved for (None: anyone), after the open-game cap check."""
    invitee = None
    opponent_kind = opponent.get("kind")
    if opponent_kind == SeatKind.HUMAN and opponent.get("username"):
        invitee = get_user_model().objects.filter(username=opponent["username"]).first()
        if invitee is None:
            raise ValidationFailed(
                "No user has this username.", code="unknown_user", field="opponent.username"
            )
        if invitee.pk == user.pk:
            raise ValidationFailed("You cannot invite yourself.", code="invalid_opponent")
    if opponent_kind == SeatKind.HUMAN:
        _check_open_game_cap(user)
    return invitee


SHARED_DECK_SOURCE = {"shared": True, "public": True}  # "public": the replay shows everything after the end


def _shared_deck_game_create(
    *,
    user: Any,
    kind: GameType,
    refused: dict[str, Any],
    opponent: dict[str, Any],
    options: dict[str, Any] | None,
    seed: int | None,
    seat: str | None,
) -> Game:
    """A game of a type where both players draw from one shared deck (Battlefront): dealt at creation
    from the game's frozen card snapshot; the joiner brings nothing."""
    given = sorted(name for name, value in refused.items() if value)
    if given:
        raise ValidationFailed(
            f"{kind.label} is played with one shared deck: leave {', '.join(given)} out.",
            code="deck_not_allowed",
            field=given[0],
        )
    seat = seat or kind.seats[0]
    if seat not in kind.seats:
        raise ValidationFailed(
            f"A {kind.label} seat is one of {list(kind.seats)}.", code="invalid_seat", field="seat"
        )
    invitee = _invitee(user=user, opponent=opponent)
    options = dict(options or {})
    rules = kind.options(options)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    salt = secrets.token_hex(16)
    snapshot = kind.live_snapshot()
    digest = snapshot_hash(snapshot)
    setup = kind.new_setup(seed=deal_seed(seed, salt), options=rules)
    try:
        state = kind.new_state(kind.catalog_from_snapshot(snapshot, digest), setup)
    except kind.errors as exc:
        raise ValidationFailed(
            f"The engine cannot set up this game: {getattr(exc, 'message', exc)}",
            code=getattr(exc, "code", "invalid_options"),
        ) from exc
    bot_game = opponent.get("kind") == SeatKind.BOT
    game = Game(
        game_type=kind.name,
        created_by=user,
        status=GameStatus.ACTIVE if bot_game else GameStatus.OPEN,
        started_at=timezone.now() if bot_game else None,
        seed=seed,
        seed_salt=salt,
        seed_hash=seed_commitment(seed, salt),
        options=options,
        conflict_choice={},
        setup=setup.to_json(),
        state={},
    )
    game.snapshot, _ = CatalogSnapshot.objects.get_or_create(hash=digest, defaults={"data": snapshot})
    game.snapshot_hash = digest
    _sync_game_from_state(game, state)
    game.save()

    now = timezone.now()
    other = kind.other_seat(seat)
    shared = {"deck_label": f"the shared {kind.label} deck", "deck_source": dict(SHARED_DECK_SOURCE)}
    nations = kind.seat_nations(rules)
    seats = {
        seat: GameSeat(game=game, seat=seat, kind=SeatKind.HUMAN, user=user, joined_at=now, **shared),
        other: GameSeat(game=game, seat=other, **shared),
    }
    for name, seat_row in seats.items():
        seat_row.nation = nations.get(name, "")  # Battlefront: the Special cards nationality, if any
    if bot_game:
        seats[other].kind, seats[other].joined_at = SeatKind.BOT, now
        seats[other].bot = opponent.get("bot") or BotKind.HEURISTIC
    else:
        seats[other].kind, seats[other].invited_user = SeatKind.HUMAN, invitee
    GameSeat.objects.bulk_create(seats.values())
    _start_if_active(game=game, state=state, seats=seats)
    return game


def _live_catalog_version() -> tuple[str, str]:
    """The live catalog's version id and content hash (cards.CatalogVersion), recorded on the game."""
    from cards.selectors import catalog_version_current

    current = catalog_version_current()
    if current is None:
        return "", ""
    return str(current.pk), current.content_hash


def _seat_to_take(*, seats: dict[str, GameSeat], user: Any, seat: str | None) -> GameSeat:
    """The open human seat `user` takes: the one named (`seat`), else the one reserved for him, else the
    first open one in seat order."""
    if seat is not None:
        chosen = seats.get(seat)
        if chosen is None:
            raise ValidationFailed(
                f"This game has no seat {seat!r}: its seats are {sorted(seats)}.",
                code="invalid_seat",
                field="seat",
            )
        if chosen.kind != SeatKind.HUMAN or chosen.user_id is not None:
            raise Conflict(f"Seat {seat} is taken.", code="seat_taken", seat=seat)
        if chosen.invited_user_id is not None and chosen.invited_user_id != user.pk:
            raise Forbidden("This seat is reserved for another player.", code="not_invited")
        return chosen
    ordered = sorted(seats.values(), key=lambda s: s.seat)
    free = [s for s in ordered if s.kind == SeatKind.HUMAN and s.user_id is None]
    if not free:
        raise Conflict("No seat is free.", code="game_full")
    for candidate in free:
        if candidate.invited_user_id == user.pk:
            return candidate
    for candidate in free:
        if candidate.invited_user_id is None:
            return candidate
    raise Forbidden("This seat is reserved for another player.", code="not_invited")


@transaction.atomic
def game_join(
    *, game_id: Any, user: Any, deck: dict[str, Any] | None = None, seat: str | None = None
) -> Game:
    """Take an open seat of a human game: `seat` names it (any game; a team game's seats are its armies:
    axis-1, allies-2, ...), else the one reserved for you, else the first open one.

    A 1v1 Battlecards game: with `deck` ({"deck_id"} or {"starter"}: checked by the matchup rule against the
    creator's deck) or with the deck the creator chose for that seat; the game is dealt when it had no
    opponent deck yet or the joiner brings his own. A team game (created with `armies`) was dealt at
    creation: no deck. One seat per player and game (409 already_joined). The game starts when its last
    open seat is taken (bot armies then move at once)."""
    game = game_get_for_update(game_id=game_id, user=user, visible_only=False)
    seats = {s.seat: s for s in game.seats.all()}  # the game row lock guards its seats too
    if game.status != GameStatus.OPEN and any(s.user_id == user.pk for s in seats.values()):
        raise Conflict("You already sit at this game.", code="already_joined")
    if game.status != GameStatus.OPEN or open_game_expired(game):
        # Also the answer to the losers of a join race: the seat was free when they looked.
        raise Conflict("This game is not waiting for a player.", code="game_not_open")
    if not user_may_see_game(game, list(seats.values()), user):
        raise NotFound("No such game.", code="game_not_found")
    if any(s.user_id == user.pk for s in seats.values()):
        raise Conflict(
            "You already sit at this game: one seat per player and game.", code="already_joined"
        )
    open_seat = _seat_to_take(seats=seats, user=user, seat=seat)
    kind = game_type_of(game)
    if deck is not None and (not kind.uses_decks or game.lineup):
        what = (
            f"{kind.label} is played with one shared deck"
            if not kind.uses_decks
            else "Every army of a team game plays the starter decks dealt at creation"
        )
        raise ValidationFailed(f"{what}: join without a deck.", code="deck_not_allowed", field="deck")

    if deck is not None or not game.setup:
        from cards.selectors import catalog_definitions

        if deck is None:
            raise ValidationFailed(
                "Bring your deck: {\"deck\": {\"deck_id\": id} or {\"starter\": code}}.",
                code="deck_required",
                field="deck",
            )
        live = catalog_definitions()
        creator_seat = next(s for s in seats.values() if s.pk != open_seat.pk)
        creator_deck = resolve_deck(user=creator_seat.user, ref=creator_seat.deck_source, catalog=live)
        theirs = resolve_deck(user=user, ref=deck, catalog=live)
        _deal(game=game, live=live, mine=creator_deck, theirs=theirs, conflict=game.conflict_choice)
        open_seat.nation = theirs.nation
        open_seat.deck_label = theirs.label
        open_seat.deck_source = theirs.source
        Game.objects.filter(pk=game.pk).update(
            catalog_version=game.catalog_version,
            catalog_hash=game.catalog_hash,
            snapshot=game.snapshot,
            snapshot_hash=game.snapshot_hash,
            conflict_choice=game.conflict_choice,
            setup=game.setup,
        )
    open_seat.user = user
    open_seat.joined_at = timezone.now()
    open_seat.save(update_fields=["user", "joined_at", "nation", "deck_label", "deck_source"])

    full = all(s.kind == SeatKind.BOT or s.user_id is not None for s in seats.values())
    state = kind.state_from_json(game.state, game_catalog(game=game))
    if full:
        game.status = GameStatus.ACTIVE
        game.started_at = timezone.now()
    log = _Log(game=game, rows=[])
    log.add(
        kind=LogKind.JOIN,
        seat=open_seat.seat,
        action={"type": "join"},
        events=[
            {
                "type": "player_joined",
                "data": {"seat": open_seat.seat, "player": user.get_username()},
                "visible_to": "all",
            }
        ],
    )
    if full:
        _run_bots(game=game, state=state, seats=seats, log=log)
    _sync_game_from_state(game, state)
    log.flush()
    _save_progress(game)
    return game


@transaction.atomic
def game_resign(*, game_id: Any, user: Any) -> Game:
    """Resign: the other side wins (in a team game one army's resignation concedes for its whole side).
    Resigning a game whose seat is still open cancels it (no winner); in a team game only its creator
    cancels it: another player who took a seat and resigns before the start leaves it (the seat is open
    again, a `player_left` event)."""
    game = game_get_for_update(game_id=game_id, user=user)
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("You do not sit at this game.", code="not_a_player")
    if game.status == GameStatus.FINISHED:
        raise Conflict("The game is over.", code="game_finished")
    if game.status == GameStatus.OPEN and game.lineup and user.pk != game.created_by_id:
        return _leave_seat(game=game, seat=seat, user=user)
    other = game_type_of(game).other_seat(side_of_seat(seat.seat))
    cancelled = game.status == GameStatus.OPEN
    game.status = GameStatus.FINISHED
    game.winner = "" if cancelled else other
    game.end_reason = EndReason.UNFINISHED if cancelled else EndReason.RESIGNATION
    game.result = {"kind": "cancelled" if cancelled else "resignation", "resigned": seat.seat}
    game.finished_at = timezone.now()
    game.current_seat = ""
    event = (
        {"type": "cancelled", "data": {"seat": seat.seat}}
        if cancelled
        else {"type": "resigned", "data": {"seat": seat.seat, "winner": other}}
    )
    log = _Log(game=game, rows=[])
    log.add(
        kind=LogKind.RESIGN,
        seat=seat.seat,
        action={"type": "resign"},
        events=[{**event, "visible_to": "all"}],
    )
    log.flush()
    _save_progress(game)
    return game


def _leave_seat(*, game: Game, seat: GameSeat, user: Any) -> Game:
    """A player leaves the seat he took in a team game that has not started: it is open again."""
    seat.user = None
    seat.joined_at = None
    seat.save(update_fields=["user", "joined_at"])
    log = _Log(game=game, rows=[])
    log.add(
        kind=LogKind.RESIGN,
        seat=seat.seat,
        action={"type": "leave"},
        events=[
            {
                "type": "player_left",
                "data": {"seat": seat.seat, "player": user.get_username()},
                "visible_to": "all",
            }
        ],
    )
    log.flush()
    _save_progress(game)
    return game


@dataclass
class ActionOutcome:
    game: Game
    seat: str
    entries: list[GameAction]
    state: Any


@transaction.atomic
def game_action_submit(*, game_id: Any, user: Any, version: int, action: Any) -> ActionOutcome:
    """Apply one action of the user's seat at `version`, then let bot seats answer.

    Errors (nothing is written): 404 unknown/invisible game; 403 not_a_player / not_your_turn;
    409 game_not_active / game_finished / stale_version; 400 malformed_action or the engine's code.
    """
    game = game_get_for_update(game_id=game_id, user=user)
    seat = seat_of_user(game=game, user=user)
    if seat is None:
        raise Forbidden("You do not sit at this game.", code="not_a_player")
    if game.status == GameStatus.FINISHED:
        raise Conflict("The game is over.", code="game_finished")
    if game.status != GameStatus.ACTIVE:
        raise Conflict("The game has not started: a seat is still open.", code="game_not_active")
    if version != game.version:
        raise Conflict(
            f"Stale version {version}: the game is at version {game.version}; reload the view.",
            code="stale_version",
            current_version=game.version,
        )
    if game.current_seat != seat.seat:
        raise Forbidden("It is not your decision.", code="not_your_turn", waiting_on=game.current_seat)
    if not isinstance(action, dict):
        raise ValidationFailed("The action must be a JSON object with a type.", code="malformed_action")
    if action.get("seat") is None:
        action = {**action, "seat": seat.seat}  # the seat is implied by who asks

    kind = game_type_of(game)
    state = kind.state_from_json(game.state, game_catalog(game=game))
    try:
        parsed = kind.parse_action(action)
    except kind.errors as exc:
        raise EngineRejected(exc.message if hasattr(exc, "message") else str(exc), code=exc.code) from exc
    actor = getattr(parsed, "seat", None)
    if actor not in (None, seat.seat):
        raise Forbidden("This action belongs to the other seat.", code="not_your_seat")
    try:
        events = kind.apply(state, parsed)
    except kind.errors as exc:
        raise EngineRejected(exc.message if hasattr(exc, "message") else str(exc), code=exc.code) from exc

    log = _Log(game=game, rows=[])
    log.add(
        kind=LogKind.ACTION, seat=seat.seat, action=parsed.to_json(), events=[_event_json(e) for e in events]
    )
    seats = {s.seat: s for s in game.seats.all()}  # prefetched with the lock
    _run_bots(game=game, state=state, seats=seats, log=log)
    _sync_game_from_state(game, state)
    log.flush()
    _save_progress(game)
    metrics.action_applied(game_type=kind.name)
    return ActionOutcome(game=game, seat=seat.seat, entries=log.rows, state=state)


def game_rebuild_state(*, game: Game) -> Any:
    """Re-run the game from its setup (seed) and its logged engine actions: equals the stored state."""
    kind = game_type_of(game)
    catalog = kind.catalog_from_snapshot(game.snapshot.data, game.snapshot_hash)
    actions = list(game.actions.filter(kind=LogKind.ACTION).order_by("seq").values_list("action", flat=True))
    return kind.replay(catalog, game.setup, actions)


__all__ = [
    "ActionOutcome",
    "EngineRejected",
    "game_action_submit",
    "game_options",
    "game_create",
    "game_create_armies",
    "game_join",
    "games_expire_open",
    "game_rebuild_state",
    "game_resign",
    "seed_commitment",
    "deal_seed",
    "bot_salt",
]
