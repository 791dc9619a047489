"""Benchmark: how long the server spends refusing hostile input (issue 11): a deck import of 16,000
unreadable lines (refused by the line bound), one of 1,000 unreadable lines (the most an import may have:
every line parsed, close names suggested for the first 10), a JSON body nested 950 levels deep, and a
50,000-character search.

    .venv/bin/python tests/bench/hostile_input_bench.py [--runs 5]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench \
        .venv/bin/python tests/bench/hostile_input_bench.py

Before the bounds, the 16,000-line import ran 85-90 s inside a write transaction.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args, _ = parser.parse_known_args()

    with catalog_test_database():
        from django.contrib.auth import get_user_model
        from django.db import connection
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        user = get_user_model().objects.create_user(username="bench", password="Bench-Pa55word")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        cases = {
            "import, 16,000 unreadable lines": (
                "post", "/api/decks/import/",
                {"name": "x", "nation": "DE", "text": "\n".join(f"q{i % 10}" for i in range(16_000))}, 400,
            ),
            "import, 1,000 unreadable lines": (
                "post", "/api/decks/import/",
                {"name": "x", "nation": "DE", "text": "\n".join(f"1 Tigr Tnak {i}" for i in range(1000))},
                400,
            ),
            "register, JSON nested 950 deep": ("post", "/api/auth/register/", "[" * 950 + "]" * 950, 400),
            "arsenal cards, 50,000-char search": (
                "get", "/api/arsenal-cards/", {"search": "%_" * 25_000}, 400,
            ),
        }
        print(f"command: DATABASE_URL={os.environ['DATABASE_URL']} {sys.executable} "
              f"{Path(__file__).relative_to(ROOT)} --runs {args.runs}")
        print(f"database: {connection.vendor}; python {sys.version.split()[0]}")
        for label, (method, url, body, expected) in cases.items():
            samples = []
            for _ in range(args.runs):
                start = time.perf_counter()
                if isinstance(body, str):
                    response = client.post(url, body, content_type="application/json")
                else:
                    response = getattr(client, method)(url, body, format="json") if method == "post" else (
                        client.get(url, body))
                samples.append((time.perf_counter() - start) * 1000)
                assert response.status_code == expected, (label, response.status_code)
            print(f"{label:<38} median {statistics.median(samples):9.1f} ms   max {max(samples):9.1f} ms   "
                  f"n={len(samples)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
