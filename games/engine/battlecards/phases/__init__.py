"""The phases of a game: turn, deploy, a drawn conflict card, battlecard, battle, fire, settle."""
