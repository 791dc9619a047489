"""Admin of Tide of Iron's Strategy cards, decks and scenarios (registered by cards.admin).
fixtures/tide_of_iron/ is the source of the shipped cards; a row edited here is a local override that
`load_catalog` keeps and lists (until `load_catalog --reset`); every card edit is checked against the text's
vocabulary (ToiCard.clean) and drops the cached catalog answers."""

from __future__ import annotations

from django.contrib import admin

from cards.tide_of_iron.models import ToiCard, ToiDeck, ToiDeckEntry, ToiScenario
from cards.tide_of_iron.services import tide_of_iron_after_admin_edit


class ToiAdmin(admin.ModelAdmin):
    """Drops the cached catalog answers after every change."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        tide_of_iron_after_admin_edit()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        tide_of_iron_after_admin_edit()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        tide_of_iron_after_admin_edit()


@admin.register(ToiCard)
class ToiCardAdmin(ToiAdmin):
    list_display = [
        "position",
        "code",
        "title",
        "deck",
        "cost",
        "phase",
        "play_area",
        "contact",
        "area_attack",
        "wide_blast",
        "suppressive",
        "seed_values",
    ]
    list_filter = ["deck", "phase", "play_area", "suppressive"]
    search_fields = ["code", "title"]
    readonly_fields = ["contact", "area_attack", "wide_blast", "suppressive", "seed_values"]
    ordering = ["position", "code"]


class ToiDeckEntryInline(admin.TabularInline):
    model = ToiDeckEntry
    extra = 0
    autocomplete_fields = ["card"]


@admin.register(ToiDeck)
class ToiDeckAdmin(ToiAdmin):
    list_display = ["position", "code", "title"]
    search_fields = ["code", "title"]
    inlines = [ToiDeckEntryInline]


@admin.register(ToiDeckEntry)
class ToiDeckEntryAdmin(ToiAdmin):
    list_display = ["deck", "position", "card", "count"]
    list_filter = ["deck"]
    search_fields = ["card__code", "card__title", "deck__title"]
    autocomplete_fields = ["card"]


@admin.register(ToiScenario)
class ToiScenarioAdmin(ToiAdmin):
    list_display = ["position", "code", "title"]
    search_fields = ["code", "title"]
