"""Battlecards game options from a request's JSON: checked here, below both games.services and
games.game_types (which both need them)."""

from __future__ import annotations

from typing import Any

from config.errors import ValidationFailed
from games import engine

MAX_OPTION_INT = 10_000
SIMULATION_ONLY_OPTIONS = frozenset({"max_battle_rounds"})  # a self-play guard, not a rule (engine README)


def game_options(options: dict[str, Any], *, simulation: bool = False) -> Any:
    """The engine Options from a request's JSON: known names only, each of its default's type (an int
    where the default is None). The battle round cap is for simulations only: games follow the rulebook."""
    defaults = engine.Options()
    for name, value in options.items():
        if not hasattr(defaults, name) or name.startswith("_"):
            raise ValidationFailed(f"Unknown game option {name!r}.", code="invalid_options", option=name)
        if name in SIMULATION_ONLY_OPTIONS and not simulation:
            raise ValidationFailed(
                f"Option {name!r} is for simulations only: games have no round limit.",
                code="invalid_options",
                option=name,
            )
        default = getattr(defaults, name)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_OPTION_INT
        if not ok:
            raise ValidationFailed(
                f"Option {name!r} must be like {default!r}.", code="invalid_options", option=name
            )
    try:
        return engine.Options.from_json(options)
    except engine.EngineError as exc:
        raise ValidationFailed(exc.message, code="invalid_options") from exc


def rated_option(rated: bool, *, team: bool) -> bool:
    """The `rated` creation option: only 1v1 games are rated (Glicko-2, games.services.ratings); a team,
    uneven or combined game is never rated (400 team_game_not_rated)."""
    if rated and team:
        raise ValidationFailed(
            "Only 1v1 games are rated: team, uneven and combined games are played unrated.",
            code="team_game_not_rated",
            field="rated",
        )
    return bool(rated)
