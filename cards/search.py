"""The catalog search language (`?q=`), parsed with lark and compiled to one Django Q per query.

Syntax (documented for users in the README and the OpenAPI description, see SYNTAX_HELP):

    query   := or-expr
    or-expr := and-expr ("or" and-expr)*
    and-expr:= unary (["and"] unary)*          juxtaposition means "and"
    unary   := "-" unary | "(" or-expr ")" | term
    term    := KEY OP value | value            a bare value matches name or code (contains)
    OP      := ":" | "=" | "!=" | "<" | "<=" | ">" | ">="
    value   := word | "double-quoted string"

Each model has its own keys (ARSENAL_KEYS, CONFLICT_KEYS, BATTLECARD_KEYS). A term the server cannot use
(unknown key, operator the key does not take, value out of its vocabulary) is dropped and reported as a
warning; the rest of the query still applies (Scryfall's contract). A query of which no term is usable,
that does not parse, or that exceeds MAX_LENGTH / MAX_TERMS / MAX_DEPTH is a SearchInvalid (400).

A level of nesting is a parenthesised group or a negation, a negated group `-( ... )` counting once:
`a (b (c))` and `((c))` nest 2 levels, `-(-c)` 2, `---c` 3; `and`/`or` add none.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import connection
from django.db.models import Q
from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedInput

from cards.models import (
    ArsenalCardClass,
    CardSet,
    Nation,
    SetMembership,
    Theater,
)
from config.errors import DomainError
from config.filters import MAX_QUERY_NUMBER
from vocabulary.battlecards import (
    ABILITY_SCHEMA,
    CONFLICT_CATEGORIES,
    CONFLICT_EFFECTS,
    KINDS,
    SIDES,
    SINGLE_COPY_CLASSES,
    SINGLE_COPY_MAX,
    UNIT_CLASSES,
)

MAX_LENGTH = 400
MAX_TERMS = 30
MAX_DEPTH = 12

GRAMMAR = r"""
?start: or_expr
?or_expr: and_expr (_OR and_expr)*
?and_expr: unary (_AND? unary)*
?unary: NEG unary -> neg
      | "(" or_expr ")" -> group
      | term
term: FIELD value -> cmp
    | value -> bare
?value: STRING | WORD
_OR.3: /or(?![^\s()])/i
_AND.3: /and(?![^\s()])/i
FIELD.2: /[a-z][a-z_.]*(<=|>=|!=|:|=|<|>)/i
STRING: /"[^"]*"/
WORD: /[^\s()"\-][^\s()"]*/
NEG: "-"
%ignore /\s+/
"""


class SearchInvalid(DomainError):
    status = 400
    code = "query_invalid"
    default_detail = "The search query is invalid."


class Unusable(Exception):
    """A term the server cannot use; its message becomes a warning."""


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)


# ------------------------------------------------------------------------------------------------- the AST


@dataclass(frozen=True)
class Term:
    key: str | None  # None: a bare value
    op: str
    value: str
    text: str


@dataclass(frozen=True)
class Not:
    child: Node


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


Node = Term | Not | And | Or


def _value(token: Token) -> str:
    text = str(token)
    return text[1:-1] if token.type == "STRING" else text


def _check_shape(tree: Tree | Token) -> None:
    """Counts terms and levels of nesting iteratively (no recursion on user input) before anything else."""
    terms = 0
    stack: list[tuple[Tree | Token, int, bool]] = [(tree, 0, False)]  # node, its level, is it negated
    while stack:
        node, level, negated = stack.pop()
        if not isinstance(node, Tree):
            continue
        if node.data in ("cmp", "bare"):
            terms += 1
            continue
        if node.data == "neg" or (node.data == "group" and not negated):
            level += 1
        if level > MAX_DEPTH:
            raise SearchInvalid(f"The query nests deeper than {MAX_DEPTH} levels.", code="query_too_complex")
        stack.extend((child, level, node.data == "neg") for child in node.children)
    if terms > MAX_TERMS:
        raise SearchInvalid(f"The query has more than {MAX_TERMS} terms.", code="query_too_complex")


def _to_ast(node: Tree) -> Node:
    if node.data == "cmp":
        field_token, value_token = node.children
        text = str(field_token)
        op = next(o for o in ("<=", ">=", "!=", ":", "=", "<", ">") if text.endswith(o))
        key = text[: -len(op)].lower()
        return Term(key, op, _value(value_token), f"{text}{value_token}")
    if node.data == "bare":
        (value_token,) = node.children
        return Term(None, ":", _value(value_token), str(value_token))
    if node.data == "neg":
        inner = node.children[-1]
        return Not(_to_ast(inner) if isinstance(inner, Tree) else _bare(inner))
    if node.data == "group":
        (inner,) = node.children
        return _to_ast(inner) if isinstance(inner, Tree) else _bare(inner)
    children = tuple(_to_ast(child) if isinstance(child, Tree) else _bare(child) for child in node.children)
    return And(children) if node.data == "and_expr" else Or(children)


def _bare(token) -> Node:  # a lone value token inlined by lark
    return Term(None, ":", _value(token), str(token))


def parse(query: str) -> Node:
    """The AST of a query, or SearchInvalid (syntax, length, complexity)."""
    if len(query) > MAX_LENGTH:
        raise SearchInvalid(f"The query is longer than {MAX_LENGTH} characters.", code="query_too_long")
    if not query.strip():
        raise SearchInvalid("The query is empty.", code="query_empty")
    try:
        tree = _parser().parse(query)
    except UnexpectedInput as exc:
        raise SearchInvalid(
            f"The query does not parse at character {exc.column}: {query!r}.", code="query_syntax"
        ) from None
    except LarkError:
        raise SearchInvalid(f"The query does not parse: {query!r}.", code="query_syntax") from None
    if isinstance(tree, Token):
        return _bare(tree)
    _check_shape(tree)
    return _to_ast(tree)


# ---------------------------------------------------------------------------------------- term compilers

COMPARE: dict[str, Callable[[int, int], bool]] = {
    ":": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
LOOKUP = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _int(value: str, key: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise Unusable(f'{key} takes a whole number, not "{value}"') from None
    if abs(number) > MAX_QUERY_NUMBER:  # as the numeric filters: one bound on every catalog and database
        shown = value if len(value) <= 20 else f"{value[:20]}..."
        raise Unusable(f'{key} takes a whole number up to {MAX_QUERY_NUMBER}, not "{shown}"')
    return number


def _int_q(field_name: str, op: str, number: int) -> Q:
    if op == "!=":
        return ~Q(**{field_name: number})
    return Q(**{f"{field_name}__{LOOKUP[op]}": number})


def _equality_only(op: str, key: str) -> None:
    if op not in (":", "=", "!="):
        raise Unusable(f"{key} takes :, = or != (not {op})")


def _negate_if(op: str, q: Q) -> Q:
    return ~q if op == "!=" else q


def _choice(value: str, choices, key: str) -> str:
    lowered = {str(c).lower(): c for c in choices}
    found = lowered.get(value.lower())
    if found is None:
        raise Unusable(f'unknown {key} "{value}" (one of: {", ".join(sorted(map(str, choices)))})')
    return found


@dataclass(frozen=True)
class KeySpec:
    """One search key: compile(op, value, context) -> Q, raising Unusable for values it cannot use."""

    compile: Callable[[str, str, dict], Q]
    help: str


def int_key(field_name: str, help_text: str) -> KeySpec:
    def compile_(op: str, value: str, ctx: dict) -> Q:
        return _int_q(field_name, op, _int(value, ctx["key"]))

    return KeySpec(compile_, help_text)


def text_key(field_names: tuple[str, ...], help_text: str) -> KeySpec:
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality_only(op, ctx["key"])
        lookup = "iexact" if op in ("=", "!=") else "icontains"
        q = Q()
        for name in field_names:
            q |= Q(**{f"{name}__{lookup}": value})
        return _negate_if(op, q)

    return KeySpec(compile_, help_text)


def choice_key(field_name: str, choices, help_text: str) -> KeySpec:
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality_only(op, ctx["key"])
        return _negate_if(op, Q(**{field_name: _choice(value, choices, ctx["key"])}))

    return KeySpec(compile_, help_text)


def lookup_key(field_name: str, table: str, help_text: str) -> KeySpec:
    """A code of a related table (nation, theater, set) validated against ctx[table] (codes in the DB)."""

    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality_only(op, ctx["key"])
        return _negate_if(op, Q(**{field_name: _choice(value, ctx[table](), ctx["key"])}))

    return KeySpec(compile_, help_text)


def flag_key(flags: dict[str, Callable[[], Q]], help_text: str) -> KeySpec:
    def compile_(op: str, value: str, ctx: dict) -> Q:
        _equality_only(op, ctx["key"])
        return _negate_if(op, flags[_choice(value, flags, ctx["key"])]())

    return KeySpec(compile_, help_text)


# ------------------------------------------------------------------------------------------ arsenal cards

COMMANDERS = SINGLE_COPY_CLASSES  # generals and leaders: one copy per deck


def _commanders() -> Q:
    return Q(pk__in=ArsenalCardClass.objects.filter(unit_class__code__in=COMMANDERS).values("card_id"))


def _phase(op: str, value: str, ctx: dict) -> Q:
    if value.lower() == "none":
        _equality_only(op, ctx["key"])
        return _negate_if(op, Q(phase__isnull=True))
    return _int_q("phase", op, _int(value, ctx["key"]))


def _max(op: str, value: str, ctx: dict) -> Q:
    """Copies allowed per deck (vocabulary.battlecards.max_copies, as a query): generals and leaders
    SINGLE_COPY_MAX, others their max_per_deck (empty: unlimited)."""
    if value.lower() == "unlimited":
        _equality_only(op, ctx["key"])
        return _negate_if(op, ~_commanders() & Q(max_per_deck__isnull=True))
    number = _int(value, ctx["key"])
    others = ~_commanders() & _int_q("max_per_deck", op, number) & Q(max_per_deck__isnull=False)
    if op == "!=":
        others = ~_commanders() & (Q(max_per_deck__isnull=True) | ~Q(max_per_deck=number))
    return (_commanders() | others) if COMPARE[op](SINGLE_COPY_MAX, number) else others


def _class(op: str, value: str, ctx: dict) -> Q:
    _equality_only(op, ctx["key"])
    code = _choice(value, UNIT_CLASSES, ctx["key"])
    q = Q(pk__in=ArsenalCardClass.objects.filter(unit_class__code=code).values("card_id"))
    return _negate_if(op, q)


def _set(op: str, value: str, ctx: dict) -> Q:
    _equality_only(op, ctx["key"])
    code = _choice(value, ctx["sets"](), ctx["key"])
    q = Q(pk__in=SetMembership.objects.filter(card_set__code=code).values("card_id"))
    return _negate_if(op, q)


def _ability(op: str, value: str, ctx: dict) -> Q:
    _equality_only(op, ctx["key"])
    kind = _choice(value, ABILITY_SCHEMA, ctx["key"])
    if connection.vendor == "postgresql":  # JSON containment in SQL: no extra query
        return _negate_if(op, Q(abilities__contains=[{"kind": kind}]))
    return _negate_if(op, Q(code__in=ctx["ability_codes"](kind)))


def _stat_keys() -> dict[str, KeySpec]:
    keys = {}
    for stat, short in (("attack", "att"), ("defense", "def")):
        for target, letter in (("ground", "g"), ("air", "a"), ("sea", "s")):
            spec = int_key(f"{stat}_{target}", f"{stat} against {target} units (N/A never matches)")
            for name in (f"{short}.{target}", f"{stat}.{target}", f"{short}.{letter}"):
                keys[name] = spec
    return keys


ARSENAL_KEYS: dict[str, KeySpec] = {
    "name": text_key(("name",), 'name contains (":"), or equals ("=")'),
    "code": text_key(("code",), "code contains, or equals"),
    "nation": lookup_key("nation__code", "nations", "nation code: GB, DE, US, JP, RU"),
    "side": choice_key("nation__side", SIDES, "allies or axis"),
    "kind": choice_key("kind", KINDS, "the stack: ground, air or sea"),
    "class": KeySpec(_class, "unit class, e.g. tank, artillery, fighter, general"),
    "phase": KeySpec(_phase, "firing phase 1-4 (comparisons allowed), or none"),
    "ability": KeySpec(_ability, "ability kind, e.g. autokill, big_guns, infantry_support"),
    "points": int_key("points", "deck points"),
    "max": KeySpec(_max, "copies allowed per deck (generals and leaders 1), or unlimited"),
    "set": KeySpec(_set, "printed list (set code) the card is in"),
    "is": flag_key(
        {
            "estimated": lambda: Q(estimated=True),
            "seed": lambda: Q(estimated=False),
            "ukrainian": lambda: Q(ukrainian=True),
            "variant": lambda: Q(variant_of__isnull=False),
            "commander": _commanders,
        },
        "estimated (some value is estimated), seed, ukrainian, variant, commander (general or leader)",
    ),
    **_stat_keys(),
}
ARSENAL_ALIASES = {"n": "nation", "k": "kind", "c": "class", "a": "ability", "p": "points", "pts": "points"}


# -------------------------------------------------------------------------------- conflict cards, battles


CONFLICT_KEYS: dict[str, KeySpec] = {
    "name": ARSENAL_KEYS["name"],
    "code": ARSENAL_KEYS["code"],
    "text": text_key(("text",), "card text contains"),
    "theater": lookup_key("theater__code", "theaters", "theater code: WE, PAC, EF"),
    "set": lookup_key("card_set__code", "sets", "set code, e.g. we-conflict-starter"),
    "category": choice_key("category", [c for c in CONFLICT_CATEGORIES if c != "battlecard"], "category"),
    "effect": choice_key("effect", list(CONFLICT_EFFECTS), "effect, e.g. counterattack"),
    "action": int_key("action_number", "action number 1-20"),
    "count": int_key("count", "copies in its set"),
    "is": flag_key(
        {"estimated": lambda: Q(estimated=True), "seed": lambda: Q(estimated=False)}, "estimated or seed"
    ),
}
CONFLICT_ALIASES = {"o": "text", "an": "action"}


BATTLECARD_KEYS: dict[str, KeySpec] = {
    "name": ARSENAL_KEYS["name"],
    "code": ARSENAL_KEYS["code"],
    "text": text_key(("text",), "battlecard text contains"),
    "theater": CONFLICT_KEYS["theater"],
    "set": CONFLICT_KEYS["set"],
    "aggressor": KeySpec(
        lambda op, value, ctx: (
            _equality_only(op, ctx["key"])
            or _negate_if(op, Q(aggressor=_choice(value, [*ctx["nations"](), "drawing-player"], ctx["key"])))
        ),
        'stated aggressor: a nation code or "drawing-player"',
    ),
    "vp": int_key("victory_points", "victory points"),
    "action": int_key("action_number", "action number 1-20"),
    "homeland": lookup_key("homeland_of__code", "nations", "homeland battle of that nation"),
    "is": flag_key(
        {
            "estimated": lambda: Q(estimated=True),
            "seed": lambda: Q(estimated=False),
            "homeland": lambda: Q(homeland_of__isnull=False),
            "emergency": lambda: Q(emergency_deployment=True),
        },
        "estimated, seed, homeland, emergency (emergency deployment allowed)",
    ),
}
BATTLECARD_ALIASES = {"an": "action", "o": "text"}


@dataclass(frozen=True)
class Language:
    keys: dict[str, KeySpec]
    aliases: dict[str, str]
    bare_fields: tuple[str, ...] = ("name", "code")


ARSENAL = Language(ARSENAL_KEYS, ARSENAL_ALIASES)
CONFLICT = Language(CONFLICT_KEYS, CONFLICT_ALIASES)
BATTLECARD = Language(BATTLECARD_KEYS, BATTLECARD_ALIASES)


# ------------------------------------------------------------------------------------------------ compile


def _lazy(fn: Callable[[], list[str]]) -> Callable[[], list[str]]:
    """A lookup of codes from the database run at most once per query (and only if a term needs it)."""
    box: list[list[str]] = []

    def get() -> list[str]:
        if not box:
            box.append(fn())
        return box[0]

    return get


def _context() -> dict:
    from cards.selectors import arsenal_codes_with_ability

    ability_cache: dict[str, list[str]] = {}

    def ability_codes(kind: str) -> list[str]:
        if kind not in ability_cache:
            ability_cache[kind] = arsenal_codes_with_ability(kind)
        return ability_cache[kind]

    return {
        "nations": _lazy(lambda: list(Nation.objects.values_list("code", flat=True))),
        "theaters": _lazy(lambda: list(Theater.objects.values_list("code", flat=True))),
        "sets": _lazy(lambda: list(CardSet.objects.values_list("code", flat=True))),
        "ability_codes": ability_codes,
    }


@dataclass
class Compiled:
    q: Q
    warnings: list[str] = field(default_factory=list)


def _compile(node: Node, language: Language, ctx: dict, warnings: list[str]) -> Q | None:
    if isinstance(node, Term):
        if node.key is None:
            return text_key(language.bare_fields, "").compile(":", node.value, {"key": "name"})
        key = language.aliases.get(node.key, node.key)
        spec = language.keys.get(key)
        if spec is None:
            warnings.append(f'"{node.text}": unknown key "{node.key}"; term ignored')
            return None
        try:
            return spec.compile(node.op, node.value, {**ctx, "key": key})
        except Unusable as exc:
            warnings.append(f'"{node.text}": {exc}; term ignored')
            return None
    if isinstance(node, Not):
        inner = _compile(node.child, language, ctx, warnings)
        return None if inner is None else ~inner
    parts = [q for q in (_compile(c, language, ctx, warnings) for c in node.children) if q is not None]
    if not parts:
        return None
    combined = parts[0]
    for q in parts[1:]:
        combined = (combined & q) if isinstance(node, And) else (combined | q)
    return combined


def compile_query(query: str, language: Language) -> Compiled:
    """Q of a query for `language`, with a warning per unusable term; SearchInvalid if nothing is usable."""
    ast = parse(query)
    warnings: list[str] = []
    q = _compile(ast, language, _context(), warnings)
    if q is None:
        raise SearchInvalid("No term of the query can be used.", code="query_unusable", warnings=warnings)
    return Compiled(q, warnings)


def syntax_help(language: Language) -> str:
    """The key table of a language (for the OpenAPI description)."""
    aliases: dict[str, list[str]] = {}
    for alias, key in language.aliases.items():
        aliases.setdefault(key, []).append(alias)
    seen: dict[int, list[str]] = {}
    for key, spec in language.keys.items():
        seen.setdefault(id(spec), []).append(key)
    lines = []
    for names in seen.values():
        spec = language.keys[names[0]]
        all_names = names + [a for n in names for a in aliases.get(n, [])]
        lines.append(f"`{'`, `'.join(all_names)}`: {spec.help}")
    return "; ".join(lines)


SYNTAX_HELP = (
    "?q= search language: terms `key:value` or `key<op>value` (op one of : = != < <= > >=), a bare word "
    "matches name or code; terms side by side (or joined with `and`) must all hold, `or` between them, "
    '`-` negates, parentheses group; double quotes keep spaces (`name:"tiger i"`). Unusable terms are '
    "ignored and reported in `warnings`; a query with no usable term is a 400 `query_unusable`; "
    f"syntax errors `query_syntax`; more than {MAX_LENGTH} characters `query_too_long`, more than "
    f"{MAX_TERMS} terms or {MAX_DEPTH} levels of nesting (parentheses, `-`) `query_too_complex`; numbers "
    f"beyond {MAX_QUERY_NUMBER} are unusable. Combines with the other filters and ?ordering=. Keys: "
)
