"""The rulebook's sentences, extracted from `../shared/seeds/the-war-rules.txt` (the body between the title
and "Back to top"), and the README's sentence table: `python -m tests.engine.the_war.sentences --write`
regenerates the table from SENTENCE_MAP (test_sentences.py fails on a sentence without an entry)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from fixtures.tools import seeds

ROOT = Path(__file__).resolve().parents[3]
MAP_FILE = Path(__file__).with_name("sentence_map.json")
README = ROOT / "games/engine/the_war/README.md"
BEGIN, END = "<!-- sentences:begin -->", "<!-- sentences:end -->"
ABBREV = re.compile(r"\b(e\.g|vs|etc|i\.e|hv|No)\.$")


def rulebook_text() -> str:
    path = seeds.seed("the-war-rules.txt")  # ../shared/seeds/ beside the repository (or $BATTLECARDS_SEEDS)
    if path is None:
        raise FileNotFoundError(f"the-war-rules.txt is not in {seeds.where()}")
    return path.read_text(encoding="utf-8")


def sentences() -> list[str]:
    text = rulebook_text()
    body = text[text.index('The "War" game system is devoted'):text.index("Back to top")]
    out: list[str] = []
    for para in (p.strip() for p in body.split("\n")):
        if not para:
            continue
        parts = re.split(r'(?<=[.!?:])\s+(?=[A-Z"“(0-9{-])', para)
        buf = ""
        for part in parts:
            buf = f"{buf} {part}".strip() if buf else part
            if ABBREV.search(buf):
                continue
            out.append(buf)
            buf = ""
        if buf:
            out.append(buf)
    return out


def sentence_ids() -> list[tuple[str, str]]:
    return [(f"S{i + 1:03d}", s) for i, s in enumerate(sentences())]


def load_map() -> dict[str, str]:
    return json.loads(MAP_FILE.read_text())


def table() -> str:
    entries = load_map()
    rows = ["| id | sentence (start) | entry |", "|---|---|---|"]
    for sid, s in sentence_ids():
        short = s if len(s) <= 70 else s[:67] + "..."
        short = short.replace("|", "/")
        rows.append(f"| {sid} | {short} | {entries.get(sid, '**MISSING**')} |")
    return "\n".join(rows)


def write_readme() -> None:
    text = README.read_text()
    a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
    README.write_text(text[:a] + "\n" + table() + "\n" + text[b:])


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_readme()
    elif "--list" in sys.argv:
        for sid, s in sentence_ids():
            print(sid, s[:150])
