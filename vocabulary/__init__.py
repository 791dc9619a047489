"""The card vocabularies of the platform's games: pure Python that no Django app owns.

`cards`, `decks` and `games` all read these definitions (import-linter contract "The card vocabulary is
pure Python"): the kinds, types, features and deck limits of a game, and the loader + validator of its
fixture file. Today it holds The War (`vocabulary.the_war`); Battlecards' vocabulary (`games.engine.cards`)
moves here in a later step.
"""
