"""A Redis outage when Redis is the cache (CACHE_URL=redis://...): a throttle that cannot count lets the
request through (fail-open: logged, counted in battlecards_throttle_cache_errors_total); what needs the cache
to be right (a stream's slot, a stream ticket, the catalog's cached answers) is a 503 `cache_unavailable`
with Retry-After, never a 500. Tested against a redis-server of the test's own, stopped mid-test."""

from __future__ import annotations

import copy
import logging
import shutil
import time

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from prometheus_client import REGISTRY

from tests.bench.bench_redis import private_redis_server
from tests.games.conftest import alice, api, bob, create_game, make_user, two_player_game  # noqa: F401

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")


@pytest.fixture
def redis_cache(settings):
    """The cache on a private redis-server; yields a function that stops it (the outage)."""
    with private_redis_server() as url:
        options = copy.deepcopy(getattr(django_settings, "REDIS_CACHE_OPTIONS", {}))  # base.py's bounds
        settings.CACHES = {"default": {"BACKEND": "config.redis_cache.RedisCache", "LOCATION": url,
                                       "OPTIONS": options}}
        rest = copy.deepcopy(django_settings.REST_FRAMEWORK)
        rest["DEFAULT_THROTTLE_RATES"].update(game_action="600/min", token="20/min")
        settings.REST_FRAMEWORK = rest
        assert cache.set("up", 1) is None and cache.get("up") == 1
        import redis

        stopper = redis.Redis.from_url(url)
        yield lambda: stopper.shutdown(nosave=True) if _pings(stopper) else None


def _pings(client) -> bool:
    try:
        return bool(client.ping())
    except Exception:  # noqa: BLE001
        return False


def _errors(scope: str) -> float:
    return REGISTRY.get_sample_value("battlecards_throttle_cache_errors_total", {"scope": scope}) or 0.0


def test_a_throttle_that_cannot_reach_redis_lets_the_action_through_logged_and_counted(
    redis_cache, two_player_game, api, alice, bob, caplog  # noqa: F811
):
    from tests.games.test_actions_api import _mover

    gid = two_player_game["id"]
    _seat, mover, _other, view = _mover(two_player_game, api, alice, bob)
    before = _errors("game_action")
    redis_cache()  # the outage
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="config.throttling"):
        response = mover.post(
            f"/api/games/{gid}/actions/",
            {"version": view["version"], "action": view["view"]["decision"]["legal_actions"][0]},
            format="json",
        )
    assert response.status_code == 200, response.content
    assert time.monotonic() - started < 5  # no retrying for long against a server that is gone
    assert _errors("game_action") == before + 1
    assert any("game_action" in r.getMessage() and "let through" in r.getMessage() for r in caplog.records)
    # a bad action is still judged by the game, not by the throttle
    refused = mover.post(f"/api/games/{gid}/actions/", {"version": -1, "action": {}}, format="json")
    assert refused.status_code in (400, 409) and refused.json()["status"] == refused.status_code


def test_what_needs_the_cache_to_be_right_is_a_503_with_retry_after_during_the_outage(
    redis_cache, two_player_game, api, alice  # noqa: F811
):
    gid = two_player_game["id"]
    redis_cache()
    for response in (
        api(alice).get(f"/api/games/{gid}/events/stream/?timeout=0.1"),  # the user's stream slots
        api(alice).post(f"/api/games/{gid}/events/stream-ticket/", format="json"),
        api(alice).get("/api/nations/"),  # the catalog's cached answers
    ):
        assert response.status_code == 503, (response.status_code, response.content[:300])
        body = response.json()
        assert body["status"] == 503 and body["code"] == "cache_unavailable" and body["detail"]
        assert response["Retry-After"] == "5"
