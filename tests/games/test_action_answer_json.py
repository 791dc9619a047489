"""An action POST answers the JSON DRF's JSONRenderer makes of its entries and its seat's view, spliced from
encoded parts (issue 26), byte for byte the view a fresh process builds from the stored row; once its write
has committed, the encoded seat part it built is kept for the row it wrote (games.fastpath.hot_state), so
the seat's next GET .../view/ neither reads nor decodes the state. A card's encoded definition is kept per
frozen catalog; the cards a view describes are still only the codes it shows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.renderers import JSONRenderer

from games import selectors
from games.fastpath import answers, hot_state
from games.game_types import get_game_type
from games.models import Game, GameSeat
from tests.games.test_battlefront_api import create_bf


def afresh(gid: str, seat: str) -> bytes:
    """The seat's view built from the stored row alone (no process memory), rendered by DRF."""
    user = GameSeat.objects.get(game_id=gid, seat=seat).user
    game = selectors.game_get(game_id=gid, user=user, columns=("state",))
    payload = selectors.seat_view_payload(game=game, seat=seat, state=selectors.game_state(game=game))
    return JSONRenderer().render(payload)


def _post(client: Any, gid: str, view: dict[str, Any], **extra: Any) -> Any:
    body = {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]}
    response = client.post(f"/api/games/{gid}/actions/", body, format="json", **extra)
    assert response.status_code == 200, response.content
    return response


@pytest.mark.django_db(transaction=True)  # the answer's seat part is kept once the write has committed
def test_the_answer_is_the_view_built_afresh_and_the_next_get_finds_it_kept(
    create_game, api, alice, django_assert_num_queries
):
    hot_state.clear()
    client = api(alice)
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    view = client.get(f"/api/games/{gid}/view/").json()
    for _ in range(8):
        if view["status"] != "active":
            break
        last_seq = view["last_seq"]
        response = _post(client, gid, view)
        assert response["Content-Type"] == "application/json"
        answer = response.json()
        assert list(answer) == ["entries", "state"]
        assert response.content == JSONRenderer().render(answer)  # DRF's bytes of the same data
        state_json = JSONRenderer().render(answer["state"])
        assert state_json == afresh(gid, "allies")
        events = client.get(f"/api/games/{gid}/events/?since={last_seq}").json()
        assert answer["entries"] == events["entries"]  # the log as this seat may see it
        # The seat part was kept for the row written: the GET reads the token and the game with its seats
        # (not its state column), decodes no state, and answers the same bytes.
        game = Game.objects.get(pk=gid)
        assert hot_state.kept_seat_json(game, "allies") is not None
        assert hot_state.cached_state(game) is None
        with django_assert_num_queries(2) as captured:
            again = client.get(f"/api/games/{gid}/view/")
        assert '"state"' not in captured.captured_queries[1]["sql"]
        assert again.content == state_json
        assert hot_state.cached_state(game) is None
        view = answer["state"]


@pytest.mark.django_db(transaction=True)
def test_a_kept_seat_part_serves_only_its_seat_and_its_row(create_game, api, alice, bob):
    """bob's seat is not kept by alice's POST (his view is built from the row), and a newer row misses."""
    hot_state.clear()
    gid = create_game(alice)["id"]
    assert api(bob).post(f"/api/games/{gid}/join/").status_code == 200
    clients = {"allies": api(alice), "axis": api(bob)}
    views = {seat: c.get(f"/api/games/{gid}/view/").json() for seat, c in clients.items()}
    hot_state.clear()
    mover = next(seat for seat, v in views.items() if v["your_turn"])
    other = "axis" if mover == "allies" else "allies"
    _post(clients[mover], gid, views[mover])
    game = Game.objects.get(pk=gid)
    assert hot_state.kept_seat_json(game, mover) is not None
    assert hot_state.kept_seat_json(game, other) is None
    for seat, client in clients.items():
        assert client.get(f"/api/games/{gid}/view/").content == afresh(gid, seat)
    resigned = clients[other].post(f"/api/games/{gid}/resign/")
    assert resigned.status_code == 200
    for seat, client in clients.items():  # the row changed: nothing of the older row is served
        assert client.get(f"/api/games/{gid}/view/").content == afresh(gid, seat)


@pytest.mark.django_db
def test_nothing_is_kept_for_a_write_that_has_not_committed(create_game, api, alice):
    """Inside the test's own transaction the write never commits: the answer is the same, nothing is kept."""
    hot_state.clear()
    client = api(alice)
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    view = client.get(f"/api/games/{gid}/view/").json()
    answer = _post(client, gid, view).json()
    assert JSONRenderer().render(answer["state"]) == afresh(gid, "allies")
    assert hot_state.kept_seat_json(Game.objects.get(pk=gid), "allies") is None


@pytest.mark.django_db
def test_an_indented_answer_is_rendered_by_drf_as_before(create_game, api, alice):
    client = api(alice)
    gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    view = client.get(f"/api/games/{gid}/view/").json()
    response = _post(client, gid, view, HTTP_ACCEPT="application/json; indent=2")
    assert response.content.startswith(b'{\n  "entries": [')
    assert JSONRenderer().render(response.json()["state"]) == afresh(gid, "allies")


def _reference_card_codes(view: Any) -> set[str]:
    """The card_codes walk as it was before issue 26's rewrite (a stack of generators)."""
    codes: set[str] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            code = item.get("code")
            if isinstance(code, str):
                codes.add(code)
            stack.extend(v for v in item.values() if isinstance(v, dict | list))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, dict | list))
    return codes


def test_card_codes_finds_the_string_codes_of_dicts_at_any_depth_only():
    kind = get_game_type("battlecards")
    view = {
        "code": "top",
        "hand": [{"code": "a"}, {"code": 7}, [{"code": "b", "inner": {"code": "c"}}], ("x", {"code": "t"})],
        "zones": {"deep": [[[{"code": "d"}]]], "code_name": "nope"},
        "text": "code",
    }
    assert kind.card_codes(view) == _reference_card_codes(view) == {"top", "a", "b", "c", "d"}
    assert kind.card_codes([]) == set() and kind.card_codes({"code": None}) == set()


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", ["battlecards", "battlefront"])
def test_the_cards_json_is_drfs_json_of_the_card_definitions_of_the_codes_shown(
    game_type, create_game, api, alice, monkeypatch
):
    client = api(alice)
    if game_type == "battlefront":
        gid = create_bf(client, opponent={"kind": "bot", "bot": "random"})["id"]
    else:
        gid = create_game(alice, opponent={"kind": "bot", "bot": "random"})["id"]
    game = selectors.game_get(game_id=gid, user=alice, columns=("state",))
    state, kind = selectors.game_state(game=game), get_game_type(game_type)
    seat = GameSeat.objects.get(game_id=gid, user=alice).seat
    view = kind.view(state, seat)
    expected = JSONRenderer().render(selectors.view_card_definitions(view, state.catalog, kind=kind))
    assert len(json.loads(expected)) > 0

    def cards_json(view: Any) -> bytes:
        return answers.view_cards_json(view, state.catalog, kind=kind, digest=game.snapshot_hash)

    assert cards_json(view) == expected
    # then from the encoded definitions kept for this catalog: no definition is built again
    monkeypatch.setattr(type(kind), "card_definitions", lambda *args: pytest.fail("built again"))
    assert cards_json(view) == expected
    monkeypatch.undo()
    assert cards_json({"hand": []}) == b"{}"
    unknown = {"hand": [{"code": "no-such-card"}]}
    assert cards_json(unknown) == b"{}"


@pytest.mark.parametrize(
    "body",
    [
        {"version": 0, "action": {"type": "pass"}},
        {"version": 12, "action": {"type": "play", "card": "x"}, "extra": 1},
        {"version": 3, "action": []},
        {"version": 3, "action": "pass"},
        {"version": 3, "action": 0},
        {"version": 3, "action": None},
        {"version": 3},
        {"action": {"type": "pass"}},
        {"version": -1, "action": {"type": "pass"}},
        {"version": True, "action": {"type": "pass"}},
        {"version": "7", "action": {"type": "pass"}},
        {"version": 7.0, "action": {"type": "pass"}},
        {"version": None, "action": {"type": "pass"}},
        [],
        "text",
        None,
    ],
)
def test_the_action_input_is_the_serializers_validated_data_or_its_error(body):
    from rest_framework.exceptions import ValidationError

    from config.api_input import validated_input
    from games.fastpath import action_input
    from games.serializers import ActionSubmitSerializer

    try:
        expected: Any = dict(validated_input(ActionSubmitSerializer, body))
    except ValidationError as exc:
        expected = exc.detail
    try:
        got: Any = action_input(body, ActionSubmitSerializer)
    except ValidationError as exc:
        got = exc.detail
    assert got == expected
    assert type(got) is type(expected)
