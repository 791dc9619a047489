"""Issue 34, finding 9: a delayed spectator view and a step of the site's replay page are built from the
nearest kept snapshot (games.replay_states), at most SNAPSHOT_PLIES - 1 engine actions away, not replayed
from the set-up; they show exactly what a replay from the set-up shows (no more: the snapshots, full engine
states, stay on the server), a takeback's rewound log never reads another log's snapshot, and the requests
that build states are throttled (API and site)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from games import engine, services
from games.catalog_snapshot import catalog_from_snapshot
from games.engine.core.machine import RuleBook
from games.game_types import get_game_type
from games.models import Game, GameAction, LogKind
from games.replay_states import KEY_PREFIX, SNAPSHOT_PLIES, state_after
from games.selectors import game_replay, game_state
from tests.games.conftest import HiddenInfoOracle, game_body, token_client

pytestmark = pytest.mark.django_db
BATTLECARDS = get_game_type("battlecards")


@pytest.fixture
def applies(monkeypatch) -> Iterator[list[int]]:
    """How many engine actions the Battlecards rules apply (replays and snapshots alike go through
    RuleBook.apply_legal)."""
    count = [0]
    original = RuleBook.apply_legal

    def counted(self, st, action):
        count[0] += 1
        return original(self, st, action)

    monkeypatch.setattr(RuleBook, "apply_legal", counted)
    yield count


def _long_game(user: Any, *, plies: int) -> Game:
    """An active game of `user` (allies) against the heuristic bot, `user`'s seat played by another heuristic
    bot through the service, with at least `plies` engine actions (the same game every run: fixed_salt)."""
    game = services.game_create(
        user=user, my_deck={"starter": "gb-we-starter"}, opponent_deck={"starter": "de-we-starter"},
        opponent={"kind": "bot", "bot": "heuristic"}, seed=20020101, spectators={"allowed": True},
        options={"max_turns": 200},
    )
    me = None
    while GameAction.objects.filter(game=game, kind=LogKind.ACTION).count() < plies:
        game = Game.objects.get(pk=game.pk)
        assert game.status == "active"
        state = game_state(game=game)
        me = me or engine.HeuristicBot(catalog=state.catalog, salt="me")
        seat = state.decision.seat
        action = me.choose(engine.view(state, seat), engine.legal_actions(state), seat)
        services.game_action_submit(game_id=game.pk, user=user, version=game.version, action=action.to_json())
    return Game.objects.get(pk=game.pk)


def _scratch_view(game: Game, count: int) -> dict[str, Any]:
    """The public view after the first `count` engine actions, replayed from the set-up (as before)."""
    rows = GameAction.objects.filter(game=game, kind=LogKind.ACTION).order_by("seq")
    actions = list(rows.values_list("action", flat=True))
    catalog = catalog_from_snapshot(game.snapshot.data)
    return engine.public_view(engine.replay(catalog, engine.GameSetup.from_json(game.setup), actions[:count]))


def test_a_new_delay_is_at_most_a_snapshots_span_of_applies_away_and_shows_what_a_replay_shows(
    catalog_rows, alice, carol, applies, fixed_salt
):
    game = _long_game(alice, plies=3 * SNAPSHOT_PLIES + 5)
    total = GameAction.objects.filter(game=game, kind=LogKind.ACTION).count()
    watcher = token_client(carol)
    oracle = HiddenInfoOracle(str(game.pk))
    assert watcher.get(f"/api/games/{game.pk}/spectate/?delay=1").status_code == 200  # the first builds
    for delay in (2, 7, SNAPSHOT_PLIES + 3, 2 * SNAPSHOT_PLIES, total - 3, total - 1):
        applies[0] = 0
        answer = watcher.get(f"/api/games/{game.pk}/spectate/?delay={delay}").json()
        assert answer["delay"] == delay
        assert applies[0] < SNAPSHOT_PLIES, (delay, applies[0])  # was total - delay: replayed from the set-up
        assert answer["view"] == _scratch_view(game, total - delay)
        assert oracle.check(answer, None) > 0  # the snapshot's hidden cards stay on the server
    assert cache.get_many([k for k in _cache_keys() if k.startswith(KEY_PREFIX)])  # they were served


def _cache_keys() -> list[str]:
    """The keys of the test cache (a LocMemCache: its keys are "<prefix>:<version>:<key>")."""
    return [key.split(":", 2)[2] for key in cache._cache]


def test_each_step_of_the_sites_replay_page_applies_at_most_a_snapshots_span(
    client, catalog_rows, alice, carol, applies, fixed_salt
):
    game = _long_game(alice, plies=2 * SNAPSHOT_PLIES + 9)
    assert token_client(alice).post(f"/api/games/{game.pk}/resign/").status_code == 200
    steps = len(game_replay(game_id=game.pk, user=carol)["actions"])
    client.force_login(carol)
    assert client.get(f"/play/{game.pk}/replay/?step={steps}").status_code == 200  # the first builds
    for step in (steps, steps - 1, 1, SNAPSHOT_PLIES, SNAPSHOT_PLIES + 1, 2 * SNAPSHOT_PLIES - 1):
        applies[0] = 0
        response = client.get(f"/play/{game.pk}/replay/?step={step}", HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert f'data-step="{step}"' in response.content.decode()
        assert applies[0] < SNAPSHOT_PLIES, (step, applies[0])  # was `step`: replayed from the set-up


# ------------------------------------------------------------------------ the snapshots themselves


def _self_played(seed: int, salt: str, plies: int, start: list[dict[str, Any]] | None = None):
    catalog = engine.load_catalog_dir()
    setup = engine.starter_setup(catalog, seed)
    state = engine.replay(catalog, setup, list(start or []))
    bot = engine.RandomBot(salt=salt)
    actions = list(start or [])
    while len(actions) < plies and state.status == "active":
        seat = state.decision.seat
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state), seat)
        engine.apply(state, action)
        actions.append(action.to_json())
    return catalog, setup, actions


@pytest.fixture(scope="module")
def self_played():
    catalog, setup, actions = _self_played(7, "a", 3 * SNAPSHOT_PLIES)
    assert len(actions) == 3 * SNAPSHOT_PLIES
    return catalog, setup, actions


@hsettings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counts=st.lists(st.integers(min_value=0, max_value=3 * SNAPSHOT_PLIES), min_size=1, max_size=6))
def test_any_ply_from_any_snapshots_kept_is_the_replayed_state(self_played, counts):
    catalog, setup, actions = self_played
    cache.clear()
    effective = [("action", seq, action) for seq, action in enumerate(actions, start=1)]
    for count in counts:
        state = state_after(kind=BATTLECARDS, game_id="g", catalog=catalog, setup=setup.to_json(),
                            effective=effective, count=count)
        assert state.to_json() == engine.replay(catalog, setup, actions[:count]).to_json()


def test_a_log_rewound_by_a_takeback_never_reads_the_snapshots_of_the_actions_it_undid(self_played):
    catalog, setup, actions = self_played
    cache.clear()
    first = [("action", seq, action) for seq, action in enumerate(actions, start=1)]
    state_after(kind=BATTLECARDS, game_id="g", catalog=catalog, setup=setup.to_json(), effective=first,
                count=len(first))  # snapshots of ply 32, 64 and 96 of the first line of play
    # a takeback undid everything from ply 20 on (log seq 20..96, then the takeback entry 97); play went on
    # another way, logged from seq 98
    _, _, other = _self_played(7, "b", 3 * SNAPSHOT_PLIES, start=actions[:19])
    assert other[19:40] != actions[19:40]
    rewound = first[:19] + [("action", seq, a) for seq, a in enumerate(other[19:], start=98)]
    for count in (SNAPSHOT_PLIES, SNAPSHOT_PLIES + 5, len(rewound)):
        state = state_after(kind=BATTLECARDS, game_id="g", catalog=catalog, setup=setup.to_json(),
                            effective=rewound, count=count)
        assert state.to_json() == engine.replay(catalog, setup, other[:count]).to_json()


def test_snapshots_of_other_rules_are_not_read(self_played, monkeypatch, applies):
    catalog, setup, actions = self_played
    cache.clear()
    effective = [("action", seq, action) for seq, action in enumerate(actions, start=1)]
    kwargs = {"kind": BATTLECARDS, "game_id": "g", "catalog": catalog, "setup": setup.to_json(),
              "effective": effective, "count": len(effective)}
    state_after(**kwargs)
    applies[0] = 0
    state_after(**kwargs)
    assert applies[0] == 0  # served by the snapshot of the last ply
    monkeypatch.setattr("games.replay_states.rules_revision", lambda: "other-rules")
    state_after(**kwargs)
    assert applies[0] == len(effective)  # another revision: replayed from the set-up


# ------------------------------------------------------------------------------------ throttles


def _rates(**scopes: str) -> dict[str, Any]:
    rest = copy.deepcopy(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"].update(scopes)
    return rest


def test_spectator_views_at_a_delay_of_their_own_and_replays_are_throttled(
    client, catalog_rows, alice, carol
):
    created = token_client(alice).post(
        "/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json"
    ).json()
    gid = created["id"]
    watcher = token_client(carol)
    with override_settings(REST_FRAMEWORK=_rates(spectate_delay="2/min", replay="2/min")):
        for delay in (1, 2):
            assert watcher.get(f"/api/games/{gid}/spectate/?delay={delay}").status_code == 200
        refused = watcher.get(f"/api/games/{gid}/spectate/?delay=3")
        assert refused.status_code == 429 and refused.json()["code"] == "throttled"
        assert int(refused["Retry-After"]) >= 1
        assert watcher.get(f"/api/games/{gid}/spectate/").status_code == 200  # the creator's delay: free
        client.force_login(carol)
        assert client.get(f"/play/{gid}/watch/", HTTP_HX_REQUEST="true").status_code == 200  # a refresh
        assert client.get(f"/play/{gid}/watch/").status_code == 429  # a page load: a view of its own
        assert token_client(alice).post(f"/api/games/{gid}/resign/").status_code == 200
        for _ in range(2):
            assert watcher.get(f"/api/games/{gid}/replay/").status_code == 200
        assert watcher.get(f"/api/games/{gid}/replay/").status_code == 429
        cache.clear()  # the site's replay page counts under the same scope: start again
        for step in (0, 1):
            assert client.get(f"/play/{gid}/replay/?step={step}").status_code == 200
        page = client.get(f"/play/{gid}/replay/?step=2")
        assert page.status_code == 429 and int(page["Retry-After"]) >= 1
        assert "throttled" in page.content.decode() or "Too many requests" in page.content.decode()
