"""The card vocabularies of the platform's games: pure Python that no Django app owns.

`cards`, `decks` and `games` all read these definitions (import-linter contract "The card vocabulary is
pure Python"): the kinds, types, features and deck limits of a game, and the loader + validator of its
fixture file. `vocabulary.battlecards` holds Battlecards' (card definitions, the catalog, its fixture
loader, max copies per card), `vocabulary.the_war` The War's. Battlefront's cards stay in its engine
(`games.engine.battlefront.cards`): no app besides its engine reads them.
"""
