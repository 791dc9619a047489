"""`make test` runs on pytest-xdist workers with `--dist loadgroup`: tests marked `xdist_group(name)`
must share one worker, or each worker repeats the group's shared work (the conformance suite plays each
game's seeds once per worker that runs one of its properties; the browser tests share one Chromium).
pytest 9.2 silently broke this (pytest-dev/pytest-xdist#1386, hence the pin in pyproject.toml): one
group of tests on two workers shows it.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GROUPED = '''
import os
from pathlib import Path

import pytest


@pytest.mark.xdist_group(name="one")
@pytest.mark.parametrize("n", range(8))
def test_grouped(n):
    with Path(os.environ["XDIST_GROUP_OUT"]).open("a") as out:
        out.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
'''


def test_a_group_of_tests_runs_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    out = tmp_path / "workers.txt"
    env = {**os.environ, "XDIST_GROUP_OUT": str(out), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    args = ["-n", "2", "--dist", "loadgroup", "-p", "xdist", "-p", "no:cacheprovider", "-q",
            "--rootdir", str(tmp_path), "-c", os.devnull, str(tmp_path)]
    done = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    workers = Path(out).read_text().split()
    assert len(workers) == 8
    assert len(set(workers)) == 1, f"the group ran on {sorted(set(workers))}"
