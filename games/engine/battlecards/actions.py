"""Actions: small immutable values, one frozen dataclass per type.

Every action names the seat that takes it. Cards are named by instance id ("c17"), stacks by
"kind:index" (e.g. "ground:0", "ground:1" after Divide & Conquer) or "bc:<battlecard id>" (Optional Rule 5:
the forces occupying a battlecard); which seat's stack is meant follows from the decision (own stacks when
deploying, enemy stacks when capturing or bombing). A choice never packs several values into one string:
`choose` names the option and carries the army, card or stack it is about in typed fields (issue 22; the
string form of stored logs, e.g. "trade:<army>:<card>", still parses: `Choose.from_legacy`).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from vocabulary.battlecards import KINDS

from ..core.actions import action_schema, parse_action_fields
from ..core.errors import MalformedAction
from .setup import MAX_ARMIES_PER_SIDE, SEATS, is_army  # noqa: F401  (SEATS: re-exported)


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""
    _names: ClassVar[tuple[str, ...]] = ()
    field_help: ClassVar[dict[str, str]] = {}  # the OpenAPI schema's description of a field
    seat: str

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[f.name] = value
        return out

    def key(self) -> tuple:
        """(type, seat, *fields): the compact form legal actions are enumerated in."""
        return (self.type, *[getattr(self, n) for n in self._names])

    def __str__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)}" for f in fields(self)
                 if f.name != "seat" and getattr(self, f.name) is not None]
        return f"{self.seat} {self.type}" + (" " + " ".join(parts) if parts else "")

    @staticmethod
    def from_json(data: Any) -> Action:
        cls, kwargs = parse_action_fields(ACTION_TYPES, data)
        if not is_army(kwargs["seat"]):
            raise MalformedAction("seat must be 'axis' or 'allies' (a team game: 'axis-1', 'allies-2' ...)")
        if cls is Choose and len(kwargs) == 2 and ":" in kwargs["option"]:
            return Choose.from_legacy(kwargs["seat"], kwargs["option"])
        return cls(**kwargs)


OCCUPIED = "bc"  # the stack ref prefix of the forces occupying a battlecard (Optional Rule 5)


def split_stack_ref(ref: str) -> tuple[str, str]:
    """A stack ref's two parts: ("ground", "1") for "ground:1", ("bc", "c40") for "bc:c40" (the one parser
    of the stack ref text form; a ref without a colon gives (ref, ""))."""
    kind, _, rest = ref.partition(":")
    return kind, rest


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Turn start: draw the conflict card."""

    type: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class EmergencyDeploy(Action):
    """Deploy the whole reserve hand instead of drawing (or when the homeland is invaded)."""

    type: ClassVar[str] = "emergency_deploy"


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Deploy `card` (from the reserve hand or just drawn) onto own stack `stack`."""

    type: ClassVar[str] = "deploy"
    card: str
    stack: str


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play a kept conflict card. `target`: card/unit id or stack ref; `option`: a named variant."""

    type: ClassVar[str] = "play_card"
    card: str
    target: str | None = None
    option: str | None = None


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Pick one of the options of the decision: `option` names it (fight/decline, include/exclude, accept/
    refuse, a card or army id...); a choice about something carries it in a typed field: `stack` for a stack
    (option "stack": Divide & Conquer, Capture, the stack that fights), `army` (and `card`) for the team-play
    turn-start options (option "give": transfer forces to `army`; "trade": trade reserve `card` with `army`;
    "seats": propose a seat trade to `army`)."""

    type: ClassVar[str] = "choose"
    field_help: ClassVar[dict[str, str]] = {
        "option": 'The option: "fight", "include", "stack", "give", "trade", "seats", a card or army id...',
        "army": 'Team play: the friendly army of a "give", "trade" or "seats" option.',
        "card": 'Team play: the reserve card a "trade" option sends.',
        "stack": 'The stack ref of a "stack" option ("ground:1", "bc:c40").',
    }
    option: str
    army: str | None = None
    card: str | None = None
    stack: str | None = None

    @staticmethod
    def from_legacy(seat: str, option: str) -> Choose:
        """The typed choice of a string-encoded option of the logs stored before issue 22: "give:<army>",
        "trade:<army>:<card>", "seats:<army>", a stack ref ("ground:1", "bc:<id>"); any other option as is
        (then not a legal one)."""
        what, _, rest = option.partition(":")
        if what in ("give", "seats") and rest:
            return Choose(seat, what, army=rest)
        if what == "trade":
            army, _, card = rest.partition(":")
            if army and card:
                return Choose(seat, what, army=army, card=card)
        if (what in KINDS or what == OCCUPIED) and rest:
            return Choose(seat, "stack", stack=option)
        return Choose(seat, option)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline an optional step (close a play window, stop withdrawing, stop swapping...)."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """Fire `unit` at enemy unit `target` (one shot; big/heavy guns fire several)."""

    type: ClassVar[str] = "fire"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Autokill(Action):
    """Use `unit`'s autokill on `target` instead of firing this round."""

    type: ClassVar[str] = "autokill"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Support(Action):
    """Assign `unit`'s support (infantry/artillery/ship/carrier bonus) to friendly `recipient`.

    mode: "attack" or "defense" (infantry), "attack" (artillery, ships), "attack" or "air_defense" (carriers).
    """

    type: ClassVar[str] = "support"
    unit: str
    recipient: str
    mode: str


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """`unit` does not fire (any more) this round."""

    type: ClassVar[str] = "hold"
    unit: str


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Withdraw `unit` from the battle (it stays deployed)."""

    type: ClassVar[str] = "withdraw"
    unit: str


@dataclass(frozen=True, slots=True)
class Split(Action):
    """Divide & Conquer: move `card` of the stack being divided into the new stack."""

    type: ClassVar[str] = "split"
    card: str


@dataclass(frozen=True, slots=True)
class Retrieve(Action):
    """Reorganize Forces: take deployed `card` back into the reserve hand."""

    type: ClassVar[str] = "retrieve"
    card: str


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Capture: take enemy `card` from the browsed stack into own stack `stack`."""

    type: ClassVar[str] = "take"
    card: str
    stack: str


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Draw, EmergencyDeploy, Deploy, PlayCard, Choose, Pass, Fire, Autokill, Support, Hold,
                Withdraw, Split, Retrieve, Take)
}

for _cls in ACTION_TYPES.values():
    _cls._names = tuple(f.name for f in fields(_cls))

# Who may act: a side (a classic game's seat) or an army of a team game (axis-1 .. allies-4)
ACTING_SEATS = (*SEATS, *(f"{s}-{n}" for s in SEATS for n in range(1, MAX_ARMIES_PER_SIDE + 1)))
# The action types and their fields (core.actions.action_schema; the OpenAPI components are built from it)
ACTION_SCHEMA: list[dict[str, Any]] = action_schema(ACTION_TYPES, enums={"seat": ACTING_SEATS})


# field names per type, and whether a field may be None (then it is left out of the JSON form)
_KEY_FIELDS = {t: (cls._names, any(f.default is None for f in fields(cls)))
               for t, cls in ACTION_TYPES.items()}


# the JSON form per key, built once (a bounded memo, like rules.materialize); callers get a copy
_KEY_JSON: dict[tuple, dict[str, Any]] = {}


def key_to_json(key: tuple) -> dict[str, Any]:
    out = _KEY_JSON.get(key)
    if out is None:
        if len(_KEY_JSON) >= 100_000:
            _KEY_JSON.clear()
        out = _KEY_JSON[key] = _key_to_json(key)
    return out.copy()


def _key_to_json(key: tuple) -> dict[str, Any]:
    names, optional = _KEY_FIELDS[key[0]]
    out: dict[str, Any] = {"type": key[0]}
    if not optional and len(names) == len(key) - 1:
        out.update(zip(names, key[1:], strict=True))
        return out
    for name, value in zip(names, key[1:], strict=True):
        if value is not None:
            out[name] = value
    return out
