"""The engine's module boundaries, checked on the source (issue 22: "no module imports another's underscore
names"): a name with a leading underscore is private to the module that defines it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.module_scan import private_uses

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
# the rest of the code, tests included, which may use the engine only through its public names
ENGINE_USERS = [ROOT / name for name in (
    "games", "decks", "web", "simulations", "cards", "vocabulary", "tests")]


def _private_uses(path: Path, *, engine_only: bool, root: Path = ROOT) -> list[str]:
    """Private names reached in one file: of any first-party module (engine_only=False, for the engine's own
    modules), or of the engine only (engine_only=True, for the code that uses the engine)."""
    def counts(module: str) -> bool:
        if engine_only:
            return module.startswith("games.engine")
        return module.startswith(".") or module.split(".")[0] in ("games", "vocabulary")

    return private_uses(path, counts=counts, root=root)


def test_no_engine_module_uses_another_modules_underscore_names():
    found = [use for path in sorted(ENGINE.rglob("*.py")) for use in _private_uses(path, engine_only=False)]
    assert found == []


def test_the_rest_of_the_code_uses_only_the_engines_public_names():
    paths = [p for root in ENGINE_USERS for p in sorted(root.rglob("*.py")) if not p.is_relative_to(ENGINE)]
    found = [use for path in paths for use in _private_uses(path, engine_only=True)]
    assert found == []


def test_the_check_sees_both_forms(tmp_path):
    """The scan finds both ways of reaching a private name (so an empty result above means something)."""
    src = tmp_path / "example.py"
    src.write_text("from .zones import _secret, public\nfrom . import zones\nzones._hidden(public)\n")
    assert _private_uses(src, engine_only=False, root=tmp_path) == [
        "example.py:1: from .zones import _secret", "example.py:3: zones._hidden"]


def test_each_game_declares_the_step_that_resumes_its_loaded_states(real_catalog):
    """No state class is patched from outside: each game's rules declare its resume step once in core, and
    from_json recomputes the pending decision with it."""
    from games.engine import GameState, new_game, starter_setup
    from games.engine.battlecards.machine import advance
    from games.engine.battlefront import BattlefrontState
    from games.engine.core.machine import declare_resume, resume
    from games.engine.the_war import WarState
    from games.engine.tide_of_iron import TideOfIronState

    for cls in (GameState, BattlefrontState, WarState, TideOfIronState):
        assert "resume" not in vars(cls)
    st = new_game(real_catalog, starter_setup(real_catalog, seed=3))
    assert GameState.from_json(st.to_json(), real_catalog).decision == st.decision
    with pytest.raises(ValueError, match="declared twice"):
        declare_resume(GameState, advance)
    with pytest.raises(RuntimeError, match="no rules declared for object"):
        resume(object())


def test_the_four_games_share_one_state_base_and_one_rule_machine():
    """Every engine's state derives from core.state.EngineState, and every game's decisions are declared in
    one core.machine.RuleBook (Tide of Iron's too: its decisions are open ones, its reports unlisted)."""
    import importlib

    from games.engine.core.machine import RuleBook
    from games.engine.core.state import EngineState

    for package, state, rules in (
        ("games.engine", "GameState", "battlecards.book"),  # Battlecards exports from games.engine
        ("games.engine.battlefront", "BattlefrontState", "battlefront.rules"),
        ("games.engine.the_war", "WarState", "the_war.rules.book"),
        ("games.engine.tide_of_iron", "TideOfIronState", "tide_of_iron.rules"),
    ):
        mod = importlib.import_module(package)
        assert issubclass(getattr(mod, state), EngineState)
        book = importlib.import_module(f"games.engine.{rules}").RULES
        assert isinstance(book, RuleBook) and set(mod.DECISION_KINDS) <= set(book.decisions), package
    toi = importlib.import_module("games.engine.tide_of_iron.rules").RULES
    assert toi.decisions["act"].accepts >= {"report_command", "place_unit", "remove_unit", "set_cover"}


@pytest.mark.parametrize(("kind", "starts", "ends"), [
    ("turn", ["start"], ["end"]),
    ("battlecard", ["check", "emergency"], ["battle"]),  # a Counterattack's battlecard starts at emergency
    ("battle", ["optional"], ["done"]),
    ("divide", ["choose"], ["split"]),
    ("reorganize", ["choose"], ["swap"]),
    ("capture", ["browse"], ["pick"]),
    ("v2", ["start"], ["replace"]),
])
def test_every_staged_frame_flow_reads_from_its_table(kind, starts, ends):
    """Each frame kind with stages declares them in one table: every stage is reached from where a frame
    starts, and only the last stage has no successor (RuleBook.move refuses any other move)."""
    from games.engine.battlecards.machine import RULES  # every rule module registered

    flow = RULES.flows[kind]
    seen, todo = set(starts), list(starts)
    while todo:
        for nxt in flow[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(flow)
    assert [stage for stage, then in flow.items() if not then] == ends


def test_only_the_machine_moves_a_frame_between_stages():
    """No Battlecards rule module assigns a frame's `stage`: RuleBook.move does, along the declared tables.
    (A pending shot's defend/retarget `stage` is a field of the shot record, not a frame's.)"""
    found = []
    for path in sorted((ENGINE / "battlecards").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else [])
            for target in targets:
                for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                    if (isinstance(t, ast.Attribute) and t.attr == "stage"
                            and not (isinstance(t.value, ast.Name) and t.value.id == "shot")):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
