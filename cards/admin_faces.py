"""Admin additions: the card face (thumbnail in the lists, full size on the change page), the rulings on a
card, and the rulings themselves."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join

from cards.models import Ruling
from cards.services import rulings_after_admin_edit


class FaceAdminMixin:
    """For the admins of ArsenalCard, ConflictCard, Battlecard; `face_view_name`: e.g. arsenalcard-face."""

    face_view_name = ""

    def _face_url(self, obj) -> str:
        try:
            return reverse(self.face_view_name, kwargs={"code": obj.code})
        except NoReverseMatch:
            return ""

    @admin.display(description="face")
    def face_thumbnail(self, obj) -> str:
        if not obj.pk:
            return "-"
        return format_html(
            '<img src="{}" width="50" height="70" alt="{}" loading="lazy" class="card-face-thumb">',
            self._face_url(obj),
            obj.name,
        )

    @admin.display(description="face (as drawn by the API)")
    def face_preview(self, obj) -> str:
        if not obj.pk:
            return "-"
        url = self._face_url(obj)
        return format_html(
            '<a href="{}"><img src="{}" width="250" height="350" alt="{}" class="card-face"></a>',
            url,
            url,
            obj.name,
        )

    @admin.display(description="rulings")
    def rulings_list(self, obj) -> str:
        if not obj.pk:
            return "-"
        rulings = list(obj.rulings.order_by("position"))
        if not rulings:
            return "none"
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                '<li><a href="{}"><b>{} {}</b></a>{}: {}</li>',
                (
                    (
                        reverse("admin:cards_ruling_change", args=[r.pk]),
                        r.section,
                        r.number,
                        " (estimated)" if r.estimated else "",
                        (r.question or r.title or r.answer)[:160],
                    )
                    for r in rulings
                ),
            ),
        )


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    """Loaded from fixtures/catalog/rulings.json by load_catalog, which keeps edits made here (local
    overrides, listed by the command and on the Fixture states page) until `load_catalog --reset`."""

    list_display = ["key", "section", "number", "title", "estimated", "card_count"]
    list_filter = ["source", "estimated", "section"]
    search_fields = ["key", "question", "answer", "title", "arsenal_cards__code", "conflict_cards__code"]
    filter_horizontal = ["arsenal_cards", "conflict_cards", "battlecards"]
    readonly_fields = ["links"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            _cards=Count("arsenal_cards", distinct=True) + Count("conflict_cards", distinct=True)
        )

    @admin.display(description="cards", ordering="_cards")
    def card_count(self, obj) -> int:
        return obj._cards

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        rulings_after_admin_edit()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        rulings_after_admin_edit()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        rulings_after_admin_edit()
