"""Admin of the Battlefront cards (registered by cards.admin). fixtures/battlefront/cards.json is the source
of the shipped cards; a row edited here is a local override that `load_catalog` keeps and lists (until
`load_catalog --reset`); every edit drops the cached catalog answers."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Prefetch

from cards.battlefront.services import battlefront_after_admin_edit
from cards.models import (
    BATTLEFRONT_ABILITY_CHOICES,
    BATTLEFRONT_TARGET_TYPE_CHOICES,
    BattlefrontCard,
    BattlefrontCardAbility,
    BattlefrontSpecialUse,
    BattlefrontSpecialUseAbility,
)


class AbilityKindListFilter(admin.SimpleListFilter):
    title = "ability"
    parameter_name = "ability"

    def lookups(self, request, model_admin):
        return [*BATTLEFRONT_ABILITY_CHOICES, ("none", "no ability")]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(abilities__isnull=True)
        if self.value():
            return queryset.filter(abilities__kind=self.value()).distinct()
        return queryset


class _TargetListFilter(admin.SimpleListFilter):
    kind = ""

    def lookups(self, request, model_admin):
        return BATTLEFRONT_TARGET_TYPE_CHOICES

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(abilities__kind=self.kind, abilities__card_type=self.value()).distinct()
        return queryset


class NegatesListFilter(_TargetListFilter):
    title = "negates opposing"
    parameter_name = "negates"
    kind = "negate"


class ExtraListFilter(_TargetListFilter):
    title = "allows an extra"
    parameter_name = "extra"
    kind = "extra"


class BattlefrontAdmin(admin.ModelAdmin):
    """Drops the cached catalog answers after every change (cards.battlefront.services)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        battlefront_after_admin_edit()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        battlefront_after_admin_edit()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        battlefront_after_admin_edit()


class BattlefrontCardAbilityInline(admin.TabularInline):
    model = BattlefrontCardAbility
    extra = 0
    fields = ["position", "kind", "card_type", "wording", "count"]


class BattlefrontSpecialUseAbilityInline(admin.TabularInline):
    model = BattlefrontSpecialUseAbility
    extra = 0
    fields = ["position", "kind", "card_type", "wording", "count"]


def _ability_list(obj) -> str:
    return "; ".join(str(a) for a in obj.abilities.all()) or "-"


@admin.register(BattlefrontCard)
class BattlefrontCardAdmin(BattlefrontAdmin):
    list_display = [
        "position",
        "code",
        "name",
        "card_type",
        "force",
        "notes",
        "ability_list",
        "is_special",
        "optional_rule",
    ]
    list_display_links = ["code", "name"]
    list_filter = [
        "card_type",
        "force",
        AbilityKindListFilter,
        NegatesListFilter,
        ExtraListFilter,
        "is_special",
    ]
    search_fields = ["code", "name", "notes"]
    ordering = ["position", "code"]
    inlines = [BattlefrontCardAbilityInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related(
                Prefetch("abilities", queryset=BattlefrontCardAbility.objects.order_by("position"))
            )
        )

    @admin.display(description="abilities")
    def ability_list(self, obj: BattlefrontCard) -> str:
        return _ability_list(obj)


@admin.register(BattlefrontSpecialUse)
class BattlefrontSpecialUseAdmin(BattlefrontAdmin):
    list_display = ["position", "code", "nationality", "name", "card_type", "force", "ability_list", "text"]
    list_display_links = ["code", "name"]
    list_filter = ["nationality", "card_type", AbilityKindListFilter, ExtraListFilter]
    search_fields = ["code", "name", "text"]
    ordering = ["position", "code"]
    inlines = [BattlefrontSpecialUseAbilityInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related(
                Prefetch("abilities", queryset=BattlefrontSpecialUseAbility.objects.order_by("position"))
            )
        )

    @admin.display(description="abilities")
    def ability_list(self, obj: BattlefrontSpecialUse) -> str:
        return _ability_list(obj)


@admin.register(BattlefrontCardAbility)
class BattlefrontCardAbilityAdmin(BattlefrontAdmin):
    list_display = ["card", "position", "kind", "card_type", "wording", "count"]
    list_filter = ["kind", "card_type", "wording"]
    list_select_related = ["card"]
    search_fields = ["card__code", "card__name"]
    ordering = ["card__position", "position"]


@admin.register(BattlefrontSpecialUseAbility)
class BattlefrontSpecialUseAbilityAdmin(BattlefrontAdmin):
    list_display = ["special_use", "position", "kind", "card_type", "count"]
    list_filter = ["kind", "card_type"]
    list_select_related = ["special_use"]
    search_fields = ["special_use__code", "special_use__name"]
    ordering = ["special_use__position", "position"]
