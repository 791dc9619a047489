"""The scan behind tests/test_game_branches.py: per-game branches in shared code (issue 35, done-when).

A per-game branch is shared code deciding by which game it runs, instead of asking the game's registered
definition. Counted, on the AST of every Python file of the apps:
- a comparison (==, !=, in, not in) with a game id: a string literal that is a game id or an old id
  ("battlecards", "the-war", "the_war", ...), or a game-id constant (`Game.THE_WAR`, `GameType.BATTLEFRONT`);
- a dict literal keyed by game ids (at least one key is a game id, as above);
- `isinstance` on a class of one game (a class defined in a game's own folder or vocabulary module);
- a game's definition asked by name: `get_game_type(<game id>)` (or game_type_or_none, canonical_game_type);
- a query or call for one game by keyword: `game=<game id>` or `game_type=<game id>`.
Skipped, as the game's own code: games/engine/<game>/, cards/<game>/, decks/rules_<game>.py,
web/templates/<game>/, fixtures/<game>/, vocabulary/<game>.py or vocabulary/<game>/, and every migration.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("accounts", "cards", "config", "decks", "games", "simulations", "vocabulary", "web")
GAME_FOLDERS = ("battlecards", "battlefront", "the_war", "tide_of_iron")
GAME_IDS = {"battlecards", "battlefront", "the-war", "the_war", "tide-of-iron", "tide_of_iron"}
ID_CONSTANT_OWNERS = {"Game", "GameType", "DeckGame"}
ID_CONSTANTS = {"BATTLECARDS", "BATTLEFRONT", "THE_WAR", "TIDE_OF_IRON"}
BY_NAME = {"get_game_type", "game_type_or_none", "canonical_game_type"}
GAME_KEYWORDS = {"game", "game_type"}


def is_per_game_path(rel: Path) -> bool:
    parts = rel.parts
    if "migrations" in parts:
        return True
    if parts[:2] == ("games", "engine") and len(parts) > 2 and parts[2] in GAME_FOLDERS:
        return True
    if parts[0] in ("cards", "fixtures") and len(parts) > 1 and parts[1] in GAME_FOLDERS:
        return True
    if parts[0] == "web" and parts[1:2] == ("templates",) and len(parts) > 2 and parts[2] in GAME_FOLDERS:
        return True
    if parts[0] == "decks" and rel.name.startswith("rules_") and rel.stem[len("rules_"):] in GAME_FOLDERS:
        return True
    if parts[0] == "vocabulary" and len(parts) > 2 and parts[1] in GAME_FOLDERS:  # its package
        return True
    return parts[0] == "vocabulary" and rel.stem in GAME_FOLDERS


def game_classes(root: Path) -> set[str]:
    """The names of the classes defined in a game's own code (its engine folder, cards folder, vocabulary)."""
    names: set[str] = set()
    for path in _py_files(root):
        rel = path.relative_to(root)
        if is_per_game_path(rel) and "migrations" not in rel.parts:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            names.update(n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef))
    return names - {"Meta", "Migration"}


def _py_files(root: Path) -> list[Path]:
    return sorted(p for app in APPS for p in (root / app).rglob("*.py"))


def _is_game_id(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value in GAME_IDS
    if isinstance(node, ast.Attribute) and node.attr in ID_CONSTANTS:
        owner = node.value
        return isinstance(owner, ast.Name) and owner.id in ID_CONSTANT_OWNERS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_game_id(e) for e in node.elts)
    return False


def branches(path: Path, root: Path, classes: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    rel = path.relative_to(root)
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops
        ):
            if any(_is_game_id(side) for side in (node.left, *node.comparators)):
                what = "comparison with a game id"
        elif isinstance(node, ast.Dict) and any(k is not None and _is_game_id(k) for k in node.keys):
            what = "dict keyed by game ids"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
              and len(node.args) == 2):
            cls = node.args[1]
            name = cls.attr if isinstance(cls, ast.Attribute) else getattr(cls, "id", None)
            if name in classes:
                what = f"isinstance on {name}"
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in BY_NAME and any(_is_game_id(a) for a in node.args):
                what = f"{name} of a game id"
            elif any(k.arg in GAME_KEYWORDS and _is_game_id(k.value) for k in node.keywords):
                what = "game id keyword"
        if what:
            found.append(f"{rel}:{node.lineno}: {what}")
    return found


def scan(root: Path = ROOT) -> list[str]:
    classes = game_classes(root)
    found: list[str] = []
    for path in _py_files(root):
        if not is_per_game_path(path.relative_to(root)):
            found.extend(branches(path, root, classes))
    return found


if __name__ == "__main__":  # python tests/game_branches.py [ROOT]: the count and where
    import sys
    from collections import Counter

    hits = scan(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    for line in hits:
        print(line)
    per_file = Counter(h.split(":", 1)[0] for h in hits)
    print(f"{len(hits)} per-game branches in {len(per_file)} files")
