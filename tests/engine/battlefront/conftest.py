from __future__ import annotations

import pytest

from games.engine.battlefront import load_cards


@pytest.fixture(scope="session")
def catalog():
    return load_cards()
