"""The card catalogs the site browses: each one's selector, search language, serializer and face route.

The pages read exactly what the catalog API reads (the same selectors, the same `?q=` language and the same
serializers), so a page never shows more than `/api/...` would.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards import selectors
from cards.battlefront import selectors as battlefront_selectors
from cards.battlefront.search import BATTLEFRONT
from cards.battlefront.serializers import BattlefrontCardSerializer
from cards.search import ARSENAL, BATTLECARD, CONFLICT, Language
from cards.serializers import ArsenalCardSerializer, BattlecardSerializer, ConflictCardSerializer
from cards.the_war import selectors as the_war_selectors
from cards.the_war.search import THE_WAR
from cards.the_war.serializers import TheWarCardSerializer


@dataclass(frozen=True)
class CatalogKind:
    slug: str  # in the site's URLs: /cards/<slug>/
    title: str
    game: str
    queryset: Any  # a selector: () -> QuerySet
    language: Language
    serializer: Any
    face_route: str  # URL name of the face endpoint
    api_route: str  # URL name of the API list (linked from the page)
    rulings: str | None  # cards.selectors.ruling_list_for_card kind, when the catalog has rulings
    example: str  # a `?q=` example shown under the search box


KINDS = {
    k.slug: k
    for k in (
        CatalogKind(
            "arsenal",
            "Arsenal cards",
            "Battlecards",
            selectors.arsenal_card_list,
            ARSENAL,
            ArsenalCardSerializer,
            "arsenalcard-face",
            "arsenalcard-list",
            "arsenal",
            "nation:de kind:air points<15",
        ),
        CatalogKind(
            "conflict",
            "Conflict cards",
            "Battlecards",
            selectors.conflict_card_list,
            CONFLICT,
            ConflictCardSerializer,
            "conflictcard-face",
            "conflictcard-list",
            "conflict",
            "category:kept action>=10",
        ),
        CatalogKind(
            "battlecards",
            "Battlecards",
            "Battlecards",
            selectors.battlecard_list,
            BATTLECARD,
            BattlecardSerializer,
            "battlecard-face",
            "battlecard-list",
            "battlecard",
            "vp>=5 or is:homeland",
        ),
        CatalogKind(
            "battlefront",
            "Battlefront cards",
            "Battlefront",
            battlefront_selectors.battlefront_card_list,
            BATTLEFRONT,
            BattlefrontCardSerializer,
            "battlefrontcard-face",
            "battlefrontcard-list",
            None,
            "type:tank force>=8",
        ),
        CatalogKind(
            "the-war",
            "The War cards",
            "The War",
            the_war_selectors.the_war_card_list,
            THE_WAR,
            TheWarCardSerializer,
            "thewarcard-face",
            "thewarcard-list",
            None,
            "army:red type:infantry",
        ),
    )
}
