"""Fixtures of the simulations tests: users and clients (from the games tests), runner modes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.games.conftest import alice, api, bob, make_user, token_client  # noqa: F401

GB = "gb-we-starter"  # allies
DE = "de-we-starter"  # axis


def sim_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "deck_a": {"starter": GB},
        "deck_b": {"starter": DE},
        "games": 6,
        "seed": 42,
        "bots": {"a": "random", "b": "random"},
    }
    body.update(overrides)
    return body


@pytest.fixture
def inline_runner(settings) -> None:
    """Jobs run at once, when their transaction commits (capture with django_capture_on_commit_callbacks)."""
    settings.SIMULATION_RUNNER = "inline"
    settings.SIMULATION_CHUNK_GAMES = 2


@pytest.fixture
def submit(api, inline_runner, catalog_rows, django_capture_on_commit_callbacks) -> Callable[..., Any]:  # noqa: F811
    """POST a job as `user` and run it to the end (inline); returns the 202 response."""

    def run(user: Any, path: str = "/api/simulations/", **body: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return api(user).post(path, body, format="json")

    return run


@pytest.fixture(autouse=True)
def _runner_threads_end_with_their_test():
    """A background runner (no broker) finishes before the next test flushes the database under it."""
    yield
    import threading

    from simulations.runner import RUNNER_THREAD_PREFIX

    for thread in threading.enumerate():
        if thread.name.startswith(RUNNER_THREAD_PREFIX):
            thread.join(60)
