"""Battlecards game options from a request's JSON: checked here, below both games.services and
games.game_types (which both need them)."""

from __future__ import annotations

from typing import Any

from config.errors import ValidationFailed
from games import clocks, engine

MAX_OPTION_INT = 10_000
SIMULATION_ONLY_OPTIONS = frozenset({"max_battle_rounds"})  # a self-play guard, not a rule (engine README)

# Options of the server, not of the rules (every game type): kept in Game.options with the engine's, checked
# here by their default's type, never handed to an engine. name -> default.
SERVER_OPTIONS: dict[str, Any] = {
    "bots_accept_takebacks": False,  # h25take: bot seats accept takeback requests (games.services.takebacks)
}


def rules_options(options: dict[str, Any]) -> dict[str, Any]:
    """The engine's part of a game's options (the server options checked and left out)."""
    for name, default in SERVER_OPTIONS.items():
        if name in options and type(options[name]) is not type(default):
            raise ValidationFailed(
                f"Option {name!r} must be like {default!r}.", code="invalid_options", option=name
            )
    return {k: v for k, v in options.items() if k not in SERVER_OPTIONS}


def server_option(options: dict[str, Any] | None, name: str) -> Any:
    """A server option of a game (its default when the creator left it out)."""
    return (options or {}).get(name, SERVER_OPTIONS[name])


def bots_accept_takebacks(*, options: dict[str, Any] | None, rated: bool) -> bool:
    """Whether a game's bots accept takeback requests: never in a rated game (issue 34: a takeback in a rated
    game is one people agree to), else as the game's option `bots_accept_takebacks` says."""
    return not rated and bool(server_option(options, "bots_accept_takebacks"))


def game_options(options: dict[str, Any], *, simulation: bool = False) -> Any:
    """The engine Options from a request's JSON: known names only, each of its default's type (an int
    where the default is None). The battle round cap is for simulations only: games follow the rulebook."""
    defaults = engine.Options()
    options = rules_options(options)
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


MAX_SPECTATOR_DELAY = 200  # plies (engine actions)


def spectator_settings(spectators: dict[str, Any] | None, *, against_bot: bool) -> tuple[bool, int]:
    """(allowed, delay) of a new game from the request's `spectators` {"allowed"?, "delay"?}: spectators are
    allowed by default in games against bots only (whose every seat but the creator's is a bot); `delay`
    is how many plies (engine actions) a spectator's view stays behind the game (default 0)."""
    spectators = spectators or {}
    allowed = spectators.get("allowed")
    delay = spectators.get("delay", 0)
    if allowed is not None and not isinstance(allowed, bool):
        raise ValidationFailed(
            "spectators.allowed is true or false.", code="invalid", field="spectators.allowed"
        )
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= MAX_SPECTATOR_DELAY:
        raise ValidationFailed(
            f"spectators.delay is a number of plies from 0 to {MAX_SPECTATOR_DELAY}.",
            code="invalid",
            field="spectators.delay",
        )
    return (against_bot if allowed is None else allowed), delay


def time_control_not_an_object() -> ValidationFailed:
    """The 400 for a time control that is no JSON object (a string, a list, null)."""
    return ValidationFailed(
        'time_control is an object: {"kind": "realtime", "minutes", "increment_seconds"}, '
        '{"kind": "correspondence", "days"} or {"kind": "none"}.',
        code="invalid_time_control",
        field="time_control",
    )


def time_control_option(data: dict[str, Any] | None) -> dict[str, Any]:
    """The time control a game is created with (games.clocks.TimeControl), as stored in Game.time_control:
    {} (none, the default), {"kind": "realtime", "minutes", "increment_seconds"} or {"kind":
    "correspondence", "days"}. 400 invalid_time_control otherwise: the request's JSON is checked as sent,
    never coerced (a boolean or a string is no number, an unknown key is refused, not dropped)."""
    if data is not None and not isinstance(data, dict):
        raise time_control_not_an_object()
    try:
        return clocks.TimeControl.from_json(data).to_json()
    except clocks.TimeControlError as exc:
        raise ValidationFailed(exc.message, code="invalid_time_control", field=exc.field) from exc


def rated_option(rated: bool, *, team: bool, options: dict[str, Any] | None = None) -> bool:
    """The `rated` creation option: only 1v1 games are rated (Glicko-2, games.services.ratings); a team,
    uneven or combined game is never rated (400 team_game_not_rated). Bots never accept a takeback in a rated
    game: `rated` with the option bots_accept_takebacks true is 400 invalid_options."""
    if rated and team:
        raise ValidationFailed(
            "Only 1v1 games are rated: team, uneven and combined games are played unrated.",
            code="team_game_not_rated",
            field="rated",
        )
    if rated and server_option(options, "bots_accept_takebacks"):
        raise ValidationFailed(
            "Bots never accept a takeback in a rated game: leave bots_accept_takebacks out, or play unrated.",
            code="invalid_options",
            option="bots_accept_takebacks",
            field="options.bots_accept_takebacks",
        )
    return bool(rated)
