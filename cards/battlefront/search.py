"""The `?q=` search language (cards.search) on /api/battlefront/cards/: the same syntax, Battlefront keys.

    type:tank force>=8        extra:infantry        negates:T -is:special        ability:scout or notes:fort
"""

from __future__ import annotations

from django.db.models import Q

from cards.models import (
    BATTLEFRONT_ABILITY_PARAMS,
    BATTLEFRONT_TARGET_TYPE_CHOICES,
    BATTLEFRONT_TYPES,
    BattlefrontCardAbility,
)
from cards.search import KeySpec, Language, Unusable, flag_key, int_key, text_key

# a type by its letter or its name, any case ("T", "tank"); "fort" as printed in "Opposing Fort Negated"
_TYPE_WORDS = {
    **{c.lower(): c for c in BATTLEFRONT_TYPES},
    **{n.lower(): c for c, n in BATTLEFRONT_TYPES.items()},
}
_TYPE_WORDS["fort"] = "F"
_TARGETS = {c for c, _ in BATTLEFRONT_TARGET_TYPE_CHOICES}


def _equality(op: str, key: str) -> None:
    if op not in (":", "=", "!="):
        raise Unusable(f"{key} takes :, = or != (not {op})")


def _type_code(value: str, key: str, allowed) -> str:
    code = _TYPE_WORDS.get(value.lower())
    if code is None or code not in allowed:
        names = ", ".join(f"{c} ({BATTLEFRONT_TYPES[c]})" for c in BATTLEFRONT_TYPES if c in allowed)
        raise Unusable(f'unknown {key} "{value}" (one of: {names})')
    return code


def _negated(op: str, q: Q) -> Q:
    return ~q if op == "!=" else q


def _has(**lookups) -> Q:
    return Q(pk__in=BattlefrontCardAbility.objects.filter(**lookups).values("card_id"))


def _type(op: str, value: str, ctx: dict) -> Q:
    _equality(op, ctx["key"])
    return _negated(op, Q(card_type=_type_code(value, ctx["key"], BATTLEFRONT_TYPES)))


def _ability(op: str, value: str, ctx: dict) -> Q:
    _equality(op, ctx["key"])
    kind = value.lower()
    if kind == "none":
        return _negated(op, ~_has())
    if kind not in BATTLEFRONT_ABILITY_PARAMS:
        kinds = ", ".join(BATTLEFRONT_ABILITY_PARAMS)
        raise Unusable(f'unknown {ctx["key"]} "{value}" (one of: {kinds}, none)')
    return _negated(op, _has(kind=kind))


def _targeting(kind: str):
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality(op, ctx["key"])
        return _negated(op, _has(kind=kind, card_type=_type_code(value, ctx["key"], _TARGETS)))

    return compile_


BATTLEFRONT_KEYS: dict[str, KeySpec] = {
    "name": text_key(("name",), 'name contains (":"), or equals ("=")'),
    "code": text_key(("code",), "code contains, or equals"),
    "notes": text_key(("notes",), "printed notes contain, or equal"),
    "type": KeySpec(_type, "card type: a letter L I P T A S F X or its name (tank, fortification, ...)"),
    "force": int_key("force", "force 1-10 (Special cards have none)"),
    "ability": KeySpec(_ability, "ability kind: scout, extra, negate, discard_and_draw, or none"),
    "extra": KeySpec(_targeting("extra"), "allows an extra card of that type (letter or name)"),
    "negates": KeySpec(_targeting("negate"), "negates an opposing card of that type (letter or name)"),
    "is": flag_key(
        {"special": lambda: Q(is_special=True), "scout": lambda: _has(kind="scout")},
        "special (an optional Special card), scout",
    ),
}
BATTLEFRONT_ALIASES = {"t": "type", "f": "force", "a": "ability", "o": "notes", "neg": "negates"}
BATTLEFRONT = Language(BATTLEFRONT_KEYS, BATTLEFRONT_ALIASES)
