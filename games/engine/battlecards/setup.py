"""Game set-up values: Options and GameSetup (frozen, JSON round-trip)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import SetupError

SEATS = ("axis", "allies")  # the two sides; also the two seats (armies) of a classic two-player game
SIDES = SEATS
MAX_ARMIES_PER_SIDE = 4  # 2 to 8 players (FAQ Optional Rules 3 and 4: "3, 5, or even 7 players")
_ARMY = re.compile(r"^(axis|allies)-([1-9])$")


def side_of(army: str) -> str:
    """The side of an army id: "axis" / "allies" (classic) or "axis-2", "allies-1" (team games)."""
    return army.split("-", 1)[0]


def is_army(army: Any) -> bool:
    return isinstance(army, str) and (army in SEATS or _ARMY.match(army) is not None)


def army_order(armies: Any) -> tuple[str, ...]:
    """The turn order of a game's armies (FAQ Optional Rules 3 and 4).

    Classic: axis, then allies. Team play (OR3): zigzag from the axis 1st army: axis-1, allies-1, axis-2,
    allies-2 ... Uneven teams (OR4): "the advantaged side (the side with the most players) goes first", and
    the turns interleave as in the FAQ's 3-player example (1st British Army, Germans, 2nd British Army):
    big-1, small-1, big-2, small-2, ..., then the big side's remaining armies."""
    armies = list(armies)
    if set(armies) <= set(SEATS):
        return tuple(s for s in SEATS if s in armies)
    by_side = {s: sorted((a for a in armies if side_of(a) == s), key=lambda a: int(a.split("-")[1]))
               for s in SEATS}
    first, second = SEATS
    if len(by_side["allies"]) > len(by_side["axis"]):
        first, second = "allies", "axis"
    out: list[str] = []
    for i in range(max(len(v) for v in by_side.values())):
        for s in (first, second):
            if i < len(by_side[s]):
                out.append(by_side[s][i])
    return tuple(out)


def check_armies(armies: Any) -> None:
    """2-8 armies: classic {axis, allies}, or axis-1..axis-N and allies-1..allies-M (1-4 each, from 1)."""
    armies = list(armies)
    if sorted(armies) == sorted(SEATS):
        return
    if not all(isinstance(a, str) and _ARMY.match(a) for a in armies):
        raise SetupError(f"armies must be 'axis' and 'allies', or 'axis-N' / 'allies-N': {armies}",
                              code="malformed_setup")
    counts = []
    for s in SEATS:
        nums = sorted(int(a.split("-")[1]) for a in armies if side_of(a) == s)
        if not nums or nums != list(range(1, len(nums) + 1)) or len(nums) > MAX_ARMIES_PER_SIDE:
            raise SetupError(f"the {s} side needs armies {s}-1 .. {s}-N (1 to {MAX_ARMIES_PER_SIDE})",
                                  code="malformed_setup")
        counts.append(len(nums))
    if abs(counts[0] - counts[1]) > 1:
        # OR3: "any multiple of 2 players ... each side gets an equal number"; OR4: "3, 5, or even 7 players"
        raise SetupError(f"{counts[0]} axis v {counts[1]} allied armies: teams are equal (optional "
                              "rule 3) or one army apart (optional rule 4)", code="malformed_setup")


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
        # dataclasses.asdict's recursive deep copy for fields that are all booleans, integers or None: the
        # same dict without it (written with every stored state and shown in every view)
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        data = dict(data or {})
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise SetupError(f"unknown options {sorted(unknown)}", code="malformed_setup")
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

    @property
    def armies(self) -> tuple[str, ...]:
        """The armies (seats) in turn order: ("axis", "allies") in a classic game."""
        return army_order(self.nations)

    @property
    def classic(self) -> bool:
        return set(self.nations) == set(SEATS)

    def armies_of(self, side: str) -> tuple[str, ...]:
        return tuple(sorted((a for a in self.nations if side_of(a) == side), key=_army_number))

    @property
    def uneven(self) -> bool:
        """Optional Rule 4: the sides have different numbers of armies."""
        return len(self.armies_of("axis")) != len(self.armies_of("allies"))

    def to_json(self) -> dict[str, Any]:
        armies = self.armies
        return {
            "seed": self.seed,
            "decks": {seat: list(self.decks[seat]) for seat in armies},
            "nations": {seat: self.nations[seat] for seat in armies},
            "conflict_deck": list(self.conflict_deck),
            "options": self.options.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        try:
            armies = list(data["nations"])
            check_armies(armies)
            return cls(
                seed=int(data["seed"]),
                decks={seat: tuple(str(c) for c in data["decks"][seat]) for seat in army_order(armies)},
                nations={seat: str(data["nations"][seat]) for seat in army_order(armies)},
                conflict_deck=tuple(str(c) for c in data["conflict_deck"]),
                options=Options.from_json(data.get("options")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"bad game setup: {exc}", code="malformed_setup") from exc


def _army_number(army: str) -> int:
    return int(army.split("-")[1]) if "-" in army else 0


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
            raise SetupError(f"theater {theater!r} has no {seat} starter deck", code="malformed_setup")
        s = catalog.sets[code]
        decks[seat] = tuple(c for c, n in sorted(s.arsenal_counts().items()) for _ in range(n))
        nations[seat] = s.nation
    return GameSetup(seed=seed, decks=decks, nations=nations,
                     conflict_deck=tuple(catalog.conflict_deck(theater, set_codes=conflict_sets)),
                     options=options or Options())


def nation_starters(catalog: Any, nation: str) -> list[str]:
    """The starter arsenal sets of a nation, by code (Germany has one per theater)."""
    return [code for code in sorted(catalog.sets)
            if catalog.sets[code].kind == "starter" and catalog.sets[code].nation == nation]


def _starter_for(catalog: Any, entry: str, theaters: list[str]) -> str:
    """An army's starter set: a starter set code as given, else its nation's starter in one of `theaters`
    (the first by code when none is), e.g. "DE" beside "GB" -> de-we-starter, beside "RU" -> de-ef-starter."""
    s = catalog.sets.get(entry)
    if s is not None and s.kind == "starter" and s.nation is not None:
        return entry
    found = nation_starters(catalog, entry)
    if not found:
        raise SetupError(f"{entry!r} is neither a nation with a starter deck nor a starter set",
                              code="malformed_setup")
    return next((c for c in found if catalog.sets[c].theater in theaters), found[0])


def team_setup(catalog: Any, seed: int, *, axis: list[str] | tuple[str, ...],
               allies: list[str] | tuple[str, ...], theaters: tuple[str, ...] | None = None,
               options: Options | None = None) -> GameSetup:
    """A team, uneven or combined game from starter decks: one army per entry of each side, a nation code
    ("DE") or a starter set code ("de-ef-starter"); a nation with starters in several theaters takes the one
    in `theaters`, else in a theater of the other armies' starters.

    FAQ OR3: "one starter set for each set of two players" of a nation, every set but the first without the
    cards Optional Rule 2 removes (the leaders and generals: one of each per arsenal deck); the odd army of a
    pair brings no cards of its own and draws from its nation's common arsenal deck. The conflict deck is the
    theaters' decks added together ("COMBINING SETS"): by default every theater of the nations' starters."""
    if not axis or not allies:
        raise SetupError("each side needs at least one army", code="malformed_setup")
    decks: dict[str, tuple[str, ...]] = {}
    nations: dict[str, str] = {}
    seen: dict[tuple[str, str], int] = {}
    found_theaters: list[str] = list(theaters or ())
    sides = (("axis", list(axis)), ("allies", list(allies)))
    for _side, entries in sides:  # the theaters of the armies whose starter is certain
        for entry in entries:
            starters = [entry] if entry in catalog.sets else nation_starters(catalog, entry)
            if len(starters) == 1 and catalog.sets[starters[0]].theater not in found_theaters:
                found_theaters.append(catalog.sets[starters[0]].theater)
    for side, entries in sides:
        for i, entry in enumerate(entries, start=1):
            army = f"{side}-{i}"
            code = _starter_for(catalog, entry, found_theaters)
            s = catalog.sets[code]
            nation = s.nation
            if catalog.side_of(nation) != side:
                raise SetupError(f"{nation} fights for {catalog.side_of(nation)}, not {side}",
                                      code="malformed_setup")
            if s.theater not in found_theaters:
                found_theaters.append(s.theater)
            k = seen.get((side, nation), 0)
            seen[(side, nation)] = k + 1
            nations[army] = nation
            if k % 2:
                decks[army] = ()  # the second player of a pair shares the pair's starter set
                continue
            cards = [c for c, n in sorted(s.arsenal_counts().items()) for _ in range(n)]
            if k:  # Optional Rule 2: remove the leaders and generals from every extra set
                cards = [c for c in cards
                         if not (catalog.arsenal[c].is_general or catalog.arsenal[c].is_leader)]
            decks[army] = tuple(cards)
    check_armies(nations)
    conflict: list[str] = []
    for theater in theaters or sorted(found_theaters, key=("WE", "PAC", "EF").index):
        conflict.extend(catalog.conflict_deck(theater, set_codes=tuple(sorted(
            c for c, s in catalog.sets.items() if s.kind == "conflict" and s.theater == theater))))
    return GameSetup(seed=seed, decks=decks, nations=nations, conflict_deck=tuple(conflict),
                     options=options or Options())
