"""The decision machine: a stack of frames advanced until one needs a decision, and ONE registry in which
each decision kind declares its legal-action and act functions together.

A game builds one `RuleBook`, its rule modules register their frame steps and decisions in it, and the
book then drives any state that has `frames` (a list of typed frames with a `kind` attribute, and a
`stage` one for a kind with a table of stages), `decision`, `status`, `ply`, `record_events` and the two
derived slots `_legal_cache` / `_events`:

* a frame step `step(state, frame) -> Decision | None` either mutates and returns None, or returns a
  Decision without mutating, so a serialised state always resumes at the same decision; a frame kind may
  instead declare a table of stages (the frame's `stage` -> step), read from one place;
* a decision kind declares `legal(state, frame) -> list[key]` (keys are tuples `(type, seat, *fields)`),
  `act(state, frame, action)` and optionally `key_at(state, frame, pick) -> key`, a cheaper
  `legal(...)[pick(len(legal(...)))]` that builds only the chosen key (self-play; an equivalence test
  checks it against `legal`);
* a decision that also takes actions it cannot list (a referee's reports of free values, Tide of Iron)
  is an open decision (`open_decision`): it declares the action types it `accepts`, `apply` then checks the
  type, not the key, and its `act` checks the values itself, raising before it changes anything.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import IllegalAction, MalformedAction
from .events import Event

Step = Callable[[Any, Any], Any]  # (state, frame) -> Decision | None


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide what now: a frame step's answer (derived from the frames, never serialised)."""

    seat: str
    kind: str
    prompt: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "prompt": self.prompt}


@dataclass(frozen=True, slots=True)
class Stage:
    """One row of a declared stage table: the stage's step and the stages it may hand its frame to (an
    empty `then`: the step ends the frame). The machine checks the table when it is registered and every
    move against it (RuleBook.move), so the flow reads top to bottom from the table."""

    step: Step
    then: tuple[str, ...] = ()


class DecisionSpec(NamedTuple):
    kind: str
    legal: Callable[[Any, Any], list[tuple]]
    act: Callable[[Any, Any, Any], None]
    key_at: Callable[[Any, Any, Callable[[int], int]], tuple] | None = None
    accepts: frozenset[str] | None = None  # the action types it takes unlisted (its act checks them)


# Each game's state class and the step that recomputes a deserialised state's pending decision (its
# machine's advance), declared once by the module that assembles the game's rules (declare_resume); the
# state's from_json calls resume(). No state class is patched from outside.
_RESUME: dict[type, Callable[[Any], None]] = {}


def declare_resume(state_cls: type, advance: Callable[[Any], None]) -> None:
    """Declare `advance` as the step that resumes a `state_cls` state loaded from JSON (once per class)."""
    if state_cls in _RESUME:
        raise ValueError(f"{state_cls.__name__}: its resume step is declared twice")
    _RESUME[state_cls] = advance


def resume(st: Any) -> None:
    """Recompute a deserialised state's pending decision with the step its game declared."""
    step = _RESUME.get(type(st))
    if step is None:
        raise RuntimeError(f"no rules declared for {type(st).__name__}: import its game package first")
    step(st)


def emit(st: Any, type_: str, data: dict[str, Any], vis: str = "all") -> None:
    """Record an event of the action being applied (`vis`: "all" or the one seat that may see it). The one
    place that checks `record_events` (off in self-play): callers emit without a guard of their own, except
    the few emitters on self-play's hot path (marked "hot in self-play"), which skip building a payload that
    would be dropped (issue 22's speed budget: about 1,000 emits a random game)."""
    if st.record_events:
        st._events.append(Event(type_, data, vis))


class RuleBook:
    """One game's frames and decisions, and the machine that runs them."""

    def __init__(self, name: str, action_types: dict[str, type], action_base: type, *,
                 over: str = "the game is over") -> None:
        self.name = name
        self._over = over  # the message of an action after the end (code game_over)
        self.frames: dict[str, Any] = {}  # kind -> its step, or its table of stages (stage -> step)
        self.flows: dict[str, dict[str, frozenset[str]]] = {}  # kind -> stage -> its declared successors
        self.decisions: dict[str, DecisionSpec] = {}
        self._action_types = action_types
        self._action_base: Any = action_base
        self._actions: dict[tuple, Any] = {}  # actions are immutable values: one object per key, reused

    # ---- registration ------------------------------------------------------------------------
    def frame(self, kind: str, step: Step | None = None, *,
              stages: Mapping[str, Step] | Mapping[str, Stage] | None = None) -> None:
        """Register a frame kind's step, or its table of stages: plain steps (each step sets the frame's
        stage itself), or `Stage` rows declaring each stage's successors (only `move` changes the stage)."""
        if kind in self.frames or (step is None) == (stages is None):
            raise ValueError(f"frame {kind!r}: register once, with a step or a stage table")
        if stages is None:
            self.frames[kind] = step
            return
        rows = list(stages.values())
        if rows and all(isinstance(r, Stage) for r in rows):
            table: Mapping[str, Stage] = stages  # type: ignore[assignment]
            for name, row in table.items():
                unknown = [t for t in row.then if t not in table]
                if unknown:
                    raise ValueError(f"frame {kind!r}: stage {name!r} goes to undeclared stages {unknown}")
            self.flows[kind] = {name: frozenset(row.then) for name, row in table.items()}
            self.frames[kind] = {name: row.step for name, row in table.items()}
        elif any(isinstance(r, Stage) for r in rows):
            raise ValueError(f"frame {kind!r}: a stage table is all Stage rows or all steps")
        else:
            self.frames[kind] = dict(stages)

    def move(self, fr: Any, stage: str) -> None:
        """Move a frame with a declared stage table to `stage`, one of its current stage's successors."""
        if stage not in self.flows[fr.kind][fr.stage]:
            raise RuntimeError(f"{fr.kind} frame: {fr.stage!r} -> {stage!r} is not a declared move")
        fr.stage = stage

    def decision(self, kind: str, *, legal: Callable, act: Callable, key_at: Callable | None = None) -> None:
        if kind in self.decisions:
            raise ValueError(f"decision {kind!r} is registered twice")
        self.decisions[kind] = DecisionSpec(kind, legal, act, key_at)

    def open_decision(self, kind: str, *, legal: Callable, act: Callable, accepts: Iterable[str]) -> None:
        """A decision that also takes actions it cannot list (a referee's reports of free values): `apply`
        checks that an action is of a type it `accepts`, and its `act` checks the values."""
        if kind in self.decisions:
            raise ValueError(f"decision {kind!r} is registered twice")
        self.decisions[kind] = DecisionSpec(kind, legal, act, None, frozenset(accepts))

    # ---- the machine -------------------------------------------------------------------------
    def advance(self, st: Any) -> None:
        """Run the top frame's step until one needs a decision (or the game is over)."""
        st._legal_cache = None
        frames = self.frames
        while st.status == "active":
            fr = st.frames[-1]
            step = frames[fr.kind]
            d = (step[fr.stage] if type(step) is dict else step)(st, fr)
            if d is not None:
                st.decision = d
                return
        st.decision = None

    def legal_keys(self, st: Any) -> list[tuple]:
        """The legal actions as keys (type, seat, *fields); cached until the next action."""
        if st.decision is None:
            return []
        cache = st._legal_cache
        if cache is not None and cache[0] == st.ply:
            return cache[1]
        keys = self.decisions[st.decision.kind].legal(st, st.frames[-1])
        st._legal_cache = (st.ply, keys)
        return keys

    def legal_key_at(self, st: Any, pick: Callable[[int], int]) -> tuple:
        """legal_keys(st)[pick(len(legal_keys(st)))], building only the chosen key where the decision
        knows how (self-play with index-picking bots)."""
        cache = st._legal_cache
        if cache is None or cache[0] != st.ply:
            key_at = self.decisions[st.decision.kind].key_at
            if key_at is not None:
                return key_at(st, st.frames[-1], pick)
        keys = self.legal_keys(st)
        return keys[pick(len(keys))]

    def materialize(self, key: tuple) -> Any:
        actions = self._actions
        action = actions.get(key)
        if action is None:
            if len(actions) >= 100_000:  # bounded: the keys of one game are a few thousand
                actions.clear()
            action = actions[key] = self._action_types[key[0]](*key[1:])
        return action

    def legal_actions(self, st: Any) -> list[Any]:
        return [self.materialize(k) for k in self.legal_keys(st)]

    def apply(self, st: Any, action: Any) -> list[Event]:
        """Validate `action` (an Action or its JSON), then apply it; returns the events it caused.

        Raises MalformedAction (code "malformed_action") for a bad shape, IllegalAction with code
        "game_over" when the game has ended, "not_your_turn" when another seat must decide, and
        "illegal_action" when the action is not among the legal actions (of a decision that `accepts`
        unlisted actions: not of a type it accepts, or refused by its act). On any error the state is
        unchanged.
        """
        if isinstance(action, dict):
            action = self._action_base.from_json(action)
        if not isinstance(action, self._action_base):
            raise MalformedAction("not an action")
        if st.status != "active" or st.decision is None:
            raise IllegalAction(self._over, code="game_over")
        d = st.decision
        if action.seat != d.seat:
            raise IllegalAction(f"it is {d.seat}'s decision", code="not_your_turn")
        accepts = self.decisions[d.kind].accepts
        if accepts is not None:
            if action.type not in accepts:
                raise IllegalAction(f"{action.type} is not a choice of the {d.kind} decision")
        elif action.key() not in self.legal_keys(st):
            raise IllegalAction(f"{action} is not legal now ({d.kind})")
        return self.apply_legal(st, action)

    def apply_legal(self, st: Any, action: Any) -> list[Event]:
        """Apply an action taken as-is from legal_actions(st) for the current decision, without checking
        it again (self-play loops). Anything else must go through apply()."""
        st._events = []
        self.decisions[st.decision.kind].act(st, st.frames[-1], action)
        st.ply += 1
        self.advance(st)
        events = st._events
        st._events = []
        return events
