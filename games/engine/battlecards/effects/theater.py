"""Kept cards of the Pacific and Eastern Front conflict decks (estimated cards; engine README, estimated
rulings "Kamikaze" and "Russian Winter"). Both are played in the battle window (effects.battle_window:
at the start of a battle round, discarded after use), so they reuse its decision and its end-of-battle
check."""

from __future__ import annotations

from ..behaviour import Window, card_effect
from ..combat.casualties import destroy_unit, withdraw_unit
from ..common import KPlayCard
from ..frames import BattleFrame
from ..state import GameState

# Russian Winter stops the armour: these classes withdraw (infantry, artillery, generals stay).
ARMOUR = frozenset({"tank", "self-propelled-gun", "tank-destroyer", "armored-car"})


# ---- Kamikaze: one of your air units in the battle and one enemy ship in the battle are destroyed ----------
def _kamikaze_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    planes = [u for u in fr.units[seat] if st.defs[u].kind == "air"]
    ships = [t for t in fr.units[st.foe(seat)] if st.defs[t].kind == "sea"]
    return [KPlayCard(seat, cid, target=t, option=u) for t in ships for u in planes]


def _kamikaze(st: GameState, fr: BattleFrame, a) -> None:
    destroy_unit(st, a.seat, a.option, "kamikaze")
    destroy_unit(st, st.foe(a.seat), a.target, "kamikaze")


# ---- Russian Winter: every enemy armoured ground unit in the battle withdraws ------------------------------
def _armour(st: GameState, fr: BattleFrame, seat: str) -> list[str]:
    return [u for u in fr.units[seat] if ARMOUR.intersection(st.defs[u].classes)]


def _russian_winter_options(st: GameState, fr: BattleFrame, seat: str, cid: str) -> list[tuple]:
    return [KPlayCard(seat, cid)] if _armour(st, fr, st.foe(seat)) else []


def _russian_winter(st: GameState, fr: BattleFrame, a) -> None:
    enemy = st.foe(a.seat)
    for u in _armour(st, fr, enemy):
        withdraw_unit(st, fr, enemy, u, "russian-winter")


card_effect(
    "kamikaze", kept=True, rulings="estimated: Kamikaze", battle_window=Window(_kamikaze_options, _kamikaze)
)
card_effect(
    "russian-winter",
    kept=True,
    rulings="estimated: Russian Winter",
    battle_window=Window(_russian_winter_options, _russian_winter),
)
