"""The whole API's OpenAPI schema generates without a single drf-spectacular warning or error."""
import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator


@pytest.mark.django_db
def test_the_whole_schema_generates_without_warnings():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, (dict(GENERATOR_STATS._warn_cache), dict(GENERATOR_STATS._error_cache))
    paths = schema["paths"]
    for expected in ("/api/arsenal-cards/", "/api/decks/", "/api/decks/validate/", "/api/decks/matchup/",
                     "/api/games/", "/api/games/{game_id}/actions/", "/api/games/{game_id}/view/"):
        assert expected in paths, expected


def test_every_error_response_documents_the_common_shape(client):
    body = client.get("/api/no-such-endpoint/").json()
    assert set(body) >= {"status", "code", "detail"} and body["status"] == 404


@pytest.mark.django_db
def test_the_schema_lists_every_end_reason_including_a_draw():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["components"]["schemas"]["EndReasonEnum"]["enum"] == [
        "victory", "draw", "resignation", "timeout", "unfinished"
    ]


@pytest.mark.django_db
def test_the_schema_types_the_time_control_and_the_clocks():
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    create = schemas["GameCreateRequest"]["properties"]["time_control"]
    assert create["allOf"][0]["$ref"].endswith("/TimeControlRequest")
    for shape in ("TimeControlRequest", "TimeControl"):
        assert set(schemas[shape]["properties"]) == {"kind", "minutes", "increment_seconds", "days"}
    clock = schemas["Clock"]["properties"]
    assert {"running", "deadline", "server_time", "sides"} <= set(clock)
    assert schemas["ClockSide"]["properties"]["remaining_ms"]["type"] == "integer"
    for shape in ("Game", "SeatView", "EventsPage"):
        assert "clock" in schemas[shape]["properties"], shape


@pytest.mark.django_db
def test_the_schema_shows_a_choice_about_an_army_a_card_or_a_stack_in_typed_fields():
    """Issue 22: no option string packs several values ("trade:<army>:<card>": option "trade", army, card)."""
    choose = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]["ChooseAction"]
    assert {"option", "army", "card", "stack"} <= set(choose["properties"])
    assert set(choose["required"]) == {"type", "seat", "option"}


@pytest.mark.django_db
def test_the_schema_documents_the_a_bomb_window_as_its_own_decision():
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    decision = schemas["ABombWindowDecision"]["properties"]
    assert decision["kind"]["$ref"].endswith("/ABombWindowDecisionKindEnum")
    assert schemas["ABombWindowDecisionKindEnum"]["enum"] == ["a_bomb_window"]
    assert set(schemas["ABombWindowPrompt"]["properties"]) == {"round"}
