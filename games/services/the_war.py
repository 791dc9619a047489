"""The War games from two The War decks (saved decks or starters): created with my_deck (and
opponent_deck against a bot, or a human opponent's deck chosen by the creator), or left open for the joiner's
deck; dealt from the game's frozen card snapshot when both decks are known. The deck rules and, with
options {"casual": true}, the equal-size rule are checked at creation and again at join
(games.the_war_glue, decks.rules_the_war)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from config.errors import ValidationFailed
from games.catalog_snapshot import snapshot_hash
from games.game_types import GameType
from games.models import BotKind, Game, GameSeat, GameStatus, SeatKind
from games.options import rated_option, rules_options, time_control_option
from games.services import seeds
from games.services.deal import catalog_snapshot_get_or_create
from games.services.progress import game_row, seats_save_and_start, sync_game_from_state
from games.services.seeds import deal_seed
from games.the_war_glue import ResolvedWarDeck, war_deck_check_alone, war_deck_resolve, war_decks_rules


def _casual(options: dict[str, Any]) -> bool:
    """The casual flag; the only rules option of a The War game beside the server options (checked and
    left out by games.options.rules_options, e.g. bots_accept_takebacks)."""
    options = rules_options(options)
    unknown = sorted(set(options) - {"casual"})
    if unknown:
        raise ValidationFailed(
            f"Unknown option(s) {unknown}: The War games with my_deck take only casual (and server options).",
            code="invalid_options",
        )
    casual = options.get("casual", False)
    if not isinstance(casual, bool):
        raise ValidationFailed("casual is true or false.", code="invalid_options")
    return casual


def war_game_deal(*, game: Game, kind: GameType, decks: dict[str, ResolvedWarDeck]) -> Any:
    """Check the pair (deck rules, casual size), then set the game up from its seed: setup, frozen
    snapshot, engine state (called at creation when both decks are known, else at join)."""
    rules = war_decks_rules(decks=decks, casual=_casual(dict(game.options or {})))
    snapshot = kind.live_snapshot()
    digest = snapshot_hash(snapshot)
    setup = kind.new_setup(seed=deal_seed(game.seed, game.seed_salt), options=rules)
    try:
        state = kind.new_state(kind.catalog_from_snapshot(snapshot, digest), setup)
    except kind.errors as exc:
        raise ValidationFailed(
            f"The engine cannot set up this game: {exc.message}", code=exc.code,
        ) from exc
    game.snapshot = catalog_snapshot_get_or_create(digest=digest, data=snapshot)
    game.snapshot_hash = digest
    game.setup = setup.to_json()
    sync_game_from_state(game, state)
    return state


def war_game_create(
    *,
    user: Any,
    kind: GameType,
    my_deck: dict[str, Any],
    opponent_deck: dict[str, Any] | None,
    opponent: dict[str, Any],
    invitee: Any,
    options: dict[str, Any] | None,
    seed: int | None,
    seat: str | None,
    spectators: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
    rated: bool = False,
) -> Game:
    """A The War game: the creator sits at `seat` (p1 or p2, default p1) with my_deck."""
    seat = seat or kind.seats[0]
    if seat not in kind.seats:
        raise ValidationFailed(f"A {kind.label} seat is one of {list(kind.seats)}.", code="invalid_seat",
                               field="seat")
    other = kind.other_seat(seat)
    bot_game = opponent.get("kind") == SeatKind.BOT
    if bot_game and opponent_deck is None:
        raise ValidationFailed(
            "A bot needs a deck: give opponent_deck.", code="opponent_deck_required", field="opponent_deck"
        )
    options = dict(options or {})
    casual = _casual(options)
    clock_choice = time_control_option(time_control)
    mine = war_deck_resolve(user=user, ref=my_deck)
    theirs = war_deck_resolve(user=user, ref=opponent_deck) if opponent_deck is not None else None
    if seed is None:
        seed = seeds.new_seed()
    salt = seeds.new_salt()
    game = game_row(
        kind_name=kind.name, user=user, status=GameStatus.ACTIVE if bot_game else GameStatus.OPEN, seed=seed,
        salt=salt, spectators=spectators, against_bot=bot_game,
        started_at=timezone.now() if bot_game else None, options=options, time_control=clock_choice,
        rated=rated_option(rated, team=False, options=options), conflict_choice={}, setup={}, state={},
    )
    if theirs is not None:
        state = war_game_deal(game=game, kind=kind, decks={seat: mine, other: theirs})
    else:
        war_deck_check_alone(deck=mine, casual=casual)
        state = None
    game.save()

    now = timezone.now()
    seats = {
        seat: GameSeat(game=game, seat=seat, kind=SeatKind.HUMAN, user=user, joined_at=now, nation=mine.army,
                       deck_label=mine.label, deck_source=mine.source),
        other: GameSeat(game=game, seat=other, nation="", deck_label="", deck_source={}),
    }
    if theirs is not None:
        seats[other].nation, seats[other].deck_label = theirs.army, theirs.label
        seats[other].deck_source = theirs.source
    bot = (opponent.get("bot") or BotKind.HEURISTIC) if bot_game else None
    return seats_save_and_start(
        game=game, state=state, seats=seats, other=other, now=now, bot=bot, invitee=invitee, by=user
    )


def war_game_join_deal(
    *,
    game: Game,
    kind: GameType,
    seats: dict[str, GameSeat],
    open_seat: GameSeat,
    deck: dict[str, Any] | None,
    user: Any,
) -> None:
    """At join: deal a The War game the joiner brings his deck to (or the creator chose it for him)."""
    if deck is None and game.setup:
        return
    if deck is None:
        raise ValidationFailed(
            'Bring your deck: {"deck": {"deck_id": id} or {"starter": code}}.', code="deck_required",
            field="deck",
        )
    creator_seat = next(s for s in seats.values() if s.pk != open_seat.pk)
    if not creator_seat.deck_source or creator_seat.deck_source.get("shared"):
        raise ValidationFailed(
            "This game plays the decks named in its options: join without a deck.",
            code="deck_not_allowed", field="deck",
        )
    creator_deck = war_deck_resolve(user=creator_seat.user, ref=creator_seat.deck_source)
    theirs = war_deck_resolve(user=user, ref=deck)
    war_game_deal(game=game, kind=kind, decks={creator_seat.seat: creator_deck, open_seat.seat: theirs})
    open_seat.nation, open_seat.deck_label, open_seat.deck_source = theirs.army, theirs.label, theirs.source
    Game.objects.filter(pk=game.pk).update(
        snapshot=game.snapshot, snapshot_hash=game.snapshot_hash, setup=game.setup
    )
