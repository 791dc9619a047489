"""Input validation and output shapes of the simulations API (no business logic here)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.game_type_fields import GameIdField
from games.game_types import DEFAULT_GAME_TYPE, game_type_or_none
from games.serializers import MAX_SEED, ConflictChoiceSerializer, DeckRefSerializer
from games.simulation import BOTS
from simulations.models import JobKind, JobStatus


class BotsSerializer(serializers.Serializer):
    a = serializers.ChoiceField(
        choices=BOTS, default="heuristic", help_text="The bot playing deck a (Battlefront: west)."
    )
    b = serializers.ChoiceField(
        choices=BOTS, default="heuristic", help_text="The bot playing deck b (Battlefront: east)."
    )


class _JobInputSerializer(serializers.Serializer):
    games = serializers.IntegerField(
        min_value=1, help_text="Games to play (per variant); bounded per job and per user per day."
    )
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        help_text="Base seed: game i is played with a seed derived from (seed, i). Drawn when left out.",
    )
    bots = BotsSerializer(required=False, default=dict)
    options = serializers.DictField(
        child=serializers.JSONField(allow_null=True),  # any JSON value, as declared (the rules check them)
        required=False,
        default=dict,
        help_text='Optional rules, e.g. {"larger_standing_armies": true}.',
    )
    conflict = ConflictChoiceSerializer(required=False, default=dict)


class SimulationCreateSerializer(_JobInputSerializer):
    game_type = GameIdField(
        required=False,
        default=DEFAULT_GAME_TYPE,
        help_text="battlecards (two decks), battlefront (one shared deck: no decks nor conflict) or the-war "
        "(deck_a plays p1, deck_b p2: The War decks or starters; options {\"casual\": true}; without decks "
        "the decks named in options.decks).",
    )
    deck_a = DeckRefSerializer(required=False, help_text="Your deck, a public deck or a starter.")
    deck_b = DeckRefSerializer(required=False, help_text="A deck of the other side.")

    def validate(self, attrs: dict) -> dict:
        kind = game_type_or_none(attrs.get("game_type"))
        if kind is not None and kind.uses_decks:  # players bring two decks
            missing = {n: ["This field is required."] for n in ("deck_a", "deck_b") if n not in attrs}
            if missing:
                raise serializers.ValidationError(missing)
        return attrs


class BalanceCreateSerializer(_JobInputSerializer):
    opponent = DeckRefSerializer(help_text="The deck to balance against (yours, public or a starter).")
    proposals = serializers.IntegerField(
        min_value=1, max_value=8, default=4, help_text="How many swap proposals to simulate."
    )


class ProgressSerializer(serializers.Serializer):
    games_done = serializers.IntegerField()
    games_total = serializers.IntegerField()
    fraction = serializers.FloatField()
    chunks_total = serializers.IntegerField()


class SeatResultSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    rate = serializers.FloatField()
    ci95 = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        help_text="95% Wilson score interval of the win rate.",
    )


class TimingSerializer(serializers.Serializer):
    seconds = serializers.FloatField()
    games_per_second = serializers.FloatField(allow_null=True)
    worker_processes = serializers.IntegerField()


class SimulationResultSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    bots = serializers.DictField(child=serializers.CharField())
    seats = serializers.DictField(child=SeatResultSerializer(), help_text="axis / allies.")
    draws = serializers.IntegerField()
    unfinished = serializers.IntegerField()
    end_reasons = serializers.DictField(child=serializers.IntegerField())
    average_turns = serializers.FloatField()
    average_plies = serializers.FloatField()
    round_cap_battles = serializers.IntegerField(
        help_text="Battles settled as a stalemate by the max_battle_rounds option (0 without it: no round "
        "limit)."
    )
    outcomes_digest = serializers.CharField(help_text="sha256 of every game's outcome, in game order.")
    timing = TimingSerializer()


class ProposalResultSerializer(serializers.Serializer):
    label = serializers.CharField()
    current = serializers.BooleanField()
    remove = serializers.DictField(child=serializers.IntegerField())
    add = serializers.DictField(child=serializers.IntegerField())
    changes = serializers.IntegerField()
    card_difference = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    win_rate = serializers.FloatField(help_text="The balanced deck's win rate.")
    ci95 = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2)
    distance_from_even = serializers.FloatField()
    lopsided = serializers.BooleanField(required=False, help_text="Current deck only: 50% is outside its CI.")
    report = SimulationResultSerializer()


class BalanceResultSerializer(serializers.Serializer):
    side = serializers.CharField()
    current = ProposalResultSerializer(allow_null=True)
    proposals = ProposalResultSerializer(many=True, help_text="Ranked: nearest to a 50% win rate first.")
    ranking = serializers.ListField(child=serializers.CharField())
    timing = TimingSerializer()


class SimulationJobSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=JobKind.choices)
    status = serializers.ChoiceField(choices=JobStatus.choices)
    games = serializers.IntegerField()
    seed = serializers.IntegerField()
    progress = ProgressSerializer()
    request = serializers.DictField(help_text="What was asked: decks, bots, options, conflict.")
    result = PolymorphicProxySerializer(
        component_name="SimulationJobResult",
        serializers=[SimulationResultSerializer, BalanceResultSerializer],
        resource_type_field_name=None,
        allow_null=True,
        help_text="null until done; then SimulationResult (kind simulation) or BalanceResult (kind balance).",
    )
    error = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
