"""Admin of The War's cards and starters (registered by cards.admin). fixtures/the_war/ is the source of the
shipped cards; a row edited here is a local override that `load_catalog` keeps and lists (until
`load_catalog --reset`); every edit is checked against the rulebook's vocabulary (TheWarCard.clean) and
drops the cached catalog answers. The provenance of every value is shown, estimated values marked."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from cards.the_war.models import RESOURCES, TheWarCard, TheWarStarter, TheWarStarterEntry, TheWarVersion
from cards.the_war.services import the_war_after_admin_edit
from vocabulary.the_war import Feature


class TheWarAdmin(admin.ModelAdmin):
    """Drops the cached catalog answers after every change (cards.the_war.services)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        the_war_after_admin_edit()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        the_war_after_admin_edit()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        the_war_after_admin_edit()


class ProvenanceListFilter(admin.SimpleListFilter):
    title = "provenance"
    parameter_name = "provenance"

    def lookups(self, request, model_admin):
        return [("seed", "prints values in the rulebook"), ("estimated", "wholly estimated")]

    def queryset(self, request, queryset):
        if self.value() == "seed":
            return queryset.filter(seed_values__gt=0)
        if self.value() == "estimated":
            return queryset.filter(seed_values=0)
        return queryset


class FeatureListFilter(admin.SimpleListFilter):
    title = "feature"
    parameter_name = "feature"

    def lookups(self, request, model_admin):
        return [(f.value, f.value) for f in Feature]

    def queryset(self, request, queryset):
        return queryset.filter(features__contains=[self.value()]) if self.value() else queryset


class ResourceListFilter(admin.SimpleListFilter):
    title = "cost includes"
    parameter_name = "resource"

    def lookups(self, request, model_admin):
        return [(r, r) for r in RESOURCES]

    def queryset(self, request, queryset):
        if self.value() in RESOURCES:
            return queryset.filter(**{f"cost_{self.value()}__isnull": False})
        return queryset


def _estimated_keys(card: TheWarCard) -> list[str]:
    return sorted(k for k, p in (card.provenance or {}).items() if p.get("source") == "estimated")


@admin.register(TheWarCard)
class TheWarCardAdmin(TheWarAdmin):
    list_display = [
        "position",
        "code",
        "title",
        "category",
        "army",
        "subtype",
        "line",
        "attack",
        "defense",
        "cost_text",
        "seed_values",
        "estimated_list",
    ]
    list_display_links = ["code", "title"]
    list_filter = [
        "category",
        "army",
        ProvenanceListFilter,
        "unit_type",
        "subtype",
        "line",
        FeatureListFilter,
        ResourceListFilter,
        "rarity",
        "location",
    ]
    search_fields = ["code", "title"]
    ordering = ["position", "code"]
    readonly_fields = ["provenance_table", "seed_values"]
    fieldsets = [
        (None, {"fields": ["code", "title", "category", "army", "number", "rarity", "position"]}),
        (
            "Cost (depot / plant / fuel)",
            {
                "fields": [
                    ("cost_depot", "cost_depot_resource_cards_only"),
                    ("cost_plant", "cost_plant_resource_cards_only"),
                    ("cost_fuel", "cost_fuel_resource_cards_only"),
                ]
            },
        ),
        (
            "Unit",
            {
                "fields": [
                    "unit_type",
                    "subtype",
                    "line",
                    ("attack", "defense"),
                    ("aa_attack", "bombing_power", "deck_hit"),
                    "bonuses",
                    "features",
                    "restrictions",
                    "attack_cost",
                    "abilities",
                ]
            },
        ),
        ("Resource", {"fields": ["resource_kind", "yields"]}),
        (
            "Improvements, conditions, special cards, heroes",
            {
                "fields": [
                    "effects",
                    ("elimination_deck_cards", "elimination_breakthrough_power"),
                    "maintenance",
                    "location",
                    "hero_mode",
                ]
            },
        ),
        ("Text and provenance", {"fields": ["text", "provenance_table", "provenance", "seed_values"]}),
    ]

    @admin.display(description="cost")
    def cost_text(self, obj: TheWarCard) -> str:
        marked = "*" if any(k.split(".")[0] == "cost" for k in _estimated_keys(obj)) else ""
        return (
            (
                "/".join(
                    "-" if getattr(obj, f"cost_{r}") is None else str(getattr(obj, f"cost_{r}"))
                    for r in RESOURCES
                )
                + marked
            )
            if obj.cost_list()
            else "-"
        )

    @admin.display(description="estimated values")
    def estimated_list(self, obj: TheWarCard) -> str:
        return ", ".join(_estimated_keys(obj)) or "-"

    @admin.display(description="provenance of each value")
    def provenance_table(self, obj: TheWarCard) -> str:
        rows = []
        for key, entry in sorted((obj.provenance or {}).items()):
            if entry.get("source") == "seed":
                rows.append((key, "seed", f"{entry.get('section')}: “{entry.get('quote')}”", ""))
            else:
                rows.append((key, "ESTIMATED", entry.get("note", ""), "color:#b3261e;font-style:italic"))
        body = format_html_join("", '<tr style="{3}"><td>{0}</td><td><b>{1}</b></td><td>{2}</td></tr>', rows)
        return format_html('<table class="the-war-provenance">{}</table>', body)


class TheWarStarterEntryInline(admin.TabularInline):
    model = TheWarStarterEntry
    extra = 0
    fields = ["position", "card", "count"]
    autocomplete_fields = ["card"]


@admin.register(TheWarStarter)
class TheWarStarterAdmin(TheWarAdmin):
    list_display = ["position", "code", "name", "army", "card_count"]
    list_display_links = ["code", "name"]
    list_filter = ["army"]
    search_fields = ["code", "name"]
    inlines = [TheWarStarterEntryInline]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("entries")

    @admin.display(description="cards")
    def card_count(self, obj: TheWarStarter) -> int:
        return sum(e.count for e in obj.entries.all())


@admin.register(TheWarStarterEntry)
class TheWarStarterEntryAdmin(TheWarAdmin):
    list_display = ["starter", "position", "card", "count"]
    list_filter = ["starter", "card__category"]
    list_select_related = ["starter", "card"]
    search_fields = ["starter__code", "card__code", "card__title"]
    ordering = ["starter__position", "position"]
    autocomplete_fields = ["card"]


@admin.register(TheWarVersion)
class TheWarVersionAdmin(admin.ModelAdmin):
    """The change feed's history (recorded by load_catalog and admin edits): read only."""

    list_display = ["id", "content_hash", "recorded_at"]
    search_fields = ["content_hash"]
    readonly_fields = ["content_hash", "contents", "recorded_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
