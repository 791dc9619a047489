"""Dealing a Battlecards game: pairing check, frozen catalog snapshot, engine state."""

from __future__ import annotations

from typing import Any

from cards.battlecards.snapshot import snapshot_dicts
from config.errors import ValidationFailed
from games import engine
from games.catalog_snapshot import snapshot_hash
from games.decks_glue import validate_pairing
from games.game_types import game_type_of
from games.models import CatalogSnapshot, Game
from games.options import game_options
from games.services.progress import sync_game_from_state
from games.services.seeds import deal_seed


def deal_game(
    *, game: Game, live: Any, mine: Any, theirs: Any, conflict: dict[str, Any] | None
) -> Any:
    """Check the pairing, then set the game up (setup, frozen catalog snapshot, engine state) from its seed.

    Called at creation when both decks are known, else when the second player joins with his deck."""
    choice, conflict_codes = validate_pairing(catalog=live, first=mine, second=theirs, conflict=conflict)
    setup = engine.GameSetup(
        seed=deal_seed(game.seed, game.seed_salt),
        decks={mine.side: tuple(mine.codes), theirs.side: tuple(theirs.codes)},
        nations={mine.side: mine.nation, theirs.side: theirs.nation},
        conflict_deck=tuple(conflict_codes),
        options=game_options(game.options),
    )
    snapshot = snapshot_dicts(live, set(mine.codes) | set(theirs.codes) | set(conflict_codes))
    digest = snapshot_hash(snapshot)
    try:
        state = engine.new_game(game_type_of(game).catalog_from_snapshot(snapshot, digest), setup)
    except engine.EngineError as exc:
        raise ValidationFailed(f"The engine cannot set up this game: {exc.message}", code=exc.code) from exc
    game.catalog_version, game.catalog_hash = live_catalog_version()
    game.snapshot = catalog_snapshot_get_or_create(digest=digest, data=snapshot)
    game.snapshot_hash = digest
    game.conflict_choice = choice.to_dict()
    game.setup = setup.to_json()
    sync_game_from_state(game, state)
    return state


def catalog_snapshot_get_or_create(*, digest: str, data: dict[str, Any]) -> CatalogSnapshot:
    """The shared catalog snapshot row of `digest`, written with `data` when it is new. A game only needs
    the row's key: an existing row is read without its `data` (about 54 KB of JSON, which the ORM would
    fetch and decode at every creation); games.catalog_snapshot reads the data when a game is loaded."""
    snapshot, _ = CatalogSnapshot.objects.only("hash").get_or_create(hash=digest, defaults={"data": data})
    return snapshot


def live_catalog_version() -> tuple[str, str]:
    """The live catalog's version id and content hash (cards.CatalogVersion), recorded on the game."""
    from cards.selectors import catalog_version_current

    current = catalog_version_current()
    if current is None:
        return "", ""
    return str(current.pk), current.content_hash
