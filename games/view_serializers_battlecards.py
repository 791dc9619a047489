"""The documented shape of a Battlecards seat's view (OpenAPI only): the engine builds the view
(battlecards/view.py) as plain JSON; these serializers describe it for the schema. Its decisions and actions
are the components games.decision_schemas builds from the engine's declarations (Decision, Action)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.decision_schemas import decision_component, named_serializer
from games.engine.battlecards.prompts import CARD_REF
from games.models import SeatName
from games.schema_fields import documented as _documented
from games.schema_fields import enum as _enum
from vocabulary.battlecards import KINDS

GAME = "battlecards"
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


CardRefSerializer = named_serializer(CARD_REF)  # the card instances the view and the prompts name

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
    decision = _documented(decision_component(GAME), serializers.JSONField, allow_null=True)
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

