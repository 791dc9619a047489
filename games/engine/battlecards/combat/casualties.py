"""Units leaving a battle: destroyed (to the OWNER's arsenal discard, C5), withdrawn (GP1, GP2), supports
vanishing with them (GP7), and the end-of-battle check (CA2 special victory)."""
from __future__ import annotations

from ...core.machine import emit
from ..book import RULES
from ..common import GROUND_SPECIALS
from ..frames import BattleFrame
from ..state import GameState
from ..zones import battle_frame, remove_deployed
from .values import invalidate


def destroy_unit(st: GameState, holder: str, cid: str, cause: str) -> None:
    """A deployed unit is destroyed: to its OWNER's arsenal discard (C5). `holder` is the side's seat in
    the battle (in a team game's homeland battle, the commanding army: the card may be a teammate's, it
    leaves that army's stacks: zones.remove_deployed; the event names it as "army")."""
    army = remove_deployed(st, holder, cid) or holder
    st.pool_of(cid)["discard"].append(cid)
    fr = battle_frame(st)
    if fr is not None:
        _leave_battle(st, fr, holder, cid)
    if not st.record_events:  # hot in self-play (events off): skip building the payload
        return
    data = {"seat": holder, "card": cid, "code": st.code[cid], "cause": cause}
    if not st.classic:  # the classic event log's format: the seat is the army
        data["army"] = army
    emit(st, "destroyed", data)


def _leave_battle(st: GameState, fr: BattleFrame, seat: str, cid: str) -> None:
    """`cid` leaves `seat`'s side of the battle (destroyed or withdrawn)."""
    units = fr.units[seat]
    if cid in units:
        units.remove(cid)
    present = fr.present[seat]
    if cid in present:
        present.remove(cid)
    affected: set[str] = set()
    if fr.supports:
        # GP7: support vanishes the moment its source (or recipient) leaves
        affected = {s.recipient for s in fr.supports if s.supporter == cid}
        fr.supports = [s for s in fr.supports if s.supporter != cid and s.recipient != cid]
    invalidate(st, fr, left=(seat, cid, affected))


def withdraw_unit(st: GameState, fr: BattleFrame, seat: str, unit: str, cause: str) -> None:
    """GP1: withdrawn units stay deployed but are out of this battle (GP2: for good)."""
    _leave_battle(st, fr, seat, unit)
    fr.withdrawn[seat].append(unit)
    if st.record_events:  # hot in self-play (events off): skip building the payload
        emit(st, "withdrawn", {"seat": seat, "unit": unit, "cause": cause})


def check_battle_end(st: GameState, fr: BattleFrame) -> bool:
    if fr.stage == "settle":
        return True
    agg, dfd = fr.aggressor, fr.defender
    winner = None
    if not fr.units[dfd]:
        winner = agg
    elif not fr.units[agg]:
        winner = dfd
    elif fr.special in GROUND_SPECIALS and fr.had_ground and not any(
            st.defs[c].kind == "ground" for c in fr.units[agg] + fr.withdrawn[agg]):
        winner = dfd  # CA2: applies to whoever is the aggressor of this battle
    else:
        return False
    fr.winner = winner if fr.mode.decides_winner else None
    RULES.move(fr, "settle")
    fr.shot = None
    fr.sub_wd = None
    return True
