"""Reads of the deck builder. Authorization lives here: every deck read goes through deck_visible()."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from config.errors import Forbidden, NotFound, ValidationFailed
from decks import rules
from decks.models import Deck, DeckEntry, DeckVersion
from decks.text import NameIndex, export_deck_text
from vocabulary.battlecards import CardSetDef, Catalog


def catalog() -> Catalog:
    """The frozen catalog, held in memory and cached per catalog version by the cards app (one query)."""
    from cards.selectors import catalog_definitions

    return catalog_definitions()


BATTLEFRONT_IN_DECK = "battlefront_card_in_deck"


def battlefront_cards_refuse(codes) -> None:
    """A 400 `battlefront_card_in_deck` if any of `codes` is a Battlefront card: Battlefront has no deck
    building (its two players share one deck of its 70 cards), so its cards never go in a Battlecards deck.

    Call it with the codes that are not arsenal cards only: one query then, and none for a legal deck.
    """
    from cards.battlefront.selectors import battlefront_card_names

    found = battlefront_card_names(codes)
    if not found:
        return
    named = ", ".join(f"{code} ({name})" for code, name in found.items())
    raise ValidationFailed(
        f"Battlefront card(s) in a Battlecards deck: {named}. Battlefront has no deck building: its two "
        "players draw from one shared deck of its 70 cards, so its cards cannot go in a deck. Decks hold "
        "Battlecards arsenal cards only (see /api/arsenal-cards/).",
        code=BATTLEFRONT_IN_DECK,
        cards=sorted(found),
    )


def battlefront_lines_mark(errors: list) -> list:
    """Unreadable lines of a text import that name a Battlefront card (by code or name) get the code
    `battlefront_card_in_deck` and say why, instead of `unknown_card` with close arsenal names."""
    from cards.battlefront.selectors import battlefront_cards_named

    found = battlefront_cards_named(e.name for e in errors if e.code == "unknown_card")
    if not found:
        return errors
    marked = []
    for error in errors:
        hit = found.get(error.name.strip().lower()) if error.code == "unknown_card" else None
        if hit is not None:
            error = dataclasses.replace(
                error,
                code=BATTLEFRONT_IN_DECK,
                message=f"{hit[1]} ({hit[0]}) is a Battlefront card: Battlefront has no deck building (its "
                "players share one deck), so its cards cannot go in a deck.",
                suggestions=(),
            )
        marked.append(error)
    return marked


def deck_validate(*, nation: str, entries: Mapping[str, int]) -> rules.DeckValidation:
    """Validate an unsaved deck (unknown arsenal codes are violations); Battlefront cards are refused."""
    cat = catalog()
    battlefront_cards_refuse(code for code in entries if code not in cat.arsenal)
    return rules.validate_deck(cat, nation=nation, entries=entries)


_index_lock = threading.Lock()
_index_cache: dict[int, tuple[Catalog, NameIndex]] = {}


def name_index(cat: Catalog) -> NameIndex:
    """The card-name index of a catalog, built once per catalog object."""
    with _index_lock:
        cached = _index_cache.get(id(cat))
        if cached is not None and cached[0] is cat:
            return cached[1]
    index = NameIndex(cat)
    with _index_lock:
        _index_cache.clear()
        _index_cache[id(cat)] = (cat, index)
    return index


# ---------------------------------------------------------------------------------------------- decks


def _user_or_none(user: Any) -> Any:
    return None if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated else user


def deck_queryset() -> QuerySet[Deck]:
    return Deck.objects.select_related("owner").prefetch_related(
        Prefetch("entries", queryset=DeckEntry.objects.order_by("card_code"))
    )


def deck_visible(*, user: Any) -> QuerySet[Deck]:
    """Decks `user` may read: their own and every public deck."""
    user = _user_or_none(user)
    if user is None:
        return deck_queryset().filter(is_public=True)
    return deck_queryset().filter(Q(owner=user) | Q(is_public=True))


def deck_list(*, user: Any, public: bool = False, mine: bool = False) -> QuerySet[Deck]:
    """Default: the caller's own decks (anonymous callers: public decks). ?public=true: every public deck,
    other players' included. ?mine=true: only the caller's own decks."""
    user = _user_or_none(user)
    qs = deck_visible(user=user)
    if mine:
        return qs.filter(owner=user) if user is not None else qs.none()
    if public or user is None:
        return qs.filter(is_public=True)
    return qs.filter(owner=user)


def deck_get(*, user: Any, deck_id: int) -> Deck:
    """A deck the caller may read; another player's private deck is indistinguishable from a missing one."""
    deck = deck_visible(user=user).filter(pk=deck_id).first()
    if deck is None:
        raise NotFound("No such deck.", code="deck_not_found")
    return deck


def deck_get_for_update(*, user: Any, deck_id: int) -> Deck:
    """A deck the caller owns. Public decks of others: 403; private decks of others: 404."""
    deck = deck_get(user=user, deck_id=deck_id)
    if deck.owner_id != getattr(_user_or_none(user), "pk", None):
        raise Forbidden("Only the owner may change this deck.", code="not_deck_owner")
    return deck


def deck_entries(deck: Deck) -> dict[str, int]:
    """{card code: count} from the prefetched entries (no query when prefetched)."""
    return {entry.card_code: entry.count for entry in deck.entries.all()}


def deck_validation(*, deck: Deck, cat: Catalog | None = None) -> rules.DeckValidation:
    return rules.validate_deck(cat or catalog(), nation=deck.nation, entries=deck_entries(deck))


def deck_export_text(*, deck: Deck) -> str:
    cat = catalog()
    return export_deck_text(
        cat, deck_entries(deck), nation=deck.nation, title=deck.name, index=name_index(cat)
    )


def deck_stats(*, deck: Deck) -> dict[str, Any]:
    return rules.deck_stats(catalog(), deck_entries(deck))


# ---------------------------------------------------------------------------------------------- versions


def deck_version_list(*, deck: Deck) -> QuerySet[DeckVersion]:
    return DeckVersion.objects.filter(deck=deck).order_by("-number")


def deck_version_get(*, deck: Deck, number: int) -> DeckVersion:
    version = DeckVersion.objects.filter(deck=deck, number=number).first()
    if version is None:
        raise NotFound(f"Deck {deck.pk} has no version {number}.", code="version_not_found")
    return version


def deck_version_diff(*, deck: Deck, from_number: int, to_number: int) -> dict[str, Any]:
    versions = {
        v.number: v for v in DeckVersion.objects.filter(deck=deck, number__in=[from_number, to_number])
    }
    missing = [n for n in (from_number, to_number) if n not in versions]
    if missing:
        raise NotFound(f"Deck {deck.pk} has no version {missing[0]}.", code="version_not_found")
    old, new = versions[from_number], versions[to_number]
    return entries_diff(old.entries, new.entries) | {
        "deck": deck.pk,
        "from": from_number,
        "to": to_number,
        "fields": {
            name: {"from": getattr(old, name), "to": getattr(new, name)}
            for name in ("name", "nation", "description")
            if getattr(old, name) != getattr(new, name)
        },
    }


def entries_diff(old: Mapping[str, int], new: Mapping[str, int]) -> dict[str, Any]:
    added = [{"card": c, "count": new[c]} for c in sorted(set(new) - set(old))]
    removed = [{"card": c, "count": old[c]} for c in sorted(set(old) - set(new))]
    changed = [
        {"card": c, "from": old[c], "to": new[c], "delta": new[c] - old[c]}
        for c in sorted(set(old) & set(new))
        if old[c] != new[c]
    ]
    return {
        "added": added,
        "removed": removed,
        "changed": changed,
        "counts": {"added": len(added), "removed": len(removed), "changed": len(changed)},
        "cards": {
            "from": sum(old.values()),
            "to": sum(new.values()),
            "delta": sum(new.values()) - sum(old.values()),
        },
    }


# ---------------------------------------------------------------------------------------------- starters


def starter_list(*, cat: Catalog | None = None) -> list[CardSetDef]:
    cat = cat or catalog()
    return sorted(cat.starters(), key=lambda s: s.code)


def starter_get(*, code: str, cat: Catalog | None = None) -> CardSetDef:
    cat = cat or catalog()
    card_set = cat.sets.get(code)
    if card_set is None or card_set.kind != "starter" or card_set.nation is None:
        raise NotFound(f"No starter deck has the code {code!r}.", code="starter_not_found")
    return card_set


def starter_entries(card_set: CardSetDef, cat: Catalog) -> dict[str, int]:
    return rules.set_arsenal_counts(card_set, cat, card_set.nation)


# ---------------------------------------------------------------------------------------------- matchup


def deck_ref_resolve(*, user: Any, ref: Mapping[str, Any], cat: Catalog) -> tuple[rules.DeckInput, dict]:
    """A matchup side: {"deck_id"} (a deck the caller may read), {"starter"} or {"nation", "entries"}."""
    if ref.get("deck_id") is not None:
        deck = deck_get(user=user, deck_id=ref["deck_id"])
        return rules.DeckInput(deck.nation, deck_entries(deck)), {"deck_id": deck.pk, "name": deck.name}
    if ref.get("starter"):
        card_set = starter_get(code=ref["starter"], cat=cat)
        return rules.DeckInput(card_set.nation, starter_entries(card_set, cat)), {
            "starter": card_set.code,
            "name": card_set.name,
        }
    if ref.get("nation"):
        entries = dict(ref.get("entries") or {})
        battlefront_cards_refuse(code for code in entries if code not in cat.arsenal)
        return rules.DeckInput(ref["nation"], entries), {"inline": True}
    raise ValidationFailed(
        'Each deck is {"deck_id": id}, {"starter": set code} or {"nation": code, "entries": [...]}.',
        code="invalid_deck_ref",
    )


def deck_matchup(
    *, user: Any, a: Mapping[str, Any], b: Mapping[str, Any], conflict: Mapping[str, Any]
) -> dict[str, Any]:
    cat = catalog()
    deck_a, source_a = deck_ref_resolve(user=user, ref=a, cat=cat)
    deck_b, source_b = deck_ref_resolve(user=user, ref=b, cat=cat)
    theater = conflict.get("theater")
    if not theater:
        shared = rules.nation_theaters(cat, deck_a.nation) & rules.nation_theaters(cat, deck_b.nation)
        if len(shared) != 1:
            raise ValidationFailed(
                "Say which theater's conflict deck to play: conflict.theater "
                f"(the two nations share {sorted(shared) or 'none'}).",
                code="theater_required",
            )
        theater = next(iter(shared))
    choice = rules.ConflictChoice(
        theater=theater,
        mode=conflict.get("mode") or rules.ConflictMode.THIN,
        packs=tuple(conflict.get("packs") or ()),
    )
    result = rules.validate_matchup(cat, deck_a, deck_b, choice)
    out = result.to_dict()
    out["deck_a"]["source"] = source_a
    out["deck_b"]["source"] = source_b
    out["conflict"] = choice.to_dict()
    return out
