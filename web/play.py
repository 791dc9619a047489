"""The play page's read model: the seat's view (what GET /api/games/{id}/view/ answers, nothing more) as
zones of cards with names and faces, and the pending decision as one control per decision kind, each legal
action of it one button labelled in the game's words. Pure functions over the API's payload."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from games.game_types import get_game_type

FACE_ROUTES = {
    "arsenal": "arsenalcard-face",
    "conflict": "conflictcard-face",
    "battlecard": "battlecard-face",
    "battlefront": "battlefrontcard-face",
}


def control_for(game_type: str, kind: str) -> str:
    """The control's title: what the seat is asked, in the game's words (its definition's `controls`)."""
    return get_game_type(game_type).controls.get(kind, kind.replace("_", " ").capitalize())


def card_instances(value: Any, found: dict[str, str] | None = None) -> dict[str, str]:
    """{instance id: card code} of every card instance ({"id", "code"}) anywhere in the view."""
    found = {} if found is None else found
    if isinstance(value, dict):
        if isinstance(value.get("id"), str) and isinstance(value.get("code"), str):
            found[value["id"]] = value["code"]
        for item in value.values():
            card_instances(item, found)
    elif isinstance(value, list):
        for item in value:
            card_instances(item, found)
    return found


def face_url(code: str, definition: dict[str, Any] | None, game_type: str) -> str | None:
    kind = "battlefront" if game_type == "battlefront" else (definition or {}).get("type")
    route = FACE_ROUTES.get(kind or "")
    return reverse(route, args=[code]) if route else None


def card_names(payload: dict[str, Any]) -> dict[str, str]:
    """Names of every card code and instance the payload shows (nothing else is known to the page)."""
    names = {code: d.get("name") or d.get("title") or code for code, d in payload["cards"].items()}
    for instance, code in card_instances(payload["view"]).items():
        names[instance] = names.get(code, code)
    return names


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    """An action in words: its type, then each value, card ids and codes by their names."""
    parts = [str(action.get("type", "act")).replace("_", " ")]
    for key, value in action.items():
        if key in ("type", "seat"):  # the seat is always the player's own
            continue
        if isinstance(value, list):
            shown = ", ".join(names.get(str(v), str(v)) for v in value) or "none"
        else:
            shown = names.get(str(value), str(value))
        parts.append(f"{key.replace('_', ' ')}: {shown}")
    return " · ".join(parts)


def decision_controls(payload: dict[str, Any]) -> dict[str, Any] | None:
    view = payload["view"]
    decision = view.get("decision")
    if not isinstance(decision, dict):
        return None
    names = card_names(payload)
    legal = decision.get("legal_actions") or []
    if not legal and payload.get("status") == "active" and decision.get("seat") == payload.get("seat"):
        legal = view.get("legal_actions") or []  # The War lists them beside the decision
    prompt = decision.get("prompt")
    reports = []
    if legal and isinstance(prompt, dict):
        offered = get_game_type(payload["game_type"]).reports
        reports = [{"type": t, "label": t.replace("_", " ").capitalize(), "fields": offered[t]}
                   for t in prompt.get("reports", []) if t in offered]
    return {
        "kind": decision.get("kind"),
        "seat": decision.get("seat"),
        "title": control_for(payload["game_type"], str(decision.get("kind"))),
        "prompt": prompt,
        "reports": reports,
        "actions": [{"label": action_label(a, names), "json": json.dumps(a, sort_keys=True)} for a in legal],
    }


def zones(payload: dict[str, Any]) -> list[tuple[str, Any]]:
    """The view's parts to draw, in order, without the decision (drawn as controls): its plain values
    (turn, status, scores...) together as the counters, then each structured part (sides, piles, battle)."""
    parts = [(k, v) for k, v in payload["view"].items() if k not in ("decision", "seat", "legal_actions")]
    counters = {k: v for k, v in parts if not isinstance(v, dict | list)}
    return [("counters", counters), *((k, v) for k, v in parts if isinstance(v, dict | list))]


def log_lines(entries: list[dict[str, Any]], names: dict[str, str]) -> list[dict[str, Any]]:
    """The event log, newest first: each entry's events in words."""
    out = []
    for entry in reversed(entries):
        for event in entry.get("events", []):
            data = event.get("data") or {}
            words = ", ".join(
                f"{k.replace('_', ' ')} {names.get(str(v), v) if not isinstance(v, list | dict) else '…'}"
                for k, v in data.items()
            )
            out.append(
                {
                    "seq": entry.get("seq"),
                    "type": str(event.get("type", "")).replace("_", " "),
                    "words": words,
                }
            )
    return out
