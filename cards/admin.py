"""Admin of the card catalog.

The version-controlled fixtures (fixtures/catalog/) are the source of the shipped catalog; a row edited here
is a local override that `load_catalog` keeps (a fixture change meeting it is listed as a conflict, on the
Fixture states page too) until `load_catalog --reset`. Every admin edit records a new CatalogVersion so
games never use a stale cache and the change feed sees it.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.db.models import Prefetch
from django.utils.html import format_html, format_html_join

from cards.admin_faces import FaceAdminMixin
from cards.battlefront import admin as battlefront_admin  # noqa: F401 - registers the Battlefront admin
from cards.fixture_merge import describe
from cards.models import (
    ArsenalCard,
    ArsenalCardClass,
    Battlecard,
    BattlecardPrerequisite,
    CardSet,
    CatalogVersion,
    ConflictCard,
    FixtureState,
    Nation,
    SetMembership,
    Theater,
    UnitClass,
)
from cards.services import catalog_after_admin_edit
from cards.the_war import admin as the_war_admin  # noqa: F401 - registers The War's admin
from cards.tide_of_iron import admin as toi_admin  # noqa: F401 - registers Tide of Iron's admin


def _pretty_provenance(value) -> str:
    if not value:
        return "-"
    rows = []
    for field, item in sorted(value.items()):
        source, note = (item.get("source"), item.get("note", "")) if isinstance(item, dict) else (item, "")
        rows.append((field, "#b35900" if source == "estimated" else "#2e7d32", source, note))
    body = format_html_join("", '<tr><th>{}</th><td style="color:{}">{}</td><td>{}</td></tr>', rows)
    return format_html('<table class="provenance">{}</table>', body)


def _pretty_json(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, ensure_ascii=False))


class ProvenanceListFilter(admin.SimpleListFilter):
    title = "provenance"
    parameter_name = "provenance"

    def lookups(self, request, model_admin):
        return [("estimated", "Some value estimated"), ("seed", "All values from the seed documents")]

    def queryset(self, request, queryset):
        if self.value() == "estimated":
            return queryset.filter(estimated=True)
        if self.value() == "seed":
            return queryset.filter(estimated=False)
        return queryset


class MembershipProvenanceListFilter(admin.SimpleListFilter):
    title = "count provenance"
    parameter_name = "count_provenance"

    def lookups(self, request, model_admin):
        return [("estimated", "Estimated count"), ("seed", "Count from the seed documents")]

    def queryset(self, request, queryset):
        return queryset.filter(count_provenance=self.value()) if self.value() else queryset


class PhaseListFilter(admin.SimpleListFilter):
    title = "phase"
    parameter_name = "phase"

    def lookups(self, request, model_admin):
        return [("1", "1"), ("2", "2"), ("3", "3"), ("4", "4"), ("none", "Never fires")]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(phase__isnull=True)
        if self.value() in ("1", "2", "3", "4"):
            return queryset.filter(phase=int(self.value()))
        return queryset


class CatalogAdmin(admin.ModelAdmin):
    """Records a new CatalogVersion after every change (see cards.services.catalog_after_admin_edit)."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        catalog_after_admin_edit(source=f"admin:{request.user.get_username()}")

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        catalog_after_admin_edit(source=f"admin:{request.user.get_username()}")

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        catalog_after_admin_edit(source=f"admin:{request.user.get_username()}")


class SetMembershipInlineForSet(admin.TabularInline):
    model = SetMembership
    fk_name = "card_set"
    extra = 0
    autocomplete_fields = ["card"]
    fields = ["position", "card", "printed_name", "count", "count_provenance", "count_note"]
    ordering = ["position"]


class SetMembershipInlineForCard(admin.TabularInline):
    model = SetMembership
    fk_name = "card"
    extra = 0
    autocomplete_fields = ["card_set"]
    fields = ["card_set", "printed_name", "count", "count_provenance", "count_note"]
    verbose_name = "set membership"


class ArsenalCardClassInline(admin.TabularInline):
    model = ArsenalCardClass
    extra = 0
    fields = ["position", "unit_class"]
    ordering = ["position"]


class PrerequisiteInline(admin.TabularInline):
    model = BattlecardPrerequisite
    fk_name = "battlecard"
    extra = 0
    autocomplete_fields = ["requires"]
    fields = ["position", "holder", "requires"]
    ordering = ["position"]


@admin.register(Nation)
class NationAdmin(CatalogAdmin):
    list_display = ["code", "name", "side"]
    list_filter = ["side"]
    search_fields = ["code", "name"]


@admin.register(Theater)
class TheaterAdmin(CatalogAdmin):
    list_display = ["code", "name"]
    search_fields = ["code", "name"]


@admin.register(UnitClass)
class UnitClassAdmin(CatalogAdmin):
    list_display = ["code"]
    search_fields = ["code"]


@admin.register(CardSet)
class CardSetAdmin(CatalogAdmin):
    list_display = ["code", "name", "kind", "nation", "theater", "printed_cards", "printed_points"]
    list_filter = ["kind", "nation", "theater"]
    list_select_related = ["nation", "theater"]
    search_fields = ["code", "name"]
    inlines = [SetMembershipInlineForSet]


@admin.register(ArsenalCard)
class ArsenalCardAdmin(FaceAdminMixin, CatalogAdmin):
    face_view_name = "arsenalcard-face"
    list_display = [
        "face_thumbnail",
        "code",
        "name",
        "nation",
        "kind",
        "class_list",
        "points",
        "max_per_deck",
        "phase",
        "attack_ground",
        "attack_air",
        "attack_sea",
        "defense_ground",
        "defense_air",
        "defense_sea",
        "ukrainian",
        "estimated",
    ]
    list_filter = ["nation", "sets", "kind", "classes", PhaseListFilter, ProvenanceListFilter, "ukrainian"]
    list_select_related = ["nation"]
    search_fields = ["code", "name"]
    autocomplete_fields = ["variant_of"]
    readonly_fields = ["estimated", "provenance_table", "abilities_pretty", "face_preview", "rulings_list"]
    inlines = [ArsenalCardClassInline, SetMembershipInlineForCard]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "code",
                    "name",
                    "nation",
                    "kind",
                    "points",
                    "max_per_deck",
                    "phase",
                    "ukrainian",
                    "variant_of",
                ]
            },
        ),
        ("Attack (empty: N/A)", {"fields": [("attack_ground", "attack_air", "attack_sea")]}),
        ("Defense (empty: N/A)", {"fields": [("defense_ground", "defense_air", "defense_sea")]}),
        ("Abilities", {"fields": ["abilities", "abilities_pretty"]}),
        ("Provenance", {"fields": ["estimated", "provenance_table", "provenance"]}),
        ("Face and rulings", {"fields": ["face_preview", "rulings_list"]}),
    ]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .prefetch_related(
                Prefetch("class_links", queryset=ArsenalCardClass.objects.select_related("unit_class"))
            )
        )

    @admin.display(description="classes")
    def class_list(self, obj: ArsenalCard) -> str:
        return ", ".join(link.unit_class.code for link in obj.class_links.all())

    @admin.display(description="provenance")
    def provenance_table(self, obj: ArsenalCard) -> str:
        return _pretty_provenance(obj.provenance)

    @admin.display(description="abilities (formatted)")
    def abilities_pretty(self, obj: ArsenalCard) -> str:
        return _pretty_json(obj.abilities)


@admin.register(SetMembership)
class SetMembershipAdmin(CatalogAdmin):
    list_display = ["card_set", "position", "card", "printed_name", "count", "count_provenance"]
    list_filter = ["card_set", MembershipProvenanceListFilter, "card__nation"]
    list_select_related = ["card_set", "card"]
    search_fields = ["card__code", "card__name", "printed_name", "card_set__code"]
    autocomplete_fields = ["card", "card_set"]


@admin.register(ArsenalCardClass)
class ArsenalCardClassAdmin(CatalogAdmin):
    list_display = ["card", "position", "unit_class"]
    list_filter = ["unit_class"]
    list_select_related = ["card", "unit_class"]
    search_fields = ["card__code", "card__name"]
    autocomplete_fields = ["card"]


@admin.register(ConflictCard)
class ConflictCardAdmin(FaceAdminMixin, CatalogAdmin):
    face_view_name = "conflictcard-face"
    list_display = [
        "face_thumbnail",
        "code",
        "name",
        "theater",
        "card_set",
        "count",
        "category",
        "effect",
        "action_number",
        "estimated",
    ]
    list_filter = ["theater", "card_set", "category", "effect", ProvenanceListFilter]
    list_select_related = ["theater", "card_set"]
    search_fields = ["code", "name", "text"]
    readonly_fields = ["estimated", "provenance_table", "face_preview", "rulings_list"]

    @admin.display(description="provenance")
    def provenance_table(self, obj: ConflictCard) -> str:
        return _pretty_provenance(obj.provenance)


@admin.register(Battlecard)
class BattlecardAdmin(FaceAdminMixin, CatalogAdmin):
    face_view_name = "battlecard-face"
    list_display = [
        "face_thumbnail",
        "code",
        "name",
        "theater",
        "card_set",
        "aggressor",
        "victory_points",
        "homeland_of",
        "emergency_deployment",
        "action_number",
        "estimated",
    ]
    list_filter = [
        "theater",
        "card_set",
        "aggressor",
        "homeland_of",
        "emergency_deployment",
        ProvenanceListFilter,
    ]
    list_select_related = ["theater", "card_set", "homeland_of"]
    search_fields = ["code", "name", "text"]
    readonly_fields = ["estimated", "provenance_table", "face_preview", "rulings_list"]
    inlines = [PrerequisiteInline]

    @admin.display(description="provenance")
    def provenance_table(self, obj: Battlecard) -> str:
        return _pretty_provenance(obj.provenance)


@admin.register(BattlecardPrerequisite)
class BattlecardPrerequisiteAdmin(CatalogAdmin):
    list_display = ["battlecard", "position", "holder", "requires"]
    list_select_related = ["battlecard", "requires"]
    search_fields = ["battlecard__code", "battlecard__name", "requires__code"]
    autocomplete_fields = ["battlecard", "requires"]


@admin.register(CatalogVersion)
class CatalogVersionAdmin(admin.ModelAdmin):
    """Read-only: versions are recorded by load_catalog and by admin edits."""

    list_display = ["id", "content_hash", "loaded_at", "source"]
    search_fields = ["content_hash", "source"]
    readonly_fields = ["content_hash", "loaded_at", "source", "counts"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("contents")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(FixtureState)
class FixtureStateAdmin(admin.ModelAdmin):
    """Read-only: what load_catalog last applied per fixture set, and the admin edits it keeps."""

    list_display = ["name", "content_hash_short", "applied_at", "checked_at", "override_count", "conflicts"]
    readonly_fields = ["name", "source", "content_hash", "applied_at", "checked_at", "overrides_table"]
    exclude = ["contents", "overrides"]

    @admin.display(description="fixture hash")
    def content_hash_short(self, obj: FixtureState) -> str:
        return obj.content_hash[:12]

    @admin.display(description="local overrides")
    def override_count(self, obj: FixtureState) -> int:
        return len(obj.overrides or ())

    @admin.display(description="conflicts")
    def conflicts(self, obj: FixtureState) -> int:
        return obj.conflict_count

    @admin.display(description="local overrides kept by the last load (conflicts first)")
    def overrides_table(self, obj: FixtureState) -> str:
        overrides = sorted(obj.overrides or (), key=lambda o: not o.get("conflict"))
        if not overrides:
            return "none: the rows equal the fixtures"
        rows = format_html_join(
            "",
            '<tr><td style="color:{}">{}</td><td>{}</td></tr>',
            (
                ("#b00020" if o.get("conflict") else "inherit", "conflict" if o.get("conflict") else "kept",
                 describe(o))
                for o in overrides
            ),
        )
        return format_html('<table class="overrides">{}</table>', rows)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
