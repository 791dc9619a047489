"""The source scan behind the module-boundary tests (tests/test_module_boundaries.py for the apps,
tests/engine/test_architecture.py for the rules engine): a name with a leading underscore is private to the
module that defines it, so `from m import _x` and `m._x` are found for every module `m` that `counts`
accepts."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_BY_CONVENTION = {"_meta"}  # Django's model options API (documented, public despite the underscore)


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_BY_CONVENTION


def private_uses(path: Path, *, counts: Callable[[str], bool], root: Path = ROOT) -> list[str]:
    """`from m import _x` and `m._x` (m a name imported from a module `counts` accepts) in one source file."""
    tree = ast.parse(path.read_text(), str(path))
    found, imported = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names if counts(a.name))
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if not counts(module):
                continue
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if is_private(alias.name):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: from {module} import {alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and is_private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in imported):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found
