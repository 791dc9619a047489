"""Writes of the deck builder (and user accounts). Each write is one transaction: nothing is half-saved.

Every saved change of a deck creates an immutable DeckVersion snapshot (number, entries, name, nation,
description). Decks may be saved while illegal (a deck under construction); unknown card codes and
nations are refused because they could never become legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from config.authentication import token_expired
from config.errors import Conflict, DomainError, ValidationFailed
from decks import selectors
from decks.models import MAX_ENTRY_COUNT, Deck, DeckEntry, DeckVersion
from decks.text import MAX_IMPORT_LINES, MAX_REPORTED_ERRORS, count_lines, parse_deck_text, read_headers
from vocabulary.battlecards import Catalog

MAX_ENTRIES = 500
MAX_IMPORT_TEXT_BYTES = 64 * 1024

_UNSET: Any = object()


class InvalidCredentials(DomainError):
    status = 400
    code = "invalid_credentials"
    default_detail = "Unable to log in with these credentials."


class TextTooLarge(DomainError):
    status = 413
    code = "text_too_large"
    default_detail = f"A deck list may be at most {MAX_IMPORT_TEXT_BYTES // 1024} KB."


# ---------------------------------------------------------------------------------------------- accounts


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "") -> tuple[Any, str]:
    """Create a user (password checked by Django's validators) and return it with its API token."""
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict("That username is taken.", code="username_taken")
    candidate = user_model(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ValidationFailed(
            " ".join(exc.messages), code="weak_password", errors={"password": exc.messages}
        ) from None
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise Conflict("That username is taken.", code="username_taken") from None
    token = Token.objects.create(user=user)
    return user, token.key


@transaction.atomic
def auth_token_obtain(*, username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise InvalidCredentials()
    token, _ = Token.objects.get_or_create(user=user)
    if token_expired(token):  # an expired token is replaced, never handed out again
        token.delete()
        token = Token.objects.create(user=user)
    return token.key


def auth_token_revoke(*, user: Any) -> None:
    """Log out of the API: the user's token stops working at once (POST /api/auth/token/ issues a new one)."""
    Token.objects.filter(user=user).delete()


# ---------------------------------------------------------------------------------------------- decks


def _check_nation(cat: Catalog, nation: str) -> None:
    if nation not in cat.nations:
        raise ValidationFailed(
            f"Unknown nation {nation!r}.", code="unknown_nation", nations=sorted(cat.nations)
        )


def _check_entries(cat: Catalog, entries: Mapping[str, int]) -> None:
    if len(entries) > MAX_ENTRIES:
        raise ValidationFailed(f"A deck may have at most {MAX_ENTRIES} entries.", code="too_many_entries")
    bad_counts = sorted(
        c for c, n in entries.items() if not isinstance(n, int) or not 1 <= n <= MAX_ENTRY_COUNT
    )
    if bad_counts:
        raise ValidationFailed(
            f"Counts must be between 1 and {MAX_ENTRY_COUNT}.", code="invalid_count", cards=bad_counts
        )
    unknown = sorted(code for code in entries if code not in cat.arsenal)
    selectors.battlefront_cards_refuse(unknown)
    if unknown:
        raise ValidationFailed(
            f"Unknown arsenal card code(s): {', '.join(unknown[:10])}.", code="unknown_card", cards=unknown
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
) -> Deck:
    cat = selectors.catalog()
    entries = dict(entries or {})
    _check_nation(cat, nation)
    _check_entries(cat, entries)
    deck = Deck.objects.create(
        owner=owner, name=name, nation=nation, description=description, is_public=is_public, version=1
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
    """Change any of the fields and/or replace all entries; a new version is recorded if anything changed."""
    cat = selectors.catalog()
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
        _check_nation(cat, changes["nation"])
    new_entries = current
    if entries is not _UNSET and entries is not None:
        new_entries = dict(entries)
        _check_entries(cat, new_entries)
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
    cat = selectors.catalog()
    card_set = selectors.starter_get(code=starter_code, cat=cat)
    return deck_create(
        owner=owner,
        name=name or card_set.name,
        nation=card_set.nation,
        entries=selectors.starter_entries(card_set, cat),
        description=f"Cloned from the official starter {card_set.code}.",
        is_public=is_public,
    )


def deck_import_text(
    *,
    owner: Any,
    text: str,
    name: str | None = None,
    nation: str | None = None,
    description: str = "",
    is_public: bool = False,
) -> Deck:
    """Create a deck from a text list. Any line that names no card (or is ambiguous) fails the whole import
    with per-line errors and suggestions: nothing is saved. A name or nation not given is read from the
    text's "# name:" / "# nation:" header lines (what export writes), so an exported list imports as is.

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
    name, nation = name or headers.get("name"), nation or headers.get("nation")
    missing = {
        field: [f"This field is required (or give it in the text as a '# {field}: ...' line)."]
        for field, value in (("name", name), ("nation", nation))
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
    cat = selectors.catalog()
    _check_nation(cat, nation)
    parsed = parse_deck_text(cat, text, nation=nation, index=selectors.name_index(cat))
    if parsed.errors:
        parsed.errors = selectors.battlefront_lines_mark(parsed.errors)
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
        nation=nation,
        entries=parsed.entries,
        description=description,
        is_public=is_public,
    )
