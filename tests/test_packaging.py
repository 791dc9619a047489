"""The install is reproducible and quiet: every dependency is pinned with hashes in requirements.lock (what
`make venv`, `make run`, `make test` and CI install from), building the project's metadata warns about
nothing, and the files SQLite writes beside its database are not offered to git."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = ROOT / "requirements.lock"


def locked() -> dict[str, tuple[Version, list[str]]]:
    """name -> (pinned version, hashes) of every entry of the lock (pip's hash-checking format)."""
    text = LOCK.read_text(encoding="utf-8").replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        match = re.match(r"([A-Za-z0-9._-]+)==([^ ;]+)", line)
        assert match, f"not pinned with ==: {line!r}"
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", line)
        pins[canonicalize_name(match[1])] = (Version(match[2]), hashes)
    return pins


def declared() -> list[Requirement]:
    """Runtime dependencies, every extra (dev, bench) and the build backend, as pyproject.toml states them."""
    project = PYPROJECT["project"]
    texts = list(project["dependencies"]) + list(PYPROJECT["build-system"]["requires"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    return [Requirement(t) for t in texts]


def test_every_declared_dependency_is_pinned_with_hashes_in_the_lock():
    pins = locked()
    for req in declared():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in requirements.lock: run `make lock`"
        version, hashes = pins[name]
        assert req.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {req.name}=={version}, outside {req.specifier}: run `make lock`"
        )
        assert hashes, f"{req.name} has no hash in requirements.lock"
    # the lock is complete: every pin has hashes (pip --require-hashes refuses the file otherwise), extras
    # included (e.g. psycopg[pool] -> psycopg-pool), and the parallel test runner is among them
    assert all(hashes for _, hashes in pins.values())
    assert {"psycopg-pool", "pytest-xdist", "setuptools", "pip"} <= set(pins)


def test_make_installs_from_the_lock_with_hashes_and_the_project_without_dependencies():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "$(LOCK)" in stamp.splitlines()[0]  # a changed lock reinstalls; an unchanged one does not
    assert "--require-hashes -r $(LOCK)" in stamp
    assert "--no-deps" in stamp and "-e ." in stamp
    assert re.search(r"^lock:", makefile, re.M)
    assert "\nLOCK := requirements.lock\n" in makefile


def test_building_the_project_metadata_warns_about_nothing(tmp_path):
    """pip used to print setuptools' `project.license` deprecation (a TOML table) on every install."""
    code = (
        "import sys; from setuptools import build_meta; "
        "print(build_meta.prepare_metadata_for_build_editable(sys.argv[1]))"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code, str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Warning" not in done.stderr, done.stderr[-3000:]
    metadata = (tmp_path / done.stdout.split()[-1] / "METADATA").read_text(encoding="utf-8")
    assert "License-Expression: MIT" in metadata


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize(
    "path", ["db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "db.sqlite3-journal", "test.sqlite3-wal"]
)
def test_sqlite_and_its_side_files_are_ignored_by_git(path):
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT, timeout=30)
    assert done.returncode == 0, f"{path} is not ignored (.gitignore)"
