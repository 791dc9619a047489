"""Each cache backend CACHE_URL can pick, as the indirect fixture `cache_backend` (registered in
tests/conftest.py): "locmem", "redis" or "dbcache", and the test runs with that backend as the default cache.

Redis: TEST_REDIS_URL (default redis://127.0.0.1:6379/15; keys carry a per-run prefix and expire, nothing is
flushed); skipped when no Redis answers there, except in CI (where a missing Redis is a failure).
"""

from __future__ import annotations

import os
import secrets

import pytest
from django.core.management import call_command
from django.test import override_settings

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
PREFIX = f"cache-test-{secrets.token_hex(4)}"


def redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def cache_settings(backend: str) -> dict:
    if backend == "locmem":
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": PREFIX}
    if backend == "redis":
        return {"BACKEND": "config.redis_cache.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": PREFIX}
    return {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "django_cache"}


@pytest.fixture
def cache_backend(request):
    name = request.param
    if name == "redis" and not os.environ.get("CI") and not redis_answers():
        pytest.skip(f"no Redis answers at {REDIS_URL} (set TEST_REDIS_URL)")
    if name == "dbcache":
        request.getfixturevalue("db")
    with override_settings(CACHES={"default": cache_settings(name)}):
        if name == "dbcache":
            call_command("createcachetable")
        yield name
