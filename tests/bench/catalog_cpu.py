"""In-process CPU per request of the catalog list paths of issue 26, beside the trivial Django JSON view.

    .venv/bin/python tests/bench/catalog_cpu.py --database-url postgres://postgres@127.0.0.1:5432/hb_x \
        [--cache-url redis://127.0.0.1:6379/12] [-n 300] [--profile miss|change|hit|trivial [--cpu-timer]]

Requests go through the WSGI application (config.wsgi: every middleware) with production settings (DEBUG off,
the pooled PostgreSQL connection, the cache given, locmem without --cache-url), in this one process, one at a
time, so the figures do not depend on the load of a shared machine as throughput does. For each path:
median and mean CPU time (time.process_time) and wall time per request, SQL statements per request, and the
CPU as a multiple of the trivial view's. Paths (as in http_bench.py --issue-26):
  * trivial: GET /bench/trivial/ (a plain JsonResponse);
  * hit: GET /api/arsenal-cards/?page_size=50, answered by the response cache;
  * miss: the same list with a valid filter never asked before (points_min=-N: every card);
  * change: the same list as the first request after a catalog change (cards.services.catalog_cache_clear,
    done outside the timing: a new version token, as load_catalog or an admin edit makes).
The database is migrated and the real catalog loaded if it is not there yet. --profile prints cProfile's top
functions (cumulative) of one path over the same requests.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.live_server import BENCH_URLS  # noqa: E402

LIST = "/api/arsenal-cards/?page_size=50"


def _setup(args) -> None:
    tmp = tempfile.mkdtemp(prefix="bc-cpu-")
    Path(tmp, "bench_urls.py").write_text(BENCH_URLS)
    Path(tmp, "bench_settings.py").write_text(
        "from config.settings.production import *  # noqa\nDEBUG = False\nROOT_URLCONF = 'bench_urls'\n"
        "ALLOWED_HOSTS = ['127.0.0.1']\n"
    )
    sys.path.insert(0, tmp)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="bench_settings",
        DATABASE_URL=args.database_url,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DEBUG="False",
        SECURE_SSL_REDIRECT="False",
        LOG_LEVEL="WARNING",
        CACHE_URL=args.cache_url or "locmemcache://bench",
    )
    import django

    django.setup()
    from django.core.management import call_command

    from cards.models import ArsenalCard

    call_command("migrate", "--noinput", verbosity=0)
    if not ArsenalCard.objects.exists():
        call_command("load_catalog", stdout=io.StringIO())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""), required=False)
    parser.add_argument("--cache-url", default=os.environ.get("BENCH_REDIS_URL", ""))
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--profile", choices=("trivial", "hit", "miss", "change"))
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--sort", default="cumulative", help="cProfile's order (cumulative, tottime, ...)")
    parser.add_argument("--cpu-timer", action="store_true",
                        help="profile with time.process_time (CPU only: waits on the database are left out)")
    args = parser.parse_args()
    if not args.database_url:
        parser.error("--database-url (or BENCH_DATABASE_URL) is required")
    _setup(args)

    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection
    from django.test.client import RequestFactory

    from cards.services import catalog_cache_clear

    handler = WSGIHandler()
    factory = RequestFactory()
    statements = [0]

    def count(execute, sql, params, many, context):
        statements[0] += 1
        return execute(sql, params, many, context)

    def get(url: str) -> bytes:
        path, _, query = url.partition("?")
        environ = factory._base_environ(PATH_INFO=path, QUERY_STRING=query, REQUEST_METHOD="GET",
                                        SERVER_NAME="127.0.0.1", HTTP_HOST="127.0.0.1")
        status: list[str] = []
        body = b"".join(handler(environ, lambda s, h, *a: status.append(s)))
        assert status[0].startswith("200"), (url, status, body[:300])
        return body

    distinct = iter(range(1, 10**9))

    def miss_url() -> str:
        return f"{LIST}&points_min=-{next(distinct)}"

    paths = {
        "trivial": (lambda: "/bench/trivial/", None),
        "hit": (lambda: LIST, None),
        "miss": (miss_url, None),
        "change": (lambda: LIST, catalog_cache_clear),
    }
    catalog_cache_clear()  # a fresh token: no entry of an earlier run answers this run's "misses"
    for _ in range(20):  # warm-up: imports, connections, the forms of the page (as a running worker has)
        get("/bench/trivial/")
        get(LIST)
        get(miss_url())
    results = {}
    with connection.execute_wrapper(count):
        for name, (url_of, before) in paths.items():
            cpu: list[float] = []
            wall: list[float] = []
            sql = 0
            profile = None
            if args.profile == name:
                profile = cProfile.Profile(time.process_time) if args.cpu_timer else cProfile.Profile()
            for _ in range(args.n):
                if before is not None:
                    before()
                url = url_of()
                counted = statements[0]
                c0, w0 = time.process_time(), time.perf_counter()
                if profile is not None:
                    profile.enable()
                get(url)
                if profile is not None:
                    profile.disable()
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                sql += statements[0] - counted
            results[name] = (cpu, wall, sql / args.n)
            if profile is not None:
                out = io.StringIO()
                pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
                print(out.getvalue())
    trivial = statistics.median(results["trivial"][0])
    print(f"n={args.n}, cache {os.environ['CACHE_URL'].split('://')[0]}; x trivial: CPU p50 / trivial's")
    print(f"{'path':10} {'cpu mean ms':>12} {'cpu p50 ms':>11} {'wall p50 ms':>12} {'SQL/req':>8} "
          f"{'x trivial':>10}")
    for name, (cpu, wall, sql) in results.items():
        median = statistics.median(cpu)
        print(f"{name:10} {1000 * statistics.mean(cpu):12.3f} {1000 * median:11.3f} "
              f"{1000 * statistics.median(wall):12.3f} {sql:8.1f} {median / trivial:10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
