"""Admin for games: read-only (games change only through games.services; the log is append-only)."""

from __future__ import annotations

from django.contrib import admin

from games.models import Game, GameAction, GameAnalysis, GameSeat, Rating, RatingChange


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False

    def has_delete_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False


class GameSeatInline(ReadOnlyMixin, admin.TabularInline):
    model = GameSeat
    extra = 0
    fields = ["seat", "kind", "user", "bot", "invited_user", "nation", "deck_label", "joined_at"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "game_type",
        "status",
        "created_by",
        "turn",
        "ply",
        "current_seat",
        "winner",
        "end_reason",
        "created_at",
    ]
    list_filter = ["game_type", "status", "end_reason", "winner"]
    search_fields = ["id", "created_by__username", "seats__user__username"]
    date_hierarchy = "created_at"
    list_select_related = ["created_by"]
    inlines = [GameSeatInline]
    readonly_fields = [
        "id",
        "game_type",
        "created_by",
        "status",
        "seed_hash",
        "seed",
        "seed_salt",
        "catalog_version",
        "catalog_hash",
        "snapshot_hash",
        "options",
        "rated",
        "lineup",
        "conflict_choice",
        "version",
        "last_seq",
        "state_lag",
        "turn",
        "ply",
        "current_seat",
        "winner",
        "end_reason",
        "result",
        "created_at",
        "updated_at",
        "started_at",
        "finished_at",
        "setup",
    ]
    exclude = ["state", "snapshot"]  # hidden information and bulk data: see the replay after the end

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_staff


@admin.register(GameAction)
class GameActionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "seq", "kind", "seat", "by_bot", "version", "created_at"]
    list_filter = ["kind", "by_bot", "seat"]
    search_fields = ["game__id"]
    list_select_related = ["game"]
    readonly_fields = ["game", "seq", "kind", "seat", "by_bot", "action", "events", "version", "created_at"]
    ordering = ["-created_at", "-seq"]


@admin.register(Rating)
class RatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Ratings change only through rated games and `manage.py calibrate_bot_ratings`."""

    list_display = ["game_type", "user", "bot", "rating", "deviation", "volatility", "games", "updated_at"]
    list_filter = ["game_type", "bot"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    readonly_fields = list_display + ["wins", "losses", "draws"]
    ordering = ["game_type", "-rating"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["game", "seat", "score", "rating_before", "rating_after", "created_at"]
    search_fields = ["game__id", "rating__user__username"]
    list_select_related = ["game"]
    readonly_fields = [
        "game",
        "seat",
        "rating",
        "score",
        "rating_before",
        "rating_after",
        "deviation_before",
        "deviation_after",
        "volatility_before",
        "volatility_after",
        "created_at",
    ]


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Analyses are made by games.services.analysis only (a failed one is started again by a request)."""

    list_display = ["game", "status", "requested_by", "plies_done", "plies_total", "iterations", "created_at"]
    list_filter = ["status"]
    search_fields = ["game__id", "requested_by__username"]
    list_select_related = ["game", "requested_by"]
    readonly_fields = list_display + ["error", "updated_at", "finished_at", "plies"]
    ordering = ["-created_at"]
