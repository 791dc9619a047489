"""The documented shapes of a seat's view, its pending decision and the legal actions (OpenAPI only).

The view itself is built by the engine (battlecards/view.py) as plain JSON; these serializers describe
it for the schema, so generated clients get typed objects: one component per decision kind (a oneOf
with a discriminator on `kind`, each with its own prompt component) and one per action type (a oneOf
with a discriminator on `type`, built from games.engine.battlecards.actions.ACTION_TYPES, so it cannot drift).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games import clocks
from games.engine.battlecards.actions import ACTION_TYPES
from games.engine.battlefront import ACTION_TYPES as BATTLEFRONT_ACTION_TYPES
from games.engine.battlefront import DECISION_KINDS as BATTLEFRONT_DECISION_KINDS
from games.engine.battlefront import FRONTS as BATTLEFRONT_FRONTS
from games.engine.battlefront import SEATS as BATTLEFRONT_SEATS
from games.game_type_fields import GameIdField
from games.models import SIDE_SEATS, GameStatus, LogKind, SeatName
from games.schema_fields import camel as _camel
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum
from games.view_serializers_the_war import TheWarViewSerializer, the_war_action_schema
from games.view_serializers_toi import TideOfIronViewSerializer, toi_action_schema
from vocabulary.battlecards import KINDS

SEATS = [c for c, _ in SeatName.choices]  # every game's seats (log entries, events, game rows)
# a Battlecards seat: axis/allies (1v1), or an army of a team game (axis-1..axis-4, allies-1..allies-4)
BATTLECARDS_SEATS = [
    c for c, _ in SeatName.choices if c.split("-", 1)[0] in (SeatName.AXIS, SeatName.ALLIES)
]
BATTLECARDS_SIDES = [SeatName.AXIS, SeatName.ALLIES]










def _seat(**kwargs: Any) -> serializers.ChoiceField:
    """A Battlecards seat (axis/allies, or an army: axis-1, allies-2, ...)."""
    return serializers.ChoiceField(choices=BATTLECARDS_SEATS, **kwargs)


def _side(**kwargs: Any) -> serializers.ChoiceField:
    """A Battlecards side (axis/allies): who wins, whose points."""
    return serializers.ChoiceField(choices=BATTLECARDS_SIDES, **kwargs)


def _any_seat(**kwargs: Any) -> serializers.ChoiceField:
    """A seat of any game type (log entries and events are shaped alike in every game)."""
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
            attrs[f.name] = serializers.CharField(
                required=f.default is not None, max_length=64, help_text=action_cls.field_help.get(f.name)
            )
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
    "choose_enemy_army": type(
        "_EnemyArmyPrompt",
        (serializers.Serializer,),
        {
            "battlecard": serializers.CharField(help_text="The battlecard instance id."),
            "code": serializers.CharField(),
            "armies": serializers.ListField(
                child=serializers.CharField(), help_text="Team games: the enemy armies you may fight."
            ),
        },
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
    # C8: the A-bomb window of the seat whose phase-2 turn it is not (pass, or play the A-bomb)
    "a_bomb_window": _RoundPrompt,
    # team games, FAQ Optional Rule 3 (engine README, "Team play, uneven teams and combined sets")
    "army_transfer": type(
        "_ArmyTransferPrompt",
        (serializers.Serializer,),
        {
            "to": serializers.CharField(help_text="The friendly army receiving the forces."),
            "moved": serializers.IntegerField(),
            "max": serializers.IntegerField(),
        },
    ),
    "reserve_trade": type(
        "_ReserveTradePrompt",
        (serializers.Serializer,),
        {"from": serializers.CharField(help_text="The friendly army offering a card."),
         "card": CardRefSerializer(help_text="The card it offers; choose the one you send back.")},
    ),
    "seat_trade": type(
        "_SeatTradePrompt",
        (serializers.Serializer,),
        {"from": serializers.CharField(help_text="The friendly army proposing to trade seats."),
         "across": serializers.DictField(child=serializers.CharField(),
                                         help_text="The enemy army each of the two sits across from.")},
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
    side = _side(required=False, help_text="Team games: the army's side.")
    across = _seat(required=False, help_text="Team games: the enemy army sitting across from it.")
    eliminated = serializers.BooleanField(
        required=False, help_text="Team games: its nation's homeland fell; it plays no more."
    )
    kept = CardRefSerializer(
        many=True, required=False, help_text="Team games, a teammate: the side's common kept cards."
    )


class ArmiesSerializer(serializers.Serializer):
    """Team and combined games: every army, the others shown as an opponent is (a teammate's hand and
    face-down stacks are as private as an enemy's; teammates add the side's common kept cards)."""

    turn_order = serializers.ListField(child=_seat(), help_text="Every army, in turn order.")
    side = _side(help_text="Your side.")
    others = serializers.DictField(child=OpponentSideSerializer(), help_text="Army -> what you see of it.")


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
    army = _seat(required=False, help_text="Team games: the army whose unit it is.")


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
    armies = serializers.DictField(
        child=serializers.ListField(child=_seat()),
        required=False,
        help_text="Team games: each side's commanding army -> every army fighting for it (a homeland battle: "
        "the commander's teammates too).",
    )


class ResultSerializer(serializers.Serializer):
    """How the game ended (an empty object while it goes on)."""

    kind = _enum("total", "standard", "all-battles-decided", "turn-limit", required=False)
    points = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Victory points per side."
    )
    turns = serializers.IntegerField(required=False)


class ViewSerializer(serializers.Serializer):
    """What one seat may see: never the opponent's hand, face-down cards, deck order or RNG state."""

    seat = _seat()
    status = _enum("active", "finished")
    winner = _side(allow_null=True, help_text="The winning side (a team game's too).")
    result = ResultSerializer(allow_null=True)
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    active_seat = _seat(allow_null=True)
    victory_threshold = serializers.IntegerField()
    max_action_number = serializers.IntegerField()
    me = OwnSideSerializer()
    opponent = OpponentSideSerializer(
        help_text="The enemy army you face: in a team game the one you fight now, else the one across."
    )
    conflict = ConflictPilesSerializer()
    battle = BattleSerializer(allow_null=True)
    decision = _documented(Decision, serializers.JSONField, allow_null=True)
    deck_list = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Your own arsenal deck list (card codes)."
    )
    table = serializers.DictField(
        required=False,
        help_text="Classic games: the public facts the rest of the view does not show (what a search bot "
        "rebuilds a game from): the pending steps (frames; a face-down card they name is \"hidden-N\", the "
        "other side's secret choices left out: FAQ C2's stack choice before the reveal, its optional-forces "
        "answer), the codes of the other cards they name, the stack each face-up unit of the battle came "
        "from (stacked), the theater, the options and the round-capped battles.",
    )
    armies = ArmiesSerializer(required=False, help_text="Team and combined games only.")


# ------------------------------------------------------------------------------ Battlefront view


def _bf_seat(**kwargs: Any) -> serializers.ChoiceField:
    """A Battlefront seat (west/east)."""
    return serializers.ChoiceField(choices=list(BATTLEFRONT_SEATS), **kwargs)


def _per_bf_seat(field_factory: Any) -> dict[str, serializers.Field]:
    return {seat: field_factory() for seat in BATTLEFRONT_SEATS}


def _bf_action_serializer(spec: dict[str, Any]) -> type[serializers.Serializer]:
    """One Battlefront action type, from the engine's ACTION_TYPES description (it cannot drift)."""
    type_name = spec["type"]
    attrs: dict[str, Any] = {"__doc__": spec["description"] or f"The {type_name} action.",
                             "type": _enum(type_name, role="battlefront-action")}
    for name, field in spec["fields"].items():
        if name == "seat":
            attrs[name] = _bf_seat(help_text="The seat that acts (yours).")
        elif name == "front":
            attrs[name] = serializers.ChoiceField(
                choices=list(BATTLEFRONT_FRONTS), required=field["required"], help_text="A front."
            )
        else:
            attrs[name] = serializers.CharField(required=field["required"], max_length=64)
    return type(f"Battlefront{_camel(type_name)}Action", (serializers.Serializer,), attrs)


BATTLEFRONT_ACTION_SERIALIZERS = {
    spec["type"]: _bf_action_serializer(spec) for spec in BATTLEFRONT_ACTION_TYPES
}


def battlefront_action_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """The BattlefrontAction component: one of the Battlefront action types, told apart by `type`."""
    return PolymorphicProxySerializer(
        component_name="BattlefrontAction",
        serializers=BATTLEFRONT_ACTION_SERIALIZERS,
        resource_type_field_name="type",
        many=many,
    )


def any_action_schema() -> PolymorphicProxySerializer:
    """What a client may send: an action of its game (Battlecards Action or BattlefrontAction)."""
    return PolymorphicProxySerializer(
        component_name="AnyAction",
        serializers=[
            action_schema(), battlefront_action_schema(), toi_action_schema(), the_war_action_schema()
        ],
        resource_type_field_name=None,
        many=False,
    )


BATTLEFRONT_PROMPTS: dict[str, type[serializers.Serializer]] = {
    "deploy": type(
        "_BattlefrontDeployPrompt",
        (serializers.Serializer,),
        {
            "turn": serializers.IntegerField(),
            "first": _bf_seat(help_text="Who deploys first this turn (the coin flip)."),
            "placed": serializers.DictField(
                child=serializers.IntegerField(), help_text="Front -> cards you assigned there this turn."
            ),
            "opponent_passed": serializers.BooleanField(help_text="Two passes in a row end the deployment."),
        },
    ),
    "discard": type(
        "_BattlefrontDiscardPrompt",
        (serializers.Serializer,),
        {"excess": serializers.IntegerField(), "hand_limit": serializers.IntegerField()},
    ),
}


def _bf_decision_serializer(kind: str, prompt: type[serializers.Serializer]) -> type[serializers.Serializer]:
    doc = f"The prompt of a Battlefront {kind} decision."
    return type(
        f"Battlefront{_camel(kind)}Decision",
        (serializers.Serializer,),
        {
            "__doc__": f"A pending Battlefront {kind} decision (prompt and legal actions only for the "
            "deciding seat).",
            "seat": _bf_seat(help_text="The seat that decides."),
            "kind": _enum(kind, role="battlefront-decision"),
            "prompt": type(f"Battlefront{_camel(kind)}Prompt", (prompt,), {"__doc__": doc})(required=False),
            "legal_actions": _documented(
                battlefront_action_schema(many=True),
                serializers.JSONField,
                required=False,
                help_text="Send exactly one of these (empty: nobody may act).",
            ),
        },
    )


BATTLEFRONT_DECISION_SERIALIZERS = {
    kind: _bf_decision_serializer(kind, BATTLEFRONT_PROMPTS[kind]) for kind in BATTLEFRONT_DECISION_KINDS
}

BattlefrontDecision = PolymorphicProxySerializer(
    component_name="BattlefrontDecision",
    serializers=BATTLEFRONT_DECISION_SERIALIZERS,
    resource_type_field_name="kind",
    many=False,
)


class BattlefrontHandCardSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The card's code (the shared deck holds one of each).")
    type = serializers.CharField(help_text="L, I, P, T, A, S, F, or X (a Special card).")
    force = serializers.IntegerField(allow_null=True, help_text="null for a Special card.")


class BattlefrontFrontCardSerializer(serializers.Serializer):
    code = serializers.CharField()
    type = serializers.CharField(help_text="As played (a Special card: the type of its use).")
    force = serializers.IntegerField()
    negated = serializers.BooleanField(help_text="A negated card adds no force.")
    use = serializers.CharField(required=False, help_text="How a Special card was used.")


BattlefrontFrontCardsSerializer = type(
    "BattlefrontFrontCardsSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: BattlefrontFrontCardSerializer(many=True)),
)
BattlefrontSeatCountsSerializer = type(
    "BattlefrontSeatCountsSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: serializers.IntegerField()),
)


class BattlefrontFrontSerializer(serializers.Serializer):
    front = serializers.ChoiceField(choices=list(BATTLEFRONT_FRONTS))
    name = serializers.CharField()
    cards = BattlefrontFrontCardsSerializer(help_text="Per seat, in play order (face up).")
    force = BattlefrontSeatCountsSerializer(help_text="Force per seat now (negated cards excluded).")
    markers = BattlefrontSeatCountsSerializer(help_text="Victory markers per seat.")
    captured_by = _bf_seat(allow_null=True)


BattlefrontSeatCodesSerializer = type(
    "BattlefrontSeatCodesSerializer",
    (serializers.Serializer,),
    _per_bf_seat(lambda: serializers.ListField(child=serializers.CharField())),
)


class BattlefrontBattleFrontSerializer(serializers.Serializer):
    force = BattlefrontSeatCountsSerializer()
    marker = _bf_seat(allow_null=True, help_text="Who gained a Victory Marker (null: equal force).")
    negated = BattlefrontSeatCodesSerializer(help_text="The negated cards per seat.")
    captured_by = _bf_seat(required=False, help_text="Present when this battle captured the front.")


class BattlefrontBattleSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    fronts = serializers.DictField(
        child=BattlefrontBattleFrontSerializer(),
        help_text="Front -> its battle (captured fronts fight no more).",
    )


class BattlefrontResultSerializer(serializers.Serializer):
    """How the game ended (an empty object while it goes on)."""

    kind = serializers.CharField(
        required=False,
        help_text="three_fronts; breakthrough, outflank or envelopment (two-front victories); stalled; "
        "simultaneous.",
    )
    winner = _bf_seat(required=False, allow_null=True)
    captured = BattlefrontSeatCodesSerializer(required=False, help_text="The fronts each seat captured.")
    markers = BattlefrontSeatCountsSerializer(required=False, help_text="Victory markers per seat.")
    turns = serializers.IntegerField(required=False)
    first_player = _bf_seat(required=False, allow_null=True)


class BattlefrontMeSerializer(serializers.Serializer):
    seat = _bf_seat()
    nationality = serializers.CharField(allow_null=True, help_text="With the Special cards rule.")
    hand = BattlefrontHandCardSerializer(many=True)
    discards = serializers.ListField(child=serializers.CharField(), help_text="Your own discards.")
    captured = serializers.ListField(child=serializers.CharField())
    scouted = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="The opponent's hand as your scout showed it this turn (you only).",
    )


class BattlefrontOpponentSerializer(serializers.Serializer):
    seat = _bf_seat()
    nationality = serializers.CharField(allow_null=True)
    hand_size = serializers.IntegerField()
    discard_size = serializers.IntegerField()
    captured = serializers.ListField(child=serializers.CharField())


class BattlefrontOptionsSerializer(serializers.Serializer):
    two_front_victory = serializers.BooleanField()
    blitzkrieg_attacker = _bf_seat(allow_null=True)
    special_cards = serializers.DictField(
        child=serializers.CharField(), allow_null=True, help_text="Seat -> nationality."
    )


class BattlefrontViewSerializer(serializers.Serializer):
    """What one Battlefront seat may see: never the opponent's hand or discards, the deck order or the
    RNG state (a scout's look at the opponent's hand goes to the scout's owner only)."""

    game = _enum("battlefront", role="game")
    seat = _bf_seat()
    status = _enum("active", "finished")
    winner = _bf_seat(allow_null=True)
    result = BattlefrontResultSerializer()
    turn = serializers.IntegerField()
    ply = serializers.IntegerField()
    first_seat = _bf_seat(allow_null=True)
    options = BattlefrontOptionsSerializer()
    hand_limit = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    fronts = BattlefrontFrontSerializer(many=True)
    last_battle = BattlefrontBattleSerializer(allow_null=True)
    me = BattlefrontMeSerializer()
    opponent = BattlefrontOpponentSerializer()
    decision = _documented(BattlefrontDecision, serializers.JSONField, allow_null=True)


GameView = PolymorphicProxySerializer(
    component_name="GameView",
    serializers=[
        ViewSerializer, BattlefrontViewSerializer, TideOfIronViewSerializer, TheWarViewSerializer
    ],
    resource_type_field_name=None,
    many=False,
)


# ------------------------------------------------------------------------------------------- clocks


class ClockSideSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDE_SEATS, help_text="axis/allies or west/east: a clock a side.")
    remaining_ms = serializers.IntegerField(
        min_value=0, help_text="The side's time left at server_time, in milliseconds."
    )
    running = serializers.BooleanField(help_text="Its clock runs: one of its human seats must decide.")


class ClockSerializer(serializers.Serializer):
    """The clocks of a game with a time control, as they are at `server_time` (null without one)."""

    kind = serializers.ChoiceField(choices=[clocks.REALTIME, clocks.CORRESPONDENCE])
    minutes = serializers.FloatField(required=False, help_text="realtime: each side's time at the start.")
    increment_seconds = serializers.IntegerField(
        required=False, help_text="realtime: added to a side's clock after each of its actions."
    )
    days = serializers.IntegerField(required=False, help_text="correspondence: the time for each decision.")
    running = serializers.ChoiceField(
        choices=SIDE_SEATS, allow_null=True, help_text="The side whose clock runs (null: none runs)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the running side loses on time unless it acts (null: none runs)."
    )
    server_time = serializers.DateTimeField(help_text="The server's time these values are computed at.")
    sides = ClockSideSerializer(many=True)


class TimeControlSerializer(serializers.Serializer):
    """A time control (games.clocks): none, realtime (minutes + increment) or correspondence (days)."""

    kind = serializers.ChoiceField(
        choices=list(clocks.KINDS),
        help_text="none (the default: no clocks), realtime (`minutes` each plus `increment_seconds` per "
        "action) or correspondence (`days` for each decision).",
    )
    minutes = serializers.FloatField(
        required=False,
        min_value=clocks.MIN_MINUTES,
        max_value=clocks.MAX_MINUTES,
        help_text="realtime: each side's time at the start.",
    )
    increment_seconds = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=clocks.MAX_INCREMENT_SECONDS,
        help_text="realtime: seconds added to a side's clock after each of its actions (default 0).",
    )
    days = serializers.IntegerField(
        required=False,
        min_value=clocks.MIN_DAYS,
        max_value=clocks.MAX_DAYS,
        help_text="correspondence: days for each decision.",
    )


class SeatViewSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    game_type = GameIdField(help_text="Which view `view` is.")
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField(help_text="Send it back with your action.")
    last_seq = serializers.IntegerField()
    seat = _any_seat()
    your_turn = serializers.BooleanField()
    waiting_on = _any_seat(allow_null=True)
    winner = _any_seat(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    clock = ClockSerializer(allow_null=True, help_text="The clocks (null: the game has no time control).")
    view = _documented(
        GameView,
        serializers.JSONField,
        help_text="A View (battlecards), a BattlefrontView (battlefront), a TideOfIronView (tide-of-iron) or "
        "a TheWarView (the-war).",
    )


class EventSerializer(serializers.Serializer):
    type = serializers.CharField()
    data = serializers.DictField()
    visible_to = _enum("all", *SEATS)


class LogEntrySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LogKind.choices)
    seat = _any_seat()
    by_bot = serializers.BooleanField()
    action = serializers.DictField(allow_null=True, help_text="Null for the other seat's engine actions.")
    events = EventSerializer(many=True, help_text="Only the events your seat may see.")
    created_at = serializers.DateTimeField()


class ActionResultSerializer(serializers.Serializer):
    entries = LogEntrySerializer(many=True, help_text="What happened (your action, then the bots' answers).")
    state = SeatViewSerializer()


class EventsPageSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    seat = _any_seat()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    last_seq = serializers.IntegerField()
    clock = ClockSerializer(allow_null=True, help_text="The clocks (null: the game has no time control).")
    entries = LogEntrySerializer(many=True)
