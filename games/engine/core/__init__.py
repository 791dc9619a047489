"""Game-independent machinery: errors, events, the one RNG, the decision machine, self-play.

Nothing here knows Battlecards; a second game (Battlefront) builds its own `RuleBook` and imports this
package instead of copying it (import-linter forbids core -> the Battlecards modules).
"""
