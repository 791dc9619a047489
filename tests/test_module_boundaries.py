"""Module boundaries of the whole project (issue 22: "no module imports another's underscore names"): a name
with a leading underscore is private to the module that defines it. tests/engine/test_architecture.py checks
the rules engine (and every use of it); this checks the Django apps and the shared packages the same way:
no `from <first-party module> import _x` and no `<first-party name>._x` (Django's `_meta` excepted)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("games", "decks", "cards", "config", "simulations", "vocabulary", "web")
PUBLIC_BY_CONVENTION = {"_meta"}  # Django's model options API (documented, public despite the underscore)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_BY_CONVENTION


def _first_party(module: str) -> bool:
    return module.startswith(".") or module.split(".")[0] in APPS


def private_uses(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found, imported = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names if _first_party(a.name))
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if not _first_party(module):
                continue
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if _private(alias.name):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: from {module} import {alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in imported):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_app_module_uses_another_modules_underscore_names():
    paths = [p for app in APPS for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]
    assert [use for path in paths for use in private_uses(path)] == []


def test_the_check_sees_both_forms(tmp_path):
    src = tmp_path / "example.py"
    src.write_text(
        "from games.services.progress import _secret, public\nfrom games import selectors\n"
        "from django.conf import settings\nselectors._hidden(public)\nsettings._wrapped\nModel._meta\n"
    )
    assert private_uses(src, root=tmp_path) == [
        "example.py:1: from games.services.progress import _secret",
        "example.py:4: selectors._hidden",
    ]
