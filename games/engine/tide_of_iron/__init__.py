"""Tide of Iron strategy-deck referee (see README.md)."""
