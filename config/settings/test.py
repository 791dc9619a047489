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
