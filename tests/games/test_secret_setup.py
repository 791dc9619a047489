"""Issue 12: the set-up deployment is secret through the API ("Secretly look at your hands, and Deploy 3").

The German seat deploys first, but the British player, before he commits his own set-up cards, sees nothing
of the German choices: no stack size, no event, the German seat still shown as dealt (6 cards in hand).
"""

from __future__ import annotations

import pytest

from tests.games.conftest import DE, GB, HiddenInfoOracle

pytestmark = pytest.mark.django_db


def test_the_second_seat_sees_nothing_of_the_first_seats_setup_before_committing_his_own(
    create_game, api, alice
):
    # alice plays the British (allies, second to deploy) against a German bot that deploys at creation
    game = create_game(alice, my_deck={"starter": GB}, opponent_deck={"starter": DE},
                       opponent={"kind": "bot", "bot": "heuristic"})
    gid = game["id"]
    client = api(alice)
    view = client.get(f"/api/games/{gid}/view/").json()
    assert view["your_turn"] and view["view"]["decision"]["kind"] == "initial_deploy"
    opponent = view["view"]["opponent"]
    assert opponent["stacks"] == {"ground": [0], "air": [0], "sea": [0]} and opponent["hand_size"] == 6
    legal = view["view"]["decision"]["legal_actions"]
    mine = {c["id"] for c in view["view"]["me"]["hand"]}
    assert legal and all(a["card"] in mine for a in legal)  # only her own cards
    entries = client.get(f"/api/games/{gid}/events/").json()["entries"]
    german = [e for e in entries if e["seat"] == "axis"]
    assert german and all(e["action"] is None and e["events"] == [] for e in german)
    HiddenInfoOracle(gid).check({"view": view, "entries": entries}, "allies")

    for _ in range(3):  # she commits her three set-up cards: then both set-ups are revealed together
        view = client.get(f"/api/games/{gid}/view/").json()
        if view["view"]["decision"]["kind"] != "initial_deploy" or not view["your_turn"]:
            break
        action = view["view"]["decision"]["legal_actions"][0]
        response = client.post(f"/api/games/{gid}/actions/", {"version": view["version"], "action": action},
                               format="json")
        assert response.status_code == 200, response.json()
    entries = client.get(f"/api/games/{gid}/events/").json()["entries"]
    revealed = [ev for e in entries for ev in e["events"] if ev["type"] == "setup_revealed"]
    assert len(revealed) == 1 and revealed[0]["visible_to"] == "all"
    assert sum(sum(sizes) for sizes in revealed[0]["data"]["stacks"]["axis"].values()) == 3
