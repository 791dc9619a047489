"""The prompt of every Tide of Iron decision kind (core.prompts; the API's TideOfIronDecision components are
built from it, and tests/engine/test_view_shape.py checks every prompt the referee asks against it)."""
from __future__ import annotations

from ..core.prompts import Schema, any_value, array, integer, obj, prompt, string
from .actions import REPORTS
from .setup import PHASES

BOARD_SIZE = obj({"width": integer(), "height": integer()}, title="_BoardSize")  # the component's old name
_TARGET = {"card": string(), "board": BOARD_SIZE}

PROMPT_SCHEMAS: dict[str, Schema] = {
    "act": prompt({
        "round": integer(),
        "phase": string(enum=PHASES),
        "command": integer("Your command points as last reported."),
        "reports": array(string(enum=REPORTS),
                         "Board reports you may send now besides the legal actions (free values)."),
    }),
    "target": prompt(_TARGET),
    "target_column": prompt(_TARGET),
    "target_row": prompt({**_TARGET, "column": integer("The column chosen for the target hex.")}),
    "los": prompt({
        "card": string(),
        "target": string("The target hex."),
        "los": array(string()),
    }),
    "confirm": prompt({
        "claim": any_value(
            "The other player's report: by, type (command, phase, result, los) and its values."),
    }),
}
