"""Creating games: 1v1 Battlecards (game_create), team games (game_create_armies), shared-deck games."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import Conflict, ValidationFailed
from games import engine
from games.catalog_snapshot import snapshot_hash
from games.decks_glue import check_theater_playable, resolve_deck, validate_deck_alone
from games.game_types import DEFAULT_GAME_TYPE, GameType, get_game_type
from games.models import BotKind, Game, GameSeat, GameStatus, SeatKind
from games.options import game_options, rated_option, time_control_option
from games.selectors import open_games_of
from games.services import seeds
from games.services.deal import catalog_snapshot_get_or_create, deal_game, live_catalog_version
from games.services.feed import feed_notify_invitations
from games.services.progress import game_row, seats_save_and_start, start_if_active, sync_game_from_state
from games.services.seeds import deal_seed


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
    spectators: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    rated: bool = False,
) -> Game:
    """Create a game between two legal, matched decks; `opponent` is {"kind": "bot", "bot": "random" |
    "heuristic" | "search-1".."search-4" (where the game has a search bot: 400 bot_not_available
    otherwise)} or {"kind": "human", "username": optional invitee}; `conflict` is {"theater", "mode":
    "thin" | "fat" | "packs", "packs"} (theater defaults to the one both nations fight in). Bots move at
    once when it is their turn. Against a human, `opponent_deck` may be left out: the player who joins
    brings his own deck, and the game is dealt then.

    A game type without decks (Battlefront: one shared deck) takes no deck nor conflict (400
    deck_not_allowed) and lets the creator pick `seat` (default: the type's first seat). A `rated` game moves
    both players' ratings when it ends (games.services.ratings).

    `time_control` (games.clocks; every creation flow): none by default, {"kind": "realtime", "minutes",
    "increment_seconds"} or {"kind": "correspondence", "days"} (400 invalid_time_control)."""
    from cards.selectors import catalog_definitions  # the live catalog, read once at creation

    kind = get_game_type(game_type)
    bot = opponent.get("bot")
    if opponent.get("kind") == SeatKind.BOT and bot and kind.bots_available and bot not in kind.bot_kinds:
        raise ValidationFailed(
            f"{kind.label} offers the bots {list(kind.bot_kinds)}.", code="bot_not_available",
            field="opponent.bot",
        )
    if kind.deck_create and (my_deck is not None or opponent_deck is not None):
        if my_deck is None:
            raise ValidationFailed("Give my_deck.", code="deck_required", field="my_deck")
        if conflict:
            raise ValidationFailed(f"{kind.label} has no conflict deck: leave conflict out.",
                                   code="deck_not_allowed", field="conflict")
        return import_string(kind.deck_create)(
            user=user, kind=kind, my_deck=my_deck, opponent_deck=opponent_deck, opponent=opponent,
            invitee=_invitee(user=user, opponent=opponent), options=options, seed=seed, seat=seat,
            spectators=spectators, time_control=time_control, rated=rated,
        )
    if not kind.uses_decks:
        return _shared_deck_game_create(
            user=user,
            kind=kind,
            refused={"my_deck": my_deck, "opponent_deck": opponent_deck, "conflict": conflict},
            opponent=opponent,
            options=options,
            seed=seed,
            seat=seat,
            spectators=spectators,
            time_control=time_control,
            rated=rated,
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
    clock_choice = time_control_option(time_control)

    if seed is None:
        seed = seeds.new_seed()
    salt = seeds.new_salt()
    game = game_row(
        kind_name=kind.name, user=user, status=GameStatus.OPEN, seed=seed, salt=salt, spectators=spectators,
        against_bot=opponent_kind == SeatKind.BOT, snapshot=None, snapshot_hash="", options=options,
        time_control=clock_choice, rated=rated_option(rated, team=False, options=options),
        conflict_choice=dict(conflict or {}), setup={}, state={},
    )
    if opponent_kind == SeatKind.BOT:
        game.status = GameStatus.ACTIVE
        game.started_at = timezone.now()
    if theirs is not None:
        state = deal_game(game=game, live=live, mine=mine, theirs=theirs, conflict=conflict)
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

    start_if_active(game=game, state=state, seats=seats)
    feed_notify_invitations(game=game, seats=seats.values(), by=user)
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
    # the armies of a team game play Battlecards; its search bot plays classic two-army games only
    offered = tuple(b for b in get_game_type(DEFAULT_GAME_TYPE).bot_kinds if not b.startswith("search-"))
    for side in SIDES:
        for i, army in enumerate(armies[side]):
            if army.get("bot") and army["bot"] not in offered:
                raise ValidationFailed(
                    f"A Battlecards army's bot is one of {list(offered)} (the search bot plays 1v1 games "
                    "only).", code="bot_not_available",
                    field=f"armies.{side}.{i}.bot",
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
    spectators: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    rated: bool = False,
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

    rated_option(rated, team=True)  # team games are never rated: 400 team_game_not_rated
    live = catalog_definitions()
    options = dict(options or {})
    rules = game_options(options)
    clock_choice = time_control_option(time_control)  # games.clocks: one clock per side
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
        seed = seeds.new_seed()
    salt = seeds.new_salt()
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
    game = game_row(
        kind_name=DEFAULT_GAME_TYPE, user=user, status=GameStatus.OPEN if open_seats else GameStatus.ACTIVE,
        seed=seed, salt=salt, spectators=spectators, against_bot=not open_seats,
        started_at=None if open_seats else now, options=options, time_control=clock_choice, lineup=entries,
        conflict_choice={"theaters": _conflict_theaters(live, setup.conflict_deck)}, setup=setup.to_json(),
        state={},
    )
    game.catalog_version, game.catalog_hash = live_catalog_version()
    game.snapshot = catalog_snapshot_get_or_create(digest=digest, data=snapshot)
    game.snapshot_hash = digest
    sync_game_from_state(game, state)
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
    start_if_active(game=game, state=state, seats=seats)
    feed_notify_invitations(game=game, seats=seats.values(), by=user)
    return game


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
    spectators: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    rated: bool = False,
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
    if opponent.get("kind") == SeatKind.BOT and not kind.bots_available:
        raise ValidationFailed(
            f"{kind.label} has no bots: invite a player.", code="bots_not_available", field="opponent"
        )
    seat = seat or kind.seats[0]
    if seat not in kind.seats:
        raise ValidationFailed(
            f"A {kind.label} seat is one of {list(kind.seats)}.", code="invalid_seat", field="seat"
        )
    invitee = _invitee(user=user, opponent=opponent)
    options = dict(options or {})
    rules = kind.options(options)
    clock_choice = time_control_option(time_control)
    if not kind.live_play and (clock_choice or rated):
        field = "time_control" if clock_choice else "rated"
        raise ValidationFailed(
            f"{kind.label} matches are played without clocks, takebacks or ratings: leave {field} out.",
            code="not_for_this_game_type",
            field=field,
        )
    if seed is None:
        seed = seeds.new_seed()
    salt = seeds.new_salt()
    snapshot = kind.live_snapshot()
    digest = snapshot_hash(snapshot)
    setup = kind.new_setup(seed=deal_seed(seed, salt), options=rules)
    try:
        state = kind.new_state(kind.catalog_from_snapshot(snapshot, digest), setup)
    except kind.errors as exc:
        raise ValidationFailed(
            f"The engine cannot set up this game: {exc.message}", code=exc.code,
        ) from exc
    bot_game = opponent.get("kind") == SeatKind.BOT
    game = game_row(
        kind_name=kind.name, user=user, status=GameStatus.ACTIVE if bot_game else GameStatus.OPEN, seed=seed,
        salt=salt, spectators=spectators, against_bot=bot_game,
        started_at=timezone.now() if bot_game else None, options=options, time_control=clock_choice,
        rated=rated_option(rated, team=False, options=options), conflict_choice={}, setup=setup.to_json(),
        state={},
    )
    game.snapshot = catalog_snapshot_get_or_create(digest=digest, data=snapshot)
    game.snapshot_hash = digest
    sync_game_from_state(game, state)
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
    bot = (opponent.get("bot") or BotKind.HEURISTIC) if bot_game else None
    return seats_save_and_start(
        game=game, state=state, seats=seats, other=other, now=now, bot=bot, invitee=invitee, by=user
    )
