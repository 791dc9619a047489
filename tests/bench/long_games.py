"""A long Battlecards game for the replay benches (replay_bench.py, replay_paint_bench.py): GB against DE WE
starters, both seats played by bots through the services, until the game has `plies` engine actions.

Runs inside a configured Django (the benches set it up); the next seed is tried when a game ends first.
"""

from __future__ import annotations

from typing import Any


def play_long_game(user: Any, *, plies: int, seed: int, bot: str, me: Any, attempts: int,
                   **create: Any) -> tuple[Any, int]:
    """An active game vs `bot` with at least `plies` engine actions, the human seat played by `me(seed)`
    (a bot factory); `create` passes on to game_create (options, spectators). Raises SystemExit when no
    game of `attempts` seeds lasts long enough."""
    from games import engine, services
    from games.models import Game, GameAction, GameStatus, LogKind
    from games.selectors import game_state

    for attempt in range(attempts):
        game = services.game_create(
            user=user, my_deck={"starter": "gb-we-starter"}, opponent_deck={"starter": "de-we-starter"},
            opponent={"kind": "bot", "bot": bot}, seed=seed + attempt, **create,
        )
        player = None
        while True:
            game = Game.objects.get(pk=game.pk)
            done = GameAction.objects.filter(game=game, kind=LogKind.ACTION).count()
            if game.status != GameStatus.ACTIVE or done >= plies:
                break
            state = game_state(game=game)
            player = player or me(state, seed + attempt)
            seat = state.decision.seat
            action = player.choose(engine.view(state, seat), engine.legal_actions(state), seat)
            outcome = services.game_action_submit(game_id=game.pk, user=user, version=game.version,
                                                  action=action.to_json())
            services.game_action_hand_on(outcome=outcome)
        if game.status == GameStatus.ACTIVE:
            return game, done
    raise SystemExit("no game lasted long enough")
