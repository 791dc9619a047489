"""The play page in a real browser against the bot: time to first render and click-to-updated-board.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/python tests/bench/web_bench.py \\
        [--renders 30] [--clicks 60] [--port 9202] [--json]

Serves the site (Django's threaded server, as tests/web/screenshots.py: migrates and loads the catalog of
that database when empty) and drives Debian's Chromium through Playwright, logged in as shot-alice, on
Battlecards games against the random bot (GB starter v DE starter):

- first render: a fresh navigation to /play/<id>/, the browser's own Navigation Timing from the request
  start to the load event (the server's HTML, the CSS, htmx and play.js, laid out);
- click to update: a click on the pending decision's first button until the board shows the new version
  (htmx posts the action, the server applies it and lets the bot answer, the fragment is swapped in).

Prints p50 / p99 / max in milliseconds and the targets (first render < 1 s at p99, click to update
< 200 ms p50)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

from tests.web.screenshots import ARGS, CHROMIUM, log_in, prepare_site, serve  # noqa: E402

TARGETS = {"first_render_ms": ("p99", 1000.0), "click_to_update_ms": ("p50", 200.0)}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50": round(statistics.median(values), 1), "p99": round(pct(values, 0.99), 1),
            "max": round(max(values), 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--port", type=int, default=9202)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    users = prepare_site()
    alice = users["shot-alice"]

    from games import services

    def new_game() -> str:
        game = services.game_create(user=alice, my_deck={"starter": "gb-we-starter"},
                                    opponent_deck={"starter": "de-we-starter"},
                                    opponent={"kind": "bot", "bot": "random"})
        return str(game.pk)

    server = serve(args.port)
    base = f"http://localhost:{server.port}"
    games = [new_game() for _ in range(3)]

    def drive() -> dict[str, list[float]]:
        from playwright.sync_api import sync_playwright

        renders: list[float] = []
        clicks: list[float] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
            context.set_default_timeout(15_000)
            page = context.new_page()
            log_in(page)
            page.goto(f"/play/{games[0]}/")  # warm: the catalog snapshot cached, static files fetched
            for i in range(args.renders):
                page.goto(f"/play/{games[i % len(games)]}/", wait_until="load")
                renders.append(page.evaluate(
                    "() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return n.loadEventEnd - n.requestStart; }"))
            game = games[0]
            page.goto(f"/play/{game}/")
            while len(clicks) < args.clicks:
                button = page.locator(".decision ul.actions button").first
                if page.locator(".decision ul.actions button").count() == 0:
                    game = new_game_sync()
                    page.goto(f"/play/{game}/")
                    continue
                # a click sends an action or narrows the decision (issue 39's steps): either redraws the board
                page.evaluate("() => { document.querySelector('#board .board').dataset.old = '1'; }")
                started = time.perf_counter()
                button.click()
                page.wait_for_function(
                    "() => { const b = document.querySelector('#board .board');"
                    " return b && !b.dataset.old; }")
                clicks.append((time.perf_counter() - started) * 1000)
            context.close()
            browser.close()
        return {"first_render_ms": renders, "click_to_update_ms": clicks}

    pool = ThreadPoolExecutor(max_workers=1)  # Playwright's loop off Django's thread (the ORM runs here)

    def new_game_sync() -> str:
        return pool_main.submit(new_game).result()

    pool_main = ThreadPoolExecutor(max_workers=1)
    try:
        measured = pool.submit(drive).result()
    finally:
        server.terminate()
        pool.shutdown()
        pool_main.shutdown()
    report = {name: summary(values) for name, values in measured.items()}
    for name, (stat, limit) in TARGETS.items():
        report[name]["target"] = f"{stat} < {limit:.0f} ms"
        report[name]["met"] = report[name][stat] < limit
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, row in report.items():
            print(f"{name:20} n={row['n']:3}  p50={row['p50']:7.1f}  p99={row['p99']:7.1f}"
                  f"  max={row['max']:7.1f}  target {row['target']}: {'met' if row['met'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
