"""The lobby's hint when the two Battlecards decks chosen break the matchup rule ("within 10 cards in total
card count, and within 10 total points"): which of the player's decks (his own and the starters) may play
the opponent's deck chosen, and which decks the opponent (a bot, or the person the creator chose a deck for)
may be given against the player's. Each candidate is checked by the decks' own matchup check
(decks.selectors.deck_matchup, as POST /api/decks/matchup/ answers), so a deck listed is one the game
accepts."""

from __future__ import annotations

from typing import Any

from cards.selectors import theater_list
from config.errors import DomainError
from decks import selectors as deck_selectors

BALANCE = {"card_difference", "point_difference"}  # the violations of the 10 cards / 10 points rule


def breaks_balance(error: DomainError) -> bool:
    """The refusal is the matchup rule's (the decks are too far apart), not another reason."""
    return error.code == "illegal_matchup" and bool(
        {v.get("code") for v in error.extra.get("violations", [])} & BALANCE
    )


def _within(user: Any, a: dict, b: dict, theater: str) -> bool:
    """The two decks may play each other: in the theater chosen, else in the one both nations fight in, or
    in one of them when they share several (the lobby then asks which)."""
    try:
        return _legal(user, a, b, theater)
    except DomainError as error:
        if theater or error.code != "theater_required":
            return False  # a deck the player may not read, or no theater in common
    return any(_safe_legal(user, a, b, t.code) for t in theater_list())


def _legal(user: Any, a: dict, b: dict, theater: str) -> bool:
    conflict = {"theater": theater} if theater else {}
    return bool(deck_selectors.deck_matchup(user=user, a=a, b=b, conflict=conflict)["is_legal"])


def _safe_legal(user: Any, a: dict, b: dict, theater: str) -> bool:
    try:
        return _legal(user, a, b, theater)
    except DomainError:
        return False


def matchup_hint(
    user: Any, *, mine: tuple[str, dict], theirs: tuple[str, dict], theater: str,
    my_choices: list[tuple[str, str]], their_choices: list[tuple[str, str]],
) -> dict[str, Any]:
    """The decks within the rule, as (form value, label) pairs of the lobby's selects: for the player
    against the opponent's deck chosen (`theirs`), and for the opponent against the player's (`mine`); each
    side as (form value, deck reference)."""
    labels = dict(my_choices) | dict(their_choices)
    return {
        "mine_label": labels.get(mine[0], ""),
        "theirs_label": labels.get(theirs[0], ""),
        "mine": [(value, label) for value, label in my_choices
                 if value != mine[0] and _within(user, _ref(value), theirs[1], theater)],
        "theirs": [(value, label) for value, label in their_choices
                   if value and value != theirs[0] and _within(user, mine[1], _ref(value), theater)],
    }


def _ref(value: str) -> dict:
    kind, _, ref = value.partition(":")
    return {"deck_id": int(ref)} if kind == "deck" else {"starter": ref}
