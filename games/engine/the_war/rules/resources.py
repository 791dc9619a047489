"""Resources and payments: what resource cards give, conversions, red costs, a cost paid tap by tap (the
`payment` frame); PAID: what a completed payment does, per purpose."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.machine import Decision, emit
from ..setup import (
    TYPES,
)
from ..state import PaymentFrame, WarState
from .cards import IDX, card


def yields(st: WarState, cid: str) -> list[int]:
    out = [0, 0, 0]
    for y in card(st, cid).yields:
        out[IDX[y.resource]] += y.amount
    return out


def untapped_resources(st: WarState, seat: str) -> list[str]:
    return [r for r in st.zones[seat]["resources"] if r not in st.rotated]


def cost_vectors(items: Any) -> tuple[list[int], list[int]]:
    need, red = [0, 0, 0], [0, 0, 0]
    for it in items:
        need[IDX[it.resource]] += it.amount
        if it.resource_cards_only:
            red[IDX[it.resource]] += it.amount
    return need, red


def _requirements(need: list[int], red: list[int], conv: list[int]) -> list[int]:
    """Raw resources still required per type once converted ones cover what they may (never red)."""
    return [red[t] + max(0, need[t] - red[t] - conv[t]) for t in range(3)]


def feasible(st: WarState, seat: str, need: list[int], red: list[int], pool: list[int] | None = None) -> bool:
    """Whether the cost can still be paid from the pool and the untapped resource cards (with conversions:
    each missing resource from two of the other types, converted ones never converted again)."""
    pool = st.pool[seat] if pool is None else pool
    potential = pool[:3]
    for r in untapped_resources(st, seat):
        y = yields(st, r)
        potential = [potential[t] + y[t] for t in range(3)]
    req = _requirements(need, red, pool[3:])
    deficit = surplus = 0
    for t in range(3):
        if red[t] > potential[t] and red[t] > 0:
            # red resources cannot be converted: the raw ones must cover them
            return False
        if potential[t] >= req[t]:
            surplus += potential[t] - req[t]
        else:
            deficit += req[t] - potential[t]
    return 2 * deficit <= surplus


def covered(pool: list[int], need: list[int], red: list[int]) -> bool:
    req = _requirements(need, red, pool[3:])
    return all(pool[t] >= req[t] for t in range(3))


def spend(pool: list[int], need: list[int], red: list[int]) -> None:
    for t in range(3):
        use_conv = min(pool[3 + t], need[t] - red[t])
        pool[3 + t] -= use_conv
        pool[t] -= need[t] - use_conv


def affordable(st: WarState, seat: str, items: Any) -> bool:
    need, red = cost_vectors(items)
    return feasible(st, seat, need, red)


def start_payment(st: WarState, seat: str, purpose: str, cid: str, items: Any, unit: str | None = None,
                  target: str | None = None) -> None:
    need, red = cost_vectors(items)
    st.frames.append(PaymentFrame(seat, purpose, cid, need, red, unit, target))


def step_payment(st: WarState, fr: PaymentFrame) -> Decision | None:
    pool = st.pool[fr.seat]
    if covered(pool, fr.need, fr.red):
        spend(pool, fr.need, fr.red)
        st.frames.pop()
        emit(st, "paid", {"seat": fr.seat, "for": fr.purpose, "card": fr.card,
                          "cost": dict(zip(TYPES, fr.need, strict=True))})
        PAID[fr.purpose](st, fr)
        return None
    return Decision(fr.seat, "pay", {"for": fr.purpose, "card": fr.card, "cost": dict(zip(TYPES, fr.need,
                    strict=True)), "pool": pool[:3], "converted": pool[3:]})


def legal_pay(st: WarState, fr: PaymentFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    seen: set[str] = set()
    for r in untapped_resources(st, seat):
        code = st.codes[r]
        if code not in seen:
            seen.add(code)
            keys.append(("tap", seat, r))
    pool = st.pool[seat]
    req = _requirements(fr.need, fr.red, pool[3:])
    can_give = [0, 0, 0]
    for r in untapped_resources(st, seat):
        for t, n in enumerate(yields(st, r)):
            can_give[t] += n
    for t in range(3):
        if can_give[t] or req[t] - (fr.red[t]) <= max(0, pool[t] - fr.red[t]):
            continue  # a card can still give it, or it is not missing
        others = [o for o in range(3) if o != t]
        for a, b in ((others[0], others[0]), (others[0], others[1]), (others[1], others[1])):
            trial = list(pool)
            trial[a] -= 1
            trial[b] -= 1
            if trial[a] < 0 or trial[b] < 0:
                continue
            trial[3 + t] += 1
            if feasible(st, seat, fr.need, fr.red, trial):
                keys.append(("convert", seat, TYPES[t], TYPES[a], TYPES[b]))
    return keys


def act_pay(st: WarState, fr: PaymentFrame, action: Any) -> None:
    pool = st.pool[fr.seat]
    if action.type == "tap":
        st.rotated.add(action.card)
        y = yields(st, action.card)
        for t in range(3):
            pool[t] += y[t]
        emit(st, "tapped", {"seat": fr.seat, "card": action.card, "code": st.codes[action.card]})
    else:
        t, a, b = IDX[action.to], IDX[action.a], IDX[action.b]
        pool[a] -= 1
        pool[b] -= 1
        pool[3 + t] += 1
        emit(st, "converted", {"seat": fr.seat, "to": action.to, "from": [action.a, action.b]})


# purpose -> what a completed payment does (filled by .flow, which knows every purpose)
PAID: dict[str, Callable[[WarState, PaymentFrame], None]] = {}
