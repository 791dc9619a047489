"""Writes of the deck builder. Each write is one transaction: nothing is half-saved.

Every saved change of a deck creates an immutable DeckVersion snapshot (number, entries, name, nation,
description). Decks may be saved while illegal (a deck under construction); unknown card codes and
nations are refused because they could never become legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from config.errors import Conflict, DomainError, ValidationFailed
from decks import selectors
from decks.deck_games import deck_game
from decks.models import MAX_ENTRY_COUNT, Deck, DeckEntry, DeckVersion, Game
from decks.text import MAX_IMPORT_LINES, MAX_REPORTED_ERRORS, count_lines, parse_deck_text, read_headers

MAX_ENTRIES = 500
MAX_IMPORT_TEXT_BYTES = 64 * 1024

_UNSET: Any = object()


class TextTooLarge(DomainError):
    status = 413
    code = "text_too_large"
    default_detail = f"A deck list may be at most {MAX_IMPORT_TEXT_BYTES // 1024} KB."


# ---------------------------------------------------------------------------------------------- decks


def _check_game(game: str) -> str:
    """The registry id of a deck's game (an old id, like "the_war", read as its id): a registered game
    whose players build decks (its definition has a deck part); 400 unknown_game otherwise."""
    return deck_game(game).id


def _check_side(game: str, nation: str) -> None:
    """The deck's side, by its game: a nation of the catalog (Battlecards), an army (The War, in `nation`)."""
    deck_game(game).check_side(nation)


def _check_game_entries(game: str, entries: Mapping[str, int]) -> None:
    """Counts in range; every code a card of the deck's game (cards of another game: a 400 saying so)."""
    _check_counts(entries)
    part = deck_game(game)
    cards = part.cards(part.catalog())
    unknown = sorted(code for code in entries if code not in cards)
    selectors.unknown_codes_refuse(unknown, game=part.id)
    if unknown:
        raise ValidationFailed(part.unknown_cards_message(unknown), code="unknown_card", cards=unknown)


def _check_counts(entries: Mapping[str, int]) -> None:
    if len(entries) > MAX_ENTRIES:
        raise ValidationFailed(f"A deck may have at most {MAX_ENTRIES} entries.", code="too_many_entries")
    bad_counts = sorted(
        c for c, n in entries.items() if not isinstance(n, int) or not 1 <= n <= MAX_ENTRY_COUNT
    )
    if bad_counts:
        raise ValidationFailed(
            f"Counts must be between 1 and {MAX_ENTRY_COUNT}.", code="invalid_count", cards=bad_counts
        )


def _check_version(deck: Deck, expected: int | None) -> None:
    if expected is not None and expected != deck.version:
        raise Conflict(
            f"The deck changed since version {expected}: it is at version {deck.version}. Reload and retry.",
            code="stale_version",
            current_version=deck.version,
        )


def _snapshot(deck: Deck, entries: Mapping[str, int]) -> DeckVersion:
    return DeckVersion.objects.create(
        deck=deck,
        number=deck.version,
        name=deck.name,
        nation=deck.nation,
        description=deck.description,
        is_public=deck.is_public,
        entries=dict(sorted(entries.items())),
    )


def _write_entries(deck: Deck, entries: Mapping[str, int]) -> None:
    DeckEntry.objects.filter(deck=deck).delete()
    DeckEntry.objects.bulk_create(
        [DeckEntry(deck=deck, card_code=code, count=count) for code, count in sorted(entries.items())]
    )


@transaction.atomic
def deck_create(
    *,
    owner: Any,
    name: str,
    nation: str,
    entries: Mapping[str, int] | None = None,
    description: str = "",
    is_public: bool = False,
    game: str = Game.BATTLECARDS,
) -> Deck:
    """A new deck of `game` (fixed for its life): `nation` is its nation (Battlecards) or army (The War)."""
    entries = dict(entries or {})
    game = _check_game(game)
    _check_side(game, nation)
    _check_game_entries(game, entries)
    deck = Deck.objects.create(
        owner=owner,
        name=name,
        game=game,
        nation=nation,
        description=description,
        is_public=is_public,
        version=1,
    )
    _write_entries(deck, entries)
    _snapshot(deck, entries)
    return deck


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    name: str = _UNSET,
    nation: str = _UNSET,
    description: str = _UNSET,
    is_public: bool = _UNSET,
    entries: Mapping[str, int] | None = _UNSET,
    expected_version: int | None = None,
) -> Deck:
    """Change any of the fields and/or replace all entries; a new version is recorded if anything changed.
    The deck's game never changes; its nation (army) and cards are checked by that game's rules."""
    locked = Deck.objects.select_for_update().get(pk=deck.pk)
    _check_version(locked, expected_version)
    current = {e.card_code: e.count for e in DeckEntry.objects.filter(deck=locked)}
    changes = {}
    for field, value in (
        ("name", name),
        ("nation", nation),
        ("description", description),
        ("is_public", is_public),
    ):
        if value is not _UNSET and getattr(locked, field) != value:
            changes[field] = value
    if "nation" in changes:
        _check_side(locked.game, changes["nation"])
    new_entries = current
    if entries is not _UNSET and entries is not None:
        new_entries = dict(entries)
        _check_game_entries(locked.game, new_entries)
    if not changes and new_entries == current:
        return locked
    for field, value in changes.items():
        setattr(locked, field, value)
    locked.version += 1
    locked.save()
    if new_entries != current:
        _write_entries(locked, new_entries)
    _snapshot(locked, new_entries)
    return locked


def deck_entries_replace(
    *, deck: Deck, entries: Mapping[str, int], expected_version: int | None = None
) -> Deck:
    return deck_update(deck=deck, entries=entries, expected_version=expected_version)


@transaction.atomic
def deck_delete(*, deck: Deck) -> None:
    Deck.objects.filter(pk=deck.pk).delete()


@transaction.atomic
def deck_clone_starter(
    *, owner: Any, starter_code: str, name: str | None = None, is_public: bool = False
) -> Deck:
    """A new deck of mine with the cards of an official starter of any game (its game and side too)."""
    game, starter = selectors.starter_find(code=starter_code)
    part = deck_game(game)
    side, entries = part.starter_deck(part.catalog(), starter)
    return deck_create(
        owner=owner,
        name=name or starter.name,
        game=game,
        nation=side,
        entries=entries,
        description=f"Cloned from the official starter {starter.code}.",
        is_public=is_public,
    )


def deck_import_text(
    *,
    owner: Any,
    text: str,
    name: str | None = None,
    nation: str | None = None,
    game: str | None = None,
    description: str = "",
    is_public: bool = False,
) -> Deck:
    """Create a deck from a text list. Any line that names no card (or is ambiguous) fails the whole import
    with per-line errors and suggestions: nothing is saved. A name or nation not given is read from the
    text's "# name:" / "# nation:" header lines (what export writes), so an exported list imports as is.
    The game likewise: the request's, else the "# game:" line, else battlecards; a The War deck's army is
    the request's `nation`, else the "# army:" (or "# nation:") line.

    The text is parsed (and close names suggested, a bounded amount of work: decks.text) before any
    transaction opens: a bad list never holds the database's write lock; only deck_create writes."""
    if len(text.encode("utf-8")) > MAX_IMPORT_TEXT_BYTES:
        raise TextTooLarge()
    lines = count_lines(text)
    if lines > MAX_IMPORT_LINES:
        raise ValidationFailed(
            f"A deck list may have at most {MAX_IMPORT_LINES} lines; this one has {lines}.",
            code="too_many_lines",
            limit=MAX_IMPORT_LINES,
            actual=lines,
        )
    headers = read_headers(text)
    game = game or headers.get("game", "").strip().lower() or Game.BATTLECARDS
    part = deck_game(game)
    game, side = part.id, part.side_header
    name = name or headers.get("name")
    nation = nation or headers.get(side) or headers.get("nation")
    missing = {
        field: [f"This field is required (or give it in the text as a '# {header}: ...' line)."]
        for field, header, value in (("name", "name", name), ("nation", side, nation))
        if not value
    }
    if missing:
        raise ValidationFailed(
            f"Invalid input: {', '.join(missing)} required, in the request or as a header line of the text.",
            errors=missing,
        )
    limit = Deck._meta.get_field("name").max_length
    if len(name) > limit:  # a header line is not bounded by the serializer
        raise ValidationFailed(
            f"Invalid input: name: at most {limit} characters.",
            errors={"name": [f"Ensure this field has no more than {limit} characters."]},
        )
    _check_side(game, nation)
    cat, index = part.text_index()
    parsed = parse_deck_text(cat, text, nation=nation, index=index)
    if parsed.errors:
        parsed.errors = selectors.battlefront_lines_mark(parsed.errors)
        parsed.errors = selectors.other_game_lines_mark(parsed.errors, game=game)
        shown = parsed.errors[:MAX_REPORTED_ERRORS]
        raise ValidationFailed(
            f"{len(parsed.errors)} line(s) could not be read; nothing was saved"
            + (f" (the first {len(shown)} are listed)." if len(shown) < len(parsed.errors) else "."),
            code="import_failed",
            error_count=len(parsed.errors),
            lines=[e.to_dict() for e in shown],
        )
    if not parsed.entries:
        raise ValidationFailed("The list names no card.", code="import_empty")
    return deck_create(
        owner=owner,
        name=name,
        game=game,
        nation=nation,
        entries=parsed.entries,
        description=description,
        is_public=is_public,
    )
