"""Reads of the deck builder. Authorization lives here: every deck read goes through deck_visible()."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from config.errors import Forbidden, NotFound, ValidationFailed
from decks import rules
from decks.deck_games import deck_game, deck_games
from decks.models import Deck, DeckEntry, DeckVersion, Game
from decks.rule_results import DeckValidation
from decks.text import NameIndex, TextCatalog, export_deck_text, the_war_text_catalog
from vocabulary.battlecards import CardSetDef, Catalog
from vocabulary.the_war import TheWarCatalog, parse_catalog


def catalog() -> Catalog:
    """The frozen catalog, held in memory and cached per catalog version by the cards app (one query)."""
    from cards.selectors import catalog_definitions

    return catalog_definitions()


_the_war_lock = threading.Lock()
_the_war_cache: dict[str, tuple[TheWarCatalog, TextCatalog]] = {}


def _the_war_build() -> tuple[TheWarCatalog, TextCatalog]:
    from cards.the_war.models import loader_row
    from cards.the_war.selectors import the_war_dicts

    rows = the_war_dicts()
    cat = parse_catalog(
        {"game": "the-war", "cards": [loader_row(row) for row in rows["cards"]]},
        {"game": "the-war", "starters": rows["starters"]},
    )
    return cat, the_war_text_catalog(cat)


def _the_war_pair() -> tuple[TheWarCatalog, TextCatalog]:
    """The War's catalog read from the database (so admin edits count), cached per TheWarVersion (one
    query when cached; every load and admin edit that changes the rows records a new version)."""
    from cards.the_war.models import TheWarVersion

    last = TheWarVersion.objects.order_by("-id").values_list("id", "content_hash").first()
    if last is None:  # rows not recorded through load_catalog: read them, uncached
        return _the_war_build()
    key = f"{last[0]}:{last[1]}"
    with _the_war_lock:
        cached = _the_war_cache.get(key)
    if cached is not None:
        return cached
    built = _the_war_build()
    with _the_war_lock:
        _the_war_cache.clear()
        _the_war_cache[key] = built
    return built


def the_war_catalog() -> TheWarCatalog:
    return _the_war_pair()[0]


def the_war_text_index() -> tuple[TextCatalog, NameIndex]:
    text_cat = _the_war_pair()[1]
    return text_cat, name_index(text_cat)


BATTLEFRONT_IN_DECK = "battlefront_card_in_deck"
CARD_OF_ANOTHER_GAME = "card_of_another_game"


def other_game_cards_refuse(codes, *, game: str) -> None:
    """A 400 `card_of_another_game` if any of `codes` (codes unknown to the deck's game) is a card of
    another game that has decks: a deck holds the cards of its own game only. Battlefront cards: see
    battlefront_cards_refuse. Call it with unknown codes only: no query for a legal deck."""
    codes = list(codes)
    if not codes:
        return
    own = deck_game(game)
    found: dict[str, tuple[str, str]] = {}
    for other in deck_games():
        if other.id != own.id:
            cards = other.cards(other.catalog())
            found |= {code: (other.card_row(cards[code])[0], other.title) for code in codes
                      if code in cards and code not in found}
    if not found:
        return
    named = ", ".join(f"{code} ({name}, {title})" for code, (name, title) in sorted(found.items()))
    raise ValidationFailed(
        f"Card(s) of another game in a {own.title} deck: {named}. A deck holds the cards of its own "
        "game only.",
        code=CARD_OF_ANOTHER_GAME,
        game=own.id,
        cards=sorted(found),
    )


def unknown_codes_refuse(codes, *, game: str) -> None:
    """Cards of Battlefront or of the other game among codes the deck's game does not know: a 400."""
    codes = list(codes)
    if codes:
        battlefront_cards_refuse(codes)
        other_game_cards_refuse(codes, game=game)


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


def other_game_lines_mark(errors: list, *, game: str) -> list:
    """Unreadable lines of a text import that name a card of the other game (by code, name or title) get the
    code `card_of_another_game` and say why, instead of `unknown_card` with close names of this game."""
    if not any(e.code == "unknown_card" for e in errors):
        return errors
    own = deck_game(game)
    others = [(other, *other.text_index()) for other in deck_games() if other.id != own.id]
    marked = []
    for error in errors:
        for other, other_cat, index in others if error.code == "unknown_card" else ():
            code = index.resolve(error.name, None)[0]
            if code is not None:
                error = dataclasses.replace(
                    error,
                    code=CARD_OF_ANOTHER_GAME,
                    message=f"{other_cat.arsenal[code].name} ({code}) is a {other.title} card: a "
                    f"{own.title} deck holds the cards of its own game only.",
                    suggestions=(),
                )
                break
        marked.append(error)
    return marked


def deck_validate(
    *, nation: str, entries: Mapping[str, int], game: str = Game.BATTLECARDS
) -> DeckValidation:
    """Validate an unsaved deck by its game's rules (unknown codes are violations); cards of Battlefront or
    of another game are refused (400)."""
    part = deck_game(game)
    cat = part.catalog()
    cards = part.cards(cat)
    unknown_codes_refuse((code for code in entries if code not in cards), game=part.id)
    return part.validate(cat, nation=nation, entries=entries)


_index_lock = threading.Lock()
_index_cache: dict[int, tuple[Catalog | TextCatalog, NameIndex]] = {}


def name_index(cat: Catalog | TextCatalog) -> NameIndex:
    """The card-name index of a catalog, built once per catalog object (one per game is kept)."""
    with _index_lock:
        cached = _index_cache.get(id(cat))
        if cached is not None and cached[0] is cat:
            return cached[1]
    index = NameIndex(cat)
    with _index_lock:
        if len(_index_cache) >= 4:
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


def deck_for_play(*, user: Any, deck_id: Any, game: str | None = None, what: str = "deck") -> Deck:
    """A deck a game or a simulation deals (games.decks_glue, games.the_war_glue), with its entries: the
    user's own or a public deck (of `game` when given); user=None (the command line, operators) reaches
    every deck. 404 deck_not_found otherwise (another player's private deck reads as a missing one; `what`
    names the deck in the message)."""
    try:
        deck_pk = int(deck_id)
    except (TypeError, ValueError):
        raise NotFound("No such deck.", code="deck_not_found", deck_id=deck_id) from None
    decks = deck_queryset() if user is None else deck_queryset().filter(Q(owner=user) | Q(is_public=True))
    if game is not None:
        decks = decks.filter(game=game)
    deck = decks.filter(pk=deck_pk).first()
    if deck is None:
        raise NotFound(
            f"No such {what} (or it is another player's private deck).",
            code="deck_not_found",
            deck_id=deck_id,
        )
    return deck


def deck_entries(deck: Deck) -> dict[str, int]:
    """{card code: count} from the prefetched entries (no query when prefetched)."""
    return {entry.card_code: entry.count for entry in deck.entries.all()}


def deck_validation(*, deck: Deck) -> DeckValidation:
    """Every violation of a saved deck, by the rules of its game."""
    part = deck_game(deck.game)
    return part.validate(part.catalog(), nation=deck.nation, entries=deck_entries(deck))


@dataclasses.dataclass(frozen=True, slots=True)
class DeckReading:
    """What the deck API shows of a saved deck beside its fields: its entries with their cards (name, side,
    kind, points) and its validation by its game's rules."""

    entries: list[dict[str, Any]]
    validation: DeckValidation


def deck_readings(*, decks: Iterable[Deck]) -> dict[int, DeckReading]:
    """{deck id: its reading} of saved decks (prefetched entries: no query; each game's catalog read once)."""
    catalogs: dict[str, Any] = {}
    out = {}
    for deck in decks:
        part = deck_game(deck.game)
        if part.id not in catalogs:
            catalogs[part.id] = part.catalog()
        cat, entries = catalogs[part.id], deck_entries(deck)
        out[deck.pk] = DeckReading(
            entries=part.entry_rows(cat, entries),
            validation=part.validate(cat, nation=deck.nation, entries=entries),
        )
    return out


def deck_export_text(*, deck: Deck) -> str:
    """The deck as text with its header lines: name, the side (Battlecards: nation; The War: army) and game.
    Import reads them back."""
    part = deck_game(deck.game)
    text_cat, index = part.text_index()
    return export_deck_text(
        text_cat,
        deck_entries(deck),
        nation=deck.nation,
        title=deck.name,
        index=index,
        game=deck.game,
        side_header=part.side_header,
    )


def deck_stats(*, deck: Deck) -> dict[str, Any]:
    part = deck_game(deck.game)
    return part.stats(part.catalog(), deck_entries(deck))


# ---------------------------------------------------------------------------------------------- versions


def deck_version_list(*, deck: Deck) -> QuerySet[DeckVersion]:
    return DeckVersion.objects.filter(deck=deck).order_by("-number")


def deck_version_entry_rows(
    *, deck: Deck, versions: Iterable[DeckVersion]
) -> dict[int, list[dict[str, Any]]]:
    """{version number: its entries with their cards} of versions of `deck` (each keeps the deck's game)."""
    part = deck_game(deck.game)
    cat = part.catalog()
    return {version.number: part.entry_rows(cat, version.entries) for version in versions}


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


def starter_find(*, code: str) -> tuple[str, Any]:
    """(game, starter) of an official starter of any game with decks: a Battlecards set, a The War deck."""
    for part in deck_games():
        starter = part.starter(part.catalog(), code)
        if starter is not None:
            return part.id, starter
    raise NotFound(f"No starter deck has the code {code!r}.", code="starter_not_found")


def starter_list(*, cat: Catalog | None = None) -> list[CardSetDef]:
    cat = cat or catalog()
    return sorted(cat.starters(), key=lambda s: s.code)


def starter_get(*, code: str, cat: Catalog | None = None) -> CardSetDef:
    cat = cat or catalog()
    card_set = cat.sets.get(code)
    if card_set is None or card_set.kind != "starter" or card_set.nation is None:
        raise NotFound(f"No starter deck has the code {code!r}.", code="starter_not_found", starter=code)
    return card_set


def starter_entries(card_set: CardSetDef, cat: Catalog) -> dict[str, int]:
    return rules.set_arsenal_counts(card_set, cat, card_set.nation)


# ---------------------------------------------------------------------------------------------- matchup


def deck_ref_resolve(*, user: Any, ref: Mapping[str, Any], cat: Catalog) -> tuple[rules.DeckInput, dict]:
    """A matchup side: {"deck_id"} (a deck the caller may read), {"starter"} or {"nation", "entries"}."""
    if ref.get("deck_id") is not None:
        deck = deck_get(user=user, deck_id=ref["deck_id"])
        part = deck_game(deck.game)
        if not part.matchups:
            raise ValidationFailed(
                f"Deck {deck.pk} is a {part.title} deck: a matchup checks two Battlecards decks "
                "and a conflict deck.",
                code="wrong_game",
                game=str(deck.game),
            )
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
    out["deck_a"] = out["deck_a"] | {"source": source_a}
    out["deck_b"] = out["deck_b"] | {"source": source_b}
    out["conflict"] = choice.to_dict()
    return out
