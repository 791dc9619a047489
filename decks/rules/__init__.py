"""Battlecards' deck rules: pure Python, no Django (import-linter contract "Deck legality is pure Python").

One module per job: decks.rules.deck (one deck: totals, official compositions, violations, stats),
decks.rules.conflict (the conflict deck), decks.rules.matchup (two decks and a conflict deck). A deck's
validation is the one result type of every game's deck rules (decks.rule_results.DeckValidation). Everything
public is re-exported here: the registry names this package as Battlecards' `deck_rules`.

Sources (the LAW): battlecards-faq-v1.6.txt "DECK CUSTOMIZATION" and the Western European rules
"TO SET UP THE GAME".

* Customized decks must have at least 40 cards.                          -> `too_few_cards`
* Units must be from the proper side ("No placing Me-262 Jet fighters in the RAF"): a card's nation
  must be the deck's nation. A card of the other side is `wrong_side`; a card of another nation on
  the same side is `wrong_nation` (reported separately: a softer mistake, but still illegal).
* The MAX / DECK column of every arsenal list.                           -> `over_max_per_deck`
* "Make sure only one representation of each LEADER or GENERAL is in the respective arsenal decks",
  whatever a list prints (the East Front list prints "-" for Adolf Hitler). -> `general_leader_single`
* Points: the VALUE of a deck is the sum of its cards' points. Ukrainian-marked cards are their own
  cards and "cost 1 point less per unit": the totals expose that discount.
* "Merely using an entire expansion pack is not customizing a deck": a deck that is exactly an
  official starter (optionally several copies of it, optional rule 2 "Multiple Starter Sets", generals
  and leaders still single), plus the whole arsenal contents of expansion packs of its nation, is
  legal regardless of the customization limits.
* Matchup: "For 2 decks to play against each other, they must be within 10 cards in total card count,
  and within 10 total points of each other." That is a balancing rule of customization: it does not
  bind two official starter decks (the US starter is 675 points, the Japanese 633), and the cards of
  expansion packs used whole ("all German, British, and Conflict cards ... from a particular expansion
  pack") are left out of the balance. A pack is used whole when its conflict cards are in the conflict
  deck and each deck holds all of the pack's cards of its nation. A deck that is legal only as a starter
  plus packs (not as a custom deck) must use those packs whole.
* Conflict decks "cannot be customized": THIN (no expansion conflict cards), FAT (all expansion
  conflict cards of the theater) or whole packs: "if any conflict cards from an expansion pack are
  used, then ALL conflict cards from that expansion pack must be used".
"""

from decks.rule_results import DeckValidation, OfficialComposition, Totals, Violation
from decks.rules.conflict import (
    ConflictChoice,
    ConflictChoiceError,
    ConflictMode,
    build_conflict_deck,
    check_conflict_choice,
    conflict_sets,
    pack_conflict_codes,
)
from decks.rules.deck import (
    GAME,
    MAX_PACKS_SEARCHED,
    MAX_STARTER_COPIES,
    MIN_DECK_CARDS,
    Code,
    DeckTotals,
    cap_singles,
    custom_violations,
    deck_stats,
    deck_totals,
    nation_theaters,
    official_composition,
    packs_of,
    set_arsenal_counts,
    starters_of,
    ukrainian_discount,
    validate_deck,
)
from decks.rules.matchup import (
    MATCHUP_MAX_CARD_DIFFERENCE,
    MATCHUP_MAX_POINT_DIFFERENCE,
    Balance,
    DeckInput,
    MatchupResult,
    validate_matchup,
)

__all__ = [
    "GAME",
    "MATCHUP_MAX_CARD_DIFFERENCE",
    "MATCHUP_MAX_POINT_DIFFERENCE",
    "MAX_PACKS_SEARCHED",
    "MAX_STARTER_COPIES",
    "MIN_DECK_CARDS",
    "Balance",
    "Code",
    "ConflictChoice",
    "ConflictChoiceError",
    "ConflictMode",
    "DeckInput",
    "DeckTotals",
    "DeckValidation",
    "MatchupResult",
    "OfficialComposition",
    "Totals",
    "Violation",
    "build_conflict_deck",
    "cap_singles",
    "check_conflict_choice",
    "conflict_sets",
    "custom_violations",
    "deck_stats",
    "deck_totals",
    "nation_theaters",
    "official_composition",
    "pack_conflict_codes",
    "packs_of",
    "set_arsenal_counts",
    "starters_of",
    "ukrainian_discount",
    "validate_deck",
    "validate_matchup",
]
