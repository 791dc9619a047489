"""Test overrides. DATABASE_URL picks PostgreSQL (the Makefile sets it when a server answers)."""
from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The suite makes many requests from one address: every scope gets a rate it never reaches, and the
# throttle tests set low rates with override_settings.
REST_FRAMEWORK = {  # noqa: F405
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_CLASSES": [],
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1000000/min"),  # noqa: F405
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}}
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405  (threaded tests must not keep connections open)
CATALOG_TOKEN_SECONDS = 0  # every request re-reads the catalog version: tests edit rows between requests
GAMES_CLOCK_RUNNER = "command"  # no sweep thread in tests: they run the sweep themselves
# Every action rewrites the stored state, so a test may read Game.state as the current state; the tests of
# states stored every N actions set it themselves (tests/games/test_state_every.py).
GAMES_STATE_EVERY = 1
# The local simulation runner thread keeps the test worker's priority. At nice 19 (production's default) it
# got a sliver of a CPU that four busy xdist workers saturate: 36 short games took 86 s of a 180 s deadline.
# tests/simulations/test_local_runner.py checks the lowering itself with nice 19.
SIMULATION_LOCAL_NICE = 0

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not Django's default shared-cache in-memory test database: shared cache locks whole tables and
    # ignores the busy timeout, so a live server thread and the test answered "database table is locked".
    # A file gets the same WAL and busy timeout as `make run`'s database. In /dev/shm where there is one (as
    # fast as memory); one per checkout (pytest-xdist appends _gw0, _gw1... per worker).
    import hashlib
    import tempfile
    from pathlib import Path

    _shm = Path("/dev/shm")  # noqa: S108 (a file name of our own making, per checkout)
    _dir = _shm if _shm.is_dir() else Path(tempfile.gettempdir())
    _tag = hashlib.sha1(str(BASE_DIR).encode(), usedforsecurity=False).hexdigest()[:8]  # noqa: F405
    _test_name = str(_dir / f"battlecards_test_{_tag}.sqlite3")
    DATABASES["default"].setdefault("TEST", {}).setdefault("NAME", _test_name)  # noqa: F405
