"""Module boundaries of the whole project (issue 22: "no module imports another's underscore names"): a name
with a leading underscore is private to the module that defines it. tests/engine/test_architecture.py checks
the rules engine (and every use of it); this checks the Django apps and the shared packages the same way:
no `from <first-party module> import _x` and no `<first-party name>._x` (Django's `_meta` excepted)."""

from __future__ import annotations

from pathlib import Path

from tests.module_scan import private_uses

ROOT = Path(__file__).resolve().parents[1]
APPS = ("games", "accounts", "decks", "cards", "config", "simulations", "vocabulary", "web")


def _first_party(module: str) -> bool:
    return module.startswith(".") or module.split(".")[0] in APPS


def test_no_app_module_uses_another_modules_underscore_names():
    paths = [p for app in APPS for p in sorted((ROOT / app).rglob("*.py")) if "migrations" not in p.parts]
    assert [use for path in paths for use in private_uses(path, counts=_first_party)] == []


def test_the_check_sees_both_forms(tmp_path):
    src = tmp_path / "example.py"
    src.write_text(
        "from games.services.progress import _secret, public\nfrom games import selectors\n"
        "from django.conf import settings\nselectors._hidden(public)\nsettings._wrapped\nModel._meta\n"
    )
    assert private_uses(src, counts=_first_party, root=tmp_path) == [
        "example.py:1: from games.services.progress import _secret",
        "example.py:4: selectors._hidden",
    ]
