"""Tide of Iron Strategy cards, decks and scenarios: models, loader, API, admin, faces."""
