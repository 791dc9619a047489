"""Coverage of the rulebook is measured: every sentence has an entry (README.md, the sentence table)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import require_seed

from . import sentences

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _rulebook():
    require_seed("the-war-rules.txt")  # skipped (failed under CI=true) without the rules document


def test_every_rule_sentence_has_an_entry():
    entries = sentences.load_map()
    ids = [sid for sid, _ in sentences.sentence_ids()]
    missing = [sid for sid in ids if not entries.get(sid)]
    assert not missing, f"sentences without an entry: {missing}"
    assert set(entries) == set(ids), "sentence_map.json names sentences the rulebook does not have"


def test_every_named_test_exists():
    names: set[str] = set()
    for f in HERE.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", f.read_text(), re.M))
    unknown = sorted({v for v in sentences.load_map().values() if v.startswith("test_") and v not in names})
    assert not unknown, f"entries naming no test: {unknown}"


def test_every_entry_is_a_test_a_description_a_part1_test_a_ruling_or_a_gap():
    for sid, entry in sentences.load_map().items():
        assert re.match(r"^(test_\w+|description|part 1: tests/\S+\.py|ruling R\d+.*|gap: .+)$", entry), sid
        if entry.startswith("part 1: "):
            assert (sentences.ROOT / entry.removeprefix("part 1: ")).exists(), entry


def test_the_readme_table_is_up_to_date():
    text = sentences.README.read_text()
    block = text[text.index(sentences.BEGIN) + len(sentences.BEGIN):text.index(sentences.END)]
    assert block.strip() == sentences.table().strip(), "run python -m tests.engine.the_war.sentences --write"
