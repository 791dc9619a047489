"""Decks: list, create, edit with live validation, import, versions and diff, starters and their clones.

Each view reads through decks.selectors and writes through decks.services, as the deck API does; the deck
editor's live check is `selectors.deck_validate` on the unsaved entries (the API's POST /decks/validate/).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from config.errors import DomainError, ValidationFailed
from decks import selectors, services
from web import deck_editor
from web.forms import DeckCreateForm, DeckImportForm, entries_from_post
from web.pages import is_fragment, page, paginate


@page
def deck_list(request: HttpRequest) -> HttpResponse:
    mine = selectors.deck_list(user=request.user, mine=True) if request.user.is_authenticated else None
    public = paginate(request, selectors.deck_list(user=request.user, public=True), size=25)
    return render(request, "web/decks/list.html", {"mine": mine, "public": public})


@login_required
@page
def deck_new(request: HttpRequest) -> HttpResponse:
    form = DeckCreateForm(request.POST or None, sides=deck_editor.side_choices())
    if request.method == "POST" and form.is_valid():
        try:
            deck = services.deck_create(owner=request.user, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, error.detail)
        else:
            return redirect("web:deck-detail", pk=deck.pk)
    return render(request, "web/decks/new.html", {"form": form}, status=400 if form.errors else 200)


@page
def deck_detail(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_get(user=request.user, deck_id=pk)
    entries = selectors.deck_entries(deck)
    context = deck_editor.context(deck, entries, selectors.deck_validation(deck=deck), user=request.user)
    return render(request, "web/decks/detail.html", context)


def _entries(request: HttpRequest) -> dict[str, int]:
    entries, problems = entries_from_post(request.POST)
    if problems:
        raise ValidationFailed(" ".join(problems), code="invalid_count")
    return entries


def _posted(request: HttpRequest, pk: int):
    return selectors.deck_get_for_update(user=request.user, deck_id=pk), _entries(request)


@require_POST
@page
def deck_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The live validation of the editor's unsaved entries: each violation next to its card."""
    deck = selectors.deck_get_for_update(user=request.user, deck_id=pk)
    try:
        entries = _entries(request)
        validation = selectors.deck_validate(game=deck.game, nation=deck.nation, entries=entries)
    except ValidationFailed as error:  # shown where the check's answer goes, so the next check still lands
        return render(request, "web/decks/partials/validation.html", {"check_error": error.detail})
    context = deck_editor.context(deck, entries, validation, user=request.user)
    return render(request, "web/decks/partials/validation.html", context | {"oob_rows": True})


@require_POST
@page
def deck_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The editor with a card added (not saved yet): the form again, checked."""
    deck, entries = _posted(request, pk)
    add_error = None
    try:
        entries = deck_editor.add_card(
            deck, entries, request.POST.get("add_code", ""), request.POST.get("add_count")
        )
    except ValidationFailed as error:  # shown beside the card field; the rows stay as they were
        add_error = error.detail
    validation = selectors.deck_validate(game=deck.game, nation=deck.nation, entries=entries)
    context = deck_editor.context(deck, entries, validation, user=request.user) | {"add_error": add_error}
    template = "web/decks/partials/editor.html" if is_fragment(request) else "web/decks/detail.html"
    return render(request, template, context)


@require_POST
@page
def deck_save(request: HttpRequest, pk: int) -> HttpResponse:
    deck, entries = _posted(request, pk)
    expected = request.POST.get("expected_version")
    services.deck_update(
        deck=deck,
        entries=entries,
        name=request.POST.get("name", deck.name).strip() or deck.name,
        description=request.POST.get("description", deck.description),
        is_public=request.POST.get("is_public") == "on",
        expected_version=int(expected) if expected and expected.isdigit() else None,
    )
    messages.success(request, "Saved.")
    return redirect("web:deck-detail", pk=pk)


@require_POST
@page
def deck_delete(request: HttpRequest, pk: int) -> HttpResponse:
    services.deck_delete(deck=selectors.deck_get_for_update(user=request.user, deck_id=pk))
    messages.success(request, "Deck deleted.")
    return redirect("web:deck-list")


@login_required
def deck_import(request: HttpRequest) -> HttpResponse:
    form = DeckImportForm(request.POST or None)
    lines = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            deck = services.deck_import_text(
                owner=request.user, text=data["text"], name=data["name"] or None, game=data["game"] or None
            )
        except DomainError as error:
            form.add_error(None, error.detail)
            lines = error.extra.get("lines", [])
        else:
            return redirect("web:deck-detail", pk=deck.pk)
    return render(
        request, "web/decks/import.html", {"form": form, "lines": lines}, status=400 if form.errors else 200
    )


@page
def deck_versions(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_get(user=request.user, deck_id=pk)
    versions = selectors.deck_version_list(deck=deck)
    diff = None
    if request.GET.get("from") and request.GET.get("to"):
        try:
            numbers = int(request.GET["from"]), int(request.GET["to"])
        except ValueError:
            raise ValidationFailed("Versions are numbers.", code="invalid") from None
        diff = selectors.deck_version_diff(deck=deck, from_number=numbers[0], to_number=numbers[1])
        diff = deck_editor.named_diff(deck, diff)
    pick = (diff["from"], diff["to"]) if diff else (max(deck.version - 1, 1), deck.version)
    return render(
        request, "web/decks/versions.html", {"deck": deck, "versions": versions, "diff": diff, "pick": pick}
    )


@page
def starter_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/decks/starters.html", {"starters": deck_editor.starters()})


@require_POST
@page
def starter_clone(request: HttpRequest, code: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{reverse('web:login')}?next={reverse('web:starter-list')}")
    deck = services.deck_clone_starter(owner=request.user, starter_code=code)
    messages.success(request, f"Cloned {code} into a deck of yours.")
    return redirect("web:deck-detail", pk=deck.pk)
