"""A checkout anywhere works on its own: `make test` gives each checkout its own PostgreSQL database, the
tests that read the rules documents (outside the repository, ../shared/seeds/) skip with a clear reason when
they are missing (and fail under CI=true, so CI never skips them silently), and the docs cite no absolute
path of one machine."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from fixtures.tools import seeds
from tests.conftest import require_seed

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- make test: one database per checkout


def make_test_database(checkout: Path) -> str:
    """The database `make test` would use in `checkout` (dry run: nothing is installed or run)."""
    for name in ("Makefile", "pyproject.toml", "requirements.lock"):
        shutil.copy(ROOT / name, checkout / name)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "-n", "test"], cwd=checkout, capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    names = set(re.findall(r"postgres://postgres@127\.0\.0\.1:5432/(\w+)", done.stdout))
    assert len(names) == 1, done.stdout
    return names.pop()


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_two_checkouts_get_two_test_databases_and_one_checkout_always_the_same(tmp_path):
    first, second = tmp_path / "one" / "battlecards", tmp_path / "two" / "battlecards"
    first.mkdir(parents=True)
    second.mkdir(parents=True)
    name = make_test_database(first)
    assert re.fullmatch(r"battlecards_[0-9a-f]{8}", name)
    assert make_test_database(second) != name  # the same directory name elsewhere: another database
    assert make_test_database(first) == name  # stable: pytest-django reuses nothing it should not


# ------------------------------------------------------------------------ the rules documents (seeds)


def test_a_missing_rules_document_skips_the_test_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv(seeds.ENV, str(tmp_path / "nowhere"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        require_seed("battlefront-rules.txt")
    reason = str(skipped.value)
    assert "battlefront-rules.txt" in reason and "../shared/seeds/" in reason and seeds.ENV in reason


@pytest.mark.parametrize("ci", ["true", "1"])
def test_under_ci_a_missing_rules_document_fails_instead(monkeypatch, tmp_path, ci):
    monkeypatch.setenv(seeds.ENV, str(tmp_path / "nowhere"))
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require_seed("battlefront-rules.txt")


def test_the_rules_documents_are_found_where_they_are_named(monkeypatch, tmp_path):
    (tmp_path / "battlefront-rules.txt").write_text("CARD LIST\n", encoding="utf-8")
    monkeypatch.setenv(seeds.ENV, str(tmp_path))
    assert require_seed("battlefront-rules.txt") == tmp_path / "battlefront-rules.txt"


def test_beside_the_checkout_or_beside_the_main_checkout_of_a_git_worktree(monkeypatch, tmp_path):
    monkeypatch.delenv(seeds.ENV, raising=False)
    main, worktree = tmp_path / "main", tmp_path / "wt" / "feature"
    (tmp_path / "shared" / "seeds").mkdir(parents=True)
    (tmp_path / "shared" / "seeds" / "battlecards-faq-v1.6.txt").write_text("FAQ\n", encoding="utf-8")
    gitdir = main / ".git" / "worktrees" / "feature"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n", encoding="utf-8")
    worktree.mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {gitdir}\n", encoding="utf-8")
    # the main checkout: ../shared/seeds/; the worktree (elsewhere): beside its main checkout
    faq = "battlecards-faq-v1.6.txt"
    assert seeds.seed(faq, root=main) == tmp_path / "shared" / "seeds" / faq
    assert seeds.seed(faq, root=worktree) == tmp_path / "shared" / "seeds" / faq
    # a plain clone with nothing beside it: not found
    lone = tmp_path / "elsewhere" / "clone"
    lone.mkdir(parents=True)
    assert seeds.seeds_dir(root=lone) is None and seeds.seed("battlecards-faq-v1.6.txt", root=lone) is None


# ----------------------------------------------------------------------------------------------- docs

MACHINE_PATH = re.compile(r"(?<![\w.~:/-])/(?:work|home|root|Users|mnt)/[\w.-]+")


def test_the_docs_cite_no_absolute_path_of_one_machine():
    docs = [p for p in ROOT.rglob("*.md") if not any(s.startswith(".") for s in p.relative_to(ROOT).parts)]
    found = {
        f"{doc.relative_to(ROOT)}:{n}: {m[0]}"
        for doc in docs
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for m in MACHINE_PATH.finditer(line)
    }
    assert len(docs) >= 5
    assert not found, sorted(found)
