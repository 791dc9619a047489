"""config.prepared on the database the suite runs on (CI: both): a query compiled once binds its value as the
filtered field converts it for the backend (a UUID is a hex string on SQLite: every seat action after a game's
creation was a 500 there, issue 34)."""

from __future__ import annotations

import uuid

import pytest

from config.prepared import PreparedQuery


@pytest.mark.django_db
def test_a_prepared_query_by_uuid_answers_as_the_queryset_on_this_database(create_game, alice):
    from games.models import GameSeat

    game = create_game(alice)
    build = lambda pk: GameSeat.objects.select_related("game").filter(game_id=pk).order_by("seat")  # noqa: E731
    prepared = PreparedQuery(build, sentinel=uuid.UUID("00000000-0000-4000-8000-00000000feed"))
    for value in (uuid.UUID(game["id"]), game["id"]):  # a UUID, or its text as a URL gives it
        rows = prepared.rows(value)
        assert [(s.pk, s.seat, s.game.pk) for s in rows] == [(s.pk, s.seat, s.game.pk) for s in build(value)]
        assert len(rows) == 2 and all(str(s.game_id) == game["id"] for s in rows)
    assert prepared.rows(uuid.uuid4()) == []


@pytest.mark.django_db
def test_a_seat_acts_views_and_resigns_on_this_database(two_player_game, api, alice, bob):
    """The journey SQLite answered 500 to (issue 34): every seat endpoint after creation."""
    gid = two_player_game["id"]
    view = api(alice).get(f"/api/games/{gid}/view/")
    assert view.status_code == 200, view.json()
    mover = alice if view.json()["your_turn"] else bob
    seat_view = api(mover).get(f"/api/games/{gid}/view/").json()
    action = seat_view["view"]["decision"]["legal_actions"][0]
    acted = api(mover).post(f"/api/games/{gid}/actions/", {"version": seat_view["version"], "action": action},
                            format="json")
    assert acted.status_code == 200, acted.json()
    assert api(alice).get(f"/api/games/{gid}/events/").status_code == 200
    resigned = api(bob).post(f"/api/games/{gid}/resign/", {}, format="json")
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"




@pytest.mark.django_db
def test_an_extra_value_and_an_annotation_answer_as_the_queryset_on_this_database(create_game, alice):
    """A second value bound in a CASE of an annotation (the held-state lock of games.fastpath.rows): each
    instance carries the annotation as the queryset's would, for either value."""
    from django.db.models import Case, F, IntegerField, Value, When

    from games.models import GameSeat

    game = create_game(alice)

    def build(pk, version):
        return (
            GameSeat.objects.filter(game_id=pk)
            .annotate(moved=Case(When(game__version=version, then=Value(None)), default=F("game__version"),
                                 output_field=IntegerField()))
            .order_by("seat")
        )

    prepared = PreparedQuery(build, sentinel=uuid.UUID("00000000-0000-4000-8000-00000000beef"),
                             extra=(2_000_000_011,))
    at = GameSeat.objects.filter(game_id=game["id"]).values_list("game__version", flat=True).first()
    pk = uuid.UUID(game["id"])
    for version in (at, at + 1):
        rows = prepared.rows(pk, version)
        assert [(s.pk, s.moved) for s in rows] == [(s.pk, s.moved) for s in build(pk, version)]
        assert [s.moved for s in rows] == ([None, None] if version == at else [at, at])
    with pytest.raises(TypeError):
        prepared.rows(pk)  # the extra value is missing


def test_an_extra_sentinel_that_the_sql_does_not_take_is_refused_when_compiling(db):
    from games.models import GameSeat

    prepared = PreparedQuery(
        lambda pk, _v: GameSeat.objects.filter(game_id=pk),
        sentinel=uuid.UUID("00000000-0000-4000-8000-00000000beef"),
        extra=(2_000_000_011,),
    )
    with pytest.raises(ValueError, match="extra sentinel"):
        prepared.rows(uuid.uuid4(), 5)
