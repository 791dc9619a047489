"""The Battlecards rules, one module per rule area (games/engine/README.md: the rule -> module table)."""
