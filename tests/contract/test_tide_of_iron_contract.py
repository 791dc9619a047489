"""The OpenAPI schema describes the Tide of Iron referee (issue 27): its view, decisions and actions are
typed from the engine's own tables, and every answer of a refereed match matches the schema."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from games.engine import tide_of_iron as toi
from tests.contract.conftest import CHECKS
from tests.decks.factories import UserFactory


@pytest.fixture
def schema(db):
    return SchemaGenerator().get_schema(request=None, public=True)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def test_the_tide_of_iron_view_decisions_and_actions_are_typed_from_the_engine(schema):
    components = schema["components"]["schemas"]
    view = components["TideOfIronView"]["properties"]
    assert view["decision"]["allOf"] == [_ref("TideOfIronDecision")]
    assert "decks" in components["ToiSide"]["properties"] and "hq" in components["ToiSide"]["properties"]
    decision = components["TideOfIronDecision"]
    assert set(decision["discriminator"]["mapping"]) == set(toi.DECISION_KINDS)
    action = components["TideOfIronAction"]
    assert set(action["discriminator"]["mapping"]) == {spec["type"] for spec in toi.ACTION_TYPES}
    for spec in toi.ACTION_TYPES:
        component = components[action["discriminator"]["mapping"][spec["type"]].rsplit("/", 1)[1]]
        required = {name for name, field in spec["fields"].items() if field["required"]}
        assert set(component["properties"]) == {"type", *spec["fields"]}
        assert set(component["required"]) == {"type", *required}


def test_every_answer_of_a_refereed_match_matches_the_schema(live_schema):
    tokens = {}
    for name in ("ann", "ben"):
        tokens[name] = {"Authorization": f"Token {Token.objects.create(user=UserFactory(username=name)).key}"}

    def call(path, method, headers, *, path_parameters=None, body=None, query=None):
        operation = live_schema[path][method]
        kwargs = {"path_parameters": path_parameters or {}, "headers": headers, "query": query or {}}
        if body is not None:
            kwargs["body"] = body
            kwargs["media_type"] = "application/json"
        response = operation.Case(**kwargs).call_and_validate(checks=CHECKS)
        assert response.status_code < 300, response.text
        return response.json()

    game = call(
        "/api/games/",
        "POST",
        tokens["ann"],
        body={
            "game_type": "tide-of-iron",
            "opponent": {"kind": "human"},
            "seed": 27,
            "options": {"scenario": "toi-scenario-all-decks", "board_width": 12, "board_height": 10},
        },
    )
    gid = {"game_id": game["id"]}
    call("/api/games/{game_id}/join/", "POST", tokens["ben"], path_parameters=gid, body={})
    plan = [
        {"type": "place_unit", "unit": "A", "hex": "6,5", "side": "axis", "kind": "squad"},
        {"type": "place_unit", "unit": "B", "hex": "7,5", "side": "axis", "kind": "vehicle"},
        {"type": "set_cover", "hex": "6,5", "cover": "1"},
        {"type": "report_command", "points": "20"},
    ]
    kinds = set()
    for _ in range(60):
        state = call("/api/games/{game_id}/view/", "GET", tokens["ann"], path_parameters=gid)
        headers = tokens["ann"] if state["your_turn"] else tokens["ben"]
        if not state["your_turn"]:
            state = call("/api/games/{game_id}/view/", "GET", headers, path_parameters=gid)
        decision = state["view"]["decision"]
        kinds.add(decision["kind"])
        legal = decision["legal_actions"]
        if plan:
            action = plan.pop(0)
        elif decision["kind"] == "confirm":  # rules revision 2: the other player's report
            action = {"type": "confirm"}
        elif decision["kind"] == "target_column":
            action = {"type": "target_column", "column": "6"}
        elif decision["kind"] == "target_row":
            action = {"type": "target_row", "row": "5"}
        elif decision["kind"] == "los":
            action = {"type": "los", "los": "normal"}
        elif {"target_row", "los"} <= kinds:
            action = {"type": "end_match", "result": "axis"}
        else:
            action = next((a for a in legal if a["type"] == "activate"), {"type": "next_phase"})
        answer = call(
            "/api/games/{game_id}/actions/",
            "POST",
            headers,
            path_parameters=gid,
            body={"version": state["version"], "action": action},
        )
        if answer["state"]["status"] == "finished":
            break
    assert answer["state"]["status"] == "finished"
    assert {"act", "target_column", "target_row", "los", "confirm"} <= kinds
    call("/api/games/{game_id}/events/", "GET", tokens["ben"], path_parameters=gid)
    call("/api/games/{game_id}/", "GET", tokens["ben"], path_parameters=gid)
    call("/api/games/{game_id}/replay/", "GET", tokens["ben"], path_parameters=gid)
