"""Tide of Iron's board template helper: its table (web.toi_table) from the page's payload."""

from __future__ import annotations

from typing import Any

from django import template

from games.game_types import get_game_type
from web.toi_table import toi_table

register = template.Library()


@register.simple_tag
def toi_table_of(
    payload: dict[str, Any], names: dict[str, str], who: dict[str, str] | None
) -> dict[str, Any]:
    """The grid, the decision's controls and the report forms of a seat's view (web.toi_table.toi_table)."""
    return toi_table(payload, names, who or {}, dict(get_game_type(payload["game_type"]).reports))
