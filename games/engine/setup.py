"""Game set-up values: Options and GameSetup (frozen, JSON round-trip)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .core.errors import MalformedAction

SEATS = ("axis", "allies")


@dataclass(frozen=True, slots=True)
class Options:
    # FAQ Optional Rule 1: draw 9 and deploy 6 at set-up instead of 6 and 3.
    larger_standing_armies: bool = False
    # FAQ Optional Rule 5 (Advanced Battlecards): won battlecards become deployed stacks.
    occupying_force: bool = False
    # Termination guard (estimated; see README): the game ends on points after this many turns.
    max_turns: int = 400
    # No round limit by the rules (STALEMATE; "A battle ends when all of the involved forces on one side have
    # been destroyed or withdrawn"). Self-play and simulations MAY cap a battle at this many rounds (then
    # settled as a stalemate, counted in result["round_cap_battles"]); games created through the API never do.
    max_battle_rounds: int | None = None

    @property
    def initial_draw(self) -> int:
        return 9 if self.larger_standing_armies else 6

    @property
    def initial_deploy(self) -> int:
        return 6 if self.larger_standing_armies else 3

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        data = dict(data or {})
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise MalformedAction(f"unknown options {sorted(unknown)}", code="malformed_setup")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class GameSetup:
    seed: int
    decks: dict[str, tuple[str, ...]]
    nations: dict[str, str]
    conflict_deck: tuple[str, ...]
    options: Options = field(default_factory=Options)

    def __hash__(self) -> int:  # dict fields: hash the JSON form
        return hash(repr(self.to_json()))

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "decks": {seat: list(self.decks[seat]) for seat in SEATS},
            "nations": {seat: self.nations[seat] for seat in SEATS},
            "conflict_deck": list(self.conflict_deck),
            "options": self.options.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        try:
            return cls(
                seed=int(data["seed"]),
                decks={seat: tuple(str(c) for c in data["decks"][seat]) for seat in SEATS},
                nations={seat: str(data["nations"][seat]) for seat in SEATS},
                conflict_deck=tuple(str(c) for c in data["conflict_deck"]),
                options=Options.from_json(data.get("options")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedAction(f"bad game setup: {exc}", code="malformed_setup") from exc


def theater_starters(catalog: Any, theater: str) -> dict[str, str]:
    """The starter arsenal set of each side in a theater (the first by code when there are several)."""
    out: dict[str, str] = {}
    for code in sorted(catalog.sets):
        s = catalog.sets[code]
        if s.kind == "starter" and s.theater == theater and s.nation is not None:
            out.setdefault(catalog.side_of(s.nation), code)
    return out


def starter_setup(catalog: Any, seed: int, *, axis_set: str | None = None,
                  allies_set: str | None = None,
                  conflict_sets: tuple[str, ...] | None = None, theater: str = "WE",
                  options: Options | None = None) -> GameSetup:
    """The standard game: two starter decks (counts from the catalog) and a theater's conflict deck.

    Any theater: the starters and the starter conflict deck default to the theater's own (Western Europe:
    de-we-starter, gb-we-starter, we-conflict-starter)."""
    starters = theater_starters(catalog, theater)
    if conflict_sets is None:
        conflict_sets = tuple(sorted(c for c, s in catalog.sets.items()
                                     if s.kind == "conflict" and s.theater == theater))
    decks = {}
    nations = {}
    chosen = {"axis": axis_set or starters.get("axis"), "allies": allies_set or starters.get("allies")}
    for seat, code in chosen.items():
        if code is None:
            raise MalformedAction(f"theater {theater!r} has no {seat} starter deck", code="malformed_setup")
        s = catalog.sets[code]
        decks[seat] = tuple(c for c, n in sorted(s.arsenal_counts().items()) for _ in range(n))
        nations[seat] = s.nation
    return GameSetup(seed=seed, decks=decks, nations=nations,
                     conflict_deck=tuple(catalog.conflict_deck(theater, set_codes=conflict_sets)),
                     options=options or Options())
