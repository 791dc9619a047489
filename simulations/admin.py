"""Admin for simulation jobs: a read-only list (jobs change only through simulations.services)."""

from __future__ import annotations

from django.contrib import admin

from simulations.models import SimulationChunk, SimulationJob
from simulations.selectors import PUBLIC_FIELDS


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
    # every column a job's JSON shows (the selectors' list), owner as the user
    readonly_fields = [name.removesuffix("_id") if name == "owner_id" else name for name in PUBLIC_FIELDS]
    exclude = ["spec"]
    inlines = [SimulationChunkInline]

    def has_add_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False

    def has_change_permission(self, request, obj=None) -> bool:  # noqa: ARG002
        return False
