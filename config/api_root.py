"""GET /api/: links to every collection the server offers (names that are not routed yet are skipped)."""
from django.urls import NoReverseMatch
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

# The links of the collections every game shares, after each registered game's own (GameType.api_links).
SHARED_ENDPOINTS = {
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
    from games.game_types import GAME_TYPES

    links = {}
    per_game = [link for kind in GAME_TYPES.values() for link in kind.api_links]
    for key, name in [*per_game, *SHARED_ENDPOINTS.items()]:
        try:
            links[key] = reverse(name, request=request)
        except NoReverseMatch:
            continue
    return Response(links)
