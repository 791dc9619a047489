"""Every game's decision and action components are built from its engine's declarations (issue 37): the
prompt component of each decision kind has exactly the properties (and required ones) the engine's
`prompt_schemas` declares, and each action component the fields of its `action_schema`; the definitions
name them (GameType.api_schema), games/view_serializers.py writes none of them by hand."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.game_types import game_type_ids, get_game_type

DOCUMENTED = [g for g in game_type_ids() if get_game_type(g).api_schema is not None]


@pytest.fixture(scope="module")
def components(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


def _component(components, ref: str) -> dict:
    return components[ref.rsplit("/", 1)[1]]


def test_the_four_games_are_documented():
    assert DOCUMENTED == ["battlecards", "battlefront", "the-war", "tide-of-iron"]


@pytest.mark.parametrize("game_id", DOCUMENTED)
def test_every_decision_kinds_prompt_component_is_the_engines_declaration(components, game_id):
    game = get_game_type(game_id)
    names, engine = game.api_schema, game.engine
    decision = components[f"{names.prefix}Decision"]
    assert set(decision["discriminator"]["mapping"]) == set(engine.decision_kinds)
    declared = engine.prompt_schemas
    for kind, ref in decision["discriminator"]["mapping"].items():
        kind_schema = _component(components, ref)
        assert kind_schema["properties"]["legal_actions"]["items"] == {
            "$ref": f"#/components/schemas/{names.prefix}Action"}
        prompt = kind_schema["properties"]["prompt"]
        if not declared[kind]["properties"]:
            assert prompt == {"type": "object", "description": "No details.", "additionalProperties": False}
            continue
        documented = _component(components, prompt["$ref"])
        assert list(documented["properties"]) == list(declared[kind]["properties"]), kind
        assert sorted(documented.get("required", [])) == sorted(declared[kind]["required"]), kind


@pytest.mark.parametrize("game_id", DOCUMENTED)
def test_every_action_component_is_the_engines_action_schema(components, game_id):
    game = get_game_type(game_id)
    action = components[f"{game.api_schema.prefix}Action"]
    schema = game.engine.action_schema
    assert list(action["discriminator"]["mapping"]) == [spec["type"] for spec in schema]
    for spec in schema:
        component = _component(components, action["discriminator"]["mapping"][spec["type"]])
        assert list(component["properties"]) == ["type", *spec["fields"]]
        required = {name for name, field in spec["fields"].items() if field["required"]}
        assert set(component["required"]) == {"type", *required}
    any_action = components["AnyAction"]["oneOf"]
    assert {"$ref": f"#/components/schemas/{game.api_schema.prefix}Action"} in any_action
