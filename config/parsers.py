"""Request body parsers: JSON with a bounded nesting depth.

A 2 KB body nested about 950 levels deep used to reach the serializers (or the JSON decoder itself) and end
in a RecursionError (500). No endpoint takes JSON nested deeper than a few levels, so anything deeper than
settings.MAX_JSON_DEPTH (default 32) is a 400 `malformed_request`, decided once here for every endpoint.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

DEFAULT_MAX_JSON_DEPTH = 32


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """True when `value` nests lists/objects more than `limit` levels deep (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def brackets_within(raw: bytes, limit: int) -> bool:
    """True when `raw` holds at most `limit` opening brackets: then no JSON value in it nests deeper than
    `limit` (each level opens one), and the walk is not needed. Brackets inside strings count too, so this
    only ever sends a body to the walk, never past it. Two counts at C speed (issue 42: a 60-card deck, 28
    containers, skipped a walk that cost 5 % of its validation)."""
    return raw.count(b"{") + raw.count(b"[") <= limit


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = int(getattr(settings, "MAX_JSON_DEPTH", DEFAULT_MAX_JSON_DEPTH))
        raw = stream.read()  # DRF calls a parser only with a body to read
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested more than {limit} levels deep.") from None
        if not brackets_within(raw, limit) and json_depth_exceeds(data, limit):
            raise ParseError(f"JSON parse error - nested more than {limit} levels deep.")
        return data
