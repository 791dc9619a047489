"""Output shape of a finished game's analysis (games.analysis_apis): no business logic here."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import SeatName
from games.view_serializers import any_action_schema


def _action_field(help_text: str) -> serializers.Field:
    field = type("AnalysisActionField", (serializers.JSONField,), {})
    return extend_schema_field(any_action_schema())(field)(allow_null=True, help_text=help_text)


class AnalysisPlySerializer(serializers.Serializer):
    """One ply: the position before the (ply + 1)-th action in effect, judged from its deciding seat's
    view."""

    ply = serializers.IntegerField(help_text="The replay position (the replay page's ?ply=) before the move.")
    seat = serializers.ChoiceField(choices=SeatName.choices, help_text="The seat that decided here.")
    wins = serializers.DictField(
        child=serializers.FloatField(min_value=0, max_value=1),
        help_text="Each seat's estimated chance to win (a draw counts half), from the deciding seat's view.",
    )
    played = _action_field("The action played (null: the reader gets no moves, `moves_shown` false).")
    played_value = serializers.FloatField(
        allow_null=True, help_text="The played action's mean reward in the search (null: it never tried it)."
    )
    best = _action_field("The action the search prefers (null: no moves shown, or nothing searched).")
    best_value = serializers.FloatField(allow_null=True, help_text="The preferred action's mean reward.")
    flagged = serializers.BooleanField(
        help_text="The played action was clearly worse: at least `flag_margin` below the preferred one, "
        "tried at least `flag_min_visits` times."
    )
    choices = serializers.IntegerField(help_text="How many legal actions the seat had.")


class GameAnalysisSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "done", "failed"],
        help_text="none: nobody asked yet (POST asks); queued, running (`plies` grows), done, failed.",
    )
    available = serializers.BooleanField(help_text="Whether this game type can be analysed (a search bot).")
    moves_shown = serializers.BooleanField(
        help_text="Whether you see the plies (estimates and moves): as the replay's actions (a player, or "
                  "both decks public); false: `plies` is empty, the progress is shown."
    )
    iterations = serializers.IntegerField(allow_null=True, help_text="The search's iterations per ply.")
    plies_total = serializers.IntegerField(allow_null=True, help_text="The game's actions in effect.")
    plies_done = serializers.IntegerField(help_text="The plies analysed so far (the progress).")
    flag_margin = serializers.FloatField(help_text="A move this much below the preferred one is flagged.")
    flag_min_visits = serializers.IntegerField(help_text="... when the search tried it at least this often.")
    error = serializers.CharField(allow_blank=True, help_text="Why it failed (status failed).")
    created_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    plies = AnalysisPlySerializer(many=True)
