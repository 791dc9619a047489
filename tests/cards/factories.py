"""factory-boy factories of the catalog models (codes are the natural keys)."""

from __future__ import annotations

import factory

from cards.models import (
    ArsenalCard,
    ArsenalCardClass,
    Battlecard,
    CardSet,
    ConflictCard,
    Nation,
    SetMembership,
    Theater,
    UnitClass,
)


class NationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Nation
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"N{n}")
    name = factory.LazyAttribute(lambda o: f"Nation {o.code}")
    side = "allies"


class TheaterFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Theater
        django_get_or_create = ("code",)

    code = factory.Sequence(lambda n: f"T{n}")
    name = factory.LazyAttribute(lambda o: f"Theater {o.code}")


class UnitClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = UnitClass
        django_get_or_create = ("code",)

    code = "infantry"


class CardSetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = CardSet

    code = factory.Sequence(lambda n: f"SET-{n}")
    name = factory.LazyAttribute(lambda o: f"Set {o.code}")
    kind = "starter"
    nation = factory.SubFactory(NationFactory)
    theater = factory.SubFactory(TheaterFactory)


class ArsenalCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ArsenalCard
        skip_postgeneration_save = True

    code = factory.Sequence(lambda n: f"CARD-{n}")
    name = factory.LazyAttribute(lambda o: f"Card {o.code}")
    nation = factory.SubFactory(NationFactory)
    kind = "ground"
    points = 4
    attack_ground = 6
    defense_ground = 3
    defense_air = 4
    defense_sea = 5
    phase = 4
    abilities = factory.LazyFunction(list)
    provenance = factory.LazyFunction(dict)

    @factory.post_generation
    def classes(self, create, extracted, **kwargs):
        if not create:
            return
        for position, code in enumerate(extracted if extracted is not None else ["infantry"]):
            unit_class = UnitClassFactory(code=code)
            ArsenalCardClass.objects.create(card=self, unit_class=unit_class, position=position)


class SetMembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SetMembership

    card_set = factory.SubFactory(CardSetFactory)
    card = factory.SubFactory(ArsenalCardFactory)
    count = 1
    position = factory.Sequence(int)


class ConflictCardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ConflictCard

    code = factory.Sequence(lambda n: f"CONFLICT-{n}")
    name = factory.LazyAttribute(lambda o: f"Conflict {o.code}")
    theater = factory.SubFactory(TheaterFactory)
    card_set = factory.SubFactory(CardSetFactory, kind="conflict", nation=None)
    count = 1
    category = "military-build-up"
    action_number = 5
    effect = "build-up"
    params = factory.LazyFunction(lambda: {"draw": 2, "deploy": 2})


GROUND_ONLY = {
    "ground": True,
    "air": False,
    "sea": False,
    "non_artillery_ground_required": False,
    "optional_ground_classes": [],
}


class BattlecardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Battlecard

    code = factory.Sequence(lambda n: f"BATTLE-{n}")
    name = factory.LazyAttribute(lambda o: f"Battle {o.code}")
    theater = factory.SubFactory(TheaterFactory)
    card_set = factory.SubFactory(CardSetFactory, kind="conflict", nation=None)
    action_number = 8
    aggressor = "drawing-player"
    aggressor_forces = factory.LazyFunction(lambda: dict(GROUND_ONLY))
    defender_forces = factory.LazyFunction(lambda: dict(GROUND_ONLY))
    victory_points = 3
