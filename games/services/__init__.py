"""Writes of the games app: create, join, resign, submit an action (and let bots answer).

Every write locks the game row (select_for_update) inside one transaction; the version check happens
under that lock, and the action, its log entries, the new engine state and the new version are written
together, or nothing is (any DomainError raised here rolls the whole transaction back).

One module per job: create (three creation flows), seats (join, leave), play (actions: check, then do),
end (resign, cancel, expiry), seeds (commitment, deal seed, bot salt), takebacks (ask, answer); progress
holds what they share (the log rows, syncing the game row, the bots' answers) and deal the Battlecards deal.
Callers import the service names from here. clocks and timeouts: time controls, lost on time.
"""

from games.options import game_options
from games.services.create import game_create, game_create_armies
from games.services.end import game_resign, games_expire_open
from games.services.feed import (
    feed_after_write,
    feed_notify_game_end,
    feed_notify_invitations,
    feed_notify_takeback_request,
    feed_notify_turn,
)
from games.services.play import (
    ActionOutcome,
    CheckedAction,
    game_action_check,
    game_action_do,
    game_action_hand_on,
    game_action_submit,
    game_rebuild_state,
)
from games.services.progress import EngineRejected
from games.services.seats import game_join
from games.services.seeds import bot_salt, deal_seed, seed_commitment
from games.services.spectators import spectator_stream_close, spectator_stream_open
from games.services.takebacks import TakebackOutcome, game_takeback_answer, game_takeback_request
from games.services.timeouts import (
    game_clock_expire,
    game_clock_settle,
    games_clocks_expire_due,
    games_clocks_settle_for_user,
)

__all__ = [
    "ActionOutcome",
    "CheckedAction",
    "EngineRejected",
    "game_action_check",
    "game_action_do",
    "game_action_hand_on",
    "game_action_submit",
    "game_options",
    "game_create",
    "game_create_armies",
    "game_join",
    "games_expire_open",
    "game_rebuild_state",
    "game_resign",
    "seed_commitment",
    "deal_seed",
    "bot_salt",
    "feed_after_write",
    "feed_notify_game_end",
    "feed_notify_invitations",
    "feed_notify_takeback_request",
    "feed_notify_turn",
    "spectator_stream_close",
    "spectator_stream_open",
    "game_clock_expire",
    "game_clock_settle",
    "games_clocks_expire_due",
    "games_clocks_settle_for_user",
    "TakebackOutcome",
    "game_takeback_answer",
    "game_takeback_request",
]
