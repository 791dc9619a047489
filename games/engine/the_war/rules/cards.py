"""Cards and zones: who owns and controls a card, where it is, its features, effect targets and prohibitions;
drawing, destruction to the losses pile, deck hits; heroes."""
from __future__ import annotations

from typing import Any

from vocabulary.the_war import (
    CardDef,
    EffectKind,
    Feature,
    Restriction,
    UnitType,
)

from ...core.machine import emit
from ..setup import (
    OTHER,
    RULES_REVISION,
    SEATS,
    TYPES,
)
from ..state import WarState

R = Restriction


IDX = {t: i for i, t in enumerate(TYPES)}


def owner(cid: str) -> str:
    """The seat whose deck the card came from (its losses pile receives it)."""
    return cid.split(".", 1)[0]


def ctrl(st: WarState, cid: str) -> str:
    """The seat controlling a card: its owner, or the seat that captured it ("Capture")."""
    return st.control.get(cid) or owner(cid)


def rules_revision(st: WarState) -> int:
    """The rules revision the game plays (setup.RULES_REVISION unless its catalog records an older one)."""
    rev = st.catalog.rules_revision
    return RULES_REVISION if rev is None else rev


def card(st: WarState, cid: str) -> CardDef:
    return st.catalog.cards[st.codes[cid]]


def zone_of(st: WarState, cid: str) -> str | None:
    for z, cards in st.zones[ctrl(st, cid)].items():
        if cid in cards:
            return z
    return None


def line_of(st: WarState, cid: str) -> int | None:
    z = zone_of(st, cid)
    return 1 if z == "line1" else 2 if z == "line2" else None


def in_lines(st: WarState, seat: str) -> list[str]:
    return st.zones[seat]["line1"] + st.zones[seat]["line2"]


def move_card(st: WarState, cid: str, zone: str) -> None:
    z = st.zones[ctrl(st, cid)]
    for cards in z.values():
        if cid in cards:
            cards.remove(cid)
            break
    if zone not in ("line1", "line2", "reserve"):
        st.control.pop(cid, None)  # a captured card leaving play goes back to its owner's piles
    st.zones[ctrl(st, cid)][zone].append(cid)


def is_air(c: CardDef) -> bool:
    return c.unit_type == UnitType.AIR


def features(st: WarState, cid: str) -> set[str]:
    c = card(st, cid)
    out: set[str] = set(c.features)
    for imp, unit in st.attached.items():
        if unit == cid:
            for e in card(st, imp).effects:
                if (e.kind == EffectKind.GRANT_FEATURE and e.feature
                        and matches(st, cid, e.target, owner(imp))):
                    out.add(e.feature)
    return out


def matches(st: WarState, cid: str, target: Any, effect_owner: str) -> bool:
    c = card(st, cid)
    side = target.side
    if side == "own" and ctrl(st, cid) != effect_owner or side == "enemy" and ctrl(st, cid) == effect_owner:
        return False
    if target.unit_types and c.unit_type not in target.unit_types:
        return False
    if target.subtypes and c.subtype not in target.subtypes:
        return False
    if target.domain == "ground" and is_air(c) or target.domain == "air" and not is_air(c):
        return False
    if target.line is not None and line_of(st, cid) != target.line:
        return False
    return not (target.elite is False and Feature.ELITE in features(st, cid))


def forbidden(st: WarState, cid: str, action: str) -> bool:
    """A battlefield condition in play forbids `action` (attack | targeted-attack | block) for this unit."""
    for seat in SEATS:
        for bfc in st.zones[seat]["conditions"]:
            for e in card(st, bfc).effects:
                if e.kind == EffectKind.FORBID and e.action == action and matches(st, cid, e.target, seat):
                    return True
    return False


def draw(st: WarState, seat: str, n: int) -> list[str]:
    deck = st.zones[seat]["deck"]
    drawn = []
    for _ in range(min(n, len(deck))):
        cid = deck.pop()
        st.zones[seat]["hand"].append(cid)
        drawn.append(cid)
    if drawn:
        emit(st, "drew", {"seat": seat, "count": len(drawn)})
        emit(st, "drew_cards", {"seat": seat, "cards": [st.codes[c] for c in drawn]}, seat)
    return drawn


def hero_blocked(st: WarState, seat: str, c: CardDef) -> bool:
    """"Player can't play a hero card if his opponent already has played it earlier in the game or if the
    same card is in opponent's losses pile." """
    other = OTHER[seat]
    return c.title in st.heroes_played[other] or any(
        card(st, x).title == c.title for x in st.zones[other]["losses"])


def destroy(st: WarState, cid: str) -> None:
    if zone_of(st, cid) in (None, "losses"):
        return
    move_card(st, cid, "losses")
    st.rotated.discard(cid)
    st.damage.pop(cid, None)
    for imp, unit in list(st.attached.items()):
        if unit == cid:  # "the improvement card should be moved to the same zone"
            del st.attached[imp]
            st.zones[owner(imp)]["losses"].append(imp)
    emit(st, "destroyed", {"card": cid, "code": st.codes[cid], "seat": owner(cid)})


def mill(st: WarState, seat: str, n: int) -> None:
    deck = st.zones[seat]["deck"]
    gone = [deck.pop() for _ in range(min(n, len(deck)))]
    st.zones[seat]["losses"].extend(gone)
    emit(st, "deck_hit", {"seat": seat, "count": len(gone), "cards": [st.codes[c] for c in gone]})


def alive(st: WarState, u: str) -> bool:
    return zone_of(st, u) in ("line1", "line2", "resources")
