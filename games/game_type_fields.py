"""The game-type fields of the APIs: a game id validated against the registry (games.engine.registry and
the definitions of games.game_types), never a fixed list of database choices. An old id (The War's
"the_war") still reads, for one release, and is normalised to the one id ("the-war")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import django_filters
from rest_framework import serializers

from games.engine import registry


def game_type_choices() -> list[tuple[str, str]]:
    """(id, label) of every game type the service plays (a registered Django-side definition)."""
    from games.game_types import GAME_TYPES

    return [(name, kind.label) for name, kind in GAME_TYPES.items()]


def deck_game_choices() -> list[tuple[str, str]]:
    """(id, label) of every game whose players build decks (its spec names deck rules)."""
    return [(spec.id, spec.label) for spec in registry.games() if spec.deck_rules]


class GameIdField(serializers.ChoiceField):
    """A game id among `choices()` (read each time a serializer is built, so a game registered later is
    there); an old alias is accepted and normalised to its id."""

    def __init__(self, *, choices: Callable[[], list[tuple[str, str]]] = game_type_choices, **kwargs: Any):
        self.choices_of = choices
        super().__init__(choices=choices(), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        name = registry.canonical(data) if isinstance(data, str) else None
        if name is None or name not in dict(self.choices_of()):
            self.fail("invalid_choice", input=data)
        return name


class GameIdFilter(django_filters.ChoiceFilter):
    """A list filter on a game id (old aliases accepted and normalised)."""

    def __init__(self, *, choices: Callable[[], list[tuple[str, str]]] = game_type_choices, **kwargs: Any):
        def with_aliases() -> list[tuple[str, str]]:
            known = choices()
            ids = {name for name, _ in known}
            aliases = [(a, a) for spec in registry.games() if spec.id in ids for a in spec.aliases]
            return known + aliases

        super().__init__(choices=with_aliases, **kwargs)

    def filter(self, qs: Any, value: Any) -> Any:
        return super().filter(qs, registry.canonical(value) if value else value)
