"""Reads of the card catalog: API querysets and the engine's frozen definitions built from the rows."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, F, Prefetch, Q, QuerySet, Sum

from cards.battlecards.selectors import catalog_dicts, class_prefetch, prerequisite_prefetch
from cards.canonical import content_hash
from cards.models import (
    ArsenalCard,
    Battlecard,
    CardSet,
    CatalogVersion,
    ConflictCard,
    Nation,
    Ruling,
    SetMembership,
    Theater,
)
from config.errors import NotFound, ValidationFailed
from vocabulary.battlecards import Catalog, max_copies

# ---------------------------------------------------------------------------------------------- API querysets


def nation_list() -> QuerySet[Nation]:
    return Nation.objects.annotate(arsenal_card_count=Count("arsenal_cards")).order_by("code")


def theater_list() -> QuerySet[Theater]:
    return Theater.objects.annotate(
        conflict_card_count=Count("conflict_cards", distinct=True),
        battlecard_count=Count("battlecards", distinct=True),
    ).order_by("code")


def _membership_prefetch() -> Prefetch:
    return Prefetch(
        "memberships",
        queryset=SetMembership.objects.select_related("card", "card__nation").order_by("position", "id"),
    )


def card_set_list() -> QuerySet[CardSet]:
    """Sets with their entries; computed totals summed in SQL (entries of unknown count are skipped)."""
    return (
        CardSet.objects.select_related("nation", "theater")
        .annotate(
            computed_cards=Sum("memberships__count"),
            computed_points=Sum(F("memberships__count") * F("memberships__card__points")),
            unknown_count_entries=Count("memberships", filter=Q(memberships__count__isnull=True)),
        )
        .prefetch_related(_membership_prefetch())
        .order_by("code")
    )


def arsenal_card_list() -> QuerySet[ArsenalCard]:
    return (
        ArsenalCard.objects.select_related("nation")
        .prefetch_related(
            class_prefetch(),
            Prefetch(
                "memberships",
                queryset=SetMembership.objects.select_related("card_set").order_by("card_set__code"),
            ),
            Prefetch("variants", queryset=ArsenalCard.objects.only("code", "variant_of").order_by("code")),
        )
        .order_by("code")
    )


def conflict_card_list() -> QuerySet[ConflictCard]:
    return ConflictCard.objects.select_related("theater", "card_set").order_by("code")


def battlecard_list() -> QuerySet[Battlecard]:
    return (
        Battlecard.objects.select_related("theater", "card_set", "homeland_of")
        .prefetch_related(prerequisite_prefetch())
        .order_by("code")
    )


def arsenal_codes_with_ability(kind: str) -> list[str]:
    """Codes of the arsenal cards having an ability of `kind` (one query; SQLite and PostgreSQL alike)."""
    return [
        code
        for code, abilities in ArsenalCard.objects.values_list("code", "abilities")
        if any(isinstance(a, dict) and a.get("kind") == kind for a in abilities or ())
    ]


def arsenal_card_effective_max(card: ArsenalCard) -> int | None:
    """Copies allowed per deck (`vocabulary.battlecards.max_copies`: generals and leaders 1); None: no limit.

    Uses the prefetched class links (see arsenal_card_list), so it costs no query.
    """
    classes = [link.unit_class.code for link in card.class_links.all()]
    return max_copies(classes=classes, max_per_deck=card.max_per_deck)


VERSION_MIN_PREFIX = 8  # hex digits a client must give to name a version by its content hash
# `since` of the changes APIs as their schema declares it (any case: it is read lower-cased)
VERSION_PREFIX_SCHEMA = {"type": "string", "pattern": f"^[0-9A-Fa-f]{{{VERSION_MIN_PREFIX},}}$"}


def version_by_hash(model, since: str, *, noun: str):
    """The newest row of a version model (CatalogVersion, TheWarVersion) whose content hash starts with
    `since`: 400 for a malformed or ambiguous prefix, 404 for none."""
    since = (since or "").strip().lower()
    if len(since) < VERSION_MIN_PREFIX or any(c not in "0123456789abcdef" for c in since):
        raise ValidationFailed(
            f"since must be a {noun} hash (at least {VERSION_MIN_PREFIX} hex digits).",
            code="invalid",
            errors={"since": [f"A {noun} hash is required."]},
        )
    matching = model.objects.filter(content_hash__startswith=since)
    hashes = list(matching.values_list("content_hash", flat=True).distinct()[:2])
    if not hashes:
        raise NotFound(f"No {noun} {since!r}.", code="unknown_version")
    if len(hashes) > 1:
        raise ValidationFailed(f"{since!r} names several {noun}s; give more digits.", code="invalid")
    return model.objects.filter(content_hash=hashes[0]).order_by("-id").first()


def get_by_code(queryset: QuerySet, code: str, *, what: str = "card"):
    try:
        return queryset.get(code=code)
    except queryset.model.DoesNotExist:
        raise NotFound(f"No {what} with code {code!r}.", code="not_found") from None


# ------------------------------------------------------------------------- rulings and definitions


RULING_RELATED = {"arsenal": "arsenal_cards", "conflict": "conflict_cards", "battlecard": "battlecards"}
RULING_CARD_MODELS: dict[str, Any] = {
    "arsenal": ArsenalCard, "conflict": ConflictCard, "battlecard": Battlecard,
}
RULING_CARD_NOUNS = {"arsenal": "arsenal card", "conflict": "conflict card", "battlecard": "battlecard"}


def ruling_list_for_card(*, kind: str, code: str) -> QuerySet[Ruling]:
    """The rulings on one card of a kind (arsenal, conflict, battlecard), in document order; NotFound for an
    unknown code."""
    model = RULING_CARD_MODELS[kind]
    card = get_by_code(model.objects.only("id", "code"), code, what=RULING_CARD_NOUNS[kind])
    return Ruling.objects.filter(**{RULING_RELATED[kind]: card}).order_by("position")


def catalog_version_current() -> CatalogVersion | None:
    """The newest version, without its (large) contents."""
    return CatalogVersion.objects.defer("contents").order_by("-id").first()


def catalog_content_hash() -> str:
    """Hash of what the database holds now (the loaded fixture's hash unless rows were edited since)."""
    return content_hash(catalog_dicts())


_cache_lock = threading.Lock()
_cache: dict[str, Catalog] = {}
_definitions_memo: dict[str, Any] = {"catalog": None, "at": 0.0}


def catalog_definitions() -> Catalog:
    """The engine's frozen Catalog built from the database rows, cached per CatalogVersion hash.

    Equal to vocabulary.battlecards.load_catalog_dir() of the fixture directory that was loaded. Costs one
    query when cached. Every change of the rows (load_catalog, admin edits) records a new CatalogVersion.
    Like catalog_cache_token, a process asks for the current version at most every CATALOG_TOKEN_SECONDS
    (a change made elsewhere shows within that delay; one made here, at once): no query at all in between.
    """
    now = time.monotonic()
    recent = _definitions_memo.get("catalog")
    if recent is not None and now - _definitions_memo["at"] < settings.CATALOG_TOKEN_SECONDS:
        return recent
    version = catalog_version_current()
    if version is None:  # nothing loaded through load_catalog: build from whatever rows exist, uncached
        return Catalog.from_dicts(**catalog_dicts())
    key = version.content_hash
    with _cache_lock:
        cached = _cache.get(key)
    if cached is None:
        cached = Catalog.from_dicts(**catalog_dicts())
        with _cache_lock:
            _cache.clear()
            _cache[key] = cached
    _definitions_memo.update(catalog=cached, at=now)
    return cached


# ------------------------------------------------------------------------------------ HTTP response cache

_GENERATION_KEY = "catalog:generation"
_token_memo: dict[str, Any] = {"token": None, "at": 0.0}


def catalog_cache_token() -> str:
    """The version token of every catalog response (config.http_cache): changes whenever the catalog does.

    It is the current CatalogVersion id (a new one after load_catalog or an admin edit, in any process)
    plus a generation kept in the shared cache, renewed by cards.services.catalog_cache_clear (also after
    admin edits that leave the content hash alone). Each process re-reads it at most every
    CATALOG_TOKEN_SECONDS (one tiny query and one cache read), and at once after a change it made itself.
    """
    now = time.monotonic()
    token = _token_memo["token"]
    if token is not None and now - _token_memo["at"] < settings.CATALOG_TOKEN_SECONDS:
        return token
    version_id = CatalogVersion.objects.order_by("-id").values_list("id", flat=True).first() or 0
    generation = cache.get(_GENERATION_KEY)
    if generation is None:
        cache.add(_GENERATION_KEY, uuid.uuid4().hex, None)
        generation = cache.get(_GENERATION_KEY, "none")
    token = f"{version_id}.{generation}"
    _token_memo.update(token=token, at=now)
    return token


def catalog_cache_forget_token() -> None:
    """After a change of the catalog in this process: the next request reads the version again."""
    _token_memo.update(token=None, at=0.0)
    _definitions_memo.update(catalog=None, at=0.0)
