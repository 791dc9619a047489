"""The battle frame's constructor (the frame classes: battlecards/frames.py): its forces, optional classes
and per-army tables, and the armies joined in a team game's homeland battle."""
from __future__ import annotations

from .frames import BattleFrame, BattleMode
from .setup import SIDES
from .state import GameState
from .zones import stated_aggressor


def new_battle(st: GameState, *, card: str | None, aggressor: str, mode: BattleMode, counter: bool,
               defender: str | None = None) -> BattleFrame:
    """A battle between two armies (a classic game's two seats; in a team game the aggressor's army and
    the enemy army it chose). Per-army entries are in side order, axis first."""
    if defender is None:
        defender = st.foe(aggressor)
    pair = (aggressor, defender) if st.side(aggressor) == "axis" else (defender, aggressor)
    if mode.forces is None:  # a battlecard's battle: the card's forces
        assert card is not None, "a battlecard's battle has its card"
        d = st.defs[card]
        forces = {aggressor: d.aggressor_forces, defender: d.defender_forces}
        special = d.special_victory
        # C7: the optional classes (Baltic artillery, Battle of Britain AA) belong to the nation the card
        # names, its stated defender, whichever side is the aggressor (a counterattack does not move them)
        stated = stated_aggressor(st, card)
        named = next(s for s in pair if st.side(s) != stated) if stated in SIDES else defender
        opt = {s: list((d.defender_forces if s == named else d.aggressor_forces).optional_ground_classes)
               for s in pair}
    else:
        forces = {aggressor: mode.forces, defender: mode.forces}
        special = None
        opt = {s: [] for s in pair}
    return BattleFrame(
        mode=mode, card=card, aggressor=aggressor, defender=defender, counter=counter, special=special,
        stage="optional", kinds={s: list(forces[s].kinds()) for s in pair}, opt_classes=opt,
        need_infantry_free={s: forces[s].non_artillery_ground_required for s in pair},
        include=dict.fromkeys(pair, False), stacks={s: {} for s in pair},
        units={s: [] for s in pair}, present={s: [] for s in pair}, withdrawn={s: [] for s in pair},
        intel=dict.fromkeys(pair, False), intel_played=dict.fromkeys(pair, False),
        chem=dict.fromkeys(pair, 0), codebreak=dict.fromkeys(pair, 0),
    )


def join_armies(st: GameState, fr: BattleFrame) -> None:
    """FAQ OR3/OR4 homeland battles ("all armies on both sides may participate"): every other alive army of
    each side fights under the side's army named in the frame (its commander). fr.joined: commander ->
    its teammates in turn order; each joined army gets its own divided-stack choice and optional-forces
    answer (fr.stacks, fr.include: phases.battle)."""
    fr.all_armies = True
    fr.joined = {s: [a for a in st.armies_of(st.side(s)) if a != s] for s in fr.units}
    for others in fr.joined.values():
        for a in others:
            fr.stacks[a] = {}
            fr.include[a] = False
