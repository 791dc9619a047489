"""Hex geometry of a Tide of Iron board (pure): hexes, adjacency, distance, the board's edge and half hexes,
and the drift direction read from the red die against the north directional marker.

Readings (the text states none of the geometry; see README.md, "Readings"):

* Hexes are pointy-topped, in rows. A hex is named "c,r" (column, row; row 0 at the top). A board of
  `width` x `height` has `width` full hexes in every even row (columns 0..width-1); every odd row is shifted
  half a hex to the right and has width-1 full hexes (columns 1..width-1) between two half hexes, column 0
  at the left edge and column `width` at the right edge ("the half-hexes on the side of the game board").
  Only full hexes are "on the board"; a half hex counts as off the board.
* Internally a hex is in doubled coordinates (x2, r): x2 = 2c+1 in an even row, 2c in an odd row, so the six
  neighbours are (x2±2, r) and (x2±1, r±1), and the distance is dr + max(0, (dx - dr) / 2).
* The six directions, clockwise from the upper right: ne, e, se, sw, w, nw ("directly to the right" is e).
* The north directional marker: its faces 1..6 run clockwise; the players report which board direction
  face 1 points to (`marker`), and a red die of n drifts towards the direction n-1 steps clockwise from it.
  With face 1 to nw, a 3 is e: "the north directional marker shows that "3" means that the attack will
  drift directly to the right" (the worked example).
"""

from __future__ import annotations

from dataclasses import dataclass

DIRECTIONS = ("ne", "e", "se", "sw", "w", "nw")  # clockwise
# doubled-coordinate steps (dx2, dr) per direction (row 0 at the top: "n" is r - 1)
STEPS = {"ne": (1, -1), "e": (2, 0), "se": (1, 1), "sw": (-1, 1), "w": (-2, 0), "nw": (-1, -1)}
DEFAULT_MARKER = "nw"  # face 1's direction that makes a red 3 drift "directly to the right"


class HexError(ValueError):
    """Not a hex name, or a hex that is not on this board."""


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    col: int
    row: int

    @classmethod
    def parse(cls, name: str) -> Hex:
        try:
            c, r = (int(part.strip()) for part in str(name).split(","))
        except (ValueError, TypeError):
            raise HexError(f"a hex is named 'column,row' (not {name!r})") from None
        return cls(c, r)

    @property
    def name(self) -> str:
        return f"{self.col},{self.row}"

    @property
    def x2(self) -> int:
        return 2 * self.col + (1 if self.row % 2 == 0 else 0)

    @classmethod
    def from_doubled(cls, x2: int, row: int) -> Hex:
        odd = row % 2 != 0
        return cls((x2 if odd else x2 - 1) // 2, row)

    def step(self, direction: str, n: int = 1) -> Hex:
        dx, dr = STEPS[direction]
        return Hex.from_doubled(self.x2 + dx * n, self.row + dr * n)

    def neighbours(self) -> list[Hex]:
        return [self.step(d) for d in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        dr = abs(self.row - other.row)
        dx = abs(self.x2 - other.x2)
        return dr + max(0, (dx - dr) // 2)

    def adjacent(self, other: Hex) -> bool:
        return self.distance(other) == 1


def rotate(direction: str, steps: int) -> str:
    """The direction `steps` sixths of a turn clockwise from `direction`."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + steps) % 6]


def red_die_direction(red: int, marker: str = DEFAULT_MARKER) -> str:
    """The board direction a red die of `red` means, face 1 of the north marker pointing to `marker`."""
    if marker not in DIRECTIONS:
        raise HexError(f"the marker's face 1 points to one of {list(DIRECTIONS)}")
    if not 1 <= red <= 6:
        raise HexError("a die shows 1 to 6")
    return rotate(marker, red - 1)


@dataclass(frozen=True, slots=True)
class Board:
    """The map's size in hexes (see the module's readings)."""

    width: int
    height: int

    def __post_init__(self) -> None:
        if not (2 <= self.width <= 60 and 1 <= self.height <= 60):
            raise HexError("a board is 2..60 hexes wide and 1..60 rows high")

    def is_half(self, h: Hex) -> bool:
        """One of the half hexes at the side edges (column 0 or `width` of an odd row)."""
        return 0 <= h.row < self.height and h.row % 2 == 1 and h.col in (0, self.width)

    def on_board(self, h: Hex) -> bool:
        """A full hex of the board (half hexes and everything beyond the edges are off the board)."""
        if not 0 <= h.row < self.height:
            return False
        if h.row % 2 == 0:
            return 0 <= h.col < self.width
        return 1 <= h.col < self.width

    def is_edge(self, h: Hex) -> bool:
        """A full hex with a neighbour off the board (a half hex or beyond the edge)."""
        return self.on_board(h) and any(not self.on_board(n) for n in h.neighbours())

    def hex(self, name: str) -> Hex:
        """The full hex named `name` (HexError for a name off the board or a half hex)."""
        h = Hex.parse(name)
        if not self.on_board(h):
            where = "a half hex at the side of the board" if self.is_half(h) else "off the board"
            raise HexError(f"hex {name} is {where}")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        """The full hexes adjacent to `h` (clockwise from ne)."""
        return [n for n in h.neighbours() if self.on_board(n)]

    def hexes(self) -> list[Hex]:
        return [
            Hex(c, r)
            for r in range(self.height)
            for c in (range(self.width) if r % 2 == 0 else range(1, self.width))
        ]

    def to_json(self) -> dict[str, int]:
        return {"width": self.width, "height": self.height}


@dataclass(frozen=True, slots=True)
class Drift:
    """The outcome of a drift roll: accurate, or moved `distance` hexes towards `direction`."""

    start: Hex
    black: int
    red: int
    drift_number: int
    accurate: bool
    direction: str | None
    final: Hex
    on_board: bool


def drift(
    board: Board, start: Hex, *, drift_number: int, black: int, red: int, marker: str = DEFAULT_MARKER
) -> Drift:
    """ "If the result is equal to or higher than the drift number, the attack is accurate [...] Ignore any
    results of the red die"; else it drifts as many hexes as the black die, in the red die's direction read
    against the north marker; a final hex off the board (a half hex included) has no effect."""
    if not (1 <= black <= 6 and 1 <= red <= 6):
        raise HexError("a die shows 1 to 6")
    if black >= drift_number:
        return Drift(start, black, red, drift_number, True, None, start, board.on_board(start))
    direction = red_die_direction(red, marker)
    final = start.step(direction, black)
    return Drift(start, black, red, drift_number, False, direction, final, board.on_board(final))
