"""Games seeded part-way through the services for the site's browser tests and screenshots (issue 39).

`plan` foresees a player's moves to the end: his own heuristic bot (salt "table-journey") against the server's
bot, made as games.services.progress.run_bots makes it (the same kind, the game's bot salt, a fresh bot for
each request's answers, the seat's view), so the game follows the plan exactly. `seeded_game` creates a game
against the heuristic bot and plays the player's planned moves through games.services until `left` remain."""

from __future__ import annotations

from typing import Any

PASSWORD = "Tobruk-1941-holds"
STARTERS = {"my_deck": {"starter": "gb-we-starter"}, "opponent_deck": {"starter": "de-we-starter"}}


def plan(game: Any, seat: str) -> list[dict]:
    """The player's actions from the game's state to its end: his heuristic bot's against the server's."""
    from games import selectors
    from games.game_types import get_game_type
    from games.services import bot_salt

    kind = get_game_type(game.game_type)
    state = selectors.game_state(game=game)
    mine = kind.bot("heuristic", catalog=state.catalog, salt="table-journey")
    actions: list[dict] = []
    theirs: Any = None
    while state.status == "active":
        turn = state.decision.seat
        if turn == seat:
            theirs = None  # the server makes its bot afresh for each request's answers
        elif theirs is None:
            theirs = kind.bot("heuristic", catalog=state.catalog, salt=bot_salt(game.seed_salt))
        bot = mine if turn == seat else theirs
        seen = kind.view(state, turn) if getattr(bot, "needs_view", True) else {"ply": state.ply}
        action = bot.choose(seen, kind.legal_actions(state), turn)
        if turn == seat:
            actions.append(action.to_json())
        kind.apply(state, action)
    return actions


def seeded_game(user: Any, game_type: str, *, left: int | None = None, share: float | None = None,
                seed: int = 39) -> tuple[str, list[dict]]:
    """A game of `user` against the heuristic bot, played through the services until `left` of his actions
    remain (or `share` of them are played; neither: none played); its id and his remaining planned actions."""
    from games import services
    from games.models import Game

    created = services.game_create(user=user, game_type=game_type, seed=seed,
                                   opponent={"kind": "bot", "bot": "heuristic"},
                                   **(STARTERS if game_type == "battlecards" else {}))
    game = Game.objects.get(pk=created.pk)
    actions = plan(game, game.seats.get(user=user).seat)
    keep = 0
    if left is not None:
        keep = max(0, len(actions) - left)
    elif share is not None:
        keep = int(len(actions) * share)
    for action in actions[:keep]:
        game.refresh_from_db()
        services.game_action_submit(game_id=game.pk, user=user, version=game.version, action=action)
    return str(game.pk), actions[keep:]
