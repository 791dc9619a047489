from django.contrib import admin

from decks.models import Deck, DeckEntry, DeckVersion


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    extra = 0


class DeckVersionInline(admin.TabularInline):
    model = DeckVersion
    extra = 0
    can_delete = False
    fields = ("number", "name", "nation", "is_public", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "nation", "owner", "is_public", "version", "updated_at")
    list_filter = ("nation", "is_public")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner",)
    readonly_fields = ("version", "created_at", "updated_at")
    inlines = (DeckEntryInline, DeckVersionInline)
