"""First paint of a step of a long replay in a real browser (issue 38: "any step of a seeded replay of at
least 1,200 plies reaches first paint in under 1 s, median of 3").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/python tests/bench/replay_paint_bench.py \\
        [--plies 1200] [--seed 11] [--port 9203] [--json]

Serves the site (Django's threaded server, as tests/web/screenshots.py: migrates and loads the catalog of
that database when empty). Plays one seeded Battlecards game (GB starter v DE starter, shot-alice's seat
played by a salted random bot, the other seat the random bot, max_turns 400) through the services until
it has `--plies` engine actions, resigns it (its replay is published), then drives Debian's Chromium
through Playwright, logged in as shot-alice: for each of three steps (the middle, the last but one and the
end; each the first visit of its step, nothing of the game cached in the server process) a fresh
navigation to /play/<id>/replay/?ply=N, timed by the browser from the request start to its first
contentful paint. Prints the three and their median against the target (< 1000 ms).
"""

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

from tests.bench.long_games import play_long_game  # noqa: E402
from tests.web.screenshots import ARGS, CHROMIUM, log_in, prepare_site, serve  # noqa: E402

TARGET_MS = 1000.0
FIRST_PAINT = """() => new Promise(resolve => {
  const done = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const nav = performance.getEntriesByType("navigation")[0];
    if (paint) resolve({paint: paint.startTime - nav.requestStart, server: nav.responseEnd - nav.requestStart,
                        bytes: nav.transferSize});
    else setTimeout(done, 20);
  };
  done();
})"""


def long_finished_game(user, *, plies: int, seed: int):
    """A resigned game with at least `plies` engine actions (the next seed when one ends first)."""
    from games import engine, services

    game, done = play_long_game(
        user, plies=plies, seed=seed, bot="random", attempts=10,
        me=lambda _state, seed: engine.RandomBot(salt=f"paint-{seed}"), options={"max_turns": 400},
    )
    services.game_resign(game_id=game.pk, user=user)
    return game, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--port", type=int, default=9203)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    users = prepare_site()
    started = time.perf_counter()
    game, plies = long_finished_game(users["shot-alice"], plies=args.plies, seed=args.seed)
    made_s = time.perf_counter() - started
    steps = [plies // 2, plies - 1, plies]
    server = serve(args.port)
    base = f"http://localhost:{server.port}"

    def drive() -> list[dict]:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            context = browser.new_context(base_url=base, viewport={"width": 1280, "height": 900})
            context.set_default_timeout(30_000)
            page = context.new_page()
            log_in(page)
            page.goto("/play/")  # warm: static files fetched, a connection open
            measured = []
            for step in steps:
                page.goto(f"/play/{game.pk}/replay/?ply={step}", wait_until="commit")
                measured.append({"ply": step, **page.evaluate(FIRST_PAINT)})
            context.close()
            browser.close()
        return measured

    pool = ThreadPoolExecutor(max_workers=1)  # Playwright's loop off Django's thread
    try:
        measured = pool.submit(drive).result()
    finally:
        server.terminate()
        pool.shutdown()
    median = statistics.median(m["paint"] for m in measured)
    report = {"plies": plies, "game_made_s": round(made_s, 1), "steps": [
        {k: round(v, 1) if isinstance(v, float) else v for k, v in m.items()} for m in measured],
        "first_paint_median_ms": round(median, 1), "target": f"median < {TARGET_MS:.0f} ms",
        "met": median < TARGET_MS}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for m in report["steps"]:
            print(f"replay ply {m['ply']:5} of {plies}: first paint {m['paint']:7.1f} ms"
                  f" (server answer {m['server']:7.1f} ms, {m['bytes']} bytes)")
        print(f"first paint median {median:.1f} ms, target {report['target']}:"
              f" {'met' if report['met'] else 'NOT met'} (the game took {made_s:.1f} s to play)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
