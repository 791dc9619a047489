"""factory-boy factories of users and decks (entries by card code, a version per deck as services write)."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from decks.models import Deck, DeckEntry, DeckVersion


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("Sturmgeschutz-44")


class DeckFactory(factory.django.DjangoModelFactory):
    """A deck with `entries={code: count}` and its version 1 snapshot."""

    class Meta:
        model = Deck
        skip_postgeneration_save = True

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Deck {n}")
    nation = "GB"
    is_public = False

    @factory.post_generation
    def entries(self, create: bool, extracted: dict[str, int] | None, **kwargs) -> None:
        entries = extracted or {}
        if create:
            DeckEntry.objects.bulk_create(
                DeckEntry(deck=self, card_code=c, count=n) for c, n in entries.items()
            )
            DeckVersion.objects.create(
                deck=self,
                number=self.version,
                name=self.name,
                nation=self.nation,
                description=self.description,
                is_public=self.is_public,
                entries=dict(sorted(entries.items())),
            )
