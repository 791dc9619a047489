"""Django's Redis cache backend, with one redis-py client per connection pool instead of one per call.

Django's RedisCacheClient builds a new `redis.Redis` around the (shared) connection pool for every cache
operation, and redis-py's constructor fills its table of ~200 response callbacks each time: about 0.1 ms of
CPU per get or set (issue 26: two of them in every throttled request, e.g. each action POST). A client is
only a thin, thread-safe handle on its pool, so keeping it changes nothing else: the same pools, the same
connections, the same commands.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:  # noqa: ARG002 - Django's signature
        pool = self._get_connection_pool(write)  # Django's: a pool lives as long as this client
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
