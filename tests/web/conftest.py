"""The games fixtures (players, games) for the site's tests."""

import pytest

from tests.games.conftest import alice, api, bob, carol, create_game, make_user, two_player_game  # noqa: F401


@pytest.fixture(scope="session")
def browser_db(django_db_setup, django_db_blocker):
    """The test database for the browser tests, which carry no django_db mark (their live server commits).

    pytest-django creates the test database only when a collected test asks for one; run alone, the browser
    modules would otherwise write their accounts and games into DATABASE_URL's own database. Made here
    (and dropped at the end) when no other test had it made."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["NAME"] == connection.creation._get_test_db_name():
        yield  # pytest-django made it for the session's other tests
        return
    with django_db_blocker.unblock():
        made = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    yield
    with django_db_blocker.unblock():
        connection.close()
        teardown_databases(made, verbosity=0)
