"""The War's actions: small immutable values with a "type", a "seat" and short string fields.

Every combined choice is a sequence of these atomic actions (design/multi-game.md): a payment is taps and
conversions, a block is one blocker on one attacker, damage is one point on one unit.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar  # noqa: F401 - the string annotations of _a() name ClassVar (dataclasses reads it here)

from ..core.actions import FieldAction, action_schema, parse_action_fields
from ..core.errors import MalformedAction
from .setup import SEATS


@dataclass(frozen=True, slots=True)
class Action(FieldAction):
    @staticmethod
    def from_json(data: Any) -> Action:
        cls, kwargs = parse_action_fields(ACTION_CLASSES, data)
        if kwargs["seat"] not in SEATS:
            raise MalformedAction(f"seat must be one of {list(SEATS)}")
        return cls(**kwargs)


def _a(name: str, doc: str, *names: str, optional: tuple[str, ...] = ()) -> type[Action]:
    ns: dict[str, Any] = {"type": name, "__doc__": doc, "__annotations__": {"type": "ClassVar[str]"}}
    for n in names:
        ns["__annotations__"][n] = "str"
    for n in optional:
        ns["__annotations__"][n] = "str | None"
        ns[n] = None
    cls = type(name.title().replace("_", ""), (Action,), ns)
    cls.__module__ = __name__
    return dataclass(frozen=True, slots=True)(cls)


Redraw = _a("redraw", "Re-draw the starting hand (shown to the opponent).")
Keep = _a("keep", "Keep the starting hand.")
PlayResource = _a("play_resource", "Put a resource card from the hand into the resource zone.", "card")
Tap = _a("tap", "Pay: rotate a resource card of the resource zone (its yield goes to the pool).", "card")
Convert = _a("convert", "Pay: make one `to` resource from two resources `a` and `b` of the other types.",
             "to", "a", "b")
Build = _a("build", "Build a unit or play a battlefield condition (non-location) or a special card from "
           "the hand; `target`: what a special card aims at.", "card", optional=("target",))
PlaySpecial = _a("play_special", "Assault wave: play a special card (or a special-mode hero) from the hand; "
                  "`target`: what it aims at.", "card", optional=("target",))
Improve = _a("improve", "Play an improvement (or an improvement hero) from the hand beneath one's unit.",
             "card", "unit")
MoveImprovement = _a("move_improvement", "Build phase: move an improvement to another unit.", "card", "unit")
Maintain = _a("maintain", "Start of the build phase: pay a battlefield condition's maintenance.", "card")
Abandon = _a("abandon", "Start of the build phase: do not pay; the condition goes to losses.", "card")
Move = _a("move", "Change position: move a unit to the other line (it rotates).", "unit")
Scout = _a("scout", "Rotate a scout party to look at the opponent's hand.", "unit")
Wave = _a("wave", "Attack phase: start an assault wave.")
Target = _a("target", "Wave: a unit with targeted attack attacks one enemy unit on the 1st line.",
            "unit", "target")
Attack = _a("attack", "Wave: a unit attacks the 1st line as a whole.", "unit")
FireSupport = _a("fire_support", "Artillery support: rotate a howitzer/mortar to add its bonus to an "
                 "attacking, blocking or supporting unit on the 1st line.", "unit", "to")
Salvo = _a("salvo", "Rocket launcher: strike a unit on the enemy 1st line (not struck back).",
           "unit", "target")
DeckHit = _a("deck_hit", "Heavy artillery: hit the opponent's deck.", "unit")
Land = _a("land", "Assault landing: paratroopers carried by a troop-carrying aircraft attack an object "
           "behind the 1st line (not a breakthrough).", "unit", "carrier", "target")
Escort = _a("escort", "A fighter escorts a bomber (announced with the bomber's attack).", "unit", "bomber")
Intercept = _a("intercept", "A fighter intercepts an attacking bomber or a blocking ground-attack aircraft.",
               "unit", "aircraft")
Block = _a("block", "Defender: one unit blocks one attacker.", "unit", "attacker")
Support = _a("support", "Defender: one unit supports one attacked unit, resource or the deck.",
             "unit", "target")
AaMode = _a("aa_mode", "A unit with an AA-attack in an engagement with enemy aircraft (and ground units): "
             "`mode` air (its AA-attack against aircraft), ground (its attack) or none (facing aircraft "
             "only: it does not use its AA-attack, rules revision 3).", "unit", "mode")
Hit = _a("hit", "Put one point of damage on one enemy unit of the engagement.", "target")
Breakthrough = _a("breakthrough", "A breakthrough unit that destroyed all its blockers goes on to the "
                  "2nd line.", "unit")
Strike = _a("strike", "Attack an object behind the 1st line: a 2nd-line unit, a resource or the deck.",
            "unit", "target")
PlayLocation = _a("play_location", "End of turn: play a Location battlefield condition.", "card")
Discard = _a("discard_condition", "End of turn: put one's battlefield condition into losses.", "card")
Eliminate = _a("eliminate", "End of turn: put N cards from the top of one's deck to losses to eliminate "
               "an opponent's battlefield condition.", "card")
Done = _a("done", "End this step (no more of this kind of action).")

ACTION_CLASSES: dict[str, type[Action]] = {cls.type: cls for cls in (
    Redraw, Keep, PlayResource, Tap, Convert, Build, PlaySpecial, Improve, MoveImprovement, Maintain, Abandon,
    Move,
    Scout, Wave, Target, Attack, FireSupport, Salvo, DeckHit, Escort, Intercept, Block, Support, AaMode, Hit,
    Breakthrough, Strike, Land, PlayLocation, Discard, Eliminate, Done)}
for _cls in ACTION_CLASSES.values():
    _cls._names = tuple(f.name for f in fields(_cls))


# The action types and their fields (core.actions.action_schema; the OpenAPI components are built from it)
ACTION_TYPES: list[dict[str, Any]] = action_schema(ACTION_CLASSES, enums={"seat": SEATS},
                                                   default_help="A card id (e.g. p1.16) or a value.")
ACTION_SCHEMA = ACTION_TYPES  # the name every engine exports (core.engine.ModuleEngine.action_schema)
