"""The War's rules revision (issue 36): a new game records the engine's current revision in its frozen
snapshot; a game stored before revisions were recorded (a snapshot with none) replays, verifies, continues and
is replayed by a client under revision 1, exactly as it was played. The stored game here is the one random v
random game of a seed (starters) where revision 2 changes the play: a Tiger that broke through at 1/1 was
destroyed by the blockers' attack counted twice. Revision 3 (issue 36, items 3-5) asks more windows, so the
divergence is checked against revision 2 itself."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command

from games.catalog_snapshot import snapshot_hash
from games.engine import the_war as tw
from games.game_types import get_game_type
from games.models import CatalogSnapshot, Game, GameAction, GameStatus, LogKind
from games.selectors import state_digest
from games.services import game_rebuild_state
from games.services.progress import sync_game_from_state
from tests.games.test_the_war_api import create_war

pytestmark = pytest.mark.django_db

SEED = 85  # RandomBot(85) v RandomBot(86): a Tiger breaks through at 1/1 (seed 38 before issue 36's balance)


def legacy_game_log() -> tuple[Any, list[dict[str, Any]]]:
    """The whole game as a server before issue 36 played it (revision 1) and its log."""
    kind = get_game_type("the-war")
    catalog = replace(kind.catalog_from_dicts(kind.live_snapshot()), rules_revision=tw.LEGACY_RULES_REVISION)
    setup = tw.starter_setup(catalog, SEED)
    log: list[dict[str, Any]] = []
    tw.play_game(catalog, setup, {"p1": tw.RandomBot(SEED), "p2": tw.RandomBot(SEED + 1)}, log=log)
    return setup, log


def first_illegal_under_revision_2(setup: Any, log: list[dict[str, Any]]) -> int:
    """The index of the first logged action revision 2 refuses (the game diverged after the breakthrough)."""
    state = tw.new_game(replace(tw_current_catalog(), rules_revision=2), setup)
    for i, action in enumerate(log):
        try:
            tw.apply(state, action)
        except tw.IllegalAction:
            return i
    pytest.fail("the stored log replays unchanged under revision 2: it does not exercise the revision")


def tw_current_catalog() -> Any:
    kind = get_game_type("the-war")
    return kind.catalog_from_dicts(kind.live_snapshot())


def store_legacy_game(api: Any, alice: Any, bob: Any, plies: int) -> Game:
    """A game row as a server before issue 36 stored it: its snapshot without a rules revision, its setup and
    the first `plies` actions of the legacy game in its log, its state the log applied."""
    created = create_war(api(alice), my_deck={"starter": "tw-starter-red-army"},
                         opponent_deck={"starter": "tw-starter-wehrmacht"}).json()
    api(bob).post(f"/api/games/{created['id']}/join/", {}, format="json")
    game = Game.objects.get(pk=created["id"])
    old = {k: v for k, v in game.snapshot.data.items() if k != "rules_revision"}
    game.snapshot, _ = CatalogSnapshot.objects.get_or_create(hash=snapshot_hash(old), defaults={"data": old})
    game.snapshot_hash = game.snapshot.hash
    setup, log = legacy_game_log()
    kind = get_game_type("the-war")
    state = tw.new_game(kind.catalog_from_dicts(old), setup)
    game.setup = setup.to_json()
    GameAction.objects.filter(game=game).delete()
    rows = []
    for action in log[:plies]:
        seat = action["seat"]
        tw.apply(state, action)
        game.last_seq += 1
        game.version += 1
        rows.append(GameAction(game=game, seq=game.last_seq, kind=LogKind.ACTION, seat=seat, action=action,
                               events=[], version=game.version))
    GameAction.objects.bulk_create(rows)
    sync_game_from_state(game, state)
    game.save()
    return game


def test_a_new_game_records_the_current_rules_revision(api, alice, bob):
    created = create_war(api(alice), my_deck={"starter": "tw-starter-red-army"},
                         opponent_deck={"starter": "tw-starter-wehrmacht"}).json()
    api(bob).post(f"/api/games/{created['id']}/join/", {}, format="json")
    game = Game.objects.get(pk=created["id"])
    assert game.snapshot.data["rules_revision"] == tw.RULES_REVISION == 3
    kind = get_game_type("the-war")
    assert kind.catalog_from_snapshot(game.snapshot.data, game.snapshot_hash).rules_revision == 3


def test_a_game_stored_without_a_revision_continues_under_revision_1(api, alice, bob):
    setup, log = legacy_game_log()
    stop = first_illegal_under_revision_2(setup, log)
    game = store_legacy_game(api, alice, bob, stop)
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    # the next action of the legacy game: refused by revision 2, accepted here (the game's revision is 1)
    seat = log[stop]["seat"]
    client = api(alice if seat == "p1" else bob)
    view = client.get(f"/api/games/{game.pk}/view/").json()
    assert view["your_turn"] and log[stop] in view["view"]["legal_actions"]
    sent = client.post(f"/api/games/{game.pk}/actions/", {"version": view["version"], "action": log[stop]},
                       format="json")
    assert sent.status_code == 200, sent.json()
    game.refresh_from_db()
    assert game.ply == stop + 1 and game_rebuild_state(game=game).to_json() == game.state


def test_a_finished_game_stored_without_a_revision_verifies_and_replays_as_played(api, alice, bob):
    setup, log = legacy_game_log()
    game = store_legacy_game(api, alice, bob, len(log))
    assert game.status == GameStatus.FINISHED
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game(s) checked, 0 differ" in out.getvalue()
    replay = api(alice).get(f"/api/games/{game.pk}/replay/").json()
    assert "rules_revision" not in replay["catalog"]
    # a client replays it from the /replay/ answer as the client guide shows: the published hash
    kind = get_game_type("the-war")
    state = tw.replay(kind.catalog_from_dicts(replay["catalog"]), tw.GameSetup.from_json(replay["setup"]),
                      replay["actions"])
    assert state_digest(state.to_json()) == replay["final_state_sha256"]
    with pytest.raises(tw.IllegalAction):  # under revision 2 the same log is not even a game
        tw.replay(tw_current_catalog(), tw.GameSetup.from_json(replay["setup"]), replay["actions"])
