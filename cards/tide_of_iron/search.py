"""The `?q=` search language (cards.search) on /api/tide-of-iron/cards/: the same syntax, Tide of Iron's keys.

keyword:wide-blast-radius contact>=4     deck:artillery cost<=2     is:suppressive -is:estimated
"""

from __future__ import annotations

from django.db.models import Q

from cards.search import KeySpec, Language, Unusable, flag_key, int_key, text_key
from vocabulary.tide_of_iron import Keyword


def _keyword(op: str, value: str, ctx: dict) -> Q:
    if op not in (":", "=", "!="):
        raise Unusable(f"{ctx['key']} takes :, = or != (not {op})")
    word = value.strip().lower().replace(" ", "-").replace("_", "-")
    words = {k.value for k in Keyword}
    if word not in words:
        raise Unusable(f'unknown keyword "{value}" (one of: {", ".join(sorted(words))})')
    q = Q(keywords__contains=[{"keyword": word}])
    return ~q if op == "!=" else q


def _phase(op: str, value: str, ctx: dict) -> Q:
    if op not in (":", "=", "!="):
        raise Unusable(f"{ctx['key']} takes :, = or != (not {op})")
    word = value.strip().lower().removesuffix("-phase").removesuffix(" phase")
    if word not in ("action", "command"):
        raise Unusable(f'unknown phase "{value}" (action or command)')
    return ~Q(phase=word) if op == "!=" else Q(phase=word)


TOI_KEYS: dict[str, KeySpec] = {
    "title": text_key(("title",), 'title contains (":"), or equals ("=")'),
    "code": text_key(("code",), "code contains, or equals"),
    "text": text_key(("text",), "a text line contains"),
    "deck": text_key(
        ("deck__title", "deck__code"), 'deck title or code contains ("artillery", "air support")'
    ),
    "cost": int_key("cost", "command cost"),
    "phase": KeySpec(_phase, "action or command"),
    "keyword": KeySpec(
        _keyword, "a keyword (establish-contact, target-hex, determine-drift, area-attack, wide-blast-radius)"
    ),
    "contact": int_key("contact", "Establish Contact target number"),
    "area": int_key("area_attack", "Area Attack strength"),
    "blast": int_key("wide_blast", "Wide Blast Radius strength"),
    "is": flag_key(
        {
            "seed": lambda: Q(seed_values__gt=0),
            "estimated": lambda: Q(seed_values=0),
            "suppressive": lambda: Q(suppressive=True),
            "play-area": lambda: Q(play_area=True),
        },
        "seed (states a value in the text), estimated (wholly estimated), suppressive, play-area",
    ),
}
TOI_ALIASES = {"name": "title", "t": "title", "c": "cost", "k": "keyword", "o": "text", "kw": "keyword"}
TIDE_OF_IRON = Language(TOI_KEYS, TOI_ALIASES, bare_fields=("title", "code"))
