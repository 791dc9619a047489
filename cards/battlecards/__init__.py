"""Battlecards' own catalog code in the catalog app: the canonical fixture shape of its tables, their rows
as dicts, its rulings and the frozen card snapshot a game keeps. Its models, read API, ?q= language and
admin still live at the root of cards/ (cards.models, cards.apis, cards.search, cards.admin), the app it
began as."""
