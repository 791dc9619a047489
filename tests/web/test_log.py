"""Issue 38 §3: a readable log on the play, watch and replay pages: card names instead of instance ids,
"you" and the other players' names instead of seat ids, no True/False/None, keyboard-focusable."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.games.conftest import HiddenInfoOracle
from tests.web.test_play import _decision_buttons, _tokens
from web import play

LOG = re.compile(r'<ol class="log" reversed tabindex="0" aria-labelledby="h-log">(.*?)</ol>', re.S)
RAW = re.compile(r"\b(c\d+|p\d\.\d+|True|False|None)\b|\bseat\b|\b(axis|allies|west|east|p1|p2)\b")


def _log(page: str) -> str:
    found = LOG.search(page)
    assert found, "the log is not a focusable, labelled list"
    return re.sub(r"<[^>]+>", " ", found.group(1))


def _play_against_the_bot(client, user, game_type: str, moves: int = 12) -> str:
    client.force_login(user)
    body = {"game_type": game_type, "opponent": "bot", "bot": "random", "spectators": "yes"}
    if game_type == "battlecards":
        body |= {"my_deck": "starter:gb-we-starter", "opponent_deck": "starter:de-we-starter"}
    url = client.post("/play/new/", body)["Location"]
    for _ in range(moves):
        buttons = _decision_buttons(client.get(url).content.decode())
        if not buttons:
            break
        # a card played when one may be (the bot's own play follows the game's secret salt: it may only pass)
        version, action = next((b for b in buttons if '"pass"' not in b[1]), buttons[0])
        client.post(f"{url}act/", {"version": version, "action": action})
    return url.strip("/").split("/")[-1]


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", ["battlecards", "battlefront", "the-war"])
def test_the_log_names_cards_and_players_in_words(client, alice, carol, catalog_rows, game_type):
    gid = _play_against_the_bot(client, alice, game_type)
    page = client.get(f"/play/{gid}/").content.decode()
    words = _log(page)
    assert "you" in words and "the random bot" in words
    assert not RAW.search(words), RAW.search(words).group(0)
    assert re.search(r"card [A-Z]", words)  # a card by its name
    if game_type == "battlecards":
        assert HiddenInfoOracle(gid).check(sorted(_tokens(page)), "allies") > 0
    client.force_login(carol)
    watched = _log(client.get(f"/play/{gid}/watch/").content.decode())
    assert "alice" in watched and "you" not in watched.split()
    assert not RAW.search(watched), RAW.search(watched).group(0)


SEATS = ["axis", "allies", "allies-2"]
IDS = st.builds("c{}".format, st.integers(0, 999)) | st.builds(
    "p{}.{}".format, st.integers(1, 2), st.integers(0, 60)
)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(0, 99) | st.sampled_from(SEATS) | IDS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from([*SEATS, "k"]), inner, max_size=3),
    max_leaves=8,
)


@given(st.dictionaries(st.sampled_from(["seat", "card", "unit", "cards", "hit", "target", "forces"]), VALUES))
def test_no_event_shows_an_instance_id_a_seat_id_or_a_python_literal(data):
    who = {"axis": "you", "allies": "bob", "allies-2": "the random bot"}
    (line,) = play.log_lines([{"seq": 1, "events": [{"type": "shot", "data": data}]}], {}, who=who)
    text = f"{line['who']} {line['words']}"
    assert not RAW.search(text), (data, text)
