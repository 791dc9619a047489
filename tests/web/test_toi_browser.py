"""Issue 38, done-when: Tide of Iron between two pages, in Debian's headless Chromium: two people, each at his
own page (two browser contexts), refereed through every decision kind the referee asks of a new match, to
`end_match` confirmed on the other page, and the end in words on both pages.

Only the pages' controls are used (buttons, the report forms); each page learns the other's moves from the
game's stream by itself. The deal is fixed (`fixed_deal`): the HQ areas and the dice are the same each run."""

from __future__ import annotations

import time

from games.engine.tide_of_iron.rules import DECISION_KINDS
from games.engine.tide_of_iron.setup import LEGACY_REVISION, RULES_REVISION
from tests.web.test_in_browser import click_and_wait, in_browser, sign_up, site, sync_api  # noqa: F401
from tests.web.test_in_browser import pytestmark as browser_marks

pytestmark = browser_marks

# `target` (the whole hex in one step) is asked at LEGACY_REVISION only: a new match is played under
# RULES_REVISION, which asks target_column, then target_row (games/engine/tide_of_iron/README.md)
LEGACY_ONLY = {"target"}


def decision(page, kind: str):
    """The page's decision of that kind, once the page draws it (the stream redraws the other page)."""
    shown = page.locator(f'#board .decision ul.actions[data-decision="{kind}"]')
    shown.wait_for()
    return shown


def click(page, kind: str, label: str, seen: set[str]) -> None:
    """Click the button of the page's `kind` decision named `label`, and wait for the board drawn after."""
    seen.add(kind)
    click_and_wait(page, decision(page, kind).get_by_role("button", name=label, exact=True))
    sync_api.expect(page.locator("#board .error[role=alert]")).to_have_count(0)


def report(page, kind: str, fields: dict[str, str], seen: set[str]) -> None:
    """Fill in one of the act decision's report forms (the physical board's units, cover, command points)."""
    decision(page, "act")
    seen.add("act")
    form = page.locator(f'#board form[data-report="{kind}"]')
    for label, value in fields.items():
        field = form.get_by_label(label, exact=True)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    click_and_wait(page, form.get_by_role("button", name="Report"))
    sync_api.expect(page.locator("#board .error[role=alert]")).to_have_count(0)


def test_tide_of_iron_between_two_pages_through_every_decision_kind_to_end_match(
    in_browser, fixed_deal, django_db_blocker  # noqa: F811 (the fixture)
):
    seen: set[str] = set()

    def steps(allies, axis):
        started = time.monotonic()
        sign_up(allies, "browser-toi-allies")  # the creator plays allies, who moves first
        allies.goto("/play/")
        allies.get_by_label("Game", exact=True).select_option("tide-of-iron")
        allies.get_by_label("Tide of Iron: scenario").select_option(label="Artillery duel")
        allies.get_by_role("button", name="Create the game").click()
        allies.get_by_role("heading", name="Waiting for an opponent").wait_for()
        sign_up(axis, "browser-toi-axis")
        axis.goto("/play/")
        row = axis.get_by_role("row").filter(has_text="browser-toi-allies")
        row.get_by_role("button", name="Join").click()
        axis.locator("#board .board-tide-of-iron").wait_for()
        allies.locator("#board .board-tide-of-iron").wait_for()  # the waiting page opened the match itself
        assert not allies.locator(".rating").count()  # a refereed match moves no rating: none shown

        # command points: a report the other player confirms on his page
        report(allies, "report_command", {"Command points": "6"}, seen)
        allies.get_by_text("A report waits for the other player's confirmation").wait_for()
        decision(axis, "confirm")
        axis.get_by_text("browser-toi-allies reported 6 command points (the referee had 0).").wait_for()
        click(axis, "confirm", "confirm", seen)
        sync_api.expect(allies.locator(".toi-sides tbody tr").first).to_contain_text("6")

        # the board as it stands on the table: taken at once
        report(allies, "place_unit", {"Unit label": "A1", "Hex (column,row)": "8,4", "Side": "allies",
                                      "Kind": "squad", "Officer in the squad": "yes"}, seen)
        report(allies, "place_unit", {"Unit label": "G1", "Hex (column,row)": "10,4", "Side": "axis",
                                      "Kind": "squad"}, seen)
        report(allies, "place_unit", {"Unit label": "X9", "Hex (column,row)": "2,2", "Side": "axis",
                                      "Kind": "vehicle"}, seen)
        report(allies, "remove_unit", {"Unit label": "X9"}, seen)
        report(allies, "set_cover", {"Hex (column,row)": "10,4", "Cover (defense dice)": "2"}, seen)
        units = allies.locator(".zone-board tbody")
        assert "G1" in units.inner_text() and "X9" not in units.inner_text()
        sync_api.expect(axis.locator("#board .decision")).to_have_count(0)  # the reports wait for nobody

        # a Strategy card with a target: its column, its row, the LOS (disputed: it counts as none)
        click(allies, "act", "activate · card: Strafing Run", seen)
        click(allies, "target_column", "target column · column: 10", seen)
        click(allies, "target_row", "target row · row: 4", seen)
        click(allies, "los", "los · los: officer", seen)
        axis.get_by_text("browser-toi-allies reported officer line of sight to hex 10,4 for Strafing Run.",
                         exact=False).wait_for()
        click(axis, "confirm", "dispute", seen)
        for page in (allies, axis):  # the dice are rolled only now, in the open: both logs show them
            page.locator(".log").get_by_text("drift roll").first.wait_for()
        sync_api.expect(allies.locator(".log")).to_contain_text("los none")

        # the phase's end: disputed once (the phase goes on, the disputing player decides), then confirmed
        click(axis, "act", "next phase", seen)
        click(allies, "confirm", "dispute", seen)
        click(allies, "act", "next phase", seen)
        click(axis, "confirm", "confirm", seen)
        sync_api.expect(axis.locator(".zone-counters")).to_contain_text("command")

        # the result of the match: reported, confirmed on the other page; the end says why on both
        click(allies, "act", "end match · result: allies", seen)
        axis.get_by_text("browser-toi-allies reported the result of the match: browser-toi-allies "
                         "won.").wait_for()
        click(axis, "confirm", "confirm", seen)
        axis.get_by_text("browser-toi-allies reported the result (browser-toi-allies won) and you "
                         "confirmed it.").wait_for()
        allies.get_by_text("You reported the result (you won) and browser-toi-axis confirmed it.").wait_for()
        for page in (allies, axis):
            assert page.locator("#board .decision").count() == 0
            assert page.get_by_role("link", name="Replay it").count() == 1
        return time.monotonic() - started

    took = in_browser(steps, users=2)
    assert RULES_REVISION != LEGACY_REVISION
    with django_db_blocker.unblock():
        from games.models import Game

        game = Game.objects.filter(created_by__username="browser-toi-allies").get()
        assert game.state["setup"]["revision"] == RULES_REVISION
        assert (game.status, game.winner, game.end_reason) == ("finished", "allies", "victory")
        assert game.result["confirmed_by"] == "axis"
    assert seen == set(DECISION_KINDS) - LEGACY_ONLY, seen
    print(f"Tide of Iron journey: {took:.1f} s")
