"""The card catalog: reference data keyed by stable codes, loaded from fixtures/catalog/ by `load_catalog`.

The rows mirror the fixture JSON (see vocabulary/battlecards/ for the format) closely enough that
cards.selectors.catalog_definitions() can serialise them back to the same dicts and rebuild an equal
vocabulary.battlecards.Catalog. Ordered lists of the fixtures (unit classes, set entries, prerequisites)
keep their order through a `position` column.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from vocabulary.battlecards import (
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
    """One of vocabulary.battlecards.UNIT_CLASSES (infantry, tank, fighter, ...)."""

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


# ------------------------------------------------------------------------------------------------ Battlefront
# The second game's cards (fixtures/battlefront/cards.json, every value printed in battlefront-rules.txt):
# 70 cards in one shared deck, the five optional "Special" cards and each nationality's printed uses of them.
# Notes are kept verbatim and as structured ability rows, so "has scout" or "negates tanks" is a query.

BATTLEFRONT_TYPES = {
    "L": "Leader",
    "I": "Infantry",
    "P": "Plane",
    "T": "Tank",
    "A": "Artillery",
    "S": "Strategy",
    "F": "Fortification",
    "X": "Special",
}
BATTLEFRONT_TYPE_CHOICES = list(BATTLEFRONT_TYPES.items())
BATTLEFRONT_TARGET_TYPE_CHOICES = [(c, n) for c, n in BATTLEFRONT_TYPES.items() if c != "X"]
BATTLEFRONT_FORCE_MIN, BATTLEFRONT_FORCE_MAX = 1, 10
# kind -> the parameters it takes (and no other): "Scout", "Play an Extra <Type>",
# "Opposing <Type> Negated" / "Negate Opposing <Type>" (wording kept apart), and the Americans'
# "Discard & draw 2 cards" use of a Special card.
BATTLEFRONT_ABILITY_PARAMS: dict[str, tuple[str, ...]] = {
    "scout": (),
    "extra": ("type",),
    "negate": ("type", "wording"),
    "discard_and_draw": ("count",),
}
BATTLEFRONT_ABILITY_CHOICES = [(k, k) for k in BATTLEFRONT_ABILITY_PARAMS]
BATTLEFRONT_WORDING_CHOICES = [
    ("opposing_negated", 'printed "Opposing <Type> Negated"'),
    ("negate_opposing", 'printed "Negate Opposing <Type>"'),
]
BATTLEFRONT_NATIONALITIES = {
    "DE": "Germans",
    "RU": "Russians",
    "US": "Americans",
    "GB": "British",
    "JP": "Japanese",
}
BATTLEFRONT_NATIONALITY_CHOICES = list(BATTLEFRONT_NATIONALITIES.items())
BATTLEFRONT_OPTIONAL_RULE_CHOICES = [("special_cards", "Optional special cards rules")]


def battlefront_ability_problem(ability) -> str | None:
    """Why a fixture-shaped ability dict is not valid ({kind, ...its params}), or None when it is."""
    if not isinstance(ability, dict):
        return "an ability must be an object {kind, ...params}"
    kind = ability.get("kind")
    if kind not in BATTLEFRONT_ABILITY_PARAMS:
        return f"unknown ability kind {kind!r} (one of {', '.join(BATTLEFRONT_ABILITY_PARAMS)})"
    params = BATTLEFRONT_ABILITY_PARAMS[kind]
    if set(ability) != {"kind", *params}:
        return f"ability {kind} takes exactly {sorted(params) or 'no parameters'}"
    if "type" in params and ability["type"] not in dict(BATTLEFRONT_TARGET_TYPE_CHOICES):
        return f"ability {kind}: unknown card type {ability['type']!r}"
    if "wording" in params and ability["wording"] not in dict(BATTLEFRONT_WORDING_CHOICES):
        return f"ability {kind}: unknown wording {ability['wording']!r}"
    if "count" in params and (
        not isinstance(ability["count"], int) or isinstance(ability["count"], bool) or ability["count"] < 1
    ):
        return f"ability {kind}: count must be a positive whole number"
    return None


class BattlefrontCard(models.Model):
    """One card of the Battlefront deck (the printed CARD LIST), or one of the five optional Special cards."""

    code = models.CharField(max_length=60, unique=True)
    name = models.CharField(max_length=200)
    card_type = models.CharField(max_length=1, choices=BATTLEFRONT_TYPE_CHOICES, db_index=True)
    force = models.PositiveSmallIntegerField(
        null=True, blank=True, db_index=True, help_text="1-10; empty for a Special card (its use says)."
    )
    notes = models.CharField(max_length=200, blank=True, help_text="The printed notes, verbatim.")
    is_special = models.BooleanField(default=False, db_index=True)
    optional_rule = models.CharField(
        max_length=20,
        blank=True,
        choices=BATTLEFRONT_OPTIONAL_RULE_CHOICES,
        help_text="The optional rule that puts the card in the deck; empty: always in the deck.",
    )
    position = models.PositiveSmallIntegerField(default=0, help_text="Order of the printed card list.")

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "Battlefront card"
        constraints = [
            models.CheckConstraint(
                condition=Q(force__isnull=True)
                | Q(force__gte=BATTLEFRONT_FORCE_MIN, force__lte=BATTLEFRONT_FORCE_MAX),
                name="bf_card_force_1_10",
            ),
            models.CheckConstraint(
                condition=Q(is_special=True, card_type="X") | (Q(is_special=False) & ~Q(card_type="X")),
                name="bf_card_special_is_type_x",
            ),
        ]

    def __str__(self) -> str:
        force = "-" if self.force is None else self.force
        return f"{self.name} ({self.card_type} {force})"


class BattlefrontSpecialUse(models.Model):
    """What a nationality may use a Special card as (OPTIONAL SPECIAL CARDS RULES), one row per use."""

    code = models.CharField(max_length=60, unique=True)
    nationality = models.CharField(max_length=2, choices=BATTLEFRONT_NATIONALITY_CHOICES, db_index=True)
    name = models.CharField(max_length=200)
    card_type = models.CharField(
        max_length=1,
        choices=BATTLEFRONT_TARGET_TYPE_CHOICES,
        blank=True,
        help_text="The type it is played as; empty: not played as a card (e.g. discard & draw).",
    )
    force = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=300, help_text="The printed line, verbatim.")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "code"]
        verbose_name = "Battlefront special card use"
        constraints = [
            models.CheckConstraint(
                condition=Q(force__isnull=True)
                | Q(force__gte=BATTLEFRONT_FORCE_MIN, force__lte=BATTLEFRONT_FORCE_MAX),
                name="bf_use_force_1_10",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_nationality_display()}: {self.name}"


class BattlefrontAbilityBase(models.Model):
    """A structured ability: kind plus its parameters (a target card type, the negation wording, a count)."""

    position = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=20, choices=BATTLEFRONT_ABILITY_CHOICES, db_index=True)
    card_type = models.CharField(
        max_length=1,
        choices=BATTLEFRONT_TARGET_TYPE_CHOICES,
        blank=True,
        db_index=True,
        help_text="extra: the type of the extra card allowed; negate: the opposing type negated.",
    )
    wording = models.CharField(max_length=20, choices=BATTLEFRONT_WORDING_CHOICES, blank=True)
    count = models.PositiveSmallIntegerField(null=True, blank=True, help_text="discard_and_draw: how many.")

    class Meta:
        abstract = True

    def __str__(self) -> str:
        params = self.as_dict()
        params.pop("kind")
        return self.kind + (f" {params}" if params else "")

    def as_dict(self) -> dict:
        """The fixture shape: {"kind"} plus exactly the parameters of the kind."""
        values = {"type": self.card_type, "wording": self.wording, "count": self.count}
        return {"kind": self.kind, **{p: values[p] for p in BATTLEFRONT_ABILITY_PARAMS.get(self.kind, ())}}

    def clean(self) -> None:
        problem = battlefront_ability_problem(self.as_dict())
        if problem is None:
            unused = {"type": self.card_type, "wording": self.wording, "count": self.count}
            params = BATTLEFRONT_ABILITY_PARAMS[self.kind]
            extra = sorted(p for p, v in unused.items() if p not in params and v not in ("", None))
            if extra:
                problem = f"ability {self.kind} takes no {', '.join(extra)}"
        if problem is not None:
            raise ValidationError(problem)


class BattlefrontCardAbility(BattlefrontAbilityBase):
    card = models.ForeignKey(BattlefrontCard, on_delete=models.CASCADE, related_name="abilities")

    class Meta:
        ordering = ["card", "position"]
        verbose_name = "Battlefront card ability"
        verbose_name_plural = "Battlefront card abilities"
        constraints = [models.UniqueConstraint(fields=["card", "position"], name="uniq_bf_card_ability")]


class BattlefrontSpecialUseAbility(BattlefrontAbilityBase):
    special_use = models.ForeignKey(BattlefrontSpecialUse, on_delete=models.CASCADE, related_name="abilities")

    class Meta:
        ordering = ["special_use", "position"]
        verbose_name = "Battlefront special use ability"
        verbose_name_plural = "Battlefront special use abilities"
        constraints = [
            models.UniqueConstraint(fields=["special_use", "position"], name="uniq_bf_use_ability")
        ]


# ------------------------------------------------------------------------------------------- fixture state

FIXTURE_SET_CHOICES = [
    ("catalog", "Battlecards catalog (fixtures/catalog/)"),
    ("rulings", "Rulings (fixtures/catalog/rulings.json)"),
    ("battlefront", "Battlefront cards (fixtures/battlefront/cards.json)"),
    ("the_war", "The War cards and starters (fixtures/the_war/)"),
    ("tide_of_iron", "Tide of Iron Strategy cards, decks and scenarios (fixtures/tide_of_iron/)"),
]


class FixtureState(models.Model):
    """What `load_catalog` last applied from one set of fixture files, and the local overrides it kept.

    `contents` are the fixture rows as applied (the base of the next load's three-way merge, see
    cards.fixture_merge): a row edited in the admin is a local override that the next load keeps; a fixture
    change to anything not edited is applied; a fixture change meeting an edited field keeps the edit and is
    listed in `overrides` with `conflict: true`. `load_catalog --reset` applies the fixtures as they are.
    """

    name = models.CharField(max_length=20, unique=True, choices=FIXTURE_SET_CHOICES)
    source = models.CharField(max_length=300, blank=True, help_text="The files last loaded.")
    content_hash = models.CharField(max_length=64, help_text="SHA-256 of the fixture rows last loaded.")
    contents = models.JSONField(default=dict, help_text="The fixture rows last loaded, per table.")
    applied_at = models.DateTimeField(help_text="When the fixtures last changed and were applied.")
    checked_at = models.DateTimeField(help_text="When load_catalog last ran.")
    overrides = models.JSONField(
        default=list,
        blank=True,
        help_text="Where the database differs from the fixtures after that run: "
        "[{table, code, field, fixture, local, conflict}] (field empty: a whole row added or deleted).",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = "fixture state"

    def __str__(self) -> str:
        return f"{self.get_name_display()} @ {self.content_hash[:12]}"

    @property
    def conflict_count(self) -> int:
        return sum(1 for o in self.overrides or () if o.get("conflict"))


# The War's models live in their subpackage; imported here so they belong to this app.
from cards.the_war.models import TheWarCard, TheWarStarter, TheWarStarterEntry, TheWarVersion  # noqa: E402,F401
from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiDeckEntry, ToiScenario  # noqa: E402,F401
