"""Hex geometry of the Tide of Iron referee (games.engine.tide_of_iron.hexes): adjacency, distance, the
board's edges and half hexes, rotation by the north marker, and every black-by-red drift outcome."""

from __future__ import annotations

import pytest

from games.engine.tide_of_iron.hexes import (
    DIRECTIONS,
    Board,
    Hex,
    HexError,
    drift,
    red_die_direction,
    rotate,
)

BIG = Board(21, 21)
CENTRE = Hex(10, 10)

# An independent reference: axial coordinates (q, r) of pointy-topped hexes and their six unit steps.
AXIAL_STEP = {"e": (1, 0), "w": (-1, 0), "ne": (1, -1), "nw": (0, -1), "se": (0, 1), "sw": (-1, 1)}


def axial(h: Hex) -> tuple[int, int]:
    return ((h.x2 - h.row) // 2, h.row)


def axial_distance(a: Hex, b: Hex) -> int:
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def test_a_hex_has_six_neighbours_one_step_away_in_the_six_directions():
    for h in (Hex(3, 4), Hex(3, 5), Hex(0, 0)):
        ns = h.neighbours()
        assert len(set(ns)) == 6
        assert all(h.adjacent(n) and h.distance(n) == 1 for n in ns)
        assert not h.adjacent(h)


def test_neighbours_of_an_even_and_an_odd_row_hex_by_name():
    assert [n.name for n in Hex(3, 4).neighbours()] == ["4,3", "4,4", "4,5", "3,5", "2,4", "3,3"]
    assert [n.name for n in Hex(3, 5).neighbours()] == ["3,4", "4,5", "3,6", "2,6", "2,5", "2,4"]


def test_distance_matches_the_axial_reference_everywhere_on_a_board():
    board = Board(8, 7)
    hexes = board.hexes()
    for a in hexes:
        for b in hexes:
            assert a.distance(b) == axial_distance(a, b) == b.distance(a)


def test_board_full_hexes_half_hexes_and_edges():
    board = Board(6, 4)
    assert len(board.hexes()) == 6 + 5 + 6 + 5
    assert board.on_board(Hex(0, 0)) and board.on_board(Hex(5, 0)) and not board.on_board(Hex(6, 0))
    # odd rows: a half hex at each side edge, off the board
    assert board.is_half(Hex(0, 1)) and board.is_half(Hex(6, 1))
    assert not board.on_board(Hex(0, 1)) and not board.on_board(Hex(6, 1))
    assert board.on_board(Hex(1, 1)) and board.on_board(Hex(5, 1))
    assert not board.is_half(Hex(0, 0))
    assert not board.on_board(Hex(2, -1)) and not board.on_board(Hex(2, 4))
    assert board.is_edge(Hex(0, 0)) and board.is_edge(Hex(1, 1)) and board.is_edge(Hex(3, 3))
    assert not board.is_edge(Hex(2, 2)) and not board.is_edge(Hex(3, 1))
    with pytest.raises(HexError, match="half hex"):
        board.hex("0,1")
    with pytest.raises(HexError, match="off the board"):
        board.hex("9,9")
    with pytest.raises(HexError):
        Hex.parse("a,b")
    assert len(board.neighbours(Hex(0, 0))) == 2  # (1,0) and (1,1); (0,1) is a half hex


def test_rotation_is_clockwise_and_wraps():
    assert rotate("ne", 1) == "e" and rotate("nw", 1) == "ne" and rotate("e", -1) == "ne"
    assert [rotate("ne", i) for i in range(6)] == list(DIRECTIONS)


def test_the_worked_example_marker_reads_a_red_three_as_directly_to_the_right():
    """ "the north directional marker shows that "3" means that the attack will drift directly to the
    right": face 1 towards nw (the default reading), a 3 is e."""
    assert red_die_direction(3) == "e"
    assert [red_die_direction(r, "nw") for r in range(1, 7)] == ["nw", "ne", "e", "se", "sw", "w"]
    assert [red_die_direction(r, "e") for r in range(1, 7)] == ["e", "se", "sw", "w", "nw", "ne"]


@pytest.mark.parametrize("marker", ["nw", "e", "sw"])
@pytest.mark.parametrize("drift_number", [6, 4, 3])
def test_every_black_by_red_drift_outcome(marker, drift_number):
    """Black >= drift number: accurate, the red die ignored; else black hexes in the red die's direction
    read against the marker (checked against the axial reference)."""
    for black in range(1, 7):
        for red in range(1, 7):
            d = drift(BIG, CENTRE, drift_number=drift_number, black=black, red=red, marker=marker)
            if black >= drift_number:
                assert d.accurate and d.final == CENTRE and d.direction is None
                continue
            assert not d.accurate
            expected_dir = DIRECTIONS[(DIRECTIONS.index(marker) + red - 1) % 6]
            assert d.direction == expected_dir
            q, r = axial(CENTRE)
            dq, dr = AXIAL_STEP[expected_dir]
            assert axial(d.final) == (q + dq * black, r + dr * black)
            assert CENTRE.distance(d.final) == black and d.on_board


def test_drift_examples_of_the_text():
    # Example One: drift number 6, black 5: drifts 5 hexes
    assert CENTRE.distance(drift(BIG, CENTRE, drift_number=6, black=5, red=1).final) == 5
    # Example Two: drift number 4, black 2: drifts 2 hexes
    assert CENTRE.distance(drift(BIG, CENTRE, drift_number=4, black=2, red=4).final) == 2
    # Example Three: drift number 4, black 5 (or 4 or 6): strikes the target hex
    for black in (4, 5, 6):
        assert drift(BIG, CENTRE, drift_number=4, black=black, red=2).accurate


def test_drift_off_the_board_or_onto_a_half_hex_is_off_the_board():
    board = Board(6, 4)
    d = drift(board, Hex(1, 1), drift_number=4, black=1, red=6, marker="nw")  # w: onto the half hex 0,1
    assert d.final == Hex(0, 1) and board.is_half(d.final) and not d.on_board
    d = drift(board, Hex(1, 0), drift_number=6, black=3, red=1, marker="nw")  # nw: beyond the top edge
    assert not d.on_board
    d = drift(board, Hex(1, 1), drift_number=4, black=2, red=3, marker="nw")  # e two hexes: still on
    assert d.final == Hex(3, 1) and d.on_board
