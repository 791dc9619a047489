"""Issue 39, done-when: the table's direct-manipulation controls only, in Debian's headless Chromium.

Battlefront a whole game against the bot (issue 28 §3's whole game by clicking, now by the table: it
replaces test_in_browser's); Battlecards and The War from a seeded near-end position to the end.
The player's moves are a heuristic bot's, planned ahead against the server's bot (tests/web/seeding.py: the
game follows the plan exactly);
the page reaches each planned action through the decision's steps: the lit card on the table (a unit, a
card in hand), then its targets, or the step's own control; never a whole-action list. At every step the
test counts the controls the decision shows: at most 15."""

from __future__ import annotations

import contextlib
import json
import time

import pytest

from tests.web.seeding import PASSWORD, seeded_game
from tests.web.test_in_browser import in_browser, site, sync_api  # noqa: F401
from tests.web.test_in_browser import pytestmark as browser_marks

pytestmark = browser_marks

MOST_CONTROLS = 15
CONTROLS = ".decision button:visible, .decision a:visible, .decision select:visible, .decision input:visible"


# the element clicked is still on the page and still the choice read (a card on the table, or a control)
STILL_THERE = """(e, f) => e.isConnected && (e.closest('details')
    ? e.parentElement.dataset.card === f.card
    : (e.form.querySelector('input[name=action]')?.value || '') === f.action
      && (e.form.querySelector('input[name=pick]')?.value || '') === f.pick)"""


def log_in(page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Log out").wait_for()


def redrawn(page, do) -> None:
    """Run `do()` (a click) and wait for the board the server draws after it (a step, or the next move)."""
    page.evaluate("() => { const b = document.querySelector('#board .board'); if (b) b.dataset.old = '1'; }")
    do()
    page.wait_for_function("() => { const b = document.querySelector('#board .board');"
                           " return b && !b.dataset.old; }")


def take(page, action: dict, counts: list[int], via_table: list[int]) -> None:
    """Reach `action` through the decision's steps and send it."""
    for _ in range(12):
        page.locator("#board .decision").wait_for()
        shown = page.locator(CONTROLS).count()
        counts.append(shown)
        assert shown <= MOST_CONTROLS, f"{shown} controls at once"
        forms = page.locator("#board .decision ul.actions form").evaluate_all(
            """fs => fs.map(f => ({action: f.querySelector('input[name=action]')?.value || '',
                                   pick: f.querySelector('input[name=pick]')?.value || '',
                                   card: f.querySelector('button').dataset.card || ''}))""")
        chosen = None
        for i, form in enumerate(forms):
            if form["action"] and json.loads(form["action"]) == action:
                chosen = i
                break
        if chosen is None:
            for i, form in enumerate(forms):
                if form["pick"] and all(action.get(k) == v for k, v in json.loads(form["pick"]).items()):
                    chosen = i
                    break
        if chosen is None:
            more = page.locator("#board .decision .step-nav a.more")
            assert more.count(), f"{action} is not offered: {forms}"
            # the stream may redraw the board under the click (seen on a loaded machine): then read it again
            with contextlib.suppress(sync_api.Error):
                redrawn(page, lambda link=more: link.click(timeout=5_000))
            continue
        card = forms[chosen]["card"]
        lit = page.locator(f'#board .table details.card.lit[data-card="{card}"] > summary') if card else None
        by_table = lit is not None and lit.count() == 1  # the card itself, on the table (table.js: its click)
        control = (lit if by_table else page.locator("#board .decision ul.actions form button").nth(chosen))
        version = int(page.locator("#board .board").get_attribute("data-version"))
        # the very element read above, or nothing: a board redrawn meanwhile (the stream's) is read again
        try:
            handle = control.element_handle(timeout=2_000)
        except sync_api.TimeoutError:
            continue  # the board was redrawn meanwhile: read it again
        if not handle.evaluate(STILL_THERE, forms[chosen]):
            continue
        try:
            redrawn(page, lambda h=handle: h.click(timeout=2_000))
        except sync_api.Error:
            continue  # the element left the page under the click
        via_table.extend([1] if by_table else [])
        if forms[chosen]["action"]:
            try:  # sent: the board of the next move (the stream's redraw may have come first)
                page.wait_for_function("v => Number(document.querySelector('#board .board')?.dataset.version)"
                                       " > v", arg=version, timeout=10_000)
                return
            except sync_api.TimeoutError:
                continue  # the click fell on a board the stream was replacing: this step again
    raise AssertionError(f"{action}: no end to the steps")


def journey(run, django_db_blocker, username: str, game_type: str, *, left: int | None, seed: int):
    with django_db_blocker.unblock():
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user(username, password=PASSWORD)
        game_id, actions = seeded_game(user, game_type, left=left, seed=seed)
    assert actions, "the seeded game has no move of the player left"
    counts: list[int] = []
    via_table: list[int] = []

    def steps(page):
        started = time.monotonic()
        log_in(page, username)
        page.goto(f"/play/{game_id}/")
        for action in actions:
            take(page, action, counts, via_table)
        page.get_by_role("link", name="Replay it").wait_for()
        sync_api.expect(page.locator("#board .decision")).to_have_count(0)
        for attempt in range(3):  # the finished game links to its replay
            page.get_by_role("link", name="Replay it").click()
            try:  # a click on a link the stream's last redraw was replacing goes nowhere: click again
                page.wait_for_url("**/replay/**", timeout=5_000 if attempt < 2 else 30_000)
                break
            except sync_api.TimeoutError:
                if attempt == 2:
                    raise
        return time.monotonic() - started

    took = run(steps)
    with django_db_blocker.unblock():
        from games.models import Game

        assert Game.objects.get(pk=game_id).status == "finished"
    assert max(counts) <= MOST_CONTROLS
    print(f"{game_type}: {len(actions)} actions, {len(counts)} steps, {len(via_table)} by a card on the "
          f"table, at most {max(counts)} controls, {took:.1f} s")
    return counts, via_table


def test_battlefront_a_whole_game_against_the_bot_by_the_table(in_browser, django_db_blocker):  # noqa: F811 (the fixture)
    counts, via_table = journey(in_browser, django_db_blocker, "browser-table-bf", "battlefront", left=None,
                                seed=39)
    assert len(counts) > 20 and via_table  # a whole game: cards in hand picked on the table


# the player's last actions: Battlecards' last 20 (deploys, a battle fought, a battlecard, fire and support)
@pytest.mark.parametrize(("game_type", "left"), [("battlecards", 20), ("the-war", 10)])
def test_from_a_near_end_position_to_the_end_by_the_table(
    in_browser, django_db_blocker, game_type, left  # noqa: F811 (the fixture)
):
    journey(in_browser, django_db_blocker, f"browser-table-{game_type}", game_type, left=left, seed=39)
