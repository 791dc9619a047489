"""config.redis_cache: Django's Redis cache with one redis-py client per connection pool (issue 26)."""

from __future__ import annotations

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
    assert all(r.connection_pool is cache._cache._pools[r.connection_pool.connection_kwargs["port"] - 1]
               for r in readers.values())
