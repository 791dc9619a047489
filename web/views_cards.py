"""Cards: browse and search each catalog with `?q=`, one card's page (face, values, provenance, rulings)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cards import selectors
from cards.extra_apis import RulingSerializer
from cards.search import SearchInvalid, compile_query
from config.errors import NotFound
from web.catalogs import KINDS, CatalogKind
from web.pages import page, paginate, query_without_page


def _kind(slug: str) -> CatalogKind:
    kind = KINDS.get(slug)
    if kind is None:
        raise NotFound(f"No catalog {slug!r}.", code="catalog_not_found")
    return kind


@page
def card_list(request: HttpRequest, kind: str = "arsenal") -> HttpResponse:
    catalog = _kind(kind)
    cards = catalog.queryset()
    query = request.GET.get("q", "").strip()
    warnings: list[str] = []
    error = None
    if query:
        try:
            compiled = compile_query(query, catalog.language)
        except SearchInvalid as invalid:  # the page again, with the reason beside the search box
            error, cards = invalid.as_dict(), cards.none()
        else:
            cards, warnings = cards.filter(compiled.q), compiled.warnings
    listing = paginate(request, cards)
    rows = catalog.serializer(listing.object_list, many=True, context={"request": request}).data
    return render(
        request,
        "web/cards/list.html",
        {
            "kinds": KINDS.values(),
            "catalog": catalog,
            "query": query,
            "warnings": warnings,
            "page_obj": listing,
            "cards": rows,
            "base_query": query_without_page(request),
            "error": error,
        },
        status=error["status"] if error else 200,
    )


@page
def card_detail(request: HttpRequest, kind: str, code: str) -> HttpResponse:
    catalog = _kind(kind)
    card = selectors.get_by_code(catalog.queryset(), code)
    data = catalog.serializer(card, context={"request": request}).data
    rulings = (
        RulingSerializer(selectors.ruling_list_for_card(kind=catalog.rulings, code=code), many=True).data
        if catalog.rulings
        else []
    )
    return render(
        request,
        "web/cards/detail.html",
        {"catalog": catalog, "card": data, "rulings": rulings, "kinds": KINDS.values()},
    )
