"""The card catalog: reference data keyed by stable codes, loaded from fixtures/catalog/ by `load_catalog`.

The rows mirror the fixture JSON (see games/engine/cards.py for the format) closely enough that
cards.selectors.catalog_definitions() can serialise them back to the same dicts and rebuild an equal
games.engine.cards.Catalog. Ordered lists of the fixtures (unit classes, set entries, prerequisites)
keep their order through a `position` column.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models

from games.engine.cards import (
    ABILITY_SCHEMA,
    CONFLICT_CATEGORIES,
    CONFLICT_EFFECTS,
    KINDS,
    PROVENANCES,
    SIDES,
    UNIT_CLASSES,
    CatalogError,
    validate_ability,
)

SIDE_CHOICES = [(s, s.title()) for s in SIDES]
KIND_CHOICES = [(k, k.title()) for k in KINDS]
PHASE_CHOICES = [(p, f"Phase {p}") for p in (1, 2, 3, 4)]
SET_KIND_CHOICES = [("starter", "Starter"), ("expansion", "Expansion"), ("conflict", "Conflict")]
PROVENANCE_CHOICES = [(p, p) for p in PROVENANCES]
CATEGORY_CHOICES = [(c, c) for c in CONFLICT_CATEGORIES if c != "battlecard"]
EFFECT_CHOICES = [(e, e) for e in CONFLICT_EFFECTS]
UNIT_CLASS_CHOICES = [(c, c) for c in UNIT_CLASSES]


def validate_provenance(value) -> None:
    """{field: {"source": "seed"|"estimated", "note": str}} (a bare source string is accepted too)."""
    if not isinstance(value, dict):
        raise ValidationError("provenance must be an object {field: {source, note}}")
    for key, item in value.items():
        source = item.get("source") if isinstance(item, dict) else item
        if source not in PROVENANCES:
            raise ValidationError(f"provenance of {key!r} must have source seed or estimated")


def provenance_is_estimated(value) -> bool:
    """True when any field of a provenance mapping is estimated rather than taken from the seed documents."""
    return any(
        (item.get("source") if isinstance(item, dict) else item) == "estimated"
        for item in (value or {}).values()
    )


def validate_abilities(value) -> None:
    if not isinstance(value, list):
        raise ValidationError("abilities must be a list of {kind, ...params}")
    for index, ability in enumerate(value):
        if not isinstance(ability, dict):
            raise ValidationError(f"ability #{index} must be an object")
        try:
            validate_ability(ability, where=f"ability #{index}")
        except CatalogError as exc:
            raise ValidationError(str(exc)) from exc


class Nation(models.Model):
    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=100)
    side = models.CharField(max_length=10, choices=SIDE_CHOICES)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Theater(models.Model):
    code = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class UnitClass(models.Model):
    """One of games.engine.cards.UNIT_CLASSES (infantry, tank, fighter, ...)."""

    code = models.CharField(max_length=40, unique=True, choices=UNIT_CLASS_CHOICES)

    class Meta:
        ordering = ["code"]
        verbose_name_plural = "unit classes"

    def __str__(self) -> str:
        return self.code


class CardSet(models.Model):
    code = models.CharField(max_length=40, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=12, choices=SET_KIND_CHOICES)
    nation = models.ForeignKey(Nation, null=True, blank=True, on_delete=models.PROTECT, related_name="sets")
    theater = models.ForeignKey(Theater, null=True, blank=True, on_delete=models.PROTECT, related_name="sets")
    printed_points = models.PositiveIntegerField(
        null=True, blank=True, help_text="Deck value printed in the FAQ, if any."
    )
    printed_cards = models.PositiveIntegerField(
        null=True, blank=True, help_text="Card count printed in the rules/FAQ, if any."
    )
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["code"]
        verbose_name = "card set"

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class ArsenalCard(models.Model):
    code = models.CharField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    nation = models.ForeignKey(Nation, on_delete=models.PROTECT, related_name="arsenal_cards")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES, help_text="The stack it deploys to.")
    classes = models.ManyToManyField(UnitClass, through="ArsenalCardClass", related_name="cards")
    points = models.PositiveIntegerField()
    max_per_deck = models.PositiveIntegerField(null=True, blank=True, help_text="Empty: no limit.")
    attack_ground = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    attack_air = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    attack_sea = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    defense_ground = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    defense_air = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    defense_sea = models.IntegerField(null=True, blank=True, help_text="Empty: N/A.")
    phase = models.PositiveSmallIntegerField(
        null=True, blank=True, choices=PHASE_CHOICES, help_text="Firing phase; empty: never fires."
    )
    abilities = models.JSONField(
        default=list,
        blank=True,
        validators=[validate_abilities],
        help_text="List of {kind, ...params}; kinds: " + ", ".join(ABILITY_SCHEMA),
    )
    ukrainian = models.BooleanField(default=False)
    variant_of = models.ForeignKey(
        "self", to_field="code", null=True, blank=True, on_delete=models.SET_NULL, related_name="variants"
    )
    provenance = models.JSONField(default=dict, blank=True, validators=[validate_provenance])
    estimated = models.BooleanField(
        default=False,
        editable=False,
        db_index=True,
        help_text="Some value is estimated (derived from provenance).",
    )
    sets = models.ManyToManyField(CardSet, through="SetMembership", related_name="arsenal_cards")

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def clean(self) -> None:
        validate_abilities(self.abilities)
        validate_provenance(self.provenance)
        if self.variant_of_id and self.variant_of_id == self.code:
            raise ValidationError({"variant_of": "A card cannot be a variant of itself."})


class ArsenalCardClass(models.Model):
    card = models.ForeignKey(ArsenalCard, on_delete=models.CASCADE, related_name="class_links")
    unit_class = models.ForeignKey(UnitClass, on_delete=models.PROTECT, related_name="card_links")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["card", "position"]
        verbose_name = "arsenal card class"
        verbose_name_plural = "arsenal card classes"
        constraints = [models.UniqueConstraint(fields=["card", "unit_class"], name="uniq_card_class")]

    def __str__(self) -> str:
        return f"{self.card_id}: {self.unit_class}"


class SetMembership(models.Model):
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="memberships")
    card = models.ForeignKey(ArsenalCard, on_delete=models.CASCADE, related_name="memberships")
    position = models.PositiveIntegerField(default=0)
    printed_name = models.CharField(max_length=200, blank=True)
    count = models.PositiveIntegerField(null=True, blank=True, help_text="Copies in the set; empty: unknown.")
    count_provenance = models.CharField(max_length=10, choices=PROVENANCE_CHOICES, default="seed")
    count_note = models.TextField(blank=True)

    class Meta:
        ordering = ["card_set", "position"]
        constraints = [models.UniqueConstraint(fields=["card_set", "card"], name="uniq_set_card")]

    def __str__(self) -> str:
        return f"{self.card_set.code}: {self.count if self.count is not None else '?'} x {self.card.code}"


class ConflictCard(models.Model):
    """A conflict-deck card that is not a battlecard: build-ups, kept/immediate cards, the battlecard list."""

    code = models.CharField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    theater = models.ForeignKey(Theater, on_delete=models.PROTECT, related_name="conflict_cards")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="conflict_cards")
    count = models.PositiveIntegerField(default=1)
    category = models.CharField(max_length=20, choices=CATEGORY_CHOICES)
    action_number = models.PositiveSmallIntegerField()
    effect = models.CharField(max_length=40, choices=EFFECT_CHOICES)
    params = models.JSONField(default=dict, blank=True)
    text = models.TextField(blank=True)
    provenance = models.JSONField(default=dict, blank=True, validators=[validate_provenance])
    estimated = models.BooleanField(default=False, editable=False, db_index=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def clean(self) -> None:
        schema = CONFLICT_EFFECTS.get(self.effect)
        if schema is None:
            raise ValidationError({"effect": f"unknown effect {self.effect!r}"})
        params = self.params if isinstance(self.params, dict) else None
        if (
            params is None
            or set(params) != set(schema)
            or any(
                not isinstance(params[k], t) or (t is int and isinstance(params[k], bool))
                for k, t in schema.items()
            )
        ):
            raise ValidationError({"params": f"effect {self.effect} takes params {sorted(schema)}"})


class Battlecard(models.Model):
    code = models.CharField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    theater = models.ForeignKey(Theater, on_delete=models.PROTECT, related_name="battlecards")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="battlecards")
    count = models.PositiveIntegerField(default=1)
    action_number = models.PositiveSmallIntegerField()
    aggressor = models.CharField(max_length=20, help_text='A nation code, or "drawing-player".')
    aggressor_forces = models.JSONField(default=dict)
    defender_forces = models.JSONField(default=dict)
    prerequisites = models.ManyToManyField(
        "self",
        through="BattlecardPrerequisite",
        symmetrical=False,
        related_name="required_by",
        through_fields=("battlecard", "requires"),
    )
    victory_points = models.PositiveIntegerField()
    special_victory = models.CharField(max_length=60, blank=True, null=True)  # noqa: DJ001 - None = no special
    special_victory_text = models.TextField(blank=True)
    homeland_of = models.ForeignKey(
        Nation, null=True, blank=True, on_delete=models.PROTECT, related_name="homeland_battlecards"
    )
    emergency_deployment = models.BooleanField(default=False)
    text = models.TextField(blank=True)
    provenance = models.JSONField(default=dict, blank=True, validators=[validate_provenance])
    estimated = models.BooleanField(default=False, editable=False, db_index=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class BattlecardPrerequisite(models.Model):
    """`holder` (a nation code, or "allies"/"axis") must hold battlecard `requires` (FAQ CA3)."""

    battlecard = models.ForeignKey(Battlecard, on_delete=models.CASCADE, related_name="prerequisite_links")
    requires = models.ForeignKey(Battlecard, on_delete=models.PROTECT, related_name="+")
    holder = models.CharField(max_length=20)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["battlecard", "position"]

    def __str__(self) -> str:
        return f"{self.holder} must hold {self.requires.code}"


class CatalogVersion(models.Model):
    """One row per distinct catalog content loaded; the newest row is the current catalog.

    `content_hash` is the SHA-256 of the canonical JSON of the catalog dicts (fixture shape), so games can
    record exactly which catalog they were created with.
    """

    content_hash = models.CharField(max_length=64, db_index=True)
    loaded_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=200, blank=True, help_text="Where it was loaded from.")
    counts = models.JSONField(default=dict, blank=True)
    contents = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The catalog dicts of this version (for /api/catalog/changes/); empty for older rows.",
    )

    class Meta:
        ordering = ["-id"]
        get_latest_by = "id"

    def __str__(self) -> str:
        return f"{self.content_hash[:12]} @ {self.loaded_at:%Y-%m-%d %H:%M}"


RULING_SOURCE_CHOICES = [("faq", "FAQ v1.6"), ("engine", "engine README (estimated)")]


class Ruling(models.Model):
    """A ruling on cards: an FAQ question and answer, or one of the engine README's estimated rulings.

    Loaded by load_catalog from fixtures/catalog/rulings.json (texts verbatim, see
    fixtures/tools/extract_rulings.py); the card links are resolved from codes, classes, abilities,
    effects.
    """

    key = models.CharField(max_length=80, unique=True)
    source = models.CharField(max_length=10, choices=RULING_SOURCE_CHOICES)
    section = models.CharField(max_length=120)
    number = models.CharField(max_length=10)
    title = models.CharField(max_length=200, blank=True)
    question = models.TextField(blank=True)
    answer = models.TextField()
    estimated = models.BooleanField(
        default=False, help_text="Not stated by the documents: the engine's reading."
    )
    position = models.PositiveIntegerField(default=0)
    links = models.JSONField(default=dict, blank=True, help_text="How the cards were chosen (fixture data).")
    arsenal_cards = models.ManyToManyField(ArsenalCard, blank=True, related_name="rulings")
    conflict_cards = models.ManyToManyField(ConflictCard, blank=True, related_name="rulings")
    battlecards = models.ManyToManyField(Battlecard, blank=True, related_name="rulings")

    class Meta:
        ordering = ["position"]

    def __str__(self) -> str:
        return f"{self.section} {self.number}" + (f": {self.title}" if self.title else "")
