"""Open-stream slots (config.throttling.stream_slot_acquire/release) on each cache backend, in process.

Issue 42 item 4: opening a stream fetched all `limit` slot keys, so it cost time linear in
GAMES_SSE_MAX_STREAMS_PER_USER (317 ms at 100,000). Opening must cost the same at a limit of 100,000 as at 8,
and the slots must stay exact (never more than `limit` held, a released one opens again).

Redis: tests.cache_backends (TEST_REDIS_URL).
"""

from __future__ import annotations

import itertools
import statistics
import time

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.throttling import stream_slot_acquire, stream_slot_release

USER_IDS = itertools.count(1)


def _time_openings(limits: tuple[int, ...], *, held: int, rounds: int) -> dict[int, list[float]]:
    """Seconds per stream_slot_acquire at each limit, for users (one per limit) who have `held` streams open
    already. The limits take turns at every opening (the first one changing each round), so a burst of
    load on the shared machine hits all of them alike."""
    users = {limit: next(USER_IDS) + 10**6 for limit in limits}
    kept = [
        stream_slot_acquire(user_id=users[limit], limit=limit, ttl=60)
        for limit in limits
        for _ in range(held)
    ]
    times: dict[int, list[float]] = {limit: [] for limit in limits}
    for n in range(rounds):
        for limit in limits[n % len(limits) :] + limits[: n % len(limits)]:
            began = time.perf_counter()
            slot = stream_slot_acquire(user_id=users[limit], limit=limit, ttl=60)
            times[limit].append(time.perf_counter() - began)
            assert slot is not None, f"no slot free at a limit of {limit}"
            stream_slot_release(slot=slot)
    for held_slot in kept:
        assert held_slot is not None
        stream_slot_release(slot=held_slot)
    return times


@pytest.mark.parametrize("cache_backend", ["locmem", "redis"], indirect=True)
@pytest.mark.parametrize("held", [0, 5])
def test_opening_at_a_limit_of_100000_costs_what_it_costs_at_8(cache_backend, held):
    by_limit = _time_openings((8, 100_000), held=held, rounds=200)
    at_8, at_100000 = (statistics.median(by_limit[limit]) for limit in (8, 100_000))
    assert at_100000 <= 2 * at_8, (
        f"{cache_backend}: {at_100000 * 1e3:.3f} ms at 100,000, {at_8 * 1e3:.3f} ms at 8"
    )


@pytest.mark.parametrize("cache_backend", ["locmem", "redis", "dbcache"], indirect=True)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=st.integers(min_value=1, max_value=40), data=st.data())
def test_exactly_limit_slots_are_held_and_a_released_one_opens_again(cache_backend, limit, data):
    user_id = next(USER_IDS)
    slots = [stream_slot_acquire(user_id=user_id, limit=limit, ttl=60) for _ in range(limit)]
    assert None not in slots and len({key for key, _ in slots}) == limit
    assert stream_slot_acquire(user_id=user_id, limit=limit, ttl=60) is None
    assert stream_slot_acquire(user_id=user_id + 10**7, limit=limit, ttl=60) is not None  # another user's own
    freed = data.draw(st.sampled_from(slots))
    stream_slot_release(slot=freed)
    again = stream_slot_acquire(user_id=user_id, limit=limit, ttl=60)
    assert again is not None and again[0] == freed[0]
    assert stream_slot_acquire(user_id=user_id, limit=limit, ttl=60) is None
    for slot in [*slots, again]:
        stream_slot_release(slot=slot)
    cache.delete_many([slot[0] for slot in slots])


@pytest.mark.parametrize("cache_backend", ["locmem"], indirect=True)
def test_a_slot_whose_holder_died_comes_back_after_its_ttl(cache_backend):
    user_id = next(USER_IDS)
    held = [stream_slot_acquire(user_id=user_id, limit=9, ttl=1) for _ in range(9)]  # never released
    assert None not in held and stream_slot_acquire(user_id=user_id, limit=9, ttl=1) is None
    time.sleep(1.1)
    assert stream_slot_acquire(user_id=user_id, limit=9, ttl=1) is not None
