"""Games stored before issue 22 keep working: their logs hold the string-encoded `choose` options
("give:<army>", "trade:<army>:<card>", "seats:<army>", a stack ref as the option), which the engine's action
decoder still reads (battlecards.actions.Choose.from_legacy). `manage.py verify_games` replays such a game to
its stored state, and a client still sending the old form is understood (its action is stored in the new)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from games import engine
from games.models import Game, GameAction, LogKind
from games.services import game_rebuild_state
from tests.games.test_team_games import army, create, team_body

pytestmark = pytest.mark.django_db

OLD_TEAM_FORMS = {"give", "trade", "seats"}


def old_form(action: dict[str, Any]) -> dict[str, Any]:
    """An action's JSON as the engine wrote it before issue 22 (the typed choose fields packed into the
    option string)."""
    if action["type"] != "choose" or not ({"army", "card", "stack"} & set(action)):
        return action
    if action["option"] == "stack":
        option = action["stack"]
    else:
        option = ":".join([action["option"], action["army"], *([action["card"]] if "card" in action else [])])
    return {"type": "choose", "seat": action["seat"], "option": option}


def _team_game(api: Any, alice: Any) -> Game:
    body = team_body([army("DE"), army("DE")], [army("GB", "me"), army("GB")], options={"max_turns": 10})
    return Game.objects.get(pk=create(api(alice), body)["id"])


def _append_old_log(game: Game, plies: int) -> set[str]:
    """Go on with the game for `plies` engine actions of random bots, written to its log in the old form as
    a server before issue 22 stored them; returns the old option forms written."""
    state = game_rebuild_state(game=game)
    bots = {seat: engine.RandomBot(salt=seat) for seat in state.armies}
    rows, forms = [], set()
    while state.status == "active" and len(rows) < plies:
        seat = state.decision.seat
        action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state), seat)
        new = action.to_json()
        stored = old_form(new)
        if stored is not new:
            forms.add(stored["option"].partition(":")[0])
        engine.apply(state, stored)  # the engine reads the old form
        game.last_seq += 1
        game.version += 1
        rows.append(GameAction(game=game, seq=game.last_seq, kind=LogKind.ACTION, seat=seat, by_bot=True,
                               action=stored, events=[], version=game.version))
    GameAction.objects.bulk_create(rows)
    game.state, game.ply, game.turn = state.to_json(), state.ply, state.turn
    game.current_seat = state.decision.seat if state.decision else ""
    game.save()
    return forms


def test_verify_games_passes_on_a_game_stored_in_the_old_action_form(catalog_rows, api, alice):
    game = _team_game(api, alice)
    forms = _append_old_log(game, 400)
    assert forms >= OLD_TEAM_FORMS  # the log holds every old team-play form
    stored = [row.action for row in GameAction.objects.filter(game=game, kind=LogKind.ACTION)]
    assert any(a.get("option", "").startswith("trade:") for a in stored)
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()


def test_an_old_form_action_is_accepted_and_stored_in_the_new_form(catalog_rows, api, alice, fixed_salt):
    game = _team_game(api, alice)
    client = api(alice)
    for _ in range(200):
        payload = client.get(f"/api/games/{game.pk}/view/").json()
        legal = payload["view"]["decision"].get("legal_actions") or []
        trades = [a for a in legal if a["type"] == "choose" and a.get("option") == "trade"]
        if trades:
            break
        assert payload["your_turn"] and legal, payload["view"]["decision"]
        action = next((a for a in legal if a["type"] == "draw"), legal[0])  # keep the reserve hand
        response = client.post(f"/api/games/{game.pk}/actions/", {"version": payload["version"],
                                                                   "action": action}, format="json")
        assert response.status_code == 200, response.json()
    else:
        pytest.fail("no reserve trade offered")
    trade = trades[0]
    sent = {"version": payload["version"], "action": old_form(trade)}
    assert sent["action"]["option"] == f"trade:{trade['army']}:{trade['card']}"
    response = client.post(f"/api/games/{game.pk}/actions/", sent, format="json")
    assert response.status_code == 200, response.json()
    row = GameAction.objects.filter(game=game, seat="allies-1", kind=LogKind.ACTION).order_by("seq").last()
    assert row.action == trade  # stored in the new, typed form
