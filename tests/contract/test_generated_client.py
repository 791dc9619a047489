"""A client generated from the live schema (openapi-python-client) plays a whole game against the bot.

The client is generated during the test from /api/schema/ of a live server, so it proves the schema as it
is now: typed answers are parsed into its models (a parse failure is an error, never a silent None), and
every action it sends is one of the legal actions its typed view listed.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import urllib.request

import pytest

from games.models import Game

MAX_ACTIONS = 3000


@pytest.fixture
def generated_client(live_server, tmp_path, monkeypatch):
    schema = tmp_path / "schema.json"
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json", timeout=120) as response:  # noqa: S310
        schema.write_bytes(response.read())
    config = tmp_path / "config.yaml"
    config.write_text("post_hooks: []\nproject_name_override: bc_generated_client\n")
    generated = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--url",
            f"{live_server.url}/api/schema/?format=json",
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(tmp_path / "bc_generated_client"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout[-3000:] + generated.stderr[-3000:]
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m.startswith("bc_generated_client")]:
        del sys.modules[name]
    return importlib.import_module("bc_generated_client")


def _api(package: str, name: str):
    return importlib.import_module(f"bc_generated_client.api.{package}.{name}")


@pytest.mark.slow  # `make test-fast` leaves it out (a whole game)
@pytest.mark.django_db(transaction=True)
def test_a_generated_client_plays_a_whole_game_against_the_bot(generated_client, live_server, catalog_rows):
    models = importlib.import_module("bc_generated_client.models")
    anonymous = generated_client.Client(base_url=live_server.url, raise_on_unexpected_status=True)
    credentials = models.RegisterInputRequest(username="generated", password="Generated-pass-1944")
    registered = _api("auth", "auth_register_create").sync(client=anonymous, body=credentials)
    assert isinstance(registered, models.RegisterOutput), registered
    token = _api("auth", "auth_token_create").sync(
        client=anonymous,
        body=models.TokenInputRequest(username="generated", password="Generated-pass-1944"),
    )
    assert isinstance(token, models.TokenOutput), token
    client = generated_client.AuthenticatedClient(
        base_url=live_server.url, token=token.token, prefix="Token", raise_on_unexpected_status=True
    )

    create = models.GameCreateRequest.from_dict(
        {
            "my_deck": {"starter": "gb-we-starter"},
            "opponent_deck": {"starter": "de-we-starter"},
            "opponent": {"kind": "bot", "bot": "random"},
            "seed": 1943,
            # random choices on both sides make long games (65 to 243 turns in self-play) of the same
            # typed answers: it ends on points after 30 turns (the rules' termination guard) or earlier
            "options": {"max_turns": 30},
        }
    )
    game = _api("games", "games_create").sync(client=client, body=create)
    assert isinstance(game, models.Game), game
    page = _api("games", "games_list").sync(client=client)
    assert isinstance(page, models.PaginatedGameList) and page.count == 1
    assert page.results[0].id == game.id

    rng = random.Random(11)
    view_api, act_api = _api("games", "games_view_retrieve"), _api("games", "games_actions_create")
    decision_kinds, actions = set(), 0
    state = view_api.sync(game.id, client=client)
    while actions < MAX_ACTIONS:
        assert isinstance(state, models.SeatView), state
        if state.status == models.GameStatusEnum.FINISHED:
            break
        assert state.your_turn  # the bot moves inside our requests, so the game waits on us
        decision = state.view.decision
        decision_kinds.add(type(decision).__name__)
        chosen = rng.choice(decision.legal_actions)  # a typed action (e.g. DeployAction)
        body = models.ActionSubmitRequest.from_dict({"version": state.version, "action": chosen.to_dict()})
        result = act_api.sync(game.id, client=client, body=body)
        assert isinstance(result, models.ActionResult), result
        actions += 1
        state = result.state
    assert state.status == models.GameStatusEnum.FINISHED, actions
    assert len(decision_kinds) >= 4, decision_kinds

    finished = _api("games", "games_retrieve").sync(game.id, client=client)
    assert isinstance(finished, models.Game) and finished.status == models.GameStatusEnum.FINISHED
    events = _api("games", "games_events_retrieve").sync(game.id, client=client)
    assert isinstance(events, models.EventsPage) and events.entries
    stored = Game.objects.get(pk=game.id)
    assert stored.status == "finished" and stored.finished_at is not None
