"""Issue 38 item 3 in the browser: decks too far apart for the matchup rule come back on the lobby's form with
the decks within the rule; a click on one chooses it in its select and the game is then created. axe-core
finds nothing serious on the lobby with the hint."""

from __future__ import annotations

from tests.web.test_axe import AXE, RUN_AXE
from tests.web.test_in_browser import PASSWORD, in_browser, site, sync_api  # noqa: F401 (fixtures)
from tests.web.test_in_browser import pytestmark as browser_marks
from tests.web.test_lobby import _light_deck

pytestmark = browser_marks


def test_the_lobby_hints_the_decks_within_the_matchup_rule_and_a_click_chooses_one(
    in_browser, django_db_blocker  # noqa: F811 (the fixture)
):
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock():
        user = get_user_model().objects.create_user(username="browser-hinted", password=PASSWORD)
        _light_deck(user, "gb-we-starter", "Light British", cards=41)
        _light_deck(user, "de-we-starter", "Light German")

    def steps(page):
        page.context.add_init_script(script=AXE)
        page.goto("/accounts/login/")
        page.get_by_label("Username").fill("browser-hinted")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("button", name="Log out").wait_for()
        page.goto("/play/")
        page.get_by_label("Your deck (Battlecards)").select_option(label="Light British (GB)")
        page.get_by_role("button", name="Create the game").click()
        page.get_by_role("alert").wait_for()
        hint = page.get_by_role("region", name="Decks within the matchup rule")
        assert "within 10 points" in page.get_by_role("alert").inner_text()
        assert "British Starter Deck (Western Europe)" in hint.inner_text()  # a starter he may play instead
        axe = page.evaluate(RUN_AXE)
        opponent = page.locator("#opponent-deck")
        assert opponent.input_value() == "starter:de-we-starter"  # the form as it was sent
        hint.get_by_role("button", name="Choose your deck Light German (DE) for the opponent").click()
        sync_api.expect(opponent).to_be_focused()
        assert opponent.evaluate("s => s.selectedOptions[0].textContent") == "your deck Light German (DE)"
        page.get_by_role("button", name="Create the game").click()
        page.locator("#board .board").wait_for()  # the game against the bot, with the bot's deck chosen
        return axe

    axe = in_browser(steps)
    assert axe["passed"] > 5 and not axe["violations"], axe["violations"]
