"""The analysis on the replay page (issue 41): the graph of each side's chances over the plies as an inline
SVG (no library: the points are placed here), and the flagged moves in the game's words (web.play's wording:
action_label, cards by their names, seats by who sat there). It draws games.analysis_selectors' payload, so
it shows no more than the API shows the reader (no moves when `moves_shown` is false)."""

from __future__ import annotations

from typing import Any

from games import selectors
from web import play

WIDTH, HEIGHT, PAD = 640, 160, 10


def _x(ply: int, total: int) -> float:
    return round(PAD + ply * (WIDTH - 2 * PAD) / max(1, total), 1)


def _y(chance: float) -> float:
    return round(PAD + (1 - chance) * (HEIGHT - 2 * PAD), 1)


def _codes(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, dict):
        for v in value.values():
            _codes(v, found)
    elif isinstance(value, list):
        for v in value:
            _codes(v, found)
    elif isinstance(value, str):
        found.add(value)
    return found


def graph_context(
    analysis: dict[str, Any], *, seats: list[str], players: list[dict[str, Any]], winner: str | None,
    step: int,
) -> dict[str, Any]:
    """What templates/web/play/partials/analysis.html draws: the points (one per ply analysed, then the end),
    the polyline through them, the flagged moves in words, the progress."""
    plies = analysis["plies"]
    total = analysis["plies_total"] or len(plies)
    first = seats[0]
    who = play.side_names(players)
    points = []
    for entry in plies:
        chance = float(entry["wins"].get(first, 1 - next(iter(entry["wins"].values()))))
        points.append({"ply": entry["ply"], "x": _x(entry["ply"], total), "y": _y(chance),
                       "percent": round(100 * chance), "flagged": entry["flagged"],
                       "current": entry["ply"] == step})
    if analysis["status"] == "done" and plies:
        end = 1.0 if winner == first else 0.5 if winner is None else 0.0
        points.append({"ply": total, "x": _x(total, total), "y": _y(end), "percent": round(100 * end),
                       "flagged": False, "current": total == step})
    flagged = [entry for entry in plies if entry["flagged"]]
    codes: set[str] = set()
    for entry in flagged:
        _codes([entry["played"], entry["best"]], codes)
    names = selectors.game_card_names(game_id=analysis["game"], codes=codes) if codes else {}
    moves = [
        {
            "ply": entry["ply"],
            "who": who.get(entry["seat"], entry["seat"]),
            "played": play.action_label(entry["played"], names) if entry["played"] else None,
            "best": play.action_label(entry["best"], names) if entry["best"] else None,
            "loss": round(100 * (entry["best_value"] - entry["played_value"])),
        }
        for entry in flagged
    ]
    return {
        "analysis": analysis,
        "first_side": who.get(first, first),
        "width": WIDTH,
        "height": HEIGHT,
        "middle": _y(0.5),
        "points": points,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "moves": moves,
        "running": analysis["status"] in ("queued", "running"),
        "margin": round(100 * analysis["flag_margin"]),
    }
