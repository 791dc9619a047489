"""Issue 38 item 3: a lobby per game. Each game's fields are marked for it (lobby.js hides the others; without
JavaScript every field still works), the rules options are form fields with the JSON box an advanced option,
and a refusal comes back on the form, the form kept, in the site's words."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game

pytestmark = pytest.mark.django_db


def _selected(page: str, name: str) -> str | None:
    select = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', page, re.S)
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else None


def test_a_refused_game_is_the_lobby_again_with_the_form_kept_and_the_reason_in_the_sites_words(
    client, alice, catalog_rows
):
    client.force_login(alice)
    sent = {"game_type": "battlecards", "opponent": "bot", "bot": "random",
            "my_deck": "starter:de-ef-starter", "opponent_deck": "starter:de-we-starter",
            "time_control": "realtime", "minutes": "7", "spectators": "no", "rated": "on"}
    response = client.post("/play/new/", sent)
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert 'id="new-game"' in page  # the form, not a dead end
    assert "These two nations fight in more than one theater (Eastern Front and Western Europe)" in page
    assert "conflict.theater" not in page and "['EF', 'WE']" not in page
    for name in ("game_type", "my_deck", "opponent_deck", "time_control", "spectators", "bot"):
        assert _selected(page, name) == sent[name], name
    assert 'name="minutes" type="number" min="1" value="7"' in page
    assert re.search(r'<input type="checkbox" name="rated" checked>', page)
    assert not Game.objects.exists()
    sent["theater"] = "EF"  # a theater the words name: the next reason, still on the form
    page = html.unescape(client.post("/play/new/", sent).content.decode())
    assert "Both decks fight for the axis" in page and "within 10" not in page
    assert _selected(page, "theater") == "EF"
    sent["opponent_deck"] = "starter:ru-starter"
    assert client.post("/play/new/", sent).status_code == 302


def test_an_illegal_deck_of_ones_own_is_refused_on_the_form_with_the_deck_still_chosen(
    client, alice, catalog_rows
):
    from decks.services import deck_create

    deck = deck_create(owner=alice, name="Thin", game="battlecards", nation="GB")
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "battlecards", "opponent": "bot", "bot": "random",
                                          "my_deck": f"deck:{deck.pk}",
                                          "opponent_deck": "starter:de-we-starter"})
    page = html.unescape(response.content.decode())
    assert response.status_code == 400 and 'id="new-game"' in page
    assert _selected(page, "my_deck") == f"deck:{deck.pk}"


def test_a_game_without_a_bot_is_refused_on_the_form(client, alice, catalog_rows):
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "tide-of-iron", "opponent": "bot"})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert 'id="new-game"' in page and "Tide of Iron: Strategy decks has no bot" in page
    assert _selected(page, "game_type") == "tide-of-iron"


class _Marked(HTMLParser):
    """{field name: the data-for of its nearest marked ancestor (None: shown for every game)}."""

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.stack: list[str | None] = []
        self.fields: dict[str, str | None] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        marked = attrs.get("data-for") or (self.stack[-1] if self.stack else None)
        if "name" in attrs and tag in ("input", "select", "textarea"):
            self.fields[attrs["name"]] = marked
        if tag not in self.VOID:
            self.stack.append(marked)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def test_each_games_fields_are_marked_for_it_and_the_json_box_is_advanced(client, alice, catalog_rows):
    client.force_login(alice)
    page = client.get("/play/").content.decode()
    form = page[page.index('id="new-game"'):page.index("</form>", page.index('id="new-game"'))]
    parser = _Marked()
    parser.feed("<form " + form)
    assert parser.fields == {
        "csrfmiddlewaretoken": None, "game_type": None, "opponent": None, "time_control": None,
        "minutes": None, "increment_seconds": None, "days": None, "rated": None, "spectators": None,
        "spectator_delay": None, "options": None,  # every game's
        "bot": "battlecards battlefront the-war",
        "opt_bots_accept_takebacks": "battlecards battlefront the-war",
        "my_deck": "battlecards", "opponent_deck": "battlecards", "theater": "battlecards",
        "opt_larger_standing_armies": "battlecards", "opt_occupying_force": "battlecards",
        "opt_two_front_victory": "battlefront", "opt_blitzkrieg_attacker": "battlefront",
        "opt_special_west": "battlefront", "opt_special_east": "battlefront",
        "war_p1": "the-war", "war_p2": "the-war", "opt_casual": "the-war", "scenario": "tide-of-iron",
    }
    assert re.search(r'<option value="bot" data-for="battlecards battlefront the-war"', form)  # no bot: ToI
    assert re.search(r"<details[^>]*><summary>Advanced: rules options as JSON</summary>", form)
    assert 'src="/static/web/lobby.js"' in page


def test_the_option_fields_become_the_games_options(client, alice, catalog_rows):
    client.force_login(alice)
    client.post("/play/new/", {"game_type": "battlecards", "opponent": "bot", "bot": "random",
                               "my_deck": "starter:gb-we-starter", "opponent_deck": "starter:de-we-starter",
                               "opt_occupying_force": "on", "opt_casual": "on",
                               "opt_two_front_victory": "on"})
    client.post("/play/new/", {"game_type": "battlefront", "opponent": "bot", "bot": "random",
                               "opt_two_front_victory": "on", "opt_blitzkrieg_attacker": "east",
                               "opt_special_west": "GB", "opt_special_east": "RU",
                               "opt_occupying_force": "on", "options": '{"two_front_victory": false}'})
    client.post("/play/new/", {"game_type": "the-war", "opponent": "bot", "bot": "random", "opt_casual": "on",
                               "war_p1": "tw-starter-red-army", "war_p2": "tw-starter-wehrmacht"})
    games = {g.game_type: g.options for g in Game.objects.all()}
    assert games["battlecards"]["occupying_force"] is True  # another game's field is ignored
    assert "casual" not in games["battlecards"] and "two_front_victory" not in games["battlecards"]
    assert games["battlefront"]["blitzkrieg_attacker"] == "east"
    assert games["battlefront"]["special_cards"] == {"west": "GB", "east": "RU"}
    assert games["battlefront"]["two_front_victory"] is False  # the advanced box has the last word
    assert games["the-war"]["casual"] is True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=30))
def test_any_advanced_box_text_is_a_game_or_the_form_with_a_reason(text, client, alice, catalog_rows):
    client.force_login(alice)
    response = client.post("/play/new/", {"game_type": "battlefront", "opponent": "bot", "bot": "random",
                                          "options": text})
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        page = response.content.decode()
        assert 'id="new-game"' in page and 'role="alert"' in page


def test_the_wars_armies_are_named_in_the_deck_form(client, alice, catalog_rows):
    client.force_login(alice)
    page = client.get("/decks/new/").content.decode()
    assert ">Red Army (The War)<" in page and ">Wehrmacht (The War)<" in page
    assert ">red-army (The War)<" not in page


def test_a_the_war_deck_names_its_game_and_army_on_its_page_and_in_the_list(client, alice, catalog_rows):
    client.force_login(alice)
    deck = client.post("/decks/starters/tw-starter-red-army/clone/")["Location"]
    page = client.get(deck).content.decode()
    assert re.search(r"<small>The War · Red Army · version 1", page)
    listed = client.get("/decks/").content.decode()
    assert "<td>The War</td><td>Red Army</td>" in listed and "<td>red-army</td>" not in listed
    client.post("/decks/starters/gb-we-starter/clone/")
    listed = client.get("/decks/").content.decode()
    assert re.search(r"<td>Battlecards</td><td>[A-Z][a-z]+[^<]*</td>", listed) and "<td>GB</td>" not in listed


def _light_deck(owner, starter: str, name: str, cards: int = 40):
    """A legal deck of 40 (or `cards`) cards of the starter's nation: the starter less its dearest cards
    (far fewer points than any starter: the deck the issue could not play against any starter)."""
    from decks.selectors import catalog, starter_entries, starter_get
    from decks.services import deck_create

    cat = catalog()
    card_set = starter_get(code=starter, cat=cat)
    entries = dict(starter_entries(card_set, cat))
    while sum(entries.values()) > cards:
        dearest = max((c for c in entries if not cat.arsenal[c].is_single_copy),
                      key=lambda c: cat.arsenal[c].points)
        entries[dearest] -= 1
        entries = {code: n for code, n in entries.items() if n}
    return deck_create(owner=owner, name=name, game="battlecards", nation=card_set.nation, entries=entries)


def _hint(page: str) -> tuple[list[str], list[str]]:
    """The hint's decks: (for the player, for the opponent), by their form values."""
    section = re.search(r'<section class="hint matchup-hint".*?</section>', page, re.S).group(0)
    mine = re.findall(r'data-choose="my-deck" data-value="([^"]+)"', section)
    theirs = re.findall(r'data-choose="opponent-deck" data-value="([^"]+)"', section)
    return mine, theirs


def test_decks_too_far_apart_come_back_with_the_decks_within_the_matchup_rule(client, alice, catalog_rows):
    """Issue 38 item 3: a 40-card deck against a starter breaks the matchup rule; the lobby, form kept, lists
    the player's decks (his own and the starters) that may play the opponent's deck, and the decks the bot
    may be given against the player's; each one listed is a game the lobby then creates."""
    light_gb = _light_deck(alice, "gb-we-starter", "Light British", cards=41)
    light_de = _light_deck(alice, "de-we-starter", "Light German")
    client.force_login(alice)
    sent = {"game_type": "battlecards", "opponent": "bot", "bot": "random", "theater": "WE",
            "my_deck": f"deck:{light_gb.pk}", "opponent_deck": "starter:de-we-starter"}
    response = client.post("/play/new/", sent)
    page = html.unescape(response.content.decode())
    assert response.status_code == 400 and "within 10 points" in page
    assert _selected(page, "my_deck") == sent["my_deck"]
    assert _selected(page, "opponent_deck") == sent["opponent_deck"]
    mine, theirs = _hint(page)
    assert "starter:gb-we-starter" in mine and sent["my_deck"] not in mine  # two starters always may
    assert f"deck:{light_de.pk}" in theirs  # the bot may be given the player's own light German deck
    assert "starter:de-we-starter" not in theirs
    for changed in ({"my_deck": mine[0]}, {"opponent_deck": f"deck:{light_de.pk}"}):
        assert client.post("/play/new/", sent | changed).status_code == 302, changed
    assert Game.objects.count() == 2


def test_no_hint_when_the_refusal_is_not_the_matchup_rule(client, alice, catalog_rows):
    client.force_login(alice)
    sent = {"game_type": "battlecards", "opponent": "bot", "bot": "random", "theater": "EF",
            "my_deck": "starter:de-ef-starter", "opponent_deck": "starter:de-we-starter"}
    page = client.post("/play/new/", sent).content.decode()
    assert "Both decks fight for the axis" in html.unescape(page) and "matchup-hint" not in page
