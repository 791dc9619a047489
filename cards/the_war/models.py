"""The War's cards and starter decks as rows (fixtures/the_war/cards.json + starters.json).

The fixture format and every word of the vocabulary are defined in vocabulary.the_war (pure Python). Scalar
values (category, army, unit type and subtype, line, attack, defense, the cost per resource with its "only
from resource cards" flag, ...) are columns, so the API and the admin filter and order on them; the lists of
structured behaviour (bonuses, features, restrictions, abilities, effects, ...) and the provenance of every
value are JSON in the fixture shape, validated by vocabulary.the_war.parse_card on load and in the admin.
Imported by cards.models, so the models belong to the `cards` app (and its migrations).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from vocabulary.the_war import (
    COST_ORDER,
    Army,
    Category,
    Feature,
    HeroMode,
    Rarity,
    ResourceKind,
    Restriction,
    Source,
    TheWarDataError,
    UnitSubtype,
    UnitType,
    parse_card,
)


def _choices(enum) -> list[tuple[str, str]]:
    return [(e.value, e.value.replace("-", " ")) for e in enum]


THE_WAR_CATEGORY_CHOICES = _choices(Category)
THE_WAR_ARMY_CHOICES = [(Army.RED_ARMY.value, "Red Army"), (Army.WEHRMACHT.value, "Wehrmacht")]
THE_WAR_UNIT_TYPE_CHOICES = _choices(UnitType)
THE_WAR_SUBTYPE_CHOICES = _choices(UnitSubtype)
THE_WAR_RARITY_CHOICES = [("C", "common"), ("U", "uncommon"), ("R", "rare")]
THE_WAR_RESOURCE_KIND_CHOICES = _choices(ResourceKind)
THE_WAR_HERO_MODE_CHOICES = _choices(HeroMode)
THE_WAR_LINE_CHOICES = [(1, "1st line"), (2, "2nd line")]
THE_WAR_FEATURES = [f.value for f in Feature]  # the rulebook's unit features (the schema's enum)
THE_WAR_RESTRICTIONS = [r.value for r in Restriction]
RESOURCES = tuple(r.value for r in COST_ORDER)  # depot, plant, fuel: the order of a printed cost "1/5/1"
assert {r.value for r in Rarity} == {c for c, _ in THE_WAR_RARITY_CHOICES}

# The JSON columns, in the fixture shape (lists of objects or strings); their empty value is [].
LIST_FIELDS = (
    "yields",
    "bonuses",
    "features",
    "restrictions",
    "attack_cost",
    "abilities",
    "effects",
    "maintenance",
    "text",
)


def _no_army(value: str) -> str | None:
    return value or None


class TheWarCard(models.Model):
    """One card of The War, keyed by its stable code ("tw-kv-1-1940"); every value has a provenance."""

    code = models.CharField(max_length=80, unique=True)
    title = models.CharField(
        max_length=200, unique=True, help_text="Two cards are identical if they have the same title."
    )
    category = models.CharField(max_length=24, choices=THE_WAR_CATEGORY_CHOICES, db_index=True)
    army = models.CharField(
        max_length=12,
        choices=THE_WAR_ARMY_CHOICES,
        blank=True,
        db_index=True,
        help_text="Empty: no army (basic resources, locations, Panic, Capture).",
    )
    number = models.CharField(max_length=20, blank=True, help_text="Printed collector number (ST-005).")
    rarity = models.CharField(max_length=1, choices=THE_WAR_RARITY_CHOICES, blank=True, db_index=True)
    # the cost per resource ("Building or Playing Cost: 1/5/1" is depot/plant/fuel); empty: not in the cost
    cost_depot = models.PositiveSmallIntegerField(null=True, blank=True)
    cost_depot_resource_cards_only = models.BooleanField(
        default=False, help_text='The red symbol: "must be obtained only from resource cards".'
    )
    cost_plant = models.PositiveSmallIntegerField(null=True, blank=True)
    cost_plant_resource_cards_only = models.BooleanField(default=False)
    cost_fuel = models.PositiveSmallIntegerField(null=True, blank=True)
    cost_fuel_resource_cards_only = models.BooleanField(default=False)
    resource_kind = models.CharField(max_length=8, choices=THE_WAR_RESOURCE_KIND_CHOICES, blank=True)
    yields = models.JSONField(default=list, blank=True, help_text="[{resource, amount, resource_cards_only}]")
    unit_type = models.CharField(max_length=16, choices=THE_WAR_UNIT_TYPE_CHOICES, blank=True, db_index=True)
    subtype = models.CharField(max_length=32, choices=THE_WAR_SUBTYPE_CHOICES, blank=True, db_index=True)
    line = models.PositiveSmallIntegerField(null=True, blank=True, choices=THE_WAR_LINE_CHOICES)
    attack = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    defense = models.PositiveSmallIntegerField(null=True, blank=True, db_index=True)
    aa_attack = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="AA attack")
    bombing_power = models.PositiveSmallIntegerField(null=True, blank=True)
    deck_hit = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name="deck-hit power")
    bonuses = models.JSONField(default=list, blank=True, help_text="[{against: [types], attack, defense}]")
    features = models.JSONField(default=list, blank=True, help_text="The rulebook's unit features.")
    restrictions = models.JSONField(default=list, blank=True)
    attack_cost = models.JSONField(
        default=list, blank=True, help_text='Paid for each attack ("For attacks").'
    )
    abilities = models.JSONField(default=list, blank=True, help_text="[{kind, value, cost, rotate}]")
    effects = models.JSONField(default=list, blank=True, help_text="[{kind, target, ...}]")
    elimination_deck_cards = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Battlefield condition: eliminated by N cards of the deck."
    )
    elimination_breakthrough_power = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Battlefield condition: eliminated by a breakthrough of this power."
    )
    maintenance = models.JSONField(default=list, blank=True, help_text="Paid each build phase to keep it.")
    location = models.BooleanField(default=False, db_index=True)
    hero_mode = models.CharField(max_length=12, choices=THE_WAR_HERO_MODE_CHOICES, blank=True)
    text = models.JSONField(default=list, blank=True, help_text="The card's text lines.")
    provenance = models.JSONField(
        default=dict, help_text='{field: {source: "seed", section, quote} | {source: "estimated", note}}'
    )
    seed_values = models.PositiveSmallIntegerField(
        default=0, editable=False, db_index=True, help_text="How many provenance entries are seed (derived)."
    )
    position = models.PositiveSmallIntegerField(default=0, help_text="Order of cards.json.")

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "The War card"
        constraints = [
            models.CheckConstraint(
                condition=Q(line__isnull=True) | Q(line__in=(1, 2)), name="tw_card_line_1_2"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs) -> None:
        self.seed_values = sum(
            1
            for p in (self.provenance or {}).values()
            if isinstance(p, dict) and p.get("source") == Source.SEED
        )
        super().save(*args, **kwargs)

    # -- the fixture shape

    def cost_list(self) -> list[dict[str, Any]]:
        out = []
        for resource in RESOURCES:
            amount = getattr(self, f"cost_{resource}")
            if amount is not None:
                only = getattr(self, f"cost_{resource}_resource_cards_only")
                out.append({"resource": resource, "amount": amount, "resource_cards_only": only})
        return out

    @property
    def cost_total(self) -> int:
        return sum(item["amount"] for item in self.cost_list())

    def elimination(self) -> dict[str, int] | None:
        values = {
            "deck_cards": self.elimination_deck_cards,
            "breakthrough_power": self.elimination_breakthrough_power,
        }
        values = {k: v for k, v in values.items() if v is not None}
        return values or None

    def as_dict(self) -> dict[str, Any]:
        """Every field in the fixture's shape (cards.json), empty values included: the loader's row."""
        return {
            "code": self.code,
            "title": self.title,
            "category": self.category,
            "army": _no_army(self.army),
            "number": self.number or None,
            "rarity": self.rarity or None,
            "cost": self.cost_list(),
            "resource_kind": self.resource_kind or None,
            "unit_type": self.unit_type or None,
            "subtype": self.subtype or None,
            "line": self.line,
            "attack": self.attack,
            "defense": self.defense,
            "aa_attack": self.aa_attack,
            "bombing_power": self.bombing_power,
            "deck_hit": self.deck_hit,
            **{name: list(getattr(self, name) or []) for name in LIST_FIELDS},
            "elimination": self.elimination(),
            "location": self.location,
            "hero_mode": self.hero_mode or None,
            "provenance": dict(self.provenance or {}),
        }

    def clean(self) -> None:
        """The row must still be a card of the rulebook's vocabulary (vocabulary.the_war.parse_card)."""
        wrong = [name for name in LIST_FIELDS if not isinstance(getattr(self, name), list)]
        if not isinstance(self.provenance, dict):
            wrong.append("provenance")
        if wrong:
            raise ValidationError(
                {
                    name: "Must be a JSON object." if name == "provenance" else "Must be a JSON list."
                    for name in wrong
                }
            )
        try:
            parse_card(loader_row(self.as_dict()), "card")
        except TheWarDataError as exc:
            raise ValidationError(str(exc)) from exc


def loader_row(row: dict[str, Any]) -> dict[str, Any]:
    """A card row (`as_dict`) as vocabulary.the_war.parse_card reads it: empty values left out (it rejects
    provenance-less values); 0 is a value. The admin's validation and the deck builder's catalog use it."""
    return {k: v for k, v in row.items() if not _empty(v) or k == "army"}


def _empty(value: Any) -> bool:
    """None, False and [] are empty; 0 is a value (`0 in (None, [], False)` would be true: 0 == False)."""
    return value is None or value is False or (isinstance(value, list) and not value)


class TheWarStarter(models.Model):
    """A preconstructed 60-card deck of one army (fixtures/the_war/starters.json)."""

    code = models.CharField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    army = models.CharField(max_length=12, choices=THE_WAR_ARMY_CHOICES, db_index=True)
    provenance = models.JSONField(default=dict)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "The War starter deck"

    def __str__(self) -> str:
        return self.name


class TheWarStarterEntry(models.Model):
    starter = models.ForeignKey(TheWarStarter, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(TheWarCard, on_delete=models.PROTECT, related_name="starter_entries")
    count = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["starter", "position"]
        verbose_name = "The War starter entry"
        verbose_name_plural = "The War starter entries"
        constraints = [
            models.UniqueConstraint(fields=["starter", "card"], name="uniq_tw_starter_card"),
            models.CheckConstraint(condition=Q(count__gte=1, count__lte=60), name="tw_starter_count_1_60"),
        ]

    def __str__(self) -> str:
        return f"{self.count} x {self.card}"


class TheWarVersion(models.Model):
    """The War's cards and starters as they were after a load or an admin edit (the change feed's history).

    `content_hash` is the hash of cards.the_war.selectors.the_war_dicts() (the `version` of the bulk file's
    `the_war` part); /api/the-war/changes/?since=<hash> compares its contents with the current ones.
    """

    content_hash = models.CharField(max_length=64, db_index=True)
    contents = models.JSONField(help_text="{cards, starters} as the_war_dicts() gave them.")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = "The War version"

    def __str__(self) -> str:
        return f"The War @ {self.content_hash[:12]}"
