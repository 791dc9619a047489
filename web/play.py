"""The play page's read model: the seat's view (what GET /api/games/{id}/view/ answers, nothing more) as
zones of cards with names and faces, and the pending decision as one control per decision kind, its legal
actions offered step by step (web.decision_steps: a unit, then its targets), each choice labelled in the
game's words. Pure functions over the API's payload."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from games.game_types import get_game_type
from web import decision_steps


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
    route = get_game_type(game_type).face_route(definition or {})
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


def decision_controls(
    payload: dict[str, Any], pick: dict[str, Any] | None = None, page: int = 0
) -> dict[str, Any] | None:
    """The pending decision as the page draws it: its title and prompt, its report forms, and the step of
    choices (web.decision_steps) the fields picked so far (`pick`) leave of the legal actions."""
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
        reports = [{"type": t, "label": t.replace("_", " ").capitalize(), "fields": report_fields(offered[t])}
                   for t in prompt.get("reports", []) if t in offered]
        prompt = {k: v for k, v in prompt.items() if k != "reports"}  # drawn as the report forms
    instances = card_instances(view)
    on_table = set(instances) | set(payload["cards"])
    step = decision_steps.decision_step(legal, pick or {}, names, on_table, page)
    for choice in step["choices"]:
        code = instances.get(choice["card"], choice["card"])
        choice["face"] = code and face_url(code, payload["cards"].get(code), payload["game_type"])
    return {
        "kind": decision.get("kind"),
        "seat": decision.get("seat"),
        "title": control_for(payload["game_type"], str(decision.get("kind"))),
        "prompt": prompt,
        "reports": reports,
        "step": step,
        "actions": step["choices"],
        "marks": {c["card"]: "pick" for c in step["choices"] if c["card"]},
    }


def report_fields(fields: list[tuple]) -> list[dict[str, Any]]:
    """A report's fields as the form draws them: a text box, or a select of the field's choices."""
    return [{"name": f[0], "label": f[1], "choices": f[2] if len(f) > 2 else ()} for f in fields]


def zones(payload: dict[str, Any]) -> list[tuple[str, Any]]:
    """The view's parts to draw, in order, without the decision (drawn as controls): its plain values
    (turn, status, scores...) together as the counters, then each structured part (sides, piles, battle)."""
    parts = [(k, v) for k, v in payload["view"].items() if k not in ("decision", "seat", "legal_actions")]
    counters = {k: v for k, v in parts if not isinstance(v, dict | list)}
    return [("counters", counters), *((k, v) for k, v in parts if isinstance(v, dict | list))]


INSTANCE_ID = re.compile(r"^(c\d+|p\d+\.\d+)$")  # a card instance (Battlecards c82, The War p1.14)
STACK = re.compile(r"^(ground|air|sea):(\d+)$")
CARD_KEYS = ("card", "unit", "target")


def _strings(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)
    return found


def log_strings(entries: list[dict[str, Any]]) -> set[str]:
    """Every string of the entries' events (card codes among them: the page asks their names)."""
    found: set[str] = set()
    for entry in entries:
        for event in entry.get("events", []):
            _strings(event.get("data") or {}, found)
    return found


def log_instances(entries: list[dict[str, Any]]) -> dict[str, str]:
    """{instance id: code} as the entries' events told them: a card with its code beside it, or an
    [id, code] pair of a list (only what these events, as the seat received them, already say)."""
    found: dict[str, str] = {}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            code = value.get("code")
            for key in CARD_KEYS:
                if isinstance(code, str) and isinstance(value.get(key), str):
                    found[value[key]] = code
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            if len(value) == 2 and all(isinstance(v, str) for v in value) and INSTANCE_ID.match(value[0]):
                found[value[0]] = value[1]
            for item in value:
                walk(item)

    for entry in entries:
        for event in entry.get("events", []):
            walk(event.get("data") or {})
    return found


def _word(value: Any, names: dict[str, str], who: dict[str, str], depth: int = 0) -> str:
    """One value of an event in words: a seat by who plays it, a card by its name (an instance nobody was
    shown: "a card"), a stack by its place, yes/no for a flag; nested values one level deep."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if value in who:
            return who[value]
        if value in names:
            return names[value]
        if INSTANCE_ID.match(value):
            return "a card"
        if stack := STACK.match(value):
            return f"{stack.group(1)} stack {int(stack.group(2)) + 1}"
        return value
    if isinstance(value, list):
        if len(value) == 2 and all(isinstance(v, str) for v in value) and INSTANCE_ID.match(value[0]):
            return names.get(value[0]) or names.get(value[1]) or "a card"
        words = [_word(v, names, who, depth + 1) for v in value if v is not None]
        return ", ".join(w for w in words if w) or "none"
    if isinstance(value, dict):
        if depth >= 1:
            return ""
        parts = [f"{_word(k, names, who, depth + 1)} {_word(v, names, who, depth + 1)}"
                 for k, v in value.items() if v is not None]
        return "; ".join(p.strip() for p in parts if p.strip())
    return "" if value is None else str(value)


def log_names(
    entries: list[dict[str, Any]], names: dict[str, str], code_names: dict[str, str]
) -> dict[str, str]:
    """The names the log reads: the view's (its cards and instances), the names of the codes its events
    give (`code_names`: games.selectors.game_card_names), and the instances the events tied to a code."""
    merged = {**code_names, **names}
    for instance, code in log_instances(entries).items():
        merged.setdefault(instance, merged.get(code, code))
    return merged


def log_lines(
    entries: list[dict[str, Any]], names: dict[str, str], *, who: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The event log, newest first: each entry's events in words, led by who did it ("you", the opponent's
    name, a bot), cards by name (never an instance id), no None and no True/False; a new turn is marked."""
    who = who or {}
    out = []
    for entry in reversed(entries):
        for event in reversed(entry.get("events", [])):
            data = dict(event.get("data") or {})
            actor = data.pop("seat", None)
            if any(isinstance(data.get(key), str) for key in CARD_KEYS):
                data.pop("code", None)  # the card's name says it
            kind = str(event.get("type", ""))
            words = "; ".join(
                f"{key.replace('_', ' ')} {shown}"
                for key, value in data.items()
                if value is not None and (shown := _word(value, names, who))
            )
            out.append(
                {
                    "seq": entry.get("seq"),
                    "turn": kind == "turn_started",
                    "who": _word(actor, names, who) if actor else "",
                    "type": kind.replace("_", " "),
                    "words": words,
                }
            )
    return out


# ------------------------------------------------------------------------------------------ live play

# Why a game ended, in words (games.models.EndReason); {winner} and {loser} are who sat there.
END_WORDS = {
    "victory": "{winner} won by the rules of the game.",
    "draw": "A draw by the rules of the game: nobody won.",
    "resignation": "{loser} resigned: {winner} won.",
    "timeout": "{loser} ran out of time: {winner} won.",
    "unfinished": "The game was stopped without a winner (it expired or was cancelled).",
}


def side_of(seat: str) -> str:
    """The side of a seat name (an army seat allies-2 plays for allies)."""
    return str(seat).split("-", 1)[0]


def seat_who(seat: dict[str, Any], *, my_seat: str | None = None) -> str:
    """Who sits in a seat of the API's game (GameSerializer's seats) in words: "you", a user name, a bot."""
    if my_seat and seat.get("seat") == my_seat:
        return "you"
    if seat.get("player"):
        return str(seat["player"])
    if seat.get("bot"):
        return f"the {seat['bot']} bot"
    return "an open seat"


def side_names(seats: list[dict[str, Any]], *, my_seat: str | None = None) -> dict[str, str]:
    """Each side and each seat by who plays it: {"axis": "you", "allies": "bob", "allies-2": ...}; a side of
    several armies names them all ("you and carol")."""
    names: dict[str, str] = {}
    by_side: dict[str, list[str]] = {}
    for seat in seats:
        who = seat_who(seat, my_seat=my_seat)
        names[seat["seat"]] = who
        by_side.setdefault(seat.get("side") or side_of(seat["seat"]), []).append(who)
    for side, whos in by_side.items():
        names[side] = " and ".join(dict.fromkeys(whos))
    return names


def _result_words(result: dict[str, Any], template: str, names: dict[str, str]) -> str:
    """A result the game words itself (its definition's end_words): seats by who plays them, a reported
    result as who won ("you won", "bob won") or a draw."""
    def word(key: str, value: Any) -> str:
        if key in ("result", "claimed"):
            return "a draw" if value == "draw" else f"{names.get(value, value)} won"
        return names.get(value, value) if isinstance(value, str) else str(value)

    fields = {key: word(key, value) for key, value in result.items() if value is not None}
    try:
        text = template.format(**fields)
    except KeyError:
        return ""
    return text[0].upper() + text[1:] if text.startswith("you") else text


def end_words(payload: dict[str, Any], names: dict[str, str]) -> str:
    """Why the finished game ended, in words: who won, and how (the end reason in words, not its code; a
    result the game words itself, such as a result reported and confirmed, in the game's words)."""
    result = (payload.get("view") or {}).get("result")
    if isinstance(result, dict) and payload.get("game_type"):
        words = get_game_type(payload["game_type"]).end_words
        shown = _result_words(result, words[result["kind"]], names) if result.get("kind") in words else ""
        if shown:
            return shown
    winner = payload.get("winner") or ""
    reason = payload.get("end_reason") or ("victory" if winner else "")
    losers = sorted({side_of(seat) for seat in names} - {side_of(winner)})
    text = END_WORDS.get(reason, "The game is over.").format(
        winner=names.get(winner) or names.get(side_of(winner)) or winner or "nobody",
        loser=" and ".join(names[side] for side in losers if side in names) or "the other side",
    )
    return "You" + text[3:] if text.startswith("you ") else text  # a user name keeps its case


def clock_text(ms: int) -> str:
    """A clock's remaining time as a player reads it: 4:05, 1:02:03, or 2d 03h for correspondence."""
    ms = max(0, int(ms))
    seconds = ms // 1000
    if seconds >= 86_400:
        return f"{seconds // 86_400}d {seconds % 86_400 // 3600:02d}h"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clocks(clock: dict[str, Any] | None, names: dict[str, str]) -> list[dict[str, Any]]:
    """The view's clocks (games.selectors.game_clock_view: the server's remaining times, computed at its
    time) as the page draws them: each side's time left, whose it is, and whether it runs."""
    if not clock:
        return []
    return [
        {
            "side": side["side"],
            "who": names.get(side["side"], side["side"]),
            "remaining_ms": side["remaining_ms"],
            "text": clock_text(side["remaining_ms"]),
            "running": bool(side["running"]),
        }
        for side in clock.get("sides", [])
    ]


def rating_text(rating: dict[str, Any] | None) -> str:
    """A rating as lichess shows it: 1623, or 1500? while provisional."""
    if not rating:
        return ""
    return f"{round(rating['rating'])}{'?' if rating.get('provisional') else ''}"


def rating_change_text(change: dict[str, Any] | None) -> str:
    """What a rated game did to a rating: "+12 (1500 → 1512)"."""
    if not change:
        return ""
    delta = round(change["rating_after"] - change["rating_before"])
    return f"{delta:+d} ({round(change['rating_before'])} → {round(change['rating_after'])})"


def seat_rows(
    seats: list[dict[str, Any]], *, my_seat: str | None = None, ratings: bool = True
) -> list[dict[str, Any]]:
    """The seats as the page lists them: who, their rating, and after a rated game its change (no rating
    where the game's matches move none: a refereed match)."""
    return [
        {
            "seat": seat["seat"],
            "who": seat_who(seat, my_seat=my_seat),
            "player": seat.get("player") or "",
            "deck": seat.get("deck_label") or "",
            "nation": seat.get("nation") or "",
            "rating": rating_text(seat.get("rating")) if ratings else "",
            "change": rating_change_text(seat.get("rating_change")) if ratings else "",
        }
        for seat in seats
    ]
