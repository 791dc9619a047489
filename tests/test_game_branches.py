"""Per-game branches in shared code (issue 35, done-when): counted by tests/game_branches.py (its docstring
names the patterns counted and the per-game paths skipped). Run `python tests/game_branches.py` for the list.

Shared code asks a game's registered definition (games.engine.registry, games.game_types) instead of
testing which game it is: there are none left (56 were counted at 7ca67e0: 38 comparisons with a game id, 14
dicts keyed by game ids, 4 isinstance on Battlecards classes in the root modules that moved into
games/engine/battlecards/; the last 12 went when Battlecards' catalog code moved into cards/battlecards/, the
bulk file's game sections came from the definitions' `bulk_section` and the example client chose its moves
and its decks from what the API gives). ALLOWED is the documented allowlist, per file: empty, and it may only
stay so. A branch in any file fails; ask the game's definition instead.
"""

from __future__ import annotations

from collections import Counter

from tests.game_branches import branches, game_classes, is_per_game_path, scan

ALLOWED: dict[str, int] = {}


def test_per_game_branches_in_shared_code_only_shrink():
    found = scan()
    per_file = Counter(hit.split(":", 1)[0] for hit in found)
    grown = {f: n for f, n in per_file.items() if n > ALLOWED.get(f, 0)}
    assert not grown, "new per-game branches (ask the game's definition instead): " + "; ".join(
        hit for hit in found if hit.split(":", 1)[0] in grown
    )
    stale = {f: (ALLOWED[f], per_file.get(f, 0)) for f in ALLOWED if per_file.get(f, 0) < ALLOWED[f]}
    assert not stale, f"fewer branches than allowed: lower ALLOWED (allowed, found): {stale}"
    assert sum(per_file.values()) == sum(ALLOWED.values()) == 0


def test_the_scan_counts_each_pattern_and_skips_a_games_own_folders(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "games" / "engine" / "the_war").mkdir(parents=True)
    shared = tmp_path / "decks" / "shared.py"
    shared.write_text(
        "from games.engine.the_war import WarState\n"
        "def f(game, st):\n"
        "    if game == 'the-war' or game in (Game.BATTLECARDS,):\n"
        "        return {'the_war': 1}\n"
        "    return isinstance(st, WarState) or game == 'other'\n"
    )
    own = tmp_path / "games" / "engine" / "the_war" / "state.py"
    own.write_text("class WarState:\n    pass\nX = {'the-war': 1} if 'a' == 'the-war' else None\n")
    assert is_per_game_path(own.relative_to(tmp_path)) and not is_per_game_path(shared.relative_to(tmp_path))
    assert game_classes(tmp_path) == {"WarState"}
    assert [h.split(": ", 1)[1] for h in branches(shared, tmp_path, {"WarState"})] == [
        "comparison with a game id", "comparison with a game id", "dict keyed by game ids",
        "isinstance on WarState",
    ]
    assert scan(tmp_path) == branches(shared, tmp_path, {"WarState"})
