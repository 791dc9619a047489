"""Special cards (and special-mode heroes): their windows (R12), targets and effects."""
from __future__ import annotations

from vocabulary.the_war import (
    CardDef,
    Category,
    EffectKind,
    Feature,
    HeroMode,
    UnitSubtype,
)

from ...core.machine import emit
from ..setup import (
    OTHER,
)
from ..state import PaymentFrame, WarState
from .cards import card, ctrl, destroy, features, hero_blocked, in_lines, matches, mill, move_card, zone_of
from .resources import affordable
from .values import non_combat_damage

WINDOW_EFFECTS = {
    "build": (EffectKind.DAMAGE, EffectKind.ROTATE, EffectKind.DECK_HIT, EffectKind.GRANT_FEATURE,
              EffectKind.TAKE_CONTROL, EffectKind.MOVE_LINE),
    "attacking": (EffectKind.DAMAGE, EffectKind.ROTATE, EffectKind.DECK_HIT, EffectKind.MODIFY),
    "blocking": (EffectKind.DAMAGE, EffectKind.MODIFY),
}


def special_targets(st: WarState, seat: str, c: CardDef, window: str = "build") -> list[str | None] | None:
    """Targets of a special card (or special-mode hero) in a window: the build phase, the attacker's or the
    defender's special-card step of a wave (R12); None: not playable there. An attack/defense change is
    playable in its window only ("when" attacking or blocking) and not twice in a turn (R28)."""
    effects = c.effects
    if not effects or effects[0].kind not in WINDOW_EFFECTS[window]:
        return None
    if any(not rotation_payers(st, seat, f) for f in c.rotate_to_play):
        return None  # no unit left to rotate for it
    e = effects[0]
    other = OTHER[seat]
    if e.kind in (EffectKind.DAMAGE, EffectKind.ROTATE, EffectKind.TAKE_CONTROL, EffectKind.MOVE_LINE):
        return [u for u in in_lines(st, other) if matches(st, u, e.target, seat)] or None
    if e.kind == EffectKind.MODIFY:
        if c.code in st.specials_this_turn or e.when not in ("always", window):
            return None
        return [None]
    if e.kind in (EffectKind.DECK_HIT, EffectKind.GRANT_FEATURE):
        return [None]
    return None


def special_keys(st: WarState, seat: str, window: str) -> list[tuple]:
    keys: list[tuple] = []
    seen: set[str] = set()
    for h in st.zones[seat]["hand"]:
        c = card(st, h)
        if c.code in seen or not (c.category == Category.SPECIAL or c.hero_mode == HeroMode.SPECIAL):
            continue
        seen.add(c.code)
        if (c.is_hero and hero_blocked(st, seat, c)) or not affordable(st, seat, c.cost):
            continue
        keys.extend(("play_special", seat, h, t) for t in special_targets(st, seat, c, window) or ())
    return keys


def move_by_opponent(st: WarState, cid: str) -> None:
    """An opponent's effect moves a unit to the other line; "If any effect from unit's special abilities or
    special cards controlled by opponent causes a fortification to move from line to line it should be
    placed into losses pile." """
    if card(st, cid).subtype == UnitSubtype.FORTIFICATION:
        destroy(st, cid)
        return
    dest = "line2" if zone_of(st, cid) == "line1" else "line1"
    move_card(st, cid, dest)
    emit(st, "moved", {"seat": ctrl(st, cid), "unit": cid, "to": dest[-1]})


def rotation_payers(st: WarState, seat: str, feature: str) -> list[str]:
    """The seat's non-rotated units in play with `feature` (a scout party rotated to play a card, S470)."""
    return [u for u in in_lines(st, seat) if u not in st.rotated and feature in features(st, u)]


def special_effects(st: WarState, seat: str, cid: str, target: str | None) -> None:
    c = card(st, cid)
    for f in c.rotate_to_play:  # the first such unit in play order rotates
        payer = rotation_payers(st, seat, f)[0]
        st.rotated.add(payer)
        emit(st, "rotated_to_play", {"seat": seat, "unit": payer, "card": cid})
    if c.is_hero:
        st.heroes_played[seat].append(c.title)
    move_card(st, cid, "losses")
    emit(st, "special_played", {"seat": seat, "card": cid, "code": c.code, "target": target})
    for e in c.effects:
        if e.kind == EffectKind.DAMAGE and target:
            non_combat_damage(st, target, e.amount or 0)
        elif e.kind == EffectKind.ROTATE and target:
            st.rotated.add(target)
        elif e.kind == EffectKind.TAKE_CONTROL and target:
            line = zone_of(st, target) or "line1"
            st.zones[ctrl(st, target)][line].remove(target)
            st.control[target] = seat  # R29: it changes sides in its line, as it is (rotated or not)
            st.zones[seat][line].append(target)
            st.built_turn[target] = st.turn  # like a unit just come into play: moved only next turn
            emit(st, "captured", {"seat": seat, "unit": target, "code": st.codes[target]})
        elif e.kind == EffectKind.MOVE_LINE and target:
            move_by_opponent(st, target)
        elif e.kind == EffectKind.DECK_HIT:
            mill(st, OTHER[seat], e.amount or 0)
        elif e.kind == EffectKind.GRANT_FEATURE and e.feature == Feature.MOBILITY:
            st.mobile_turn[seat] = st.turn
        elif e.kind == EffectKind.MODIFY and cid not in st.active:
            st.active.append(cid)  # lasts this assault wave
            st.specials_this_turn.append(c.code)


def paid_special(st: WarState, fr: PaymentFrame) -> None:
    special_effects(st, fr.seat, fr.card, fr.target)
