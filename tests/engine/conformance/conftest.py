"""The conformance suite's deep tier (SLOW_SEEDS: 48 more seeds a game, views checked every fifth ply) runs
only when asked for: `pytest -m slow tests/engine/conformance` (or any -m expression selecting `slow`).
`make test` runs the default tier (DEFAULT_SEEDS, 20 a game) on both databases within its time budget."""

from __future__ import annotations

import pytest


def _deep_asked(config: pytest.Config) -> bool:
    expression = (config.getoption("markexpr", default="") or "").replace("not slow", "")
    return "slow" in expression


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _deep_asked(config):
        return
    here = __file__.rsplit("/", 1)[0]
    # the tier from the parameter id (the nodeid may end in pytest-xdist's "@<group>" under --dist loadgroup)
    deep = [i for i in items if str(i.path).startswith(here)
            and getattr(getattr(i, "callspec", None), "id", "").endswith("-slow")]
    if deep:
        config.hook.pytest_deselected(items=deep)
        items[:] = [i for i in items if i not in set(deep)]
