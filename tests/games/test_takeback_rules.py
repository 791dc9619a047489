"""The pure part of takebacks (games.takeback_rules): the actions in effect after takebacks, and the rule
that refuses a takeback whose undone actions used the RNG or showed the asking seat a hidden card."""

from __future__ import annotations

from games import engine
from games.engine import battlefront as bf
from games.takeback_rules import ACCEPT, DECLINE, REQUEST, RevealCheck, effective_actions, first_reveal


def test_an_accepted_takeback_drops_the_actions_from_its_seq_and_nothing_else_does():
    log = [
        ("action", 1, {"n": 1}),
        ("action", 2, {"n": 2}),
        ("takeback", 3, {"type": REQUEST, "undo_from_seq": 2}),
        ("takeback", 4, {"type": DECLINE}),
        ("action", 5, {"n": 5}),
        ("takeback", 6, {"type": REQUEST, "undo_from_seq": 2}),
        ("takeback", 7, {"type": ACCEPT, "undo_from_seq": 2}),
        ("join", 8, {}),
        ("action", 9, {"n": 9}),
    ]
    assert [e[1] for e in effective_actions(log)] == [1, 9]


def _bot_game_steps(module, state, bots, view):
    """Yield (seat, action, state copy before) for each action of a bot game."""
    while state.status == "active" and state.decision is not None:
        seat = state.decision.seat
        action = bots[seat].choose(view(state, seat), module.legal_actions(state), seat)
        yield seat, action
        module.apply(state, action)


def test_a_draw_shows_a_hidden_card_a_deploy_does_not_and_the_rng_counts(catalog):
    """Battlecards: every action that moved the RNG is refused for "random", every `draw` that put a card in
    the drawer's hand for "card"; deploys alone are never refused."""
    state = engine.new_game(catalog, engine.starter_setup(catalog, 7))
    bots = {s: engine.HeuristicBot(catalog, salt=s) for s in ("axis", "allies")}
    reasons: dict[str, set] = {}
    for seat, action in _bot_game_steps(engine, state, bots, engine.view):
        rng = state.rng.getstate()
        probe = engine.GameState.from_json(state.to_json(), catalog)
        reveal = first_reveal(engine=engine, state=probe, seats=[seat], actions=[action])
        moved = probe.rng.getstate() != rng
        reason = reveal.reason if reveal else None
        assert (reason == "random") == moved
        reasons.setdefault(action.type, set()).add(reason)
        if state.ply > 400:
            break
    assert reasons["deploy"] == {None}
    assert "card" in reasons["draw"]


def test_battlefront_the_opponents_card_played_after_mine_is_a_card_shown():
    catalog = bf.load_cards()
    state = bf.new_game(catalog, bf.GameSetup(3, bf.Options()))
    bots = {s: bf.HeuristicBot(salt=s) for s in bf.SEATS}
    shown = 0
    for seat, action in _bot_game_steps(bf, state, bots, bf.view):
        if action.type != "play":
            continue
        probe = bf.BattlefrontState.from_json(state.to_json(), catalog)
        check = RevealCheck.start(state=probe, seat=seat, view=bf.view(probe, seat))
        events = bf.apply(probe, action)
        if check.step(state_after=probe, events=events, view_after=bf.view(probe, seat)) is not None:
            continue  # a scout looked at the opponent's hand, or a card was drawn: shown already
        answer = probe.decision
        if answer is not None and answer.seat != seat:
            # a card of the opponent's hand this seat did not see (a scout may have shown it this turn)
            reply = next(
                (a for a in bf.legal_actions(probe) if a.type == "play" and a.card not in check.before.ids),
                None,
            )
            if reply is not None:
                events = bf.apply(probe, reply)
                reason = check.step(state_after=probe, events=events, view_after=bf.view(probe, seat))
                assert reason in ("card", "random")  # the card played face up was in the opponent's hand
                shown += 1
        if shown >= 5:
            break
    assert shown >= 5
