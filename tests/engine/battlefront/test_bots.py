"""The Battlefront bots: the engine's bot protocol, the self-play fast path, and the heuristic's edge."""
from __future__ import annotations

from games.engine import battlefront as bf


def _manual_game(catalog, setup, bots):
    """The reference loop (as the games service drives bots): the view (or {"ply"}) and the legal actions."""
    st = bf.new_game(catalog, setup)
    log = []
    while st.decision is not None:
        seat = st.decision.seat
        bot = bots[seat]
        seen = bf.view(st, seat) if bot.needs_view else {"ply": st.ply}
        action = bot.choose(seen, bf.legal_actions(st), seat)
        log.append(action.to_json())
        bf.apply(st, action)
    return st, log


def test_play_game_fast_path_equals_the_reference_loop(catalog):
    for seed in range(6):
        setup = bf.GameSetup(seed, bf.Options(special_cards={"west": "US", "east": "GB"}))
        bots = {"west": bf.RandomBot("x"), "east": bf.HeuristicBot(catalog, salt="y")}
        log: list = []
        fast = bf.play_game(catalog, setup, bots, log=log)
        slow, slow_log = _manual_game(catalog, setup, bots)
        assert log == slow_log and fast == slow


def test_heuristic_bot_beats_the_random_bot(catalog):
    """The 1,000-game figure is in tests/bench/battlefront_bench.py; here a quick sample, seats alternated."""
    wins = 0
    for seed in range(40):
        h = bf.SEATS[seed % 2]
        r = bf.SEATS[1 - seed % 2]
        st = bf.play_game(catalog, bf.GameSetup(seed, bf.Options()),
                          {h: bf.HeuristicBot(catalog, salt=seed), r: bf.RandomBot(seed)})
        wins += st.winner == h
    assert wins >= 30


def test_heuristic_bot_discards_its_weakest_cards(catalog):
    from .helpers import W, end_deployment, scenario

    hand = ["bf-mortars", "bf-major", "bf-captain", "bf-sergeant", "bf-colonel", "bf-commander",
            "bf-lieutenant", "bf-light-tanks", "bf-heavy-tanks", "bf-outflank"]
    st = scenario(catalog, hands={W: hand, "east": ["bf-army-corps"]})
    end_deployment(st)
    bot = bf.HeuristicBot(catalog)
    first = bot.choose(bf.view(st, W), bf.legal_actions(st), W)
    assert first == bf.Discard(W, "bf-mortars")  # force 1


def test_legal_key_at_builds_the_key_legal_keys_has_at_that_index(catalog):
    """The RandomBot fast path (RuleBook.legal_key_at -> rules.key_at_deploy) at every ply of seeded games,
    with every option set: the same key as legal_keys()[pick(n)], for several picks."""
    picks = (lambda n: 0, lambda n: n - 1, lambda n: n // 2, lambda n: (7 * n) // 9)
    for seed, opts in enumerate([bf.Options(), bf.Options(blitzkrieg_attacker="west"),
                                 bf.Options(special_cards={"west": "US", "east": "RU"},
                                            blitzkrieg_attacker="east"),
                                 bf.Options(special_cards={"west": "JP", "east": "GB"})]):
        st = bf.new_game(catalog, bf.GameSetup(seed, opts))
        bot = bf.RandomBot(seed)
        while st.decision is not None:
            for pick in picks:
                st.drop_caches()
                fast = bf.legal_key_at(st, pick)
                st.drop_caches()
                keys = bf.legal_keys(st)
                assert fast == keys[pick(len(keys))]
            bf.apply(st, bot.choose({"ply": st.ply}, bf.legal_actions(st), st.decision.seat))
