"""Combat rules: values, targeting, supports, casualties, stalemate."""
