"""The flow, declared in tables: the turn's steps (TURN_STEPS over TURN_PHASES), the wave's (WAVE_STEPS over
WAVE_STAGES), every frame and decision registered on RULES (in this order), what each payment purpose does
(PAID), and the entry points."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.machine import Decision, declare_resume
from ..state import WarState
from .attack import act_attack_phase, legal_attack_phase, st_attack
from .blocks import (
    act_block,
    act_def_artillery,
    act_def_specials,
    act_interception,
    legal_block,
    legal_def_artillery,
    legal_def_specials,
    legal_interception,
    w_block,
    w_def_artillery,
    w_def_specials,
    w_interception,
)
from .book import RULES, TURN_PHASES, WAVE_STAGES
from .breakthrough import (
    act_second_support,
    act_strike,
    legal_second_support_done,
    legal_strike,
    paid_strike,
    w_after_first,
    w_close,
    w_second_engagements,
    w_second_support,
    w_strike,
)
from .build import (
    act_build,
    act_maintenance,
    legal_build,
    legal_maintenance,
    paid_build,
    paid_improve,
    paid_maintain,
    st_build,
)
from .combat import act_aa, act_damage, legal_aa, legal_damage, step_resolve, w_aa, w_engagements
from .declarations import (
    act_abilities,
    act_att_artillery,
    act_general,
    act_targeted,
    legal_abilities,
    legal_att_artillery,
    legal_general,
    legal_targeted,
    paid_attack,
    paid_salvo,
    paid_target,
    w_abilities,
    w_artillery,
    w_general,
    w_targeted,
)
from .end import act_end, legal_end, paid_location, st_end, st_reserves
from .positions import act_positions, legal_positions
from .resources import PAID, act_pay, legal_pay, step_payment
from .specials import paid_special
from .start import act_redraw, legal_redraw, step_setup
from .turn import act_resources, anytime_scout, legal_resources, st_draw, st_resources, st_restore

TURN_STEPS: dict[str, Callable[[WarState, Any], Decision | None]] = {
    "restore": st_restore, "draw": st_draw, "resources": st_resources, "build": st_build,
    "positions": lambda st, fr: Decision(fr.seat, "positions", {}), "attack": st_attack,
    "reserves": st_reserves, "end": st_end,
}
assert tuple(TURN_STEPS) == TURN_PHASES


WAVE_STEPS: dict[str, Callable[[WarState, Any], Decision | None]] = {
    "targeted": w_targeted, "general": w_general, "attacker_artillery": w_artillery,
    "attacker_abilities": w_abilities, "block": w_block, "defender_specials": w_def_specials,
    "defender_artillery": w_def_artillery, "interception": w_interception, "engagements": w_engagements,
    "aa_first": w_aa, "resolve_first": step_resolve, "after_first": w_after_first, "strike": w_strike,
    "second_support": w_second_support, "defender_specials_2": w_def_specials,
    "second_engagements": w_second_engagements, "aa_second": w_aa, "resolve_second": step_resolve,
    "close": w_close,
}
assert tuple(WAVE_STEPS) == WAVE_STAGES


def scouting(legal: Callable, act: Callable) -> dict[str, Callable]:
    """The scout party at any decision of its owner (R13, revision 3); resources, build, positions and the
    attack phase offer it themselves."""
    legal_w, act_w = anytime_scout(legal, act)
    return {"legal": legal_w, "act": act_w}


RULES.frame("payment", stages={"pay": step_payment})
RULES.decision("pay", **scouting(legal_pay, act_pay))
RULES.frame("setup", stages={"redraw": step_setup})
RULES.decision("redraw", **scouting(legal_redraw, act_redraw))
RULES.frame("turn", stages=TURN_STEPS)
RULES.decision("resources", legal=legal_resources, act=act_resources)
RULES.decision("maintenance", **scouting(legal_maintenance, act_maintenance))
RULES.decision("build", legal=legal_build, act=act_build)
RULES.decision("positions", legal=legal_positions, act=act_positions)
RULES.decision("attack_phase", legal=legal_attack_phase, act=act_attack_phase)
RULES.decision("end_of_turn", **scouting(legal_end, act_end))
RULES.frame("wave", stages=WAVE_STEPS)
RULES.decision("declare_targeted", **scouting(legal_targeted, act_targeted))
RULES.decision("declare_general", **scouting(legal_general, act_general))
RULES.decision("attacker_artillery", **scouting(legal_att_artillery, act_att_artillery))
RULES.decision("attacker_abilities", **scouting(legal_abilities, act_abilities))
RULES.decision("block", **scouting(legal_block, act_block))
RULES.decision("defender_specials", **scouting(legal_def_specials, act_def_specials))
RULES.decision("defender_artillery", **scouting(legal_def_artillery, act_def_artillery))
RULES.decision("interception", **scouting(legal_interception, act_interception))
RULES.decision("aa_mode", **scouting(legal_aa, act_aa))
RULES.decision("damage", **scouting(legal_damage, act_damage))
RULES.decision("strike", **scouting(legal_strike, act_strike))
RULES.decision("second_line_support", **scouting(legal_second_support_done, act_second_support))


PAID.update({
    "build": paid_build, "improve": paid_improve, "maintain": paid_maintain, "location": paid_location,
    "target": paid_target, "attack": paid_attack, "strike": paid_strike, "salvo": paid_salvo,
    "special": paid_special,
})


DECISION_KINDS = tuple(RULES.decisions)


declare_resume(WarState, RULES.advance)  # WarState.from_json recomputes the pending decision with it


def legal_keys(st: WarState) -> list[tuple]:
    return RULES.legal_keys(st)


def legal_actions(st: WarState) -> list[Any]:
    return RULES.legal_actions(st)


def apply(st: WarState, action: Any) -> list:
    return RULES.apply(st, action)


def apply_legal(st: WarState, action: Any) -> list:
    return RULES.apply_legal(st, action)
