"""Models of the games app: a game, its seats (two, or one per army: up to 8) and its append-only action log.

The engine state is the single source of truth for the rules (stored as JSON in Game.state); the
row columns next to it (status, turn, ply, winner...) are denormalised copies for listing and filtering.
Writes happen only in games.services; these classes hold no business logic.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class GameStatus(models.TextChoices):
    OPEN = "open", "Waiting for an opponent"
    ACTIVE = "active", "In progress"
    FINISHED = "finished", "Finished"


class SeatName(models.TextChoices):
    """Every seat of every game type: Battlecards has axis/allies (a 1v1 game) or one seat per army in a team,
    uneven or combined game (axis-1..axis-4, allies-1..allies-4: the engine's army ids); Battlefront
    west/east; The War p1/p2. A game's `winner` is always a side (axis/allies, west/east, p1/p2), never an
    army."""

    AXIS = "axis", "Axis"
    ALLIES = "allies", "Allies"
    WEST = "west", "West"
    EAST = "east", "East"
    AXIS_1 = "axis-1", "Axis 1st army"
    AXIS_2 = "axis-2", "Axis 2nd army"
    AXIS_3 = "axis-3", "Axis 3rd army"
    AXIS_4 = "axis-4", "Axis 4th army"
    ALLIES_1 = "allies-1", "Allies 1st army"
    ALLIES_2 = "allies-2", "Allies 2nd army"
    ALLIES_3 = "allies-3", "Allies 3rd army"
    ALLIES_4 = "allies-4", "Allies 4th army"
    P1 = "p1", "The War: player 1"
    P2 = "p2", "The War: player 2"


# The sides: a game's winner is one of these (Battlecards axis/allies, Battlefront west/east, The War p1/p2),
# never an army.
SIDE_SEATS = [SeatName.AXIS, SeatName.ALLIES, SeatName.WEST, SeatName.EAST, SeatName.P1, SeatName.P2]


class SeatKind(models.TextChoices):
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"


class BotKind(models.TextChoices):
    RANDOM = "random", "Random bot"
    HEURISTIC = "heuristic", "Heuristic bot"
    SEARCH_1 = "search-1", "Search bot, level 1"
    SEARCH_2 = "search-2", "Search bot, level 2"
    SEARCH_3 = "search-3", "Search bot, level 3"
    SEARCH_4 = "search-4", "Search bot, level 4"


class EndReason(models.TextChoices):
    """Why a finished game ended. DRAW: the engine finished it without a winner (equal points at the end);
    TIMEOUT: the side whose clock ran out lost (games.clocks); UNFINISHED: stopped before the engine
    finished it (expired or cancelled)."""

    VICTORY = "victory", "Victory by the rules"
    DRAW = "draw", "Draw by the rules"
    RESIGNATION = "resignation", "Resignation"
    TIMEOUT = "timeout", "Lost on time"
    UNFINISHED = "unfinished", "Stopped without a winner"


class CatalogSnapshot(models.Model):
    """The frozen card definitions games are played with (cards.battlecards.snapshot.snapshot_dicts, or a
    definition's live_snapshot), stored once per content hash and shared by every game dealt from the same
    cards (about 54 KB each)."""

    hash = models.CharField(max_length=64, primary_key=True)  # games.catalog_snapshot.snapshot_hash(data)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Catalog snapshot {self.hash[:12]}"


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game_type = models.CharField(
        max_length=16, default="battlecards", db_index=True,
        help_text="The game's id in the registry (games.engine.registry), checked by the services"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )

    # Fair randomness: sha256(f"{seed}:{seed_salt}") is published at creation; seed and salt after the end.
    seed = models.BigIntegerField()
    seed_salt = models.CharField(max_length=64)
    seed_hash = models.CharField(max_length=64)

    # The catalog the game was dealt with, and the (shared) snapshot of every definition it uses, so catalog
    # edits never change a running or finished game. Empty / null until the game is dealt.
    catalog_version = models.CharField(max_length=64, blank=True, default="")
    catalog_hash = models.CharField(max_length=64, blank=True, default="")
    snapshot = models.ForeignKey(
        CatalogSnapshot, on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    snapshot_hash = models.CharField(max_length=64, blank=True, default="")

    options = models.JSONField(default=dict, blank=True)  # the engine's optional rules
    # A rated 1v1 game: its end updates both players' Glicko-2 ratings (games.services.ratings), once.
    rated = models.BooleanField(default=False)
    # A game created with the armies form (team, uneven or combined): the nation of each army per side,
    # {"axis": ["DE", "DE"], "allies": ["GB"]}; dealt at creation, seats taken by name. Empty: a 1v1 game
    # created from two decks.
    lineup = models.JSONField(default=dict, blank=True)
    conflict_choice = models.JSONField(default=dict, blank=True)  # {"theater", "mode", "packs"}
    # Spectators (chosen at creation, games.options.spectator_settings): anyone may watch the public view,
    # `spectator_delay` engine actions (plies) behind the game while it is played.
    spectators_allowed = models.BooleanField(default=False)
    spectator_delay = models.PositiveSmallIntegerField(default=0)
    setup = models.JSONField()  # games.engine.GameSetup.to_json()
    state = models.JSONField()  # games.engine.GameState.to_json(): hidden information, never sent to a player
    # How many log entries lie after the stored state (0: it is current): the engine actions among the last
    # `state_lag` entries (fewer than settings.GAMES_STATE_EVERY while the game goes on) are applied when it
    # is read (games.selectors.game_state); a finished game's state is always current.
    state_lag = models.PositiveIntegerField(default=0)

    version = models.PositiveIntegerField(default=0)  # bumped by every change; clients send it with actions
    last_seq = models.PositiveIntegerField(default=0)  # seq of the newest GameAction row
    turn = models.PositiveIntegerField(default=0)
    ply = models.PositiveIntegerField(default=0)
    current_seat = models.CharField(max_length=8, choices=SeatName.choices, blank=True, default="")
    winner = models.CharField(max_length=8, choices=SeatName.choices, blank=True, default="")
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True, default="")
    result = models.JSONField(default=dict, blank=True)

    # Clocks (games.clocks): the time control chosen at creation ({}: none), each side's remaining time and
    # the running clock's start ({"remaining": {side: ms}, "running": side, "started_at": iso}), and the
    # running clock's deadline (null when none runs), which the periodic expiry job looks up.
    time_control = models.JSONField(default=dict, blank=True)
    clock = models.JSONField(default=dict, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(
                fields=["clock_deadline"],
                condition=models.Q(clock_deadline__isnull=False),
                name="games_clock_deadline_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.id} ({self.status})"


class GameSeat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=8, choices=SeatName.choices)
    kind = models.CharField(max_length=8, choices=SeatKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="game_seats"
    )
    bot = models.CharField(max_length=16, choices=BotKind.choices, blank=True, default="")
    # Only this user may take an open human seat (empty: anyone).
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="game_invites"
    )
    nation = models.CharField(max_length=16)  # The War: the army (red-army, wehrmacht)
    deck_label = models.CharField(max_length=200)  # "starter WE-GB" or "deck 12: name"
    deck_source = models.JSONField()  # {"starter": code} or {"deck_id": id, "name": ...}
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="games_seat_unique_per_game"),
            models.CheckConstraint(
                condition=models.Q(kind="bot", user__isnull=True) | models.Q(kind="human", bot=""),
                name="games_seat_kind_consistent",
            ),
        ]

    def __str__(self) -> str:
        who = self.user_id if self.kind == SeatKind.HUMAN else f"bot:{self.bot}"
        return f"{self.game_id} {self.seat} ({who})"


class LogKind(models.TextChoices):
    ACTION = "action", "Engine action"
    JOIN = "join", "Seat taken"
    RESIGN = "resign", "Resignation"
    TIMEOUT = "timeout", "Lost on time"
    # A takeback asked, declined or accepted (games.services.takebacks); an accepted one rewinds the game:
    # the engine actions at or after its action's `undo_from_seq` are out of effect (games.takeback_rules).
    TAKEBACK = "takeback", "Takeback"


class GameAction(models.Model):
    """One append-only log entry. Engine actions, in seq order, replay the game from its setup."""

    # No index of its own: games_action_seq_unique (game, seq) leads with the game and serves every lookup by
    # game; a second index cost each appended log row one more index insertion (issue 42).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=LogKind.choices, default=LogKind.ACTION)
    seat = models.CharField(max_length=8, choices=SeatName.choices)
    by_bot = models.BooleanField(default=False)
    action = models.JSONField()
    # [{"type", "data", "visible_to": "all" | a seat name | a side}]: filtered per seat before it leaves
    # (games.selectors.log_entry_for_seat: a side's events reach every army of that side).
    events = models.JSONField(default=list)
    version = models.PositiveIntegerField()  # the game version right after this entry
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="games_action_seq_unique")]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.seat} {self.kind}"


class SpectatorStream(models.Model):
    """One open spectator event stream (games.services.spectators): a game's spectator count is the number of
    distinct users with an open one. A row whose stream ended is deleted; one left by a process that died
    stops counting at `expires_at` (the stream's timeout + a minute) and is deleted by the next opening."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spectator_streams")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opened_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "expires_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} watches {self.game_id}"


class NotificationKind(models.TextChoices):
    """What a user's feed tells him (games.services.feed)."""

    INVITATION = "invitation", "You are invited to a game"
    YOUR_TURN = "your_turn", "A decision of yours is waiting"
    TAKEBACK_REQUEST = "takeback_request", "An opponent asks to take back actions"
    GAME_END = "game_end", "A game of yours ended"


class Notification(models.Model):
    """One entry of a user's feed, written by the service that caused it, in the same transaction. The id
    orders a user's feed (send the last one seen as ?since= or Last-Event-ID)."""

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=24, choices=NotificationKind.choices)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "-id"])]

    def __str__(self) -> str:
        return f"{self.user_id} #{self.id} {self.kind}"


# ------------------------------------------------------------------------------------------ ratings


class Rating(models.Model):
    """A player's Glicko-2 rating in one game type, from finished rated 1v1 games (games.services.ratings).

    A player is a user or a bot kind (each bot kind is one rated player per game type, seeded by
    `manage.py calibrate_bot_ratings`). Display scale: rating 1500, deviation 350, volatility 0.06 at
    first."""

    game_type = models.CharField(max_length=16, help_text="A game id of the registry")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    bot = models.CharField(max_length=16, choices=BotKind.choices, blank=True, default="")
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)  # the RD
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_type", "-rating", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game_type"], condition=models.Q(user__isnull=False), name="games_rating_user"
            ),
            models.UniqueConstraint(
                fields=["bot", "game_type"], condition=~models.Q(bot=""), name="games_rating_bot"
            ),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False) & models.Q(bot=""))
                | (models.Q(user__isnull=True) & ~models.Q(bot="")),
                name="games_rating_user_or_bot",
            ),
        ]
        indexes = [models.Index(fields=["game_type", "-rating", "id"], name="games_rating_board")]

    def __str__(self) -> str:
        who = self.user_id if self.user_id else f"bot:{self.bot}"
        return f"{who} {self.game_type} {self.rating:.0f}"


class RatingChange(models.Model):
    """What one rated game did to one seat's rating: written once per game and seat (a game is rated once)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.CharField(max_length=8, choices=SeatName.choices)
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    score = models.FloatField()  # 1 a win, 0.5 a draw, 0 a loss
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    volatility_before = models.FloatField()
    volatility_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="games_rating_change_once")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.seat} {self.rating_before:.0f}->{self.rating_after:.0f}"


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


ANALYSIS_ACTIVE_STATUSES = (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)


class GameAnalysis(models.Model):
    """The search bot's analysis of a finished game (issue 41; games.engine.core.analysis): one per game,
    made once and shown to everyone who may read the replay (games.analysis_selectors redacts the moves as
    the replay redacts them). `plies` grows while it runs (the progress), one entry per ply analysed."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="analysis")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="game_analyses",
    )
    status = models.CharField(max_length=16, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    iterations = models.PositiveIntegerField(help_text="The search's iterations per ply.")
    plies_total = models.PositiveIntegerField(help_text="The game's actions in effect.")
    plies_done = models.PositiveIntegerField(default=0)
    plies = models.JSONField(default=list, help_text="Per ply: the estimate, the played and preferred moves.")
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["requested_by", "status"], name="games_analysis_user_status")]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} ({self.status})"
