"""Django's Redis cache backend, with one redis-py client per connection pool instead of one per call.

Django's RedisCacheClient builds a new `redis.Redis` around the (shared) connection pool for every cache
operation, and redis-py's constructor fills its table of ~200 response callbacks each time: about 0.1 ms of
CPU per get or set (issue 26: two of them in every throttled request, e.g. each action POST). A client is
only a thin, thread-safe handle on its pool, so keeping it changes nothing else: the same pools, the same
connections, the same commands.

Also incr/decr in one round trip: Django's checks EXISTS, then sends INCRBY: two round trips, and a key that
expires between them is created again by INCRBY with no expiry (it would then never expire: the throttles'
window counters, config.throttling, must expire). Here the check and the increment are one Lua script,
atomic in Redis: ValueError for a missing key, as Django's.

And a rate throttle's whole check in one round trip (count_in_window, config.throttling): the previous
window's counter read and the current one's incremented (created with its expiry when new), one Lua script.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis

INCR_IF_EXISTS = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return false
"""

# KEYS: the previous window's counter, the current one's; ARGV: the current one's expiry in ms when new.
# Returns {previous or false, current after adding one}.
COUNT_IN_WINDOW = """
local current = redis.call('INCR', KEYS[2])
if current == 1 then
    redis.call('PEXPIRE', KEYS[2], ARGV[1])
end
return {redis.call('GET', KEYS[1]) or false, current}
"""


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._incr_script: Any = None  # registered once; run on whichever client is given
        self._window_script: Any = None

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:  # noqa: ARG002 - Django's signature
        pool = self._get_connection_pool(write)  # Django's: a pool lives as long as this client
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def incr(self, key: Any, delta: int) -> int:
        client = self.get_client(key, write=True)
        if self._incr_script is None:
            self._incr_script = client.register_script(INCR_IF_EXISTS)
        value = self._incr_script(keys=[key], args=[delta], client=client)  # EVALSHA (loaded once per server)
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value

    def count_in_window(self, previous: Any, current: Any, timeout_ms: int) -> tuple[int, int]:
        client = self.get_client(current, write=True)
        if self._window_script is None:
            self._window_script = client.register_script(COUNT_IN_WINDOW)
        before, counted = self._window_script(keys=[previous, current], args=[timeout_ms], client=client)
        return (0 if before is None else self._serializer.loads(before)), counted


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def count_in_window(self, previous: str, current: str, timeout: float) -> tuple[int, int]:
        """A rate throttle's check in one round trip (config.throttling): the counter `previous` as stored
        (0 when missing) and the counter `current` after adding one to it (a new one starts at 1 and expires
        after `timeout` seconds). Both are Django integers, as add/incr/get_many read and write them."""
        keys = (self.make_and_validate_key(previous), self.make_and_validate_key(current))
        return self._cache.count_in_window(*keys, max(1, int(timeout * 1000)))
