"""Benchmark: the catalog search language against the plain filtered list, and card faces.

    .venv/bin/python tests/bench/catalog_bench.py [--runs 200]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench .venv/bin/python tests/bench/catalog_bench.py

A throwaway test database is created (SQLite in memory unless DATABASE_URL says otherwise) and the real
catalog loaded. The HTTP response cache (config.http_cache) is switched off (a dummy cache) so every
request does the full work: routing, filters or ?q= parsing and compiling, SQL, serialization, rendering.
Printed: median/p95 of each request, the ratio search / plain for the same result (the issue's bound: 2x),
and the face render cached (per catalog version) and uncached.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

from tests.bench.bench_db import catalog_test_database  # noqa: E402

os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")

# (label, plain filters, equivalent ?q=): the same cards either way (checked before timing)
PAIRS = [
    (
        "German aircraft under 15 points",
        {"nation": "DE", "kind": "air", "points_max": "14"},
        "nation:de kind:air points<15",
    ),
    (
        "artillery, phase 1, seed values only",
        {"class": "artillery", "phase": "1", "provenance": "seed"},
        "class:artillery phase:1 -is:variant",
    ),
    (
        "ground attack >= 12 and air defense <= 5",
        {"attack_ground_min": "12", "defense_air_max": "5"},
        "att.ground>=12 def.air<=5",
    ),
    ("the whole catalog", {}, "points>=0"),
]
COMPLEX = (
    "(class:tank or class:fighter or ability:big_guns) -is:ukrainian (side:axis or points>=12) -name:zzz"
)


def _timed(fn, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _report(label: str, samples: list[float]) -> float:
    ordered = sorted(samples)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    median = statistics.median(samples)
    print(f"  {label:<58} median {median:8.3f} ms   p95 {p95:8.3f} ms   n={len(samples)}")
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args, _ = parser.parse_known_args()

    with catalog_test_database():
        from django.db import connection
        from django.test.utils import override_settings
        from rest_framework.test import APIClient
        dummy = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        from cards.faces import face_svg, face_version, render_face
        from cards.models import ArsenalCard
        from cards.selectors import arsenal_card_list

        client = APIClient()
        url = "/api/arsenal-cards/"
        print(
            f"command: DATABASE_URL={os.environ['DATABASE_URL']} {sys.executable} "
            f"{Path(__file__).relative_to(ROOT)} --runs {args.runs}"
        )
        print(f"database: {connection.vendor}; python {sys.version.split()[0]}; response cache off")
        with override_settings(CACHES=dummy):
            for label, filters, query in PAIRS:

                def plain(filters=filters) -> set[str]:
                    response = client.get(url, {**filters, "page_size": 500})
                    assert response.status_code == 200, response.content
                    return {r["code"] for r in response.json()["results"]}

                def search(query=query) -> set[str]:
                    response = client.get(url, {"q": query, "page_size": 500})
                    assert response.status_code == 200, response.content
                    return {r["code"] for r in response.json()["results"]}

                same = plain()
                assert same == search(), label
                for _ in range(10):
                    plain()
                    search()
                print(f"{label} ({len(same)} cards)")
                a = _report(f"plain filters {filters}", _timed(plain, args.runs))
                b = _report(f"?q={query}", _timed(search, args.runs))
                print(f"  ratio search / plain: {b / a:.2f}x")

            def complex_search() -> None:
                assert client.get(url, {"q": COMPLEX, "page_size": 500}).status_code == 200

            print("a complex query")
            _report(f"?q={COMPLEX}", _timed(complex_search, args.runs))

            from cards.search import ARSENAL, compile_query

            print("parsing and compiling alone (no SQL)")
            _report(f"compile_query({COMPLEX!r})", _timed(lambda: compile_query(COMPLEX, ARSENAL), args.runs))

            print("card faces")
            version = face_version()
            codes = list(ArsenalCard.objects.order_by("code").values_list("code", flat=True))
            for code in codes:
                face_svg("arsenal", code, version=version)  # fill the cache
            cards = list(arsenal_card_list())
            index = iter(range(10**9))

            def cached_face() -> None:
                face_svg("arsenal", codes[next(index) % len(codes)], version=version)

            def uncached_face() -> None:
                render_face("arsenal", cards[next(index) % len(cards)])

            def http_face() -> None:
                response = client.get(f"/api/arsenal-cards/{codes[next(index) % len(codes)]}/face.svg")
                assert response.status_code == 200

            _report("face_svg, cached per catalog version", _timed(cached_face, args.runs * 5))
            _report("face render from the row (template, uncached)", _timed(uncached_face, args.runs))
            _report("GET /api/arsenal-cards/{code}/face.svg (cached face)", _timed(http_face, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
