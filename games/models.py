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


class GameType(models.TextChoices):
    """Which rules a game is played by (games.game_types maps each to its engine)."""

    BATTLECARDS = "battlecards", "BATTLECARDS: World Conflict"
    BATTLEFRONT = "battlefront", "Battlefront"
    TIDE_OF_IRON = "tide-of-iron", "Tide of Iron: Strategy decks"


class SeatName(models.TextChoices):
    """Every seat of every game type: Battlecards has axis/allies (a 1v1 game) or one seat per army in a team,
    uneven or combined game (axis-1..axis-4, allies-1..allies-4: the engine's army ids); Battlefront
    west/east. A game's `winner` is always a side (axis/allies, west/east), never an army."""

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


# The sides: a game's winner is one of these (Battlecards axis/allies, Battlefront west/east), never an army.
SIDE_SEATS = [SeatName.AXIS, SeatName.ALLIES, SeatName.WEST, SeatName.EAST]


class SeatKind(models.TextChoices):
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"


class BotKind(models.TextChoices):
    RANDOM = "random", "Random bot"
    HEURISTIC = "heuristic", "Heuristic bot"


class EndReason(models.TextChoices):
    """Why a finished game ended. DRAW: the engine finished it without a winner (equal points at the end);
    UNFINISHED: stopped before the engine finished it (expired or cancelled)."""

    VICTORY = "victory", "Victory by the rules"
    DRAW = "draw", "Draw by the rules"
    RESIGNATION = "resignation", "Resignation"
    UNFINISHED = "unfinished", "Stopped without a winner"


class CatalogSnapshot(models.Model):
    """The frozen card definitions games are played with (games.catalog_snapshot.snapshot_dicts), stored once
    per content hash and shared by every game dealt from the same cards (about 54 KB each)."""

    hash = models.CharField(max_length=64, primary_key=True)  # games.catalog_snapshot.snapshot_hash(data)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Catalog snapshot {self.hash[:12]}"


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game_type = models.CharField(
        max_length=16, choices=GameType.choices, default=GameType.BATTLECARDS, db_index=True
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
    # A game created with the armies form (team, uneven or combined): the nation of each army per side,
    # {"axis": ["DE", "DE"], "allies": ["GB"]}; dealt at creation, seats taken by name. Empty: a 1v1 game
    # created from two decks.
    lineup = models.JSONField(default=dict, blank=True)
    conflict_choice = models.JSONField(default=dict, blank=True)  # {"theater", "mode", "packs"}
    setup = models.JSONField()  # games.engine.GameSetup.to_json()
    state = models.JSONField()  # games.engine.GameState.to_json(): hidden information, never sent to a player

    version = models.PositiveIntegerField(default=0)  # bumped by every change; clients send it with actions
    last_seq = models.PositiveIntegerField(default=0)  # seq of the newest GameAction row
    turn = models.PositiveIntegerField(default=0)
    ply = models.PositiveIntegerField(default=0)
    current_seat = models.CharField(max_length=8, choices=SeatName.choices, blank=True, default="")
    winner = models.CharField(max_length=8, choices=SeatName.choices, blank=True, default="")
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True, default="")
    result = models.JSONField(default=dict, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

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
    nation = models.CharField(max_length=8)
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


class GameAction(models.Model):
    """One append-only log entry. Engine actions, in seq order, replay the game from its setup."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
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
