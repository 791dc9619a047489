"""The deck API's OpenAPI declarations: each operation's summary, request, answers (errors included) and
examples, one `extend_schema` decorator per operation, named after its API and method (`deck_list_get`
documents DeckListApi.get). The API modules (decks.apis, decks.validation_apis, decks.version_apis,
decks.starter_apis) only apply them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)

from config.schema import ErrorSerializer
from config.schema import error_response as _error
from decks import selectors
from decks.schema_examples import (
    DECK_EXAMPLE,
    ENTRIES_EXAMPLE,
    STARTER_EXAMPLE,
    VALIDATION_EXAMPLE,
    VERSION_EXAMPLE,
)
from decks.serializers import (
    DeckCreateInputSerializer,
    DeckImportInputSerializer,
    DeckListQuerySerializer,
    DeckOutputSerializer,
    DeckUpdateInputSerializer,
    DeckValidateInputSerializer,
    DeckVersionOutputSerializer,
    EntriesReplaceInputSerializer,
    MatchupInputSerializer,
    MatchupOutputSerializer,
    StarterCloneInputSerializer,
    StarterListQuerySerializer,
    StarterOutputSerializer,
    StatsOutputSerializer,
    TheWarStatsOutputSerializer,
    ValidationOutputSerializer,
    VersionDiffOutputSerializer,
)
from games.game_type_fields import deck_game_choices

# ---------------------------------------------------------------------------------------------------- errors


NOT_FOUND = _error("No such deck, or another player's private deck.", "deck_not_found", "No such deck.", 404)

NOT_OWNER = _error(
    "Another player's public deck: readable, not writable.",
    "not_deck_owner",
    "Only the owner may change this deck.",
    403,
)

NOT_AUTHENTICATED = _error(
    "Log in first (token or session).",
    "not_authenticated",
    "Authentication credentials were not provided.",
    401,
)

BATTLEFRONT_IN_DECK = OpenApiExample(
    selectors.BATTLEFRONT_IN_DECK,
    value={
        "status": 400,
        "code": selectors.BATTLEFRONT_IN_DECK,
        "detail": "Battlefront card(s) in a Battlecards deck: bf-tank-brigade (Tank Brigade). Battlefront "
        "has no deck building: its two players draw from one shared deck of its 70 cards, so its cards "
        "cannot go in a deck. Decks hold Battlecards arsenal cards only (see /api/arsenal-cards/).",
        "cards": ["bf-tank-brigade"],
    },
)
CARD_OF_ANOTHER_GAME = OpenApiExample(
    selectors.CARD_OF_ANOTHER_GAME,
    value={
        "status": 400,
        "code": selectors.CARD_OF_ANOTHER_GAME,
        "detail": "Card(s) of another game in a The War deck: de-tiger-i (Tiger I Tank, Battlecards). A deck "
        "holds the cards of its own game only.",
        "game": "the-war",
        "cards": ["de-tiger-i"],
    },
)
BAD_ENTRIES = OpenApiResponse(
    ErrorSerializer,
    description="Bad input: unknown nation (army) or card codes, counts outside 1..99, a card listed twice, "
    "more than 500 entries, "
    "wrong types; a Battlefront card (battlefront_card_in_deck: Battlefront has one shared deck); a card of "
    "the other game (card_of_another_game).",
    examples=[
        OpenApiExample(
            "unknown_card",
            value={
                "status": 400,
                "code": "unknown_card",
                "detail": "Unknown arsenal card code(s): gb-me-262.",
                "cards": ["gb-me-262"],
            },
        ),
        BATTLEFRONT_IN_DECK,
        CARD_OF_ANOTHER_GAME,
    ],
)
STALE = _error(
    "The version you edited is not the latest.",
    "stale_version",
    "The deck changed since version 3: it is at version 4. Reload and retry.",
    409,
    current_version=4,
)

# ----------------------------------------------------------------------------------------------------- decks


deck_list_get = extend_schema(
    tags=["decks"],
    summary="My decks (anonymous: public decks); ?public=true: every public deck; ?mine=true: only mine",
    parameters=[
        DeckListQuerySerializer,
        OpenApiParameter(
            "game", str, enum=[c for c, _ in deck_game_choices()], description="Decks of one game"
        ),
        OpenApiParameter("nation", str, description="Nation code (The War: army)"),
        OpenApiParameter("is_public", bool),
        OpenApiParameter("search", str, description="Part of the deck name"),
        OpenApiParameter(
            "ordering",
            str,
            enum=["name", "-name", "updated_at", "-updated_at", "created_at", "-created_at"],
        ),
    ],
    responses={200: DeckOutputSerializer(many=True), 400: BAD_ENTRIES},
    examples=[OpenApiExample("a page of decks", value=[DECK_EXAMPLE], response_only=True)],
)

deck_list_post = extend_schema(
    tags=["decks"],
    summary="Create a deck (saved even if not yet legal: see its validation)",
    request=DeckCreateInputSerializer,
    responses={201: DeckOutputSerializer, 400: BAD_ENTRIES, 401: NOT_AUTHENTICATED},
    examples=[
        OpenApiExample(
            "create",
            value={
                "name": "Heavy armour",
                "nation": "DE",
                "description": "",
                "is_public": False,
                "entries": ENTRIES_EXAMPLE,
            },
            request_only=True,
        ),
        OpenApiExample("created", value=DECK_EXAMPLE, response_only=True, status_codes=["201"]),
    ],
)

deck_detail_get = extend_schema(
    tags=["decks"],
    summary="One deck",
    responses={200: DeckOutputSerializer, 404: NOT_FOUND},
    examples=[OpenApiExample("deck", value=DECK_EXAMPLE, response_only=True)],
)

_UPDATE: dict[str, Any] = {  # what PUT and PATCH share
    "tags": ["decks"],
    "request": DeckUpdateInputSerializer,
    "responses": {
        200: DeckOutputSerializer,
        400: BAD_ENTRIES,
        401: NOT_AUTHENTICATED,
        403: NOT_OWNER,
        404: NOT_FOUND,
        409: STALE,
    },
    "examples": [
        OpenApiExample(
            "rename and replace entries",
            value={"name": "Heavier armour", "version": 3, "entries": ENTRIES_EXAMPLE},
            request_only=True,
        ),
        OpenApiExample("updated", value=DECK_EXAMPLE, response_only=True),
    ],
}

deck_detail_put = extend_schema(
    summary="Change a deck (any fields; entries, when given, replace all entries)", **_UPDATE
)

deck_detail_patch = extend_schema(summary="Change some fields of a deck", **_UPDATE)

deck_detail_delete = extend_schema(
    tags=["decks"],
    summary="Delete a deck and its history",
    responses={204: None, 401: NOT_AUTHENTICATED, 403: NOT_OWNER, 404: NOT_FOUND},
)

deck_entries_put = extend_schema(
    tags=["decks"],
    summary="Replace every entry of a deck in one request (one new version)",
    request=EntriesReplaceInputSerializer,
    responses={
        200: DeckOutputSerializer,
        400: BAD_ENTRIES,
        401: NOT_AUTHENTICATED,
        403: NOT_OWNER,
        404: NOT_FOUND,
        409: STALE,
    },
    examples=[
        OpenApiExample("replace", value={"entries": ENTRIES_EXAMPLE, "version": 3}, request_only=True),
        OpenApiExample("replaced", value=DECK_EXAMPLE, response_only=True),
    ],
)


# -------------------------------------------------------------------------------------- validation and stats


deck_validate_post = extend_schema(
    tags=["validation"],
    summary="Validate an unsaved deck: totals and every violation (unknown codes are violations here)",
    request=DeckValidateInputSerializer,
    responses={
        200: ValidationOutputSerializer,
        400: OpenApiResponse(
            ErrorSerializer,
            description="Malformed entries, or a Battlefront card (Battlefront has no deck building).",
            examples=[
                OpenApiExample(
                    "invalid_count",
                    value={
                        "status": 400,
                        "code": "invalid_count",
                        "detail": "Counts must be between 1 and 99.",
                    },
                ),
                BATTLEFRONT_IN_DECK,
            ],
        ),
    },
    examples=[
        OpenApiExample(
            "validate",
            value={"nation": "GB", "entries": [{"card": "de-me-262", "count": 1}]},
            request_only=True,
        ),
        OpenApiExample("result", value=VALIDATION_EXAMPLE, response_only=True),
    ],
)

deck_validation_get = extend_schema(
    tags=["validation"],
    summary="Validate a saved deck",
    responses={200: ValidationOutputSerializer, 404: NOT_FOUND},
    examples=[OpenApiExample("result", value=VALIDATION_EXAMPLE, response_only=True)],
)

deck_stats_get = extend_schema(
    tags=["decks"],
    summary="Battlecards: cards and points by kind, unit class, firing phase and point cost. The War: "
    "cards by category, unit type and line, the resource curve per resource type",
    responses={
        200: PolymorphicProxySerializer(
            component_name="DeckStats",
            serializers=[StatsOutputSerializer, TheWarStatsOutputSerializer],
            resource_type_field_name=None,
        ),
        404: NOT_FOUND,
    },
    examples=[
        OpenApiExample(
            "stats",
            response_only=True,
            value={
                "game": "battlecards",
                "totals": VALIDATION_EXAMPLE["totals"],
                "by_kind": {"ground": {"cards": 30, "points": 250}, "air": {"cards": 9, "points": 151}},
                "by_class": {"tank": {"cards": 12, "points": 96}},
                "by_phase": {"1": {"cards": 8, "points": 80}},
                "by_cost": [{"cost": 4, "cards": 6, "points": 24}],
            },
        ),
        OpenApiExample(
            "stats of a The War deck",
            response_only=True,
            value={
                "game": "the-war",
                "totals": {"cards": 60},
                "by_category": {"resource": 24, "unit": 30, "special": 6},
                "by_unit_type": {"infantry": 12, "tank": 10, "aircraft": 8},
                "by_subtype": {"medium-tank": 6},
                "by_line": {"1": 22, "2": 8},
                "resource_curve": {
                    "depot": [{"cost": 0, "cards": 10}, {"cost": 1, "cards": 26}],
                    "plant": [{"cost": 2, "cards": 20}],
                    "fuel": [{"cost": 0, "cards": 24}, {"cost": 1, "cards": 12}],
                },
                "resource_cards": {"depot": 8, "plant": 8, "fuel": 8},
            },
        ),
    ],
)

deck_matchup_post = extend_schema(
    tags=["validation"],
    summary="May two decks play each other with this conflict deck? Every failed rule, with differences",
    request=MatchupInputSerializer,
    responses={200: MatchupOutputSerializer, 400: BAD_ENTRIES, 404: NOT_FOUND},
    examples=[
        OpenApiExample(
            "two starters, thin conflict deck",
            request_only=True,
            value={
                "a": {"starter": "gb-we-starter"},
                "b": {"starter": "de-we-starter"},
                "conflict": {"theater": "WE", "mode": "thin", "packs": []},
            },
        ),
        OpenApiExample(
            "a saved deck against an inline deck, with a whole expansion pack",
            request_only=True,
            value={
                "a": {"deck_id": 12},
                "b": {"nation": "GB", "entries": ENTRIES_EXAMPLE},
                "conflict": {"mode": "packs", "packs": ["gb-we-expansion"]},
            },
        ),
    ],
)


# --------------------------------------------------------------------------------------------- import/export


deck_export_get = extend_schema(
    tags=["import/export"],
    summary="The deck as text, one line per card ('3 Tiger I Tank'); round-trips",
    responses={(200, "text/plain"): OpenApiTypes.STR, 404: NOT_FOUND},
)

deck_import_post = extend_schema(
    tags=["import/export"],
    summary="Create a deck from a text list (names, printed names or codes); any unreadable line saves "
    "nothing",
    description="`name` and `nation` default to the text's `# name: ...` and `# nation: XX` header lines "
    "(what export writes), so an exported list imports as is; either missing everywhere is a 400. `game` "
    "defaults to the `# game: ...` line, else battlecards; a The War list gives its army as "
    "`# army: ...` and names cards by title or code. A line naming a card of the other game: "
    "card_of_another_game.",
    request=DeckImportInputSerializer,
    responses={
        201: DeckOutputSerializer,
        400: _error(
            "Lines naming no card, with close-name suggestions (a line naming a Battlefront card: "
            "code battlefront_card_in_deck, no suggestions).",
            "import_failed",
            "1 line(s) could not be read; nothing was saved.",
            lines=[
                {
                    "line": 2,
                    "text": "3 Tiger 1 Tank",
                    "code": "unknown_card",
                    "message": "No card is called 'Tiger 1 Tank'.",
                    "suggestions": ["Tiger I Tank (de-tiger-i)", "Tiger II Tank (de-tiger-ii)"],
                }
            ],
        ),
        401: NOT_AUTHENTICATED,
        413: _error(
            "The text is larger than 64 KB.", "text_too_large", "A deck list may be at most 64 KB.", 413
        ),
    },
    examples=[
        OpenApiExample(
            "import",
            request_only=True,
            value={
                "name": "Imported",
                "nation": "DE",
                "text": "3 Tiger I Tank\n6 German Infantry\n1 de-rommel\n",
            },
        ),
        OpenApiExample(
            "an export, as is",
            request_only=True,
            description="GET /api/decks/{id}/export/ writes the name and nation as header lines.",
            value={"text": "# name: Heavy armour\n# nation: DE\n3 Tiger I Tank\n6 German Infantry\n"},
        ),
    ],
)


# -------------------------------------------------------------------------------------------------- versions


def list_and_detail(
    *, tag: str, output: type[Any], example: dict[str, Any], names: tuple[str, str],
    summaries: tuple[str, str], list_errors: dict[int, Any], detail_404: Any,
    parameters: list[Any] | None = None,
) -> tuple[Any, Any]:
    """The declarations of a list (`names[0]`, its own errors and query parameters) and of one of its items
    (`names[1]`, 404 `detail_404`): the same output serializer and example."""
    listed = extend_schema(
        tags=[tag],
        summary=summaries[0],
        parameters=parameters,
        responses={200: output(many=True), **list_errors},
        examples=[OpenApiExample(names[0], value=[example], response_only=True)],
    )
    one = extend_schema(
        tags=[tag],
        summary=summaries[1],
        responses={200: output, 404: detail_404},
        examples=[OpenApiExample(names[1], value=example, response_only=True)],
    )
    return listed, one


deck_version_list_get, deck_version_detail_get = list_and_detail(
    tag="versions",
    output=DeckVersionOutputSerializer,
    example=VERSION_EXAMPLE,
    names=("versions", "version"),
    summaries=("Every saved version of a deck, newest first", "One version of a deck"),
    list_errors={404: NOT_FOUND},
    detail_404=_error("No such deck or version.", "version_not_found", "Deck 12 has no version 9.", 404),
)

deck_version_diff_get = extend_schema(
    tags=["versions"],
    summary="What changed between two versions (added, removed, changed cards)",
    parameters=[OpenApiParameter("from", int, required=True), OpenApiParameter("to", int, required=True)],
    responses={
        200: VersionDiffOutputSerializer,
        400: _error("from/to missing or not numbers.", "invalid", "from_: This field is required."),
        404: NOT_FOUND,
    },
    examples=[
        OpenApiExample(
            "diff",
            response_only=True,
            value={
                "deck": 12,
                "from": 1,
                "to": 3,
                "added": [{"card": "de-tiger-ii", "count": 2}],
                "removed": [],
                "changed": [{"card": "de-tiger-i", "from": 3, "to": 1, "delta": -2}],
                "counts": {"added": 1, "removed": 0, "changed": 1},
                "cards": {"from": 40, "to": 40, "delta": 0},
                "fields": {"name": {"from": "Armour", "to": "Heavy armour"}},
            },
        )
    ],
)


# -------------------------------------------------------------------------------------------------- starters


BAD_GAME = _error("Unknown game.", "invalid", 'Invalid input: game: "chess" is not a valid choice.')

STARTER_NOT_FOUND = _error("No such starter.", "starter_not_found", "No starter deck has the code 'xx'.", 404)

starter_list_get, starter_detail_get = list_and_detail(
    tag="starters",
    output=StarterOutputSerializer,
    example=STARTER_EXAMPLE,
    names=("starters", "starter"),
    summaries=(
        "Official starter decks (every game with decks) as presets, with computed and printed totals",
        "One official starter deck",
    ),
    parameters=[StarterListQuerySerializer],
    list_errors={400: BAD_GAME},
    detail_404=STARTER_NOT_FOUND,
)

starter_clone_post = extend_schema(
    tags=["starters"],
    summary="Copy an official starter into a new deck of mine",
    request=StarterCloneInputSerializer,
    responses={
        201: DeckOutputSerializer,
        401: NOT_AUTHENTICATED,
        404: STARTER_NOT_FOUND,
    },
    examples=[
        OpenApiExample("clone", value={"name": "My British", "is_public": False}, request_only=True),
        OpenApiExample("cloned", value=DECK_EXAMPLE, response_only=True, status_codes=["201"]),
    ],
)
