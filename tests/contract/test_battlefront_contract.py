"""The OpenAPI schema describes both games (issue 15): a Battlefront view, decisions and actions, typed like
the Battlecards ones and built from the Battlefront engine's own tables, and every answer of a whole
Battlefront game matches it."""

from __future__ import annotations

import random

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from games.engine import battlefront as bf
from tests.contract.conftest import CHECKS
from tests.contract.test_generated_client import generated_client  # noqa: F401 (a fixture)
from tests.decks.factories import UserFactory


@pytest.fixture
def schema(db):
    return SchemaGenerator().get_schema(request=None, public=True)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def test_the_seat_view_is_a_battlecards_or_a_battlefront_view(schema):
    components = schema["components"]["schemas"]
    seat_view = components["SeatView"]["properties"]
    assert seat_view["view"]["allOf"] == [_ref("GameView")]
    # one view per registered game, in the registry's order (games.view_serializers.GameView, issue 37)
    assert components["GameView"]["oneOf"] == [_ref("View"), _ref("BattlefrontView"), _ref("TheWarView"),
                                                  _ref("TideOfIronView")]
    types = {"battlecards", "battlefront", "tide-of-iron", "the-war"}
    assert set(components["GameTypeEnum"]["enum"]) == types
    # the views cannot be mistaken for each other: their seats differ
    assert components["View"]["properties"]["seat"] == _ref("BattlecardsSeatEnum")
    assert components["BattlefrontView"]["properties"]["seat"] == _ref("BattlefrontSeatEnum")
    assert components["BattlefrontSeatEnum"]["enum"] == list(bf.SEATS)


def test_the_battlefront_decisions_and_actions_are_typed_from_the_engine(schema):
    components = schema["components"]["schemas"]
    view = components["BattlefrontView"]["properties"]
    assert view["decision"]["allOf"] == [_ref("BattlefrontDecision")]
    decision = components["BattlefrontDecision"]
    assert decision["discriminator"]["propertyName"] == "kind"
    assert set(decision["discriminator"]["mapping"]) == set(bf.DECISION_KINDS)
    for ref in decision["discriminator"]["mapping"].values():
        kind_schema = components[ref.rsplit("/", 1)[1]]
        assert kind_schema["properties"]["prompt"]["$ref"].endswith("Prompt")
        assert kind_schema["properties"]["legal_actions"]["items"] == _ref("BattlefrontAction")
    action = components["BattlefrontAction"]
    assert action["discriminator"]["propertyName"] == "type"
    assert set(action["discriminator"]["mapping"]) == {spec["type"] for spec in bf.ACTION_TYPES}
    for spec in bf.ACTION_TYPES:
        component = components[action["discriminator"]["mapping"][spec["type"]].rsplit("/", 1)[1]]
        required = {name for name, field in spec["fields"].items() if field["required"]}
        assert set(component["properties"]) == {"type", *spec["fields"]}
        assert set(component["required"]) == {"type", *required}
    # what a client sends: an action of either game
    submitted = components["ActionSubmitRequest"]["properties"]["action"]
    assert submitted["allOf"] == [_ref("AnyActionRequest")]
    either = [_ref("ActionRequest"), _ref("BattlefrontActionRequest"), _ref("TheWarActionRequest"),
              _ref("TideOfIronActionRequest")]  # the registry's order (issue 37)
    assert components["AnyActionRequest"]["oneOf"] == either


def test_every_answer_of_a_whole_battlefront_game_matches_the_schema(live_schema):
    """Two players (random legal choices) play a whole Battlefront game; every answer passes the checks."""
    rng = random.Random(15)
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
            "game_type": "battlefront",
            "opponent": {"kind": "human"},
            "options": {"special_cards": {"west": "US", "east": "RU"}, "two_front_victory": True},
            "seed": 5,
        },
    )
    gid = {"game_id": game["id"]}
    call("/api/games/{game_id}/join/", "POST", tokens["ben"], path_parameters=gid, body={})
    call("/api/games/", "GET", tokens["ann"], query={"game_type": "battlefront"})
    kinds = set()
    for _ in range(2000):
        state = call("/api/games/{game_id}/view/", "GET", tokens["ann"], path_parameters=gid)
        if state["status"] == "finished":
            break
        headers = tokens["ann"] if state["your_turn"] else tokens["ben"]
        if not state["your_turn"]:
            state = call("/api/games/{game_id}/view/", "GET", headers, path_parameters=gid)
        decision = state["view"]["decision"]
        kinds.add(decision["kind"])
        action = rng.choice(decision["legal_actions"])
        call(
            "/api/games/{game_id}/actions/",
            "POST",
            headers,
            path_parameters=gid,
            body={"version": state["version"], "action": action},
        )
    assert state["status"] == "finished" and state["game_type"] == "battlefront"
    assert "deploy" in kinds
    call("/api/games/{game_id}/events/", "GET", tokens["ben"], path_parameters=gid)
    call("/api/games/{game_id}/", "GET", tokens["ben"], path_parameters=gid)
    call("/api/games/{game_id}/replay/", "GET", tokens["ben"], path_parameters=gid)


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_plays_a_whole_battlefront_game_against_the_bot(
    generated_client, live_server, catalog_rows  # noqa: F811 (the fixture imported above)
):
    """The typed client generated from the live schema parses Battlefront answers into Battlefront models."""
    import importlib

    from games.models import Game

    models = importlib.import_module("bc_generated_client.models")

    def call(package: str, name: str, *args, **kwargs):
        return importlib.import_module(f"bc_generated_client.api.{package}.{name}").sync(*args, **kwargs)

    anonymous = generated_client.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    login = {"username": "front", "password": "Generated-pass-1940"}
    call("auth", "auth_register_create", client=anonymous, body=models.RegisterInputRequest(**login))
    token = call("auth", "auth_token_create", client=anonymous, body=models.TokenInputRequest(**login))
    client = generated_client.AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token", raise_on_unexpected_status=True
    )
    create = models.GameCreateRequest.from_dict(
        {"game_type": "battlefront", "opponent": {"kind": "bot", "bot": "random"}, "seed": 1941}
    )
    game = call("games", "games_create", client=client, body=create)
    assert isinstance(game, models.Game) and game.game_type == models.GameTypeEnum.BATTLEFRONT

    rng = random.Random(41)
    state = call("games", "games_view_retrieve", game.id, client=client)
    kinds, actions = set(), 0
    while actions < 1000:
        assert isinstance(state, models.SeatView) and isinstance(state.view, models.BattlefrontView)
        if state.status == models.GameStatusEnum.FINISHED:
            break
        decision = state.view.decision
        kinds.add(type(decision).__name__)
        chosen = rng.choice(decision.legal_actions)  # a typed Battlefront action
        assert type(chosen).__name__.startswith("Battlefront")
        body = models.ActionSubmitRequest.from_dict({"version": state.version, "action": chosen.to_dict()})
        result = call("games", "games_actions_create", game.id, client=client, body=body)
        assert isinstance(result, models.ActionResult), result
        state = result.state
        actions += 1
    assert state.status == models.GameStatusEnum.FINISHED, actions
    assert "BattlefrontDeployDecision" in kinds
    assert Game.objects.get(pk=game.id).status == "finished"
