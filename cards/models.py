"""Models of the cards app."""
