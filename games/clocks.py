"""Game clocks, pure Python (no Django): time controls and the clock arithmetic the games service stores.

A time control is chosen at creation: none (the default), realtime (`minutes` per side plus
`increment_seconds` after each of the side's actions: Fischer) or correspondence (`days` for each decision,
reset whenever the side must decide again). There is one clock per side (axis/allies, west/east): every army
of a team game's side shares it. At most one clock runs: the one of the side whose seat must decide (the
engine's `state.decision.seat`, also when that decision is out of turn), and only while a human seat decides
(bots never run out of time).

What is stored is a remaining time per side in integer milliseconds plus the instant the running clock
started; the running side's deadline is `started_at + remaining`. Nothing depends on a process's memory, so
clocks survive restarts. `now()` is the only time source (tests replace `games.clocks.now`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

NONE, REALTIME, CORRESPONDENCE = "none", "realtime", "correspondence"
KINDS = (NONE, REALTIME, CORRESPONDENCE)
MIN_MINUTES, MAX_MINUTES = 0.25, 180  # lichess's range of realtime controls
MAX_INCREMENT_SECONDS = 180
MIN_DAYS, MAX_DAYS = 1, 14
MS_PER_DAY = 86_400_000


def now() -> datetime:
    """The clocks' time source: the current UTC time (tests replace it to move time without sleeping)."""
    return datetime.now(UTC)


class TimeControlError(ValueError):
    """A time control that is not one of the three shapes (games.options turns it into a 400)."""

    def __init__(self, message: str, *, field: str = "time_control") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class TimeControl:
    kind: str = NONE
    minutes: float = 0  # realtime: each side's time at the start
    increment_seconds: int = 0  # realtime: added to a side's clock after each of its actions
    days: int = 0  # correspondence: the time for each decision

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    @property
    def initial_ms(self) -> int:
        """A side's time at the start (correspondence: for its first decision)."""
        if self.kind == REALTIME:
            return round(self.minutes * 60_000)
        if self.kind == CORRESPONDENCE:
            return self.days * MS_PER_DAY
        return 0

    @property
    def increment_ms(self) -> int:
        return self.increment_seconds * 1000 if self.kind == REALTIME else 0

    def to_json(self) -> dict[str, Any]:
        """The stored and shown shape; {} for none (Game.time_control's default)."""
        if self.kind == REALTIME:
            minutes = int(self.minutes) if float(self.minutes).is_integer() else self.minutes
            return {"kind": REALTIME, "minutes": minutes, "increment_seconds": self.increment_seconds}
        if self.kind == CORRESPONDENCE:
            return {"kind": CORRESPONDENCE, "days": self.days}
        return {}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl:
        """A checked time control from a request's (or the stored) JSON; TimeControlError when it is not
        {"kind": "none"}, {"kind": "realtime", "minutes", "increment_seconds"?} or {"kind":
        "correspondence", "days"}."""
        data = dict(data or {})
        kind = data.pop("kind", NONE if not data else None)
        if kind not in KINDS:
            raise TimeControlError(f"time_control.kind is one of {list(KINDS)}.", field="time_control.kind")
        allowed = {NONE: set(), REALTIME: {"minutes", "increment_seconds"}, CORRESPONDENCE: {"days"}}[kind]
        extra = sorted(set(data) - allowed)
        if extra:
            raise TimeControlError(
                f"A {kind} time control takes {sorted(allowed) or 'nothing else'}, not {extra[0]!r}.",
                field=f"time_control.{extra[0]}",
            )
        if kind == REALTIME:
            minutes = data.get("minutes")
            increment = data.get("increment_seconds", 0)
            if not _number(minutes) or not MIN_MINUTES <= minutes <= MAX_MINUTES:
                raise TimeControlError(
                    f"time_control.minutes is a number from {MIN_MINUTES} to {MAX_MINUTES}.",
                    field="time_control.minutes",
                )
            if not _integer(increment) or not 0 <= increment <= MAX_INCREMENT_SECONDS:
                raise TimeControlError(
                    f"time_control.increment_seconds is a whole number from 0 to {MAX_INCREMENT_SECONDS}.",
                    field="time_control.increment_seconds",
                )
            return cls(kind=REALTIME, minutes=minutes, increment_seconds=increment)
        if kind == CORRESPONDENCE:
            days = data.get("days")
            if not _integer(days) or not MIN_DAYS <= days <= MAX_DAYS:
                raise TimeControlError(
                    f"time_control.days is a whole number from {MIN_DAYS} to {MAX_DAYS}.",
                    field="time_control.days",
                )
            return cls(kind=CORRESPONDENCE, days=days)
        return cls()


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value  # not NaN


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class Clock:
    """Each side's remaining time (ms); for the running side, as it was at `started_at`."""

    remaining: dict[str, int] = field(default_factory=dict)
    running: str = ""  # the side whose clock runs ("" none)
    started_at: datetime | None = None

    @classmethod
    def new(cls, control: TimeControl, sides: tuple[str, ...] | list[str]) -> Clock:
        return cls(remaining=dict.fromkeys(sides, control.initial_ms))

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, control: TimeControl, sides: tuple[str, ...]) -> Clock:
        if not data:
            return cls.new(control, sides)
        started = data.get("started_at")
        return cls(
            remaining={side: int(ms) for side, ms in data["remaining"].items()},
            running=data.get("running") or "",
            started_at=datetime.fromisoformat(started) if started else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "remaining": dict(self.remaining),
            "running": self.running,
            "started_at": self.started_at.isoformat() if self.started_at else None,
        }

    def deadline(self) -> datetime | None:
        """When the running side's time is up (None when no clock runs)."""
        if not self.running or self.started_at is None:
            return None
        return self.started_at + timedelta(milliseconds=self.remaining[self.running])

    def remaining_at(self, side: str, at: datetime) -> int:
        """The side's time left at `at` (ms, never below 0)."""
        left = self.remaining.get(side, 0)
        if side == self.running and self.started_at is not None:
            left -= _ms(at - self.started_at)
        return max(0, left)

    def expired(self, at: datetime) -> bool:
        deadline = self.deadline()
        return deadline is not None and at >= deadline

    def stop(self, at: datetime, *, bonus_ms: int = 0) -> None:
        """Stop the running clock at `at`, charging its side the time spent (then adding `bonus_ms`)."""
        if self.running:
            self.remaining[self.running] = self.remaining_at(self.running, at) + bonus_ms
        self.running, self.started_at = "", None

    def start(self, side: str, at: datetime, control: TimeControl) -> None:
        """Start `side`'s clock at `at` (correspondence: with a fresh `days` for this decision)."""
        if control.kind == CORRESPONDENCE:
            self.remaining[side] = control.initial_ms
        self.running, self.started_at = side, at

    def settle(self, control: TimeControl, deciding: str, at: datetime) -> None:
        """After a write: the clock of `deciding` (a side, "" for nobody) runs, every other one stands.
        A clock that runs already for that side keeps running."""
        if self.running == deciding:
            return
        self.stop(at)
        if deciding:
            self.start(deciding, at, control)


def _ms(delta: timedelta) -> int:
    return delta.days * MS_PER_DAY + delta.seconds * 1000 + delta.microseconds // 1000


def clock_view(
    *, control_json: dict[str, Any] | None, clock_json: dict[str, Any] | None, sides: tuple[str, ...],
    at: datetime,
) -> dict[str, Any] | None:
    """The clocks as every view shows them at `at` (None without a time control): the control, which side's
    clock runs, its deadline, the server's time, and each side's time left."""
    control = TimeControl.from_json(control_json)
    if not control.timed:
        return None
    clock = Clock.from_json(clock_json, control, sides)
    deadline = clock.deadline()
    return {
        **control.to_json(),
        "running": clock.running or None,
        "deadline": deadline.isoformat() if deadline else None,
        "server_time": at.isoformat(),
        "sides": [
            {"side": side, "remaining_ms": clock.remaining_at(side, at), "running": side == clock.running}
            for side in sides
        ],
    }
