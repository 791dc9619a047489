from __future__ import annotations

import pytest

from games.engine import load_catalog_dir


@pytest.fixture(scope="session")
def real_catalog():
    return load_catalog_dir()
