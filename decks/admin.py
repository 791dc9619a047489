"""Admin of the decks. A deck's nation is chosen from the nations of the catalog (a select, validated); a The
War deck's from the two armies. A deck's game is shown, never changed."""

from django import forms
from django.contrib import admin

from cards.selectors import nation_list
from decks.deck_games import deck_game
from decks.models import Deck, DeckEntry, DeckVersion


def nation_choices() -> list[tuple[str, str]]:
    """The catalog's nations, read when the form is built (the catalog can change without a restart)."""
    return [("", "---------")] + [(n.code, f"{n.name} ({n.code})") for n in nation_list()]



class DeckAdminForm(forms.ModelForm):
    nation = forms.ChoiceField(
        choices=nation_choices, help_text="A nation of the catalog (a The War deck: its army)."
    )

    class Meta:
        model = Deck
        fields = ("owner", "name", "nation", "description", "is_public")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:  # the side is chosen among those of the deck's game
            part = deck_game(self.instance.game)
            self.fields["nation"].choices = [("", "---------"), *part.admin_side_choices()]
            self.fields["nation"].label = part.side_header.capitalize()


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
    form = DeckAdminForm
    list_display = ("id", "name", "game", "nation", "owner", "is_public", "version", "updated_at")
    list_filter = ("game", "nation", "is_public")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner",)
    readonly_fields = ("game", "version", "created_at", "updated_at")
    inlines = (DeckEntryInline, DeckVersionInline)
