"""GET /api/: links to every collection the server offers (names that are not routed yet are skipped)."""
from django.urls import NoReverseMatch
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

ENDPOINTS = {
    "nations": "nation-list",
    "theaters": "theater-list",
    "sets": "cardset-list",
    "arsenal_cards": "arsenalcard-list",
    "conflict_cards": "conflictcard-list",
    "battlecards": "battlecard-list",
    "battlefront_cards": "battlefrontcard-list",
    "battlefront_special_uses": "battlefrontspecialuse-list",
    "the_war_cards": "thewarcard-list",
    "the_war_starters": "thewarstarter-list",
    "the_war_changes": "thewar-changes",
    "tide_of_iron_cards": "toicard-list",
    "tide_of_iron_decks": "toideck-list",
    "tide_of_iron_scenarios": "toiscenario-list",
    "decks": "deck-list",
    "deck_validate": "deck-validate",
    "deck_matchup": "deck-matchup",
    "starters": "starter-list",
    "games": "game-list",
    "game_types": "game-type-list",
    "bot_ratings": "bot-ratings",
    "auth_token": "auth-token",
    "auth_register": "auth-register",
    "auth_logout": "auth-logout",
    "schema": "schema",
    "docs": "swagger-ui",
}


@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_root(request: Request) -> Response:
    links = {}
    for key, name in ENDPOINTS.items():
        try:
            links[key] = reverse(name, request=request)
        except NoReverseMatch:
            continue
    return Response(links)
