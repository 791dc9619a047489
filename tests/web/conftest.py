"""The games fixtures (players, games) for the site's tests."""

from tests.games.conftest import alice, api, bob, carol, create_game, make_user, two_player_game  # noqa: F401
