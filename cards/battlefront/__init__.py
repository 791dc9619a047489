"""Battlefront cards in the catalog app: the loader, reads, read API, ?q= language and admin of the 70-card
game (fixtures/battlefront/cards.json). The models live in cards.models (BattlefrontCard and friends)."""
