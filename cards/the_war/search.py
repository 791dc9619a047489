"""The `?q=` search language (cards.search) on /api/the-war/cards/: the same syntax, The War's keys.

type:heavy-tank attack>=4     army:wehrmacht cost<=4     feature:elite or is:hero     -is:estimated
"""

from __future__ import annotations

from django.db.models import Q

from cards.search import KeySpec, Language, Unusable, choice_key, flag_key, int_key, text_key
from cards.the_war.models import RESOURCES
from vocabulary.the_war import Army, Category, Feature, Restriction, UnitSubtype, UnitType


def _equality(op: str, key: str) -> None:
    if op not in (":", "=", "!="):
        raise Unusable(f"{key} takes :, = or != (not {op})")


def _negated(op: str, q: Q) -> Q:
    return ~q if op == "!=" else q


def _word(value: str) -> str:
    return value.strip().lower().replace(" ", "-").replace("_", "-")


def _one_of(value: str, key: str, words) -> str:
    word = _word(value)
    if word not in words:
        raise Unusable(f'unknown {key} "{value}" (one of: {", ".join(sorted(words))})')
    return word


def _choice(field_name: str, words, aliases=None):
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality(op, ctx["key"])
        word = (aliases or {}).get(_word(value), _word(value))
        return _negated(op, Q(**{field_name: _one_of(word, ctx["key"], words)}))

    return compile_


def _type(op: str, value: str, ctx: dict) -> Q:
    """A unit type (armored) or a subtype (heavy-tank)."""
    _equality(op, ctx["key"])
    word = _one_of(value, ctx["key"], {t.value for t in UnitType} | {s.value for s in UnitSubtype})
    return _negated(op, Q(unit_type=word) | Q(subtype=word))


def _army(op: str, value: str, ctx: dict) -> Q:
    _equality(op, ctx["key"])
    word = {"red": "red-army", "ussr": "red-army", "german": "wehrmacht"}.get(_word(value), _word(value))
    word = _one_of(word, ctx["key"], {a.value for a in Army} | {"none"})
    return _negated(op, Q(army="" if word == "none" else word))


def _listed(field_name: str, words):
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality(op, ctx["key"])
        return _negated(op, Q(**{f"{field_name}__contains": [_one_of(value, ctx["key"], words)]}))

    return compile_


def _cost_total(op: str, value: str, ctx: dict) -> Q:
    return int_key("cost_sum", "").compile(op, value, ctx)


THE_WAR_KEYS: dict[str, KeySpec] = {
    "title": text_key(("title",), 'title contains (":"), or equals ("=")'),
    "code": text_key(("code",), "code contains, or equals"),
    "text": text_key(("text",), "a text line contains"),
    "category": KeySpec(
        _choice("category", {c.value for c in Category}, {"condition": "battlefield-condition"}),
        "resource, unit, improvement, battlefield-condition (condition), special, hero",
    ),
    "army": KeySpec(_army, "red-army (red), wehrmacht (german), or none"),
    "type": KeySpec(_type, "unit type (infantry, armored, artillery, air, ...) or subtype (heavy-tank, ...)"),
    "line": int_key("line", "line 1 or 2"),
    "attack": int_key("attack", "attack"),
    "defense": int_key("defense", "defense"),
    "aa": int_key("aa_attack", "AA attack"),
    "cost": KeySpec(_cost_total, "total cost (depot + plant + fuel)"),
    **{r: int_key(f"cost_{r}", f"{r} in the cost") for r in RESOURCES},
    "feature": KeySpec(
        _listed("features", {f.value for f in Feature}), "a unit feature (elite, mobility, ...)"
    ),
    "restriction": KeySpec(_listed("restrictions", {r.value for r in Restriction}), "a rule the card states"),
    "rarity": choice_key("rarity", ("C", "U", "R"), "C, U or R (printed on KV-1 (1940) only)"),
    "is": flag_key(
        {
            "seed": lambda: Q(seed_values__gt=0),
            "estimated": lambda: Q(seed_values=0),
            "unit": lambda: Q(category="unit"),
            "hero": lambda: Q(category="hero"),
            "location": lambda: Q(location=True),
            "basic": lambda: Q(resource_kind="basic"),
        },
        "seed (prints a value in the rulebook), estimated (wholly estimated), unit, hero, location, basic",
    ),
}
THE_WAR_ALIASES = {
    "name": "title",
    "t": "type",
    "a": "attack",
    "d": "defense",
    "c": "cost",
    "cat": "category",
    "f": "feature",
    "o": "text",
}
THE_WAR = Language(THE_WAR_KEYS, THE_WAR_ALIASES, bare_fields=("title", "code"))
