"""Each game's Django-side definition (a games.game_type_base.GameType), one module per game; registered by
games.game_types under the id of the pure registry (games.engine.registry)."""
