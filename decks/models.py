"""Decks of a game's cards (Battlecards arsenal cards, The War cards), their entries and their immutable
version history.

Cards and nations are referenced by their stable codes (never primary keys): a deck survives a
catalog reload.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

MAX_ENTRY_COUNT = 99


class Game(models.TextChoices):
    """The ids of the games whose players build their own decks (Battlefront has none: one shared deck):
    the ids of the registry (games.engine.registry). Only names: a deck's `game` is checked against the
    registry by the services (decks.services._check_game), not by database choices."""

    BATTLECARDS = "battlecards", "Battlecards"
    THE_WAR = "the-war", "The War"


class Deck(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=120)
    game = models.CharField(
        max_length=16,
        default=Game.BATTLECARDS,
        help_text="The game the deck is built for (a registry id, fixed at creation); its rules check it",
    )
    nation = models.CharField(
        max_length=16,
        help_text="Battlecards: a nation code, e.g. GB. The War: the army, red-army or wehrmacht",
    )
    description = models.TextField(blank=True, default="")
    is_public = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1, help_text="Number of the latest DeckVersion")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated_at", "-id")
        indexes = [
            models.Index(fields=("owner", "-updated_at")),
            models.Index(fields=("is_public", "nation")),
            models.Index(fields=("game", "is_public")),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.nation})"


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card_code = models.CharField(max_length=64)
    count = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ENTRY_COUNT)]
    )

    class Meta:
        ordering = ("card_code",)
        verbose_name_plural = "deck entries"
        constraints = [
            models.UniqueConstraint(fields=("deck", "card_code"), name="deck_entry_unique_card"),
            models.CheckConstraint(
                condition=models.Q(count__gte=1) & models.Q(count__lte=MAX_ENTRY_COUNT),
                name="deck_entry_count_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card_code}"


class DeckVersion(models.Model):
    """An immutable snapshot taken at every saved change of a deck (written only by decks.services)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    nation = models.CharField(max_length=16)
    description = models.TextField(blank=True, default="")
    is_public = models.BooleanField(default=False)
    entries = models.JSONField(default=dict, help_text="{card code: count}")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("deck", "number")
        constraints = [models.UniqueConstraint(fields=("deck", "number"), name="deck_version_unique_number")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"
