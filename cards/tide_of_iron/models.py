"""Tide of Iron's Strategy cards, decks and scenarios as rows (fixtures/tide_of_iron/cards.json + decks.json).

The fixture format is defined in vocabulary.tide_of_iron (pure Python). Scalar values (deck, cost, phase,
"placed in your play area") are columns; the keywords, effects, text and the provenance of every value are
JSON in the fixture shape, validated by vocabulary.tide_of_iron.parse_card on load and in the admin. The
keyword strengths are derived columns (contact, area_attack, wide_blast) for filters and `?q=`. Imported by
cards.models, so the models belong to the `cards` app (and its migrations).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from vocabulary.tide_of_iron import Keyword, Phase, Source, TideOfIronDataError, parse_card

TOI_PHASE_CHOICES = [(Phase.ACTION.value, "Action Phase"), (Phase.COMMAND.value, "Command Phase")]


def _seed_count(provenance: Any) -> int:
    return sum(
        1 for p in (provenance or {}).values() if isinstance(p, dict) and p.get("source") == Source.SEED
    )


class ToiDeck(models.Model):
    """A Strategy card deck ("Artillery I"): its cards are the rows of ToiDeckEntry."""

    code = models.CharField(max_length=80, unique=True)
    title = models.CharField(
        max_length=120,
        help_text='A card "type" (an "Artillery card") is any card of a deck whose title contains that name.',
    )
    provenance = models.JSONField(default=dict)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "Tide of Iron Strategy deck"

    def __str__(self) -> str:
        return self.title


class ToiCard(models.Model):
    """One Strategy card, keyed by its stable code ("toi-sustained-blanket"); every value has a provenance."""

    code = models.CharField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    deck = models.ForeignKey(ToiDeck, on_delete=models.PROTECT, related_name="cards")
    cost = models.PositiveSmallIntegerField(db_index=True, help_text="The command cost.")
    phase = models.CharField(max_length=8, choices=TOI_PHASE_CHOICES, db_index=True)
    play_area = models.BooleanField(default=False, help_text='"Placed in your play area": a lasting effect.')
    keywords = models.JSONField(
        default=list, blank=True, help_text="[{keyword, value, suppressive, success_on}]"
    )
    effects = models.JSONField(default=list, blank=True, help_text="[{kind, card_type, amount, minimum}]")
    text = models.JSONField(default=list, blank=True, help_text="The card's text lines.")
    provenance = models.JSONField(
        default=dict, help_text='{field: {source: "seed", quote} | {source: "estimated", note}}'
    )
    # derived from keywords / provenance on save
    contact = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    area_attack = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    wide_blast = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    suppressive = models.BooleanField(default=False, editable=False)
    seed_values = models.PositiveSmallIntegerField(default=0, editable=False, db_index=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "Tide of Iron Strategy card"

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs) -> None:
        values = {k.get("keyword"): k for k in self.keywords or [] if isinstance(k, dict)}
        self.contact = (values.get(Keyword.ESTABLISH_CONTACT) or {}).get("value")
        self.area_attack = (values.get(Keyword.AREA_ATTACK) or {}).get("value")
        self.wide_blast = (values.get(Keyword.WIDE_BLAST_RADIUS) or {}).get("value")
        self.suppressive = any(k.get("suppressive") for k in values.values())
        self.seed_values = _seed_count(self.provenance)
        super().save(*args, **kwargs)

    def as_dict(self) -> dict[str, Any]:
        """The card in the fixture's shape (cards.json), the loader's row."""
        return {
            "code": self.code,
            "title": self.title,
            "deck": self.deck.code,
            "cost": self.cost,
            "phase": self.phase,
            "play_area": self.play_area,
            "keywords": list(self.keywords or []),
            "effects": list(self.effects or []),
            "text": list(self.text or []),
            "provenance": dict(self.provenance or {}),
        }

    def clean(self) -> None:
        """The row must still be a card of the text's vocabulary (vocabulary.tide_of_iron.parse_card)."""
        wrong = [n for n in ("keywords", "effects", "text") if not isinstance(getattr(self, n), list)]
        if wrong:
            raise ValidationError(dict.fromkeys(wrong, "Must be a JSON list."))
        if not isinstance(self.provenance, dict):
            raise ValidationError({"provenance": "Must be a JSON object."})
        if self.deck_id is None:
            return
        try:
            parse_card(self.as_dict())
        except TideOfIronDataError as exc:
            raise ValidationError(str(exc)) from exc


class ToiDeckEntry(models.Model):
    deck = models.ForeignKey(ToiDeck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(ToiCard, on_delete=models.PROTECT, related_name="deck_entries")
    count = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["deck", "position"]
        verbose_name = "Tide of Iron deck entry"
        verbose_name_plural = "Tide of Iron deck entries"
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="uniq_toi_deck_card"),
            models.CheckConstraint(condition=models.Q(count__gte=1, count__lte=20), name="toi_entry_count"),
        ]

    def __str__(self) -> str:
        return f"{self.count} x {self.card}"


class ToiScenario(models.Model):
    """A scenario's Strategy decks per player: {axis|allies: {decks: [codes], start_draw, status_draw}}."""

    code = models.CharField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    seats = models.JSONField(default=dict)
    provenance = models.JSONField(default=dict)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "Tide of Iron scenario"

    def __str__(self) -> str:
        return self.title
