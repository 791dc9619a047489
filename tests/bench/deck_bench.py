"""Benchmark: median latency of validating a 60-card deck through the API (Django test client, full stack:
URL routing, token auth, JSON parsing, serializer, catalog cache lookup, rules, rendering).

    .venv/bin/python tests/bench/deck_bench.py [--runs 500]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bc_bench .venv/bin/python tests/bench/deck_bench.py

A throwaway test database is created (SQLite in memory unless DATABASE_URL says otherwise), the real
catalog is loaded with `load_catalog`, then POST /api/decks/validate/ (unsaved deck) and
GET /api/decks/{id}/validation/ (saved deck) are timed. The pure rules call is timed too (the HTTP cost).
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


def _deck_60(catalog) -> dict[str, int]:
    """A legal 60-card custom German deck spread over many entries (no single card over its maximum)."""
    entries: dict[str, int] = {}
    singles = []
    for code, card in sorted(catalog.arsenal.items()):
        if card.nation != "DE" or card.max_per_deck is not None or card.is_general or card.is_leader:
            if card.nation == "DE" and (card.is_general or card.is_leader):
                singles.append(code)
            continue
        entries[code] = 1
    entries.update(dict.fromkeys(singles[:2], 1))
    filler = "de-infantry"
    entries[filler] = entries.get(filler, 0) + 60 - sum(entries.values())
    assert sum(entries.values()) == 60 and entries[filler] >= 1, entries
    return entries


def _timed(fn, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def _report(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    print(f"{label:<46} median {statistics.median(samples):7.3f} ms   p95 {p95:7.3f} ms   "
          f"mean {statistics.fmean(samples):7.3f} ms   n={len(samples)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    args, _ = parser.parse_known_args()

    with catalog_test_database():
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.urls import reverse
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        from decks import rules, selectors, services

        catalog = selectors.catalog()
        entries = _deck_60(catalog)
        assert rules.validate_deck(catalog, nation="DE", entries=entries).is_valid
        user = get_user_model().objects.create_user(username="bench", password="Bench-Pa55word")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        deck = services.deck_create(owner=user, name="bench", nation="DE", entries=entries)
        payload = {"nation": "DE", "entries": [{"card": c, "count": n} for c, n in sorted(entries.items())]}
        validate_url = reverse("deck-validate")
        saved_url = reverse("deck-validation", args=[deck.pk])

        def post_validate() -> None:
            response = client.post(validate_url, payload, format="json")
            assert response.status_code == 200 and response.json()["totals"]["cards"] == 60

        def get_validation() -> None:
            response = client.get(saved_url)
            assert response.status_code == 200 and response.json()["is_valid"]

        for _ in range(20):  # warm-up: catalog cache, name index, connections
            post_validate()
            get_validation()

        engine = connection.vendor
        print(f"command: DATABASE_URL={os.environ['DATABASE_URL']} {sys.executable} "
              f"{Path(__file__).relative_to(ROOT)} --runs {args.runs}")
        print(f"database: {engine}; deck: 60 cards over {len(entries)} entries (nation DE); python "
              f"{sys.version.split()[0]}")
        _report("POST /api/decks/validate/ (unsaved, 60 cards)", _timed(post_validate, args.runs))
        _report("GET /api/decks/{id}/validation/ (saved)", _timed(get_validation, args.runs))
        _report("decks.rules.validate_deck (pure, no HTTP)",
                _timed(lambda: rules.validate_deck(catalog, nation="DE", entries=entries), args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
