"""The documented shapes of a seat's view, its pending decision and the legal actions (OpenAPI only).

The view itself is built by the engine (games.engine.view) as plain JSON; these serializers describe
it for the schema, so generated clients get typed objects: one component per decision kind (a oneOf
with a discriminator on `kind`, each with its own prompt component) and one per action type (a oneOf
with a discriminator on `type`, built from games.engine.actions.ACTION_TYPES, so it cannot drift).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.engine.actions import ACTION_TYPES
from games.engine.cards import KINDS
from games.models import GameStatus, LogKind, SeatName

SEATS = [c for c, _ in SeatName.choices]


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _enum(*values: str, role: str | None = None, **kwargs: Any) -> serializers.Field:
    """A string field of these values, documented as an enum. `role` keeps equal value sets of different
    meaning apart (the decision kind "fire" and the action type "fire" get an enum component each)."""
    schema: dict[str, Any] = {"type": "string", "enum": list(values)}
    if role:
        schema["x-spec-enum-id"] = f"{role}:{','.join(values)}"
    if kwargs.get("allow_null"):
        schema = {**schema, "nullable": True, "enum": [*values, None]}
    return _documented(schema, serializers.CharField, **kwargs)


def _documented(schema: Any, base: type[serializers.Field], **kwargs: Any) -> serializers.Field:
    """A `base` field documented by `schema` (a subclass: serializers deep-copy their field instances,
    which would drop an annotation made on an instance)."""
    return extend_schema_field(schema)(type(base.__name__, (base,), {}))(**kwargs)




def _seat(**kwargs: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=SeatName.choices, **kwargs)


# ------------------------------------------------------------------------------------------ actions


def _action_serializer(type_name: str, action_cls: type) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {
        "__doc__": (action_cls.__doc__ or "").strip() or f"The {type_name} action.",
        "type": _enum(type_name, role="action"),
    }
    for f in fields(action_cls):
        if f.name == "seat":
            attrs["seat"] = _seat(help_text="The seat that acts (yours).")
        else:
            attrs[f.name] = serializers.CharField(required=f.default is not None, max_length=64)
    return type(f"{_camel(type_name)}Action", (serializers.Serializer,), attrs)


ACTION_SERIALIZERS = {name: _action_serializer(name, cls) for name, cls in ACTION_TYPES.items()}



def action_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """The Action component: one of the action types, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name="Action",
        serializers=ACTION_SERIALIZERS,
        resource_type_field_name="type",
        many=many,
    )


# ---------------------------------------------------------------------------------------- decisions


class CardRefSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The card instance id in this game, e.g. c17.")
    code = serializers.CharField(help_text="The catalog code of the card.")


class _BattlecardPrompt(serializers.Serializer):
    battlecard = serializers.CharField(help_text="The battlecard instance id.")
    code = serializers.CharField()


class _RoundPrompt(serializers.Serializer):
    round = serializers.IntegerField()


class _UnitPrompt(serializers.Serializer):
    unit = serializers.CharField()


class _ShotPrompt(serializers.Serializer):
    unit = serializers.CharField()
    target = serializers.CharField()
    type = _enum("fire", "autokill")


class _EmptyPrompt(serializers.Serializer):
    pass


class _DeployPrompt(serializers.Serializer):
    count = serializers.IntegerField(help_text="Cards to deploy.")
    reason = serializers.CharField()


_TransferPrompt = type(
    "_TransferPrompt",
    (serializers.Serializer,),
    {"moved": serializers.IntegerField(), "from": serializers.CharField(), "to": serializers.CharField()},
)

# every decision kind of the engine and the shape of its prompt
PROMPTS: dict[str, type[serializers.Serializer]] = {
    "turn_start": type("_TurnPrompt", (serializers.Serializer,), {"turn": serializers.IntegerField()}),
    "initial_deploy": _DeployPrompt,
    "deploy": _DeployPrompt,
    "transfer": _TransferPrompt,
    "sabotage_victim": type(
        "_ClassPrompt",
        (serializers.Serializer,),
        {"class": serializers.CharField(help_text="general/leader")},
    ),
    "v2_effect": type("_CardPrompt", (serializers.Serializer,), {"card": serializers.CharField()}),
    "divide_choose": _EmptyPrompt,
    "divide_stack": type(
        "_DividePrompt",
        (serializers.Serializer,),
        {
            "stack": serializers.CharField(),
            "new_stack": serializers.CharField(),
            "remaining": serializers.IntegerField(),
        },
    ),
    "reorganize": type("_HandPrompt", (serializers.Serializer,), {"hand": serializers.IntegerField()}),
    "reorganize_swap": type(
        "_SwapPrompt",
        (serializers.Serializer,),
        {"hand_size": serializers.IntegerField(), "moves_left": serializers.IntegerField()},
    ),
    "capture_browse": _EmptyPrompt,
    "capture_pick": type(
        "_CapturePrompt",
        (serializers.Serializer,),
        {"stack": serializers.CharField(), "cards": CardRefSerializer(many=True)},
    ),
    "fight_or_decline": _BattlecardPrompt,
    "preemptive_choice": _BattlecardPrompt,
    "battlecard_response": _BattlecardPrompt,
    "emergency_deploy": _BattlecardPrompt,
    "scorched_earth": _BattlecardPrompt,
    "commit_optional": type(
        "_ClassesPrompt",
        (serializers.Serializer,),
        {"classes": serializers.ListField(child=serializers.CharField())},
    ),
    "battle_stack": type(
        "_BattleStackPrompt",
        (serializers.Serializer,),
        {"kind": serializers.CharField(help_text="ground/air/sea: choose which of your stacks of it fights")},
    ),
    "battle_window": _RoundPrompt,
    "withdraw": _RoundPrompt,
    "sabotage_target": _UnitPrompt,
    "sub_withdraw": _UnitPrompt,
    "defend": _ShotPrompt,
    "retarget": _ShotPrompt,
    "fire": type(
        "_FirePrompt",
        (serializers.Serializer,),
        {"round": serializers.IntegerField(), "phase": serializers.IntegerField()},
    ),
}


def _decision_serializer(kind: str, prompt: type[serializers.Serializer]) -> type[serializers.Serializer]:
    if prompt is _EmptyPrompt:  # an empty serializer would vanish from the schema: an empty object
        prompt_field = _documented(
            {"type": "object", "description": "No details.", "additionalProperties": False},
            serializers.DictField,
            required=False,
        )
    else:
        doc = f"The prompt of a {kind} decision."
        prompt_field = type(f"{_camel(kind)}Prompt", (prompt,), {"__doc__": doc})(required=False)
    return type(
        f"{_camel(kind)}Decision",
        (serializers.Serializer,),
        {
            "__doc__": f"A pending {kind} decision (prompt and legal actions only for the deciding seat).",
            "seat": _seat(help_text="The seat that decides."),
            "kind": _enum(kind, role="decision"),
            "prompt": prompt_field,
            "legal_actions": _documented(
                action_schema(many=True),
                serializers.JSONField,
                required=False,
                help_text="Send exactly one of these (empty: nobody may act).",
            ),
        },
    )


DECISION_SERIALIZERS = {kind: _decision_serializer(kind, prompt) for kind, prompt in PROMPTS.items()}

Decision = PolymorphicProxySerializer(
    component_name="Decision",
    serializers=DECISION_SERIALIZERS,
    resource_type_field_name="kind",
    many=False,
)

# --------------------------------------------------------------------------------------------- view


def _per_kind(field_factory: Any) -> dict[str, serializers.Field]:
    return {kind: field_factory() for kind in KINDS}


class WonCardSerializer(serializers.Serializer):
    id = serializers.CharField()
    code = serializers.CharField()
    scorched = serializers.BooleanField()
    victory_points = serializers.IntegerField()


OwnStacksSerializer = type(
    "OwnStacksSerializer",
    (serializers.Serializer,),
    _per_kind(
        lambda: serializers.ListField(child=CardRefSerializer(many=True), help_text="Stacks, bottom first.")
    ),
)
OpponentStacksSerializer = type(
    "OpponentStacksSerializer",
    (serializers.Serializer,),
    _per_kind(lambda: serializers.ListField(child=serializers.IntegerField(), help_text="Stack sizes.")),
)
UnitValuesSerializer = type(
    "UnitValuesSerializer",
    (serializers.Serializer,),
    _per_kind(lambda: serializers.IntegerField(allow_null=True)),
)


class OwnSideSerializer(serializers.Serializer):
    nation = serializers.CharField()
    hand = CardRefSerializer(many=True)
    stacks = OwnStacksSerializer()
    occupied = serializers.DictField(child=CardRefSerializer(many=True), help_text="Battlecard id -> cards.")
    kept = CardRefSerializer(many=True)
    industry = CardRefSerializer(many=True)
    discard = CardRefSerializer(many=True)
    removed = CardRefSerializer(many=True)
    won = WonCardSerializer(many=True)
    victory_points = serializers.IntegerField()
    deck_size = serializers.IntegerField()


class OpponentSideSerializer(serializers.Serializer):
    nation = serializers.CharField()
    hand_size = serializers.IntegerField()
    stacks = OpponentStacksSerializer()
    occupied = serializers.DictField(
        child=serializers.IntegerField(), help_text="Battlecard id -> card count."
    )
    kept_count = serializers.IntegerField()
    industry = CardRefSerializer(many=True)
    discard = CardRefSerializer(many=True)
    removed = CardRefSerializer(many=True)
    won = WonCardSerializer(many=True)
    victory_points = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    hand_codes = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Only while your intelligence unit shows it."
    )


class ConflictPilesSerializer(serializers.Serializer):
    deck_size = serializers.IntegerField()
    discard = CardRefSerializer(many=True)
    aside = CardRefSerializer(many=True)


class BattleUnitSerializer(serializers.Serializer):
    id = serializers.CharField()
    code = serializers.CharField()
    kind = serializers.CharField()
    phase = serializers.IntegerField(allow_null=True)
    in_battle = serializers.BooleanField()
    done = serializers.BooleanField()
    hidden_submarine = serializers.BooleanField()
    attack = UnitValuesSerializer()
    defense = UnitValuesSerializer()


class BattleSideSerializer(serializers.Serializer):
    units = BattleUnitSerializer(many=True)
    withdrawn = serializers.JSONField(help_text="Your withdrawn unit ids; the enemy's: their number.")
    intelligence_played = serializers.BooleanField()
    chemical_warfare = serializers.IntegerField(help_text="Chemical Warfare attack value played; 0: none.")


class SupportSerializer(serializers.Serializer):
    unit = serializers.CharField()
    recipient = serializers.CharField()
    mode = serializers.CharField()
    bonus = serializers.IntegerField()


class PendingShotSerializer(serializers.Serializer):
    seat = _seat()
    unit = serializers.CharField()
    target = serializers.CharField()
    type = _enum("fire", "autokill")


class BattleSerializer(serializers.Serializer):
    """The battle in progress (before the reveal only card, code, mode, sides and stage)."""

    card = serializers.CharField(allow_null=True)
    code = serializers.CharField(allow_null=True)
    mode = serializers.CharField()
    aggressor = _seat()
    defender = _seat()
    stage = serializers.CharField()
    counterattack = serializers.BooleanField(required=False)
    round = serializers.IntegerField(required=False)
    phase = serializers.IntegerField(required=False)
    sides = serializers.DictField(child=BattleSideSerializer(), required=False, help_text="Per seat.")
    supports = SupportSerializer(many=True, required=False)
    pending_shot = PendingShotSerializer(required=False, allow_null=True)
    winner = _seat(required=False, allow_null=True)


class ResultSerializer(serializers.Serializer):
    """How the game ended (an empty object while it goes on)."""

    kind = _enum("total", "standard", "all-battles-decided", "turn-limit", required=False)
    points = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Victory points per seat."
    )
    turns = serializers.IntegerField(required=False)


class ViewSerializer(serializers.Serializer):
    """What one seat may see: never the opponent's hand, face-down cards, deck order or RNG state."""

    seat = _seat()
    status = _enum("active", "finished")
    winner = _seat(allow_null=True)
    result = ResultSerializer(allow_null=True)
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    active_seat = _seat(allow_null=True)
    victory_threshold = serializers.IntegerField()
    max_action_number = serializers.IntegerField()
    me = OwnSideSerializer()
    opponent = OpponentSideSerializer()
    conflict = ConflictPilesSerializer()
    battle = BattleSerializer(allow_null=True)
    decision = _documented(Decision, serializers.JSONField, allow_null=True)


class SeatViewSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Send it back with your action.")
    last_seq = serializers.IntegerField()
    seat = _seat()
    your_turn = serializers.BooleanField()
    waiting_on = _seat(allow_null=True)
    winner = _seat(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    view = ViewSerializer()


class EventSerializer(serializers.Serializer):
    type = serializers.CharField()
    data = serializers.DictField()
    visible_to = _enum("all", *SEATS)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LogKind.choices)
    seat = _seat()
    by_bot = serializers.BooleanField()
    action = serializers.DictField(allow_null=True, help_text="Null for the other seat's engine actions.")
    events = EventSerializer(many=True, help_text="Only the events your seat may see.")
    created_at = serializers.DateTimeField()


class ActionResultSerializer(serializers.Serializer):
    entries = LogEntrySerializer(many=True, help_text="What happened (your action, then the bots' answers).")
    state = SeatViewSerializer()


class EventsPageSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    seat = _seat()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    entries = LogEntrySerializer(many=True)
