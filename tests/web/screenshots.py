"""Screenshots of the site's pages at desktop and phone widths, into docs/screenshots/ (rerunnable).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/python -m tests.web.screenshots [--port N]

    make screenshots   (the same, with DATABASE_URL from the environment or .env)

Migrates the database and loads the catalog when it is empty, makes two accounts and a few games (each
game type's table mid-game against the bot, a finished game of each for its replay, a Tide of Iron match
between the two), serves the site on localhost (Django's threaded server, static files included) and
photographs each page with Debian's Chromium (/usr/bin/chromium) through Playwright; the play pages also with
a card opened large (the table's first card clicked)."""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

from tests.web.seeding import PASSWORD

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def prepare_site() -> dict[str, object]:
    """The database migrated with the catalog loaded, and two accounts (shot-alice, shot-bob)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.models import CatalogVersion

    call_command("migrate", verbosity=0)
    if not CatalogVersion.objects.exists():
        call_command("load_catalog", stdout=io.StringIO())
    users = {}
    for name in ("shot-alice", "shot-bob"):
        user, _ = get_user_model().objects.get_or_create(username=name)
        user.set_password(PASSWORD)
        user.save()
        users[name] = user
    return users


def serve(port: int):
    """Django's threaded server (static files included) on localhost:port; .terminate() stops it."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    server = LiveServerThread("localhost", StaticFilesHandler, port=port)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    return server


def log_in(page, username: str = "shot-alice") -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Log out").wait_for()


def _prepare() -> dict[str, str]:
    """The games to photograph: {page name: path}. Each game's table mid-game (the player's planned moves
    played half-way through the services: tests/web/seeding.py), its spectator view, and a finished game's
    replay; a Tide of Iron match between the two accounts."""
    users = prepare_site()
    from games import services
    from tests.web.seeding import seeded_game

    alice, bob = users["shot-alice"], users["shot-bob"]
    pages = {"home": "/", "cards": "/cards/", "decks": "/decks/starters/", "lobby": "/play/"}
    for game_type in ("battlecards", "battlefront", "the-war"):
        live, _ = seeded_game(alice, game_type, share=0.5, seed=7)
        done, _ = seeded_game(alice, game_type, left=0, seed=8)
        pages |= {f"play-{game_type}": f"/play/{live}/", f"watch-{game_type}": f"/play/{live}/watch/",
                  f"replay-{game_type}": f"/play/{done}/replay/?ply=40"}
    toi = services.game_create(user=alice, game_type="tide-of-iron", opponent={"kind": "human"}, seed=10,
                               options={"scenario": "toi-scenario-all-decks"})
    services.game_join(game_id=toi.pk, user=bob, deck=None)
    pages["play-tide-of-iron"] = f"/play/{toi.pk}/"
    return pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("SCREENSHOT_PORT", "9201")))
    args = parser.parse_args()
    pages = _prepare()

    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import sync_playwright

    server = serve(args.port)
    base = f"http://localhost:{server.port}"
    OUT.mkdir(parents=True, exist_ok=True)

    def shoot() -> list[str]:
        made = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            for width_name, (width, height) in WIDTHS.items():
                context = browser.new_context(base_url=base, viewport={"width": width, "height": height})
                page = context.new_page()
                log_in(page)
                for name, path in pages.items():
                    page.goto(path)
                    page.wait_for_timeout(300)  # the stream of the play and watch pages never idles
                    target = OUT / f"{name}-{width_name}.png"
                    page.screenshot(path=str(target), full_page=False)
                    made.append(str(target.relative_to(OUT.parents[1])))
                    card = page.locator("#board .table details.card:not(.lit) > summary").first
                    if name.startswith("play-") and card.count():
                        card.click()  # the card opened large, with its values
                        page.wait_for_timeout(200)
                        target = OUT / f"{name}-card-{width_name}.png"
                        page.screenshot(path=str(target), full_page=False)
                        made.append(str(target.relative_to(OUT.parents[1])))
                context.close()
            browser.close()
        return made

    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright's loop off Django's thread
            for path in pool.submit(shoot).result():
                print(path)
    finally:
        server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
