"""One view shape for every engine (issue 37 item 2): the pending decision carries its legal actions in the
same place in all four games, `view.decision = {seat, kind, prompt?, legal_actions?}` (prompt and legal
actions only for the deciding seat; the spectator view names whose decision it is and nothing more). The War
also keeps its older copy at the root of the view (`view.legal_actions`) for one release: the same list,
empty unless the decision is the seat's."""
from __future__ import annotations

import json

import jsonschema
import pytest

from games.engine import registry

GAMES = registry.ids()
PLIES = 60


def _players(engine):
    if engine.has_bots:
        return {seat: engine.bot("random", catalog=None, salt=f"v{i}") for i, seat in enumerate(engine.seats)}
    return {seat: engine.random_player(f"v{i}") for i, seat in enumerate(engine.seats)}


def _check_views(engine, state) -> int:
    """Checks every seat's view and the public view of `state`; the number of legal actions offered."""
    decision = state.decision
    legal = [a.to_json() for a in engine.legal_actions(state)]
    offered = 0
    for seat in engine.seats:
        view = json.loads(json.dumps(engine.view(state, seat)))
        shown = view["decision"]
        assert {"seat": decision.seat, "kind": decision.kind}.items() <= shown.items()
        if seat == decision.seat:
            assert set(shown) == {"seat", "kind", "prompt", "legal_actions"}
            # the prompt has the shape the engine declares for its kind (the API's prompt component)
            jsonschema.validate(shown["prompt"], engine.prompt_schemas.get(decision.kind, {}))
            assert shown["legal_actions"] == legal and legal, (seat, decision.kind)
            offered += len(legal)
        else:
            assert set(shown) == {"seat", "kind"}, (seat, decision.kind)
        if "legal_actions" in view:  # The War's deprecated copy, removed in release 0.2.0
            assert engine.id == "the-war"
            assert view["legal_actions"] == shown.get("legal_actions", [])
    public = json.loads(json.dumps(engine.public_view(state)))
    assert public["decision"] == {"seat": decision.seat, "kind": decision.kind}
    assert public.get("legal_actions", []) == []
    return offered


@pytest.mark.parametrize("game_id", GAMES)
def test_every_engine_puts_the_decision_and_its_legal_actions_in_the_same_place(game_id):
    engine = registry.get(game_id).engine
    catalog, setup = engine.example(7)
    state = engine.new_game(catalog, setup)
    players = _players(engine)
    offered = 0
    for _ in range(PLIES):
        if state.decision is None:
            break
        offered += _check_views(engine, state)
        seat = state.decision.seat
        action = players[seat].choose(engine.view(state, seat), engine.legal_actions(state), seat)
        engine.apply(state, engine.parse_action(action.to_json()))
    assert offered > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_every_engine_declares_its_actions_and_prompts_in_json_schema(game_id):
    engine = registry.get(game_id).engine
    schema = engine.action_schema
    assert [spec["type"] for spec in schema] == sorted({spec["type"] for spec in schema}, key=[
        spec["type"] for spec in schema].index)
    for spec in schema:
        seat = spec["fields"]["seat"]
        assert seat == {"type": "string", "required": True, "enum": seat["enum"]}
        assert set(engine.seats) <= set(spec["fields"]["seat"]["enum"])
    prompts = engine.prompt_schemas
    assert set(prompts) <= set(engine.decision_kinds)
    for kind, prompt in prompts.items():
        jsonschema.Draft202012Validator.check_schema(prompt)
        assert prompt["type"] == "object" and prompt["additionalProperties"] is False, kind


def test_the_war_keeps_its_deprecated_root_legal_actions_for_one_release():
    engine = registry.get("the-war").engine
    catalog, setup = engine.example(2)
    state = engine.new_game(catalog, setup)
    seat = state.decision.seat
    other = next(s for s in engine.seats if s != seat)
    mine, theirs = engine.view(state, seat), engine.view(state, other)
    assert mine["legal_actions"] == mine["decision"]["legal_actions"] != []
    assert theirs["legal_actions"] == [] and "legal_actions" not in theirs["decision"]
    assert engine.public_view(state)["legal_actions"] == []
