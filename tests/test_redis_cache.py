"""config.redis_cache: Django's Redis cache with one redis-py client per connection pool (issue 26)."""

from __future__ import annotations

import secrets

import pytest
from django.core.cache import cache

from config.redis_cache import RedisCache


def test_each_pool_gets_one_client_kept_for_every_later_operation():
    cache = RedisCache("redis://127.0.0.1:1/0", {})  # nothing connects until a command is sent
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client and cache._cache.get_client(write=True) is client
    assert client.connection_pool is cache._cache._get_connection_pool(True)  # Django's own pool


def test_with_replicas_writes_go_to_the_first_server_and_reads_to_the_others():
    cache = RedisCache("redis://127.0.0.1:1/0,redis://127.0.0.1:2/0,redis://127.0.0.1:3/0", {})
    writer = cache._cache.get_client(write=True)
    readers = {id(c): c for c in [cache._cache.get_client() for _ in range(60)]}
    assert writer.connection_pool.connection_kwargs["port"] == 1
    assert sorted(r.connection_pool.connection_kwargs["port"] for r in readers.values()) == [2, 3]
    assert all(
        r.connection_pool is cache._cache._pools[r.connection_pool.connection_kwargs["port"] - 1]
        for r in readers.values()
    )


@pytest.mark.parametrize("cache_backend", ["redis"], indirect=True)
def test_incr_is_one_atomic_call_that_never_creates_a_key(cache_backend):
    """Django's incr checks EXISTS, then INCRBY: a key expiring between the two came back with no expiry.
    Here both are one Lua call: a missing key is a ValueError and stays missing; an existing one keeps its
    expiry."""
    key = f"incr-{secrets.token_hex(4)}"
    with pytest.raises(ValueError, match="not found"):
        cache.incr(key)
    assert cache.get(key) is None
    assert cache.add(key, 1, 30)
    assert cache.incr(key) == 2 and cache.incr(key, 5) == 7 and cache.decr(key) == 6
    assert cache.get(key) == 6
    ttl = _redis_ttl(key)
    assert ttl is not None and 0 < ttl <= 30
    cache.delete(key)


@pytest.mark.parametrize("cache_backend", ["redis"], indirect=True)
def test_count_in_window_reads_the_previous_counter_and_counts_the_current_in_one_call(cache_backend):
    """A rate throttle's check (config.throttling): the previous window's counter as stored (0 when missing)
    and the current one after adding one; a new counter starts at 1 with the expiry given, an existing one
    keeps its own; both stay integers that get_many, incr and decr read and write."""
    previous, current = f"prev-{secrets.token_hex(4)}", f"cur-{secrets.token_hex(4)}"
    assert cache.count_in_window(previous, current, 120) == (0, 1)
    ttl = _redis_ttl(current)
    assert ttl is not None and 110 < ttl <= 120
    assert cache.get(previous) is None  # a missing previous counter is not created
    assert cache.add(previous, 7, 30)
    assert cache.count_in_window(previous, current, 5) == (7, 2)
    assert 110 < _redis_ttl(current) <= 120  # not restarted by a later count
    assert cache.decr(current) == 1 and cache.get_many([previous, current]) == {previous: 7, current: 1}
    cache.delete_many([previous, current])


def _redis_ttl(key: str) -> int | None:
    """The key's remaining seconds in Redis (None: no expiry)."""
    client = cache._cache.get_client(write=True)
    ttl = client.ttl(cache.make_and_validate_key(key))
    return None if ttl < 0 else ttl
