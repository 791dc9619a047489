"""The OpenAPI schema describes The War (issue 24 §2): its view, decisions and actions are typed from the
engine's own tables, and every answer of a game against the bot matches the schema."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from decks.models import Deck, DeckEntry
from games.engine import the_war as tw
from tests.contract.conftest import CHECKS
from tests.decks.factories import UserFactory


@pytest.fixture
def schema(db):
    return SchemaGenerator().get_schema(request=None, public=True)


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def test_the_war_view_decisions_and_actions_are_typed_from_the_engine(schema):
    components = schema["components"]["schemas"]
    assert _ref("TheWarView") in components["GameView"]["oneOf"]
    assert _ref("TheWarActionRequest") in components["AnyActionRequest"]["oneOf"]
    view = components["TheWarView"]["properties"]
    assert {"hand", "players", "decision", "legal_actions", "scouted_hand"} <= set(view)
    # issue 37: a component per decision kind with its prompt (the engine's PROMPT_SCHEMAS) and the legal
    # actions under the decision, as in every game; the root copy is deprecated for one release
    assert view["decision"]["allOf"] == [_ref("TheWarDecision")]
    decision = components["TheWarDecision"]
    assert decision["discriminator"]["propertyName"] == "kind"
    assert set(decision["discriminator"]["mapping"]) == set(tw.DECISION_KINDS)
    for ref in decision["discriminator"]["mapping"].values():
        kind_schema = components[ref.rsplit("/", 1)[1]]
        assert kind_schema["properties"]["legal_actions"]["items"] == _ref("TheWarAction")
    assert set(components["TheWarPayPrompt"]["properties"]) == {"for", "card", "cost", "pool", "converted"}
    assert view["legal_actions"]["deprecated"] is True
    assert view["legal_actions"]["items"] == _ref("TheWarAction")
    action = components["TheWarAction"]
    assert set(action["discriminator"]["mapping"]) == {spec["type"] for spec in tw.ACTION_TYPES}
    for spec in tw.ACTION_TYPES:
        component = components[action["discriminator"]["mapping"][spec["type"]].rsplit("/", 1)[1]]
        required = {name for name, field in spec["fields"].items() if field["required"]}
        assert set(component["properties"]) == {"type", *spec["fields"]}
        assert set(component["required"]) == {"type", *required}


def test_every_answer_of_a_game_against_the_bot_matches_the_schema(live_schema):
    user = UserFactory(username="ann")
    headers = {"Authorization": f"Token {Token.objects.create(user=user).key}"}
    deck = Deck.objects.create(owner=user, name="small", game="the-war", nation="red-army")
    DeckEntry.objects.bulk_create([DeckEntry(deck=deck, card_code="tw-depot", count=14),
                                   DeckEntry(deck=deck, card_code="tw-guardsmen", count=4)])

    def call(path, method, *, path_parameters=None, body=None):
        operation = live_schema[path][method]
        kwargs = {"path_parameters": path_parameters or {}, "headers": headers, "query": {}}
        if body is not None:
            kwargs["body"] = body
            kwargs["media_type"] = "application/json"
        response = operation.Case(**kwargs).call_and_validate(checks=CHECKS)
        assert response.status_code < 300, response.text
        return response.json()

    game = call("/api/games/", "POST", body={
        "game_type": "the-war", "seed": 24, "my_deck": {"deck_id": deck.pk},
        "opponent_deck": {"deck_id": deck.pk}, "opponent": {"kind": "bot", "bot": "random"},
        "options": {"casual": True},
    })
    gid = {"game_id": game["id"]}
    bot = tw.RandomBot(salt="ann")
    for _ in range(400):
        state = call("/api/games/{game_id}/view/", "GET", path_parameters=gid)
        if state["status"] == "finished":
            break
        view = state["view"]
        legal = [tw.Action.from_json(a) for a in view["decision"]["legal_actions"]]
        action = bot.choose(view, legal, view["seat"])
        call("/api/games/{game_id}/actions/", "POST", path_parameters=gid,
             body={"version": state["version"], "action": action.to_json()})
    assert state["status"] == "finished"
    call("/api/games/{game_id}/events/", "GET", path_parameters=gid)
    call("/api/games/{game_id}/", "GET", path_parameters=gid)
    call("/api/games/{game_id}/replay/", "GET", path_parameters=gid)
