"""The War's cards in the catalog app (issue 23): models, loader, reads, read API, ?q= language, faces and
admin of the third game's cards and starter decks (fixtures/the_war/, vocabulary.the_war). Not yet wired
into decks or games (a later step)."""
