"""Tide of Iron's table on the play page (issue 39): the board as an SVG hex grid of the match's size, the
pending decision's hex choices as targets on it, its other legal actions as a few buttons, and the board
reports as forms whose fields take exactly the values the referee takes (games.engine.tide_of_iron's
REPORT_FIELDS: selects of the allowed values, number inputs with their bounds).

Nothing of the rules is decided here: every target and button is one of the seat's legal actions as the
view lists them (its JSON posted as it is), and the report forms post what the referee checks again. The
targets are shown a page of at most PAGE at a time (a select turns the pages), so a decision never shows
more than about a dozen controls at once. Pure functions over the API's payload."""

from __future__ import annotations

import json
import math
from typing import Any

from games.engine.tide_of_iron import REPORT_FIELDS, Board, Hex

R = 16.0  # a hex's circumradius in SVG units (pointy-topped): about 28 x 32 px at the natural size
W = math.sqrt(3) * R  # a hex's width
PAGE = 12  # targets shown (and focusable) at once; the other pages wait behind the page select
CARD_ACTIONS = {"activate": "Activate", "retry_contact": "Retry contact:", "discard": "Discard"}
WORDS = {"pass_turn": "Pass the turn", "next_phase": "End the phase", "confirm": "Confirm",
         "dispute": "Dispute"}
LOS_WORDS = {"none": "No line of sight", "normal": "A unit's line of sight",
             "officer": "An officer's line of sight"}
TARGETS = ("target", "target_column", "target_row")
CARD_BUTTONS = 5  # more Strategy cards to act on than this: one select of them and its button instead


def centre(h: Hex) -> tuple[float, float]:
    """A hex's centre in the grid's SVG units (hexes.py's doubled coordinates: x2 half widths across)."""
    return h.x2 * W / 2, R + h.row * 1.5 * R


def points(h: Hex) -> str:
    x, y = centre(h)
    corners = ((x + R * math.cos(math.radians(a)), y + R * math.sin(math.radians(a)))
               for a in (-90, -30, 30, 90, 150, 210))
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in corners)


def _board(view: dict[str, Any]) -> Board | None:
    size = view.get("board") or {}
    try:
        return Board(int(size["width"]), int(size["height"]))
    except (KeyError, TypeError, ValueError):
        return None


def _target(action: dict[str, Any], board: Board, column: Any) -> dict[str, Any] | None:
    """The hexes one target action names: a whole hex, a column (every full hex in it), or a row of the
    column chosen; None for any other action."""
    kind = action.get("type")
    try:
        if kind == "target":
            hexes = [board.hex(action["hex"])]
            label = f"Hex {action['hex']}"
        elif kind == "target_column":
            col = int(action["column"])
            hexes = [h for h in board.hexes() if h.col == col]
            label = f"Column {col}"
        elif kind == "target_row":
            row = int(action["row"])
            hexes = [board.hex(f"{int(column)},{row}")]
            label = f"Hex {int(column)},{row} (row {row})"
        else:
            return None
    except (KeyError, TypeError, ValueError):
        return None
    return {"label": label, "short": label.split(" (")[0].split(" ", 1)[1],
            "polygons": [points(h) for h in hexes]}


def pages(targets: list[dict[str, Any]], noun: str) -> list[dict[str, Any]]:
    """The targets by pages of at most PAGE, each page named by its first and last target."""
    out: list[dict[str, Any]] = []
    for i in range(0, len(targets), PAGE):
        chunk = targets[i:i + PAGE]
        for t in chunk:
            t["page"] = len(out)
        first, last = chunk[0]["short"], chunk[-1]["short"]
        label = f"{noun} {first}" if first == last else f"{noun} {first} to {last}"
        out.append({"index": len(out), "label": label})
    return out


def grid(view: dict[str, Any], board: Board, forms: dict[str, str], legal: list[dict[str, Any]],
         kind: str, prompt: dict[str, Any]) -> dict[str, Any]:
    """The board drawn: every hex (half hexes at the side edges dimmed), the reported units and cover, the
    target of the card being resolved, and the decision's targets (paged)."""
    b = view.get("board") or {}
    cover = b.get("cover") or {}
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for unit in b.get("units") or []:
        by_hex.setdefault(str(unit.get("hex")), []).append(unit)
    resolving = view.get("resolving") or {}
    marked = {str(resolving.get("target")): "mark-target", str(resolving.get("final")): "mark-final"}
    cells = []
    for r in range(board.height):
        for c in range(board.width + 1):
            h = Hex(c, r)
            half = board.is_half(h)
            if not (half or board.on_board(h)):
                continue
            x, y = centre(h)
            units = by_hex.get(h.name, [])
            cells.append({"name": h.name, "points": points(h), "half": half, "x": f"{x:.1f}", "y": f"{y:.1f}",
                          "cover": cover.get(h.name), "mark": marked.get(h.name, ""),
                          "units": [{"label": u.get("unit"), "side": u.get("side"), "kind": u.get("kind")}
                                    for u in units]})
    targets = []
    for action in legal:
        target = _target(action, board, prompt.get("column"))
        if target is not None:
            target["form"] = forms[json.dumps(action, sort_keys=True)]
            targets.append(target)
    noun = {"target_column": "Columns", "target_row": "Rows"}.get(kind, "Hexes")
    if kind == "target_row":
        for t in targets:
            t["short"] = t["short"].split(",")[1]
    return {
        "width": f"{board.width * W:.1f}", "height": f"{2 * R + (board.height - 1) * 1.5 * R:.1f}",
        "label": f"The board, {board.width} by {board.height} hexes",
        "cells": cells, "targets": targets, "pages": pages(targets, noun) if targets else [],
    }


def _allowed(spec: dict[str, Any], view: dict[str, Any], board: Board | None) -> list[str] | None:
    if "enum" in spec:
        return [str(v) for v in spec["enum"]]
    if spec.get("values") == "board_hex":
        return [h.name for h in board.hexes()] if board else None
    if spec.get("values") == "reported_unit":
        return [str(u.get("unit")) for u in (view.get("board") or {}).get("units") or []]
    return None


def report_forms(offered: dict[str, list[tuple]], reports: list[str], view: dict[str, Any],
                 board: Board | None) -> list[dict[str, Any]]:
    """The board reports the act decision takes, each field as the referee takes it: a select of the allowed
    values (a hex of the board, a reported unit, a side...), a number input with its bounds, or a label. A
    report none of whose allowed values exist (no unit to remove) is not offered."""
    out = []
    for kind in reports:
        if kind not in offered:
            continue
        schema = REPORT_FIELDS.get(kind, {})
        fields = []
        for name, label, *_ in offered[kind]:
            spec = schema.get(name, {})
            choices = _allowed(spec, view, board)
            field = {"name": name, "label": label, "id": f"toi-{kind}-{name}", "choices": choices,
                     "min": spec.get("minimum"), "max": spec.get("maximum")}
            field["widget"] = "select" if choices is not None else "number" if "minimum" in spec else "text"
            fields.append(field)
        if all(f["choices"] != [] for f in fields):
            out.append({"type": kind, "label": kind.replace("_", " ").capitalize(), "fields": fields})
    return out


def button_label(action: dict[str, Any], names: dict[str, str], who: dict[str, str]) -> str:
    kind = str(action.get("type"))
    if kind in CARD_ACTIONS:
        card = str(action.get("card"))
        return f"{CARD_ACTIONS[kind]} {names.get(card, card)}"
    if kind == "los":
        los = str(action.get("los"))
        return LOS_WORDS.get(los, los)
    if kind == "end_match":
        result = str(action.get("result"))
        return "A draw" if result == "draw" else f"{who.get(result, result)} won ({result})"
    return WORDS.get(kind, kind.replace("_", " ").capitalize())


def toi_table(payload: dict[str, Any], names: dict[str, str], who: dict[str, str],
              offered: dict[str, list[tuple]]) -> dict[str, Any]:
    """What the ToI board template draws: the grid, and the seat's pending decision as controls (every
    legal action as a form, shown as a target, a button, or an option of the end-of-match select)."""
    view = payload["view"]
    board = _board(view)
    decision: dict[str, Any] = view["decision"] if isinstance(view.get("decision"), dict) else {}
    legal = list(decision.get("legal_actions") or [])
    prompt: dict[str, Any] = decision["prompt"] if isinstance(decision.get("prompt"), dict) else {}
    kind = str(decision.get("kind") or "")
    forms = {json.dumps(a, sort_keys=True): f"toi-act-{i}" for i, a in enumerate(legal)}
    actions = [{"json": j, "form": f, "type": json.loads(j).get("type"),
                "label": button_label(json.loads(j), names, who)} for j, f in forms.items()]
    drawn = grid(view, board, forms, legal if kind in TARGETS else [], kind, prompt) if board else None
    cards = [a for a in actions if a["type"] in CARD_ACTIONS]
    folded = cards if len(cards) > CARD_BUTTONS else []
    return {
        "kind": kind,
        "grid": drawn,
        "actions": actions,
        "buttons": [a for a in actions if a["type"] not in (*TARGETS, "end_match") and a not in folded],
        "cards": folded,
        "ends": [a for a in actions if a["type"] == "end_match"],
        "reports": report_forms(offered, list(prompt.get("reports") or []), view, board) if legal else [],
    }
