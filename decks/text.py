"""Plain-text deck lists: one line per card, "3 Tiger I Tank". Pure Python (no Django).

Import accepts, per line, a count and a card: "3 Tiger I Tank", "3x Tiger I Tank", "Tiger I Tank x3"
or a bare name (count 1). The card may be its code, its name or a name printed on a set list
(case-insensitive). Blank lines and lines starting with "#" or "//" are ignored, except the header lines
"# name: ...", "# nation: XX", "# game: ..." and "# army: ..." (read_headers), which give the deck's name,
nation (The War: army) and game when a request leaves them out. The same card on several lines is added up.
Export writes those headers, then names, and the code instead wherever a name would not read back as the
same card for the deck's nation, so export -> import always round-trips, with nothing else given.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from vocabulary.battlecards import ArsenalCardDef, Catalog
from vocabulary.the_war import TheWarCatalog

MAX_LINE_COUNT = 99
# Bounds of the work one import may cost (a hostile list of 16,000 unreadable lines took 85 s of close-name
# suggestions): at most MAX_IMPORT_LINES non-blank lines, lines of at most MAX_LINE_LENGTH characters,
# suggestions for the first MAX_SUGGESTED_LINES unknown names only (each compares at most
# MAX_SUGGEST_QUERY characters), and the first MAX_REPORTED_ERRORS line errors in the answer.
MAX_IMPORT_LINES = 1000
MAX_LINE_LENGTH = 200
MAX_SUGGESTED_LINES = 10
MAX_SUGGEST_QUERY = 60
MAX_REPORTED_ERRORS = 50
_LEADING = re.compile(r"^(?P<count>\d+)\s*[xX]?\s+(?P<name>.+)$")
_TRAILING = re.compile(r"^(?P<name>.+?)\s+[xX]\s*(?P<count>\d+)$")
_HEADER = re.compile(r"^#\s*(?P<key>name|nation|game|army)\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE)


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


@dataclass(frozen=True, slots=True)
class LineError:
    line: int
    text: str
    code: str  # unknown_card / ambiguous_card / invalid_count / line_too_long
    message: str
    suggestions: tuple[str, ...] = ()
    name: str = ""  # the card name or code the line gives (unknown_card), not part of the answer

    def to_dict(self) -> dict:
        return {
            "line": self.line,
            "text": self.text,
            "code": self.code,
            "message": self.message,
            "suggestions": list(self.suggestions),
        }


@dataclass
class ParsedDeck:
    entries: dict[str, int] = field(default_factory=dict)
    errors: list[LineError] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TextCard:
    """What a text list needs of a card: its code, name, side ("nation": The War's army) and kind."""

    code: str
    name: str
    nation: str | None
    kind: str


@dataclass(frozen=True, slots=True)
class TextCatalog:
    """Another game's cards in the shape NameIndex, parse_deck_text and export_deck_text read."""

    arsenal: Mapping[str, TextCard]
    sets: Mapping[str, object] = field(default_factory=dict)


def the_war_text_catalog(catalog: TheWarCatalog) -> TextCatalog:
    """The War's cards by code and title (a card's army is its side; its category sorts the export)."""
    return TextCatalog(
        arsenal={
            card.code: TextCard(
                card.code, card.title, card.army.value if card.army else None, card.category.value
            )
            for card in catalog.cards.values()
        }
    )


class NameIndex:
    """Every way to name an arsenal card: code, name and printed names, normalised."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        # key -> {code: rank}; rank 0 = the card code, 1 = the card name, 2 = a name printed on a set list.
        self.by_key: dict[str, dict[str, int]] = {}
        for card in catalog.arsenal.values():
            self._add(card.code, card.code, 0)
            self._add(card.name, card.code, 1)
        for card_set in catalog.sets.values():
            for entry in card_set.entries:
                if entry.printed_name and entry.card in catalog.arsenal:
                    self._add(entry.printed_name, entry.card, 2)

    def _add(self, text: str, code: str, rank: int) -> None:
        codes = self.by_key.setdefault(_norm(text), {})
        codes[code] = min(rank, codes.get(code, rank))

    def resolve(self, text: str, nation: str | None) -> tuple[str | None, tuple[str, ...]]:
        """(code, ()) for the one card `text` names, else (None, candidates).

        A code beats a card name, which beats a printed name ("76mm Field Cannon" is printed for both the
        Soviet and the Ukrainian card, but is the name of the Soviet one); then the deck's nation wins."""
        ranked = self.by_key.get(_norm(text), {})
        if not ranked:
            return None, ()
        pools = [{c for c, r in ranked.items() if r == best} for best in sorted(set(ranked.values()))]
        for pool in pools:
            if len(pool) == 1:
                return next(iter(pool)), ()
            if nation is not None:
                own = {c for c in pool if self.catalog.arsenal[c].nation == nation}
                if len(own) == 1:
                    return next(iter(own)), ()
            if pool:
                return None, tuple(sorted(pool))
        return None, tuple(sorted(ranked))

    def suggest(self, text: str, nation: str | None, n: int = 3) -> tuple[str, ...]:
        query = _norm(text)[:MAX_SUGGEST_QUERY]
        # The query is the cached side (seq2), each key the varying one: difflib indexes seq2 once.
        matcher = difflib.SequenceMatcher(b=query, autojunk=False)

        cutoff = 0.6

        def likeness(key: str, floor: float) -> float:
            # difflib's cheap upper bounds first: most keys are dismissed without the quadratic ratio().
            matcher.set_seq1(key)
            if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
                return 0.0
            return matcher.ratio()

        def score(key: str) -> float:
            # Whole-name likeness, or likeness to the start of the name ("tigr 1" ~ "tiger i tank").
            whole = likeness(key, cutoff)
            return max(whole, 0.95 * likeness(key[: len(query) + 1], cutoff / 0.95))

        scored = sorted(((score(k), k) for k in self.by_key), reverse=True)
        keys = [k for s, k in scored[: n * 3] if s >= cutoff]
        out: list[str] = []
        own_first = sorted(
            keys, key=lambda k: not any(self.catalog.arsenal[c].nation == nation for c in self.by_key[k])
        )
        for key in own_first:
            for code in sorted(self.by_key[key]):
                name = self.catalog.arsenal[code].name
                label = f"{name} ({code})"
                if label not in out:
                    out.append(label)
        return tuple(out[:n])


def read_headers(text: str) -> dict[str, str]:
    """The "# name: ...", "# nation: XX", "# game: ..." and "# army: ..." header lines of a list (the first of
    each; empty ones ignored)."""
    headers: dict[str, str] = {}
    for raw in text.splitlines():
        match = _HEADER.match(raw.strip())
        if match and match.group("value"):
            headers.setdefault(match.group("key").lower(), match.group("value"))
    return headers


def count_lines(text: str) -> int:
    """Non-blank lines of a deck list (compare with MAX_IMPORT_LINES before parsing)."""
    return sum(1 for line in text.splitlines() if line.strip())


def parse_deck_text(
    catalog: Catalog, text: str, *, nation: str | None = None, index: NameIndex | None = None
) -> ParsedDeck:
    index = index or NameIndex(catalog)
    parsed = ParsedDeck()
    counts: Counter[str] = Counter()
    suggested = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        if len(line) > MAX_LINE_LENGTH:
            parsed.errors.append(
                LineError(
                    number,
                    raw[:MAX_LINE_LENGTH],
                    "line_too_long",
                    f"A line may be at most {MAX_LINE_LENGTH} characters.",
                )
            )
            continue
        match = _LEADING.match(line) or _TRAILING.match(line)
        if match:
            count, name = int(match.group("count")), match.group("name").strip()
        else:
            count, name = 1, line
        code, candidates = index.resolve(name, nation)
        if code is None and match:
            # A name that starts with digits ("17 Pound Gun") reads as a count: try the whole line as a name.
            whole, whole_candidates = index.resolve(line, nation)
            if whole is not None:
                code, count, candidates = whole, 1, ()
            else:
                candidates = candidates or whole_candidates
        if code is None:
            if candidates:
                parsed.errors.append(
                    LineError(
                        number,
                        raw,
                        "ambiguous_card",
                        f"{name!r} names several cards: use one of their codes.",
                        tuple(f"{catalog.arsenal[c].name} ({c})" for c in candidates),
                    )
                )
            else:
                suggested += 1
                parsed.errors.append(
                    LineError(
                        number,
                        raw,
                        "unknown_card",
                        f"No card is called {name!r}.",
                        index.suggest(name, nation) if suggested <= MAX_SUGGESTED_LINES else (),
                        name,
                    )
                )
            continue
        if count < 1 or count > MAX_LINE_COUNT:
            parsed.errors.append(
                LineError(number, raw, "invalid_count", f"A count must be between 1 and {MAX_LINE_COUNT}.")
            )
            continue
        counts[code] += count
    parsed.entries = dict(counts)
    return parsed


def _label(card: ArsenalCardDef, index: NameIndex, nation: str) -> str:
    code, _ = index.resolve(card.name, nation)
    return card.name if code == card.code else card.code


def export_deck_text(
    catalog: Catalog,
    entries: Mapping[str, int],
    *,
    nation: str,
    title: str = "",
    index: NameIndex | None = None,
    game: str | None = None,
    side_header: str = "nation",
) -> str:
    """One line per card, by stack then name; unknown codes are written as they are.

    `game` given: a "# game: ..." header too. `side_header`: what the deck's side is called ("army" in The
    War); a Battlecards list keeps "# name" and "# nation" first, then "# game"."""
    index = index or NameIndex(catalog)
    title = " ".join(title.split())  # one header line, whatever the name holds
    lines = [f"# name: {title}"] if title else []
    if side_header == "nation":
        lines.append(f"# nation: {nation}")
        if game:
            lines.append(f"# game: {game}")
    else:
        if game:
            lines.append(f"# game: {game}")
        lines.append(f"# {side_header}: {nation}")

    def sort_key(item: tuple[str, int]) -> tuple:
        card = catalog.arsenal.get(item[0])
        return ("~", item[0]) if card is None else (card.kind, card.name.casefold(), card.code)

    for code, count in sorted(entries.items(), key=sort_key):
        card = catalog.arsenal.get(code)
        lines.append(f"{count} {_label(card, index, nation) if card else code}")
    return "\n".join(lines) + "\n"
