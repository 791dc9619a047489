"""Current attack and defense of every unit in a battle, every bonus included (general auras G1/G3, radar
C12, codebreaker C13, supports GU1/S3/S4/S5), memoised per battle situation; and the one hit test."""
from __future__ import annotations

from vocabulary.battlecards import KINDS

from ..behaviour import ability
from ..common import KIDX
from ..frames import BattleFrame, SupportRecord
from ..state import GameState


def hits(defense: int | None, number: int, attack: int | None) -> bool:
    """The action-number rule, the one hit test of shots, chemical warfare and the stalemate check: a shot
    hits when the target's defense < the action number <= the attack value."""
    return defense is not None and attack is not None and defense < number <= attack


class BattleValues:
    """Current attack and defense of every unit in the battle, every bonus included.

    Tables per unit: A[u] = (vs ground, vs air, vs sea) attack, D[u] = defense against ground/air/sea
    attackers. Built once per battle situation; a new support refreshes only its recipient
    (see battle_values)."""

    __slots__ = ("st", "fr", "aura", "radar", "sources", "sup", "A", "D", "side", "umemo", "ftargets",
                 "fkeys", "gone", "done_src", "done_n", "done_set")

    def __init__(self, st: GameState, fr: BattleFrame) -> None:
        self.st = st
        self.fr = fr
        abil = st.abil
        self.aura = {}
        self.radar = {}
        self.side = {}
        # value sources: units whose abilities add to OTHER units' values (auras, radar); one leaving
        # invalidates every value (unit_left), whatever the ability
        self.sources: set[str] = set()
        for s in fr.units:
            auras = []
            for g in fr.units[s]:
                self.side[g] = s
                ab = abil[g].get("general_aura")
                if ab is not None:
                    auras.append((g, ab.get("attack"), ab.get("defense")))
                    self.sources.add(g)
            self.aura[s] = auras
            radars = [r for r in fr.present[s] if "radar" in abil[r]]
            self.radar[s] = sum(abil[r]["radar"].get("air_defense_bonus") for r in radars)
            self.sources.update(radars)
        sup: dict[str, list[SupportRecord]] = {}
        for entry in fr.supports:
            sup.setdefault(entry.recipient, []).append(entry)
        self.sup = sup
        self.A: dict[str, tuple] = {}
        self.D: dict[str, tuple] = {}
        # legal-move pieces, per seat: umemo from the units in the battle only (dropped when one of the
        # seat's units leaves); ftargets: shooter -> (shots, fired, intel, its fire targets, len(gone of
        # the enemy)), dropped when the values they read change (see refresh and _leave_battle) and
        # lazily stripped of the enemy units gone since; fkeys: shooter -> (that target list, its fire and
        # hold keys); gone: per seat, its units that left the battle, in order
        self.gone: dict[str, list[str]] = {s: [] for s in fr.units}
        self.umemo: dict[str, dict] = {s: {} for s in fr.units}
        self.done_src: list | None = None  # fr.done as a set (the list only grows within a round)
        self.done_n = 0
        self.done_set: set[str] = set()
        self.ftargets: dict[str, dict] = {s: {} for s in fr.units}
        self.fkeys: dict[str, dict] = {s: {} for s in fr.units}
        for u in self.side:
            self._compute(u)

    def refresh(self, u: str) -> None:
        """u's values changed: u's own fire targets and every enemy shooter's (u's defense) are stale."""
        seat = self.side[u]
        before = self.D.get(u)
        self._compute(u)
        if self.D[u] != before:  # an attack support leaves u's defense, so the enemy's targets, as they were
            enemy = self.st.foe(seat)
            self.ftargets[enemy].clear()
            self.fkeys[enemy].clear()
        self.ftargets[seat].pop(u, None)
        self.fkeys[seat].pop(u, None)

    def _compute(self, u: str) -> None:
        seat = self.side[u]
        d = self.st.defs[u]
        sups = self.sup.get(u, ())
        ground = d.kind == "ground"
        aura_a = aura_d = 0
        if ground:
            for g, atk, dfn in self.aura[seat]:
                if g != u:  # G1, G3: other friendly ground units
                    aura_a += atk
                    aura_d += dfn
        cb = self.fr.codebreak[seat]
        if not sups:  # the common case, without the per-kind support loops below
            add = aura_a + cb
            a0, a1, a2 = d.attack.ground, d.attack.air, d.attack.sea
            self.A[u] = (None if a0 is None else a0 + add, None if a1 is None else a1 + add,
                         None if a2 is None else a2 + add)
            d0, d1, d2 = d.defense.ground, d.defense.air, d.defense.sea
            self.D[u] = (None if d0 is None else d0 + aura_d,
                         None if d1 is None else d1 + aura_d + self.radar[seat],
                         None if d2 is None else d2 + aura_d)
            return
        atk = []
        for tk in KINDS:
            v = getattr(d.attack, tk)
            if v is not None:
                for s in sups:
                    if s.mode == "attack" and (s.kinds is None or tk in s.kinds):
                        v += s.bonus
                v += aura_a + cb
            atk.append(v)
        dfn = []
        for ak in KINDS:
            v = getattr(d.defense, ak)
            if v is not None:
                for s in sups:
                    if s.mode == "defense" or (s.mode == "air_defense" and ak == "air"):
                        v += s.bonus
                v += aura_d
                if ak == "air":
                    v += self.radar[seat]
            dfn.append(v)
        self.A[u] = tuple(atk)
        self.D[u] = tuple(dfn)

    def done(self) -> set[str]:
        done = self.fr.done
        n = len(done)
        if done is not self.done_src or n < self.done_n:
            self.done_src = done
            self.done_set = set(done)
        elif n != self.done_n:
            self.done_set.update(done[self.done_n:])
        self.done_n = n
        return self.done_set

    def new_round(self) -> None:
        """A new round of the same battle: the supports are gone (fr.supports, "shots" and "done" are new
        empty lists). Only the units that had support change values; every other memo stays valid (units
        and values are the same, and fire-target entries record the shot count, 0 again for every unit)."""
        supported = [u for u in self.sup if u in self.side]
        self.sup = {}
        for u in supported:
            self.refresh(u)

    def unit_left(self, seat: str, cid: str, affected: set[str]) -> bool:
        """`cid` left the battle: forget it and refresh the units its supports went to. False when it fed
        other units' values (a value source: a general's aura, radar), so every value must be rebuilt."""
        if cid in self.sources:
            return False
        self.umemo[seat].clear()
        self.ftargets[seat].pop(cid, None)  # cid as a shooter
        self.fkeys[seat].pop(cid, None)
        self.gone[seat].append(cid)  # cid as a target: dropped from the enemy's target lists (fire_targets)
        for table in (self.side, self.A, self.D, self.sup):
            table.pop(cid, None)
        for r in affected:
            if r in self.side:
                self.sup[r] = [s for s in self.sup.get(r, ()) if s.supporter != cid]
                self.refresh(r)
        return True

    def support_added(self, entry: SupportRecord) -> None:
        self.sup.setdefault(entry.recipient, []).append(entry)
        if entry.recipient in self.side:
            self.refresh(entry.recipient)

    def unit(self, u: str) -> tuple[tuple, tuple]:
        """u's current (attack, defense), each (vs / against ground, air, sea), every bonus included; a
        card not fighting in the battle (a leader) has its printed values."""
        atk, dfn = self.A.get(u), self.D.get(u)
        d = self.st.defs[u]
        if atk is None:
            atk = (d.attack.ground, d.attack.air, d.attack.sea)
        if dfn is None:
            dfn = (d.defense.ground, d.defense.air, d.defense.sea)
        return atk, dfn

    def attack(self, seat: str, u: str, tkind: str) -> int | None:
        values = self.A.get(u)
        return values[KIDX[tkind]] if values is not None else getattr(self.st.defs[u].attack, tkind)

    def defense(self, seat: str, t: str, akind: str) -> int | None:
        values = self.D.get(t)
        return values[KIDX[akind]] if values is not None else getattr(self.st.defs[t].defense, akind)


def battle_values(st: GameState, fr: BattleFrame) -> BattleValues:
    """Valid until the battle changes (units leave, round ends): invalidate() drops it."""
    vals = st._vcache
    if vals is not None and vals.fr is fr:
        return vals
    vals = st._vcache = BattleValues(st, fr)
    return vals


def invalidate(st: GameState, fr: BattleFrame | None = None, *,
               left: tuple[str, str, set[str]] | None = None) -> None:
    """The one way to tell the battle's values (st._vcache, their only owner) that the battle changed:
    without `left`, drop them (rebuilt on demand); with `left` = (seat, unit, the recipients of its
    supports), that unit has left battle `fr` and only what it fed is recomputed (BattleValues.unit_left)."""
    vals = st._vcache
    if vals is None:
        return
    if left is None or (vals.fr is fr and not vals.unit_left(*left)):
        st._vcache = None


def defense_value(st: GameState, fr: BattleFrame, seat: str, t: str, akind: str) -> int | None:
    return battle_values(st, fr).defense(seat, t, akind)

ability("general_aura", BattleValues._compute, rulings="G1, G3")
ability("radar", BattleValues.__init__, rulings="C12, GP5; optional forces: phases.battle._optional_units")
ability("codebreaker", BattleValues._compute, rulings="C13; counted in phases.battle._stage_muster")
