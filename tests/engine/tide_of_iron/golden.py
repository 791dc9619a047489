"""Golden Tide of Iron matches: seeded, scripted referee matches whose outcome must not change.

Each match is driven by `script_choice` (a player reading only his own view: report the board and his
command points, activate what he can, aim at the crowd, retry a failed contact, else end the phase) for
ROUNDS rounds; golden.json records the plies and the sha256 of the final state and of the event log. A
refactoring keeps the file byte-identical; a commit that changes a rule regenerates it and says which rule:

    .venv/bin/python -m tests.engine.tide_of_iron.golden --write     # regenerate
    .venv/bin/python -m tests.engine.tide_of_iron.golden             # compare
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from games.engine import tide_of_iron as toi
from tests.engine.tide_of_iron.conftest import catalog

GOLDEN_FILE = Path(__file__).parent / "golden.json"
SEEDS = range(12)
SCENARIOS = ("toi-scenario-artillery-duel", "toi-scenario-all-decks")
ROUNDS = 6
UNITS = [
    ("A", "6,5", "axis", "squad", "no"),
    ("B", "6,5", "axis", "vehicle", "no"),
    ("C", "7,5", "axis", "squad", "no"),
    ("D", "5,5", "allies", "squad", "yes"),
    ("E", "6,4", "axis", "squad", "no"),
    ("F", "6,6", "axis", "vehicle", "no"),
    ("G", "5,4", "allies", "squad", "no"),
]


TARGETS = ("6,5", "3,3", "9,8")


def _sha(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def script_choice(view: dict[str, Any], ply: int) -> dict[str, Any]:
    decision = view["decision"]
    if decision["kind"] == "confirm":  # revision 2: the other player's report is taken
        return {"type": "confirm"}
    if decision["kind"] == "target":
        return {"type": "target", "hex": TARGETS[ply % 3]}
    if decision["kind"] == "target_column":  # revision 2: the column, then the row
        return {"type": "target_column", "column": TARGETS[ply % 3].split(",")[0]}
    if decision["kind"] == "target_row":
        return {"type": "target_row", "row": TARGETS[(ply - 1) % 3].split(",")[1]}
    if decision["kind"] == "los":
        los = ("none", "normal", "officer")[ply % 3]
        offered = {a["los"] for a in decision["legal_actions"]}  # revision 2: officer needs an officer squad
        return {"type": "los", "los": los if los in offered else "normal"}
    placed = {u["unit"] for u in view["board"]["units"]}
    for label, hex_, side, kind, officer in UNITS:
        if label not in placed:
            return {
                "type": "place_unit",
                "unit": label,
                "hex": hex_,
                "side": side,
                "kind": kind,
                "officer": officer,
            }
    if "6,5" not in view["board"]["cover"]:
        return {"type": "set_cover", "hex": "6,5", "cover": "2"}
    if view["me"]["command"] < 3:
        return {"type": "report_command", "points": "6"}
    for wanted in ("retry_contact", "activate"):
        found = [a for a in decision["legal_actions"] if a["type"] == wanted]
        if found:
            return found[0]
    return {"type": "pass_turn"} if ply % 4 == 0 and view["phase"] == "action" else {"type": "next_phase"}


def play_one(scenario: str, seed: int) -> dict[str, Any]:
    setup = toi.GameSetup(seed=seed, options=toi.Options(scenario=scenario, board_width=12, board_height=10))
    st = toi.new_game(catalog(), setup)
    events: list[dict[str, Any]] = []
    while st.status == "active":
        seat = st.decision.seat
        action = {**script_choice(toi.view(st, seat), st.ply), "seat": seat}
        if st.round > ROUNDS and st.decision.kind == "act":
            action = {"type": "end_match", "seat": seat, "result": "draw"}
        events += [e.to_json() for e in toi.apply(st, action)]
    return {"plies": st.ply, "final_state": _sha(st.to_json()), "events": _sha(events)}


def golden() -> dict[str, Any]:
    return {f"{scenario}/{seed}": play_one(scenario, seed) for scenario in SCENARIOS for seed in SEEDS}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    now = golden()
    if args.write:
        GOLDEN_FILE.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(now)} matches to {GOLDEN_FILE}")
        return 0
    stored = json.loads(GOLDEN_FILE.read_text())
    differ = [k for k in sorted(set(now) | set(stored)) if now.get(k) != stored.get(k)]
    for key in differ[:10]:
        print(f"{key}: stored {stored.get(key)} now {now.get(key)}")
    print("identical" if not differ else f"{len(differ)} matches differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
