"""A decision as steps of direct manipulation, built from the server's legal actions and their typed fields
only (nothing of the rules): while more than SHOWN actions remain, the page asks for one field at a time
(the first field whose values differ: a unit, then its targets; a card in hand, then its front), each
distinct value one control; once SHOWN or fewer actions remain, each is one control that sends it. The
fields chosen so far travel in the page's address (?pick=<JSON>) and only filter the server's list: a pick
that matches no legal action any more starts the decision over. Pure functions over the API's payload."""

from __future__ import annotations

import json
from typing import Any

SHOWN = 12  # at most this many choices at once (with "back" and "more": never more than 15 controls)
SKIPPED = ("seat",)  # the seat is always the player's own


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def read_pick(text: str | None, *, at: str | None = None, version: int | None = None) -> dict[str, Any]:
    """The fields chosen so far from the address (?pick=): a JSON object, anything else is no pick. `at`
    (?at=, sent by the page's redraw) is the game version the pick was made at: a pick made at another
    version is no pick (a redraw the stream asked for while a move was on its way must not narrow the next
    decision by the fields chosen for the last one)."""
    if at is not None and version is not None and at != str(version):
        return {}
    try:
        pick = json.loads(text or "{}")
    except ValueError:
        return {}
    return pick if isinstance(pick, dict) else {}


def _fields(actions: list[dict[str, Any]], pick: dict[str, Any]) -> list[str]:
    """The actions' fields in the order the engine writes them, but the type, the seat and those chosen."""
    seen: dict[str, None] = {}
    for action in actions:
        for key in action:
            if key not in ("type", *SKIPPED) and key not in pick:
                seen.setdefault(key)
    return list(seen)


def _label(action: dict[str, Any], names: dict[str, str], pick: dict[str, Any]) -> str:
    """An action in words without the fields already chosen (the step above says them)."""
    parts = [str(action.get("type", "act")).replace("_", " ")]
    for key, value in action.items():
        if key in ("type", *SKIPPED) or key in pick:
            continue
        if isinstance(value, list):
            shown = ", ".join(names.get(str(v), str(v)) for v in value) or "none"
        else:
            shown = names.get(str(value), str(value))
        parts.append(f"{key.replace('_', ' ')}: {shown}")
    return " · ".join(parts)


def _cards_of(action: dict[str, Any], cards: set[str]) -> list[str]:
    """The card instances (or codes) on the table an action names, in its field order."""
    found = []
    for key, value in action.items():
        if key in SKIPPED:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item in cards:
                found.append(item)
    return found


def _choice(label: str, *, action: dict[str, Any] | None = None, pick: dict[str, Any] | None = None,
            card: str | None = None, field: str = "") -> dict[str, Any]:
    return {
        "label": label,
        "json": json.dumps(action, sort_keys=True) if action is not None else "",
        "pick": json.dumps(pick, sort_keys=True) if pick is not None else "",
        "card": card or "",
        "field": field,
        "pass": action is not None and " · " not in label,  # its type alone says it: pass, hold, done
    }


def decision_step(
    legal: list[dict[str, Any]], pick: dict[str, Any], names: dict[str, str], cards: set[str],
    page: int = 0,
) -> dict[str, Any]:
    """The step to show: {"choices": [...], "field", "pick", "back", "more", "page"}. A choice either sends
    its one action (`json`) or narrows to its value (`pick`: the fields so far and this one); `card` is
    the card on the table it names (the board marks it); `pass` marks an action its type alone says (a
    pass, a hold)."""
    matching = [a for a in legal if all(_key(a.get(k)) == _key(v) for k, v in pick.items())]
    if not matching:
        matching, pick = legal, {}
    step: dict[str, Any] = {"field": "", "pick": pick, "back": None, "more": None, "page": 0,
                            "chosen": [names.get(str(v), str(v)) for k, v in pick.items() if k != "type"]}
    if pick:
        step["back"] = json.dumps(dict(list(pick.items())[:-1]), sort_keys=True)
    if len(matching) <= SHOWN:
        step["choices"] = _whole(matching, pick, names, cards)
        return step
    choices = _narrowing(matching, pick, names, cards, step)
    pages = max(1, -(-len(choices) // SHOWN))
    page = min(max(page, 0), pages - 1)
    step["page"] = page
    step["choices"] = choices[page * SHOWN:(page + 1) * SHOWN]
    if page + 1 < pages:
        step["more"] = page + 1
    return step


def _narrowing(matching: list[dict[str, Any]], pick: dict[str, Any], names: dict[str, str],
               cards: set[str], step: dict[str, Any]) -> list[dict[str, Any]]:
    """The choices of one field: the first field (in the engine's order) whose values differ among the
    actions that have it; actions without it are offered whole, grouped by type (a pass, a hold...). With no
    such field the types are the choices."""
    for field in _fields(matching, pick):
        having = [a for a in matching if field in a]
        values = {_key(a[field]): a[field] for a in having}
        others = [a for a in matching if field not in a]
        if len(values) < 2 and not (values and others):
            continue
        step["field"] = field.replace("_", " ")
        by_value: dict[str, dict[str, Any]] = {}
        for key, value in values.items():
            group = [a for a in having if _key(a[field]) == key]
            shown = names.get(str(value), str(value)) if not isinstance(value, list) else ", ".join(
                names.get(str(v), str(v)) for v in value) or "none"
            card = value if isinstance(value, str) and value in cards else None
            if len(group) == 1:
                label = _label(group[0], names, pick)
                by_value[key] = _choice(label, action=group[0], card=card, field=field)
            else:
                by_value[key] = _choice(shown, pick={**pick, field: value}, card=card, field=field)
        whole = _by_type(others, pick, names, cards)
        kinds = list(dict.fromkeys(str(a.get("type")) for a in others))
        if len(whole) != len(kinds):  # the others each whole (one type picked): after the values
            return [*by_value.values(), *whole]
        # in the engine's order: each value where its first action stands, a pass where it stands
        order = list(dict.fromkeys(("v", _key(a[field])) if field in a else ("t", str(a.get("type")))
                                   for a in matching))
        return [by_value[k] if tag == "v" else whole[kinds.index(k)] for tag, k in order]
    step["field"] = "type"
    return _by_type(matching, pick, names, cards)


def _by_type(actions: list[dict[str, Any]], pick: dict[str, Any], names: dict[str, str],
             cards: set[str]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        groups.setdefault(str(action.get("type")), []).append(action)
    if len(groups) == 1 and "type" in pick:  # nothing left to tell apart: each action whole
        return _whole(actions, pick, names, cards)
    alone = [group[0] for group in groups.values() if len(group) == 1]
    whole = {id(a): c for a, c in zip(alone, _whole(alone, pick, names, cards), strict=True)}
    return [
        whole[id(group[0])] if len(group) == 1
        else _choice(kind.replace("_", " "), pick={**pick, "type": kind})
        for kind, group in groups.items()
    ]


def _whole(actions: list[dict[str, Any]], pick: dict[str, Any], names: dict[str, str],
           cards: set[str]) -> list[dict[str, Any]]:
    """Each action one choice; its card on the table is the first it names that no other choice names
    (a click on that card is this action alone)."""
    named = [_cards_of(a, cards) for a in actions]
    counts: dict[str, int] = {}
    for found in named:
        for card in set(found):
            counts[card] = counts.get(card, 0) + 1
    return [
        _choice(_label(a, names, pick), action=a, card=next((c for c in found if counts[c] == 1), None))
        for a, found in zip(actions, named, strict=True)
    ]
