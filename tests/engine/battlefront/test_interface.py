"""The public interface the games service codes against: set-up, play to the end, JSON round trips, replay."""
from __future__ import annotations

import pytest

from games.engine import battlefront as bf


def test_random_games_play_to_the_end_and_replay(catalog):
    for seed in range(5):
        setup = bf.GameSetup(seed, bf.Options())
        log: list = []
        st = bf.play_game(catalog, setup, {"west": bf.RandomBot("w"), "east": bf.RandomBot("e")}, log=log)
        assert st.status == "finished" and st.decision is None and st.current_seat is None
        assert st.result["kind"] in ("three_fronts", "stalled", "simultaneous")
        assert bf.replay(catalog, setup, log) == st


def test_state_json_round_trip_is_lossless_including_the_rng(catalog):
    st = bf.new_game(catalog, bf.GameSetup(7, bf.Options(two_front_victory=True)))
    for _ in range(20):
        bf.apply(st, bf.legal_actions(st)[0])
    data = st.to_json()
    again = bf.BattlefrontState.from_json(data, catalog)
    assert again.to_json() == data
    assert again.decision == st.decision
    assert st.rng.random() == again.rng.random()


def test_setup_and_options_json(catalog):
    opts = bf.Options(two_front_victory=True, blitzkrieg_attacker="east",
                      special_cards={"west": "DE", "east": "US"})
    assert bf.Options.from_json(opts.to_json()) == opts
    setup = bf.GameSetup(3, opts)
    assert bf.GameSetup.from_json(setup.to_json()) == setup
    for bad in ({"blitzkrieg_attacker": "north"}, {"special_cards": {"west": "FR", "east": "DE"}},
                {"special_cards": {"west": "DE"}}, {"two_front_victory": "yes"}, {"nope": 1}, [1]):
        with pytest.raises(bf.SetupError) as exc:
            bf.Options.from_json(bad)
        assert exc.value.code == "bad_options"


def test_action_json_and_text_forms():
    a = bf.Action.from_json({"type": "play", "seat": "west", "card": "bf-major", "front": "C"})
    assert a.to_json() == {"type": "play", "seat": "west", "card": "bf-major", "front": "C"}
    assert a.to_text() == "play bf-major C" and str(a) == "west play bf-major C"
    assert bf.Action.from_text("west", "play bf-major C") == a
    assert bf.Action.from_text("east", "pass") == bf.Pass("east")
    assert {t["type"] for t in bf.ACTION_TYPES} == {"play", "play_special", "pass", "discard"}
    for bad in ({"type": "play", "seat": "west", "card": "bf-major"}, {"type": "fly", "seat": "west"},
                {"type": "pass", "seat": "axis"}, {"type": "play", "seat": "west", "card": "x", "front": "Z"},
                {"type": "pass", "seat": "west", "extra": "1"}, "pass"):
        with pytest.raises(bf.MalformedAction):
            bf.Action.from_json(bad)
