"""game_action_submit is lock, check, do: game_action_check accepts or refuses an action without writing."""

from __future__ import annotations

import pytest

from config.errors import DomainError
from games.models import Game, GameAction
from games.selectors import game_get_for_update, game_player_view
from games.services import game_action_check, game_action_submit, game_create, game_join

pytestmark = pytest.mark.django_db


def _started_game(alice, bob):
    game = game_create(
        user=alice,
        my_deck={"starter": "gb-we-starter"},
        opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "human"},
        seed=4242,
    )
    game_join(game_id=game.pk, user=bob)
    mover = next(u for u in (alice, bob) if game_player_view(game_id=game.pk, user=u)["your_turn"])
    waiting = bob if mover == alice else alice
    return game, mover, waiting


def test_check_writes_nothing_and_the_submit_stores_the_checked_state(catalog_rows, alice, bob):
    game, mover, _ = _started_game(alice, bob)
    view = game_player_view(game_id=game.pk, user=mover)
    action = view["view"]["decision"]["legal_actions"][0]
    before = Game.objects.get(pk=game.pk)
    logged = GameAction.objects.filter(game=game).count()

    locked = game_get_for_update(game_id=game.pk, user=mover)
    checked = game_action_check(game=locked, user=mover, version=view["version"], action=action)

    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.state, after.ply) == (before.version, before.state, before.ply)
    assert GameAction.objects.filter(game=game).count() == logged
    assert checked.state.ply == before.ply + 1
    assert checked.action.to_json()["type"] == action["type"]

    outcome = game_action_submit(game_id=game.pk, user=mover, version=view["version"], action=action)
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == before.version + 1
    assert stored.state == checked.state.to_json()
    assert [e.action for e in outcome.entries] == [checked.action.to_json()]


@pytest.mark.parametrize(
    ("who", "version_delta", "expected"),
    [("mover", -1, (409, "stale_version")), ("waiting", 0, (403, "not_your_turn"))],
)
def test_check_refuses_like_submit_and_writes_nothing(catalog_rows, alice, bob, who, version_delta, expected):
    game, mover, waiting = _started_game(alice, bob)
    user = mover if who == "mover" else waiting
    view = game_player_view(game_id=game.pk, user=mover)
    action = view["view"]["decision"]["legal_actions"][0]
    version = view["version"] + version_delta
    logged = GameAction.objects.filter(game=game).count()

    with pytest.raises(DomainError) as checked:
        game_action_check(
            game=game_get_for_update(game_id=game.pk, user=user), user=user, version=version, action=action
        )
    with pytest.raises(DomainError) as submitted:
        game_action_submit(game_id=game.pk, user=user, version=version, action=action)

    assert (checked.value.status, checked.value.code) == expected
    assert (submitted.value.status, submitted.value.code) == expected
    assert GameAction.objects.filter(game=game).count() == logged
