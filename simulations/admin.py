"""Admin for simulation jobs: a read-only list (jobs change only through simulations.services)."""

from __future__ import annotations

from django.contrib import admin

from simulations.models import SimulationChunk, SimulationJob


class SimulationChunkInline(admin.TabularInline):
    model = SimulationChunk
    extra = 0
    fields = ["index", "worker", "seconds", "created_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False


@admin.register(SimulationJob)
class SimulationJobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "owner", "games_done", "games_total", "created_at", "finished_at"]
    list_filter = ["kind", "status"]
    search_fields = ["id", "owner__username"]
    list_select_related = ["owner"]
    readonly_fields = [
        "id",
        "owner",
        "kind",
        "status",
        "games",
        "seed",
        "chunk_games",
        "chunks_total",
        "games_total",
        "games_done",
        "request",
        "result",
        "error",
        "created_at",
        "started_at",
        "finished_at",
    ]
    exclude = ["spec"]
    inlines = [SimulationChunkInline]

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False
