"""A canonical order for a state's id-keyed objects.

A JSON column does not keep an object's key order (PostgreSQL's jsonb returns the keys shortest first, then
by their bytes), so an engine that iterates such an object to list actions, views or moves must not iterate
it in the order it was stored or filled in. These keep it in one order, whatever the order of the keys it
was read or built from: jsonb's own (card ids such as "c7" < "c12", "p1.07" < "p1.10").
"""
from __future__ import annotations

from typing import TypeVar

V = TypeVar("V")


def id_key(key: str) -> tuple[int, str]:
    """Shorter ids first, then by their text (jsonb's key order)."""
    return len(key), key


def by_id(mapping: dict[str, V]) -> dict[str, V]:
    """A copy of `mapping` with its keys in id order (id_key)."""
    return {k: mapping[k] for k in sorted(mapping, key=id_key)}


def put_by_id(mapping: dict[str, V], key: str, value: V) -> None:
    """mapping[key] = value in place, the keys of `mapping` (in id order before) kept in id order."""
    fresh = key not in mapping
    mapping[key] = value
    if fresh and len(mapping) > 1:
        ordered = by_id(mapping)
        mapping.clear()
        mapping.update(ordered)
