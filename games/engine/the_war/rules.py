"""THE WAR rules: RULES = a RuleBook over typed frames; set-up, the seven phases, payments, assault waves.

The turn's phase order is declared once (TURN_PHASES) and so is an assault wave's order of declarations
(WAVE_STAGES, the rulebook's "The order of each wave should be as follows"); only `_next_stage` moves a
frame along its table. Rulings the text leaves open are numbered R1.. in README.md.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vocabulary.the_war import (
    AbilityKind,
    CardDef,
    Category,
    EffectKind,
    Feature,
    HeroMode,
    Restriction,
    TheWarCatalog,
    UnitSubtype,
    UnitType,
)

from ..core.errors import SetupError
from ..core.machine import Decision, RuleBook, declare_resume, emit
from . import actions as A
from .setup import (
    DECK,
    DRAW_PER_TURN,
    FIRST_TURN_DRAW,
    HAND_SIZE,
    OTHER,
    RESOURCES_PER_TURN,
    SEATS,
    TYPES,
    GameSetup,
)
from .state import Engagement, PaymentFrame, Pool, SetupFrame, TurnFrame, WarState, WaveFrame


class WarBook(RuleBook):
    """The core RuleBook, driving typed frames (`fr.kind`, `fr.stage`) instead of dicts."""

    def advance(self, st: Any) -> None:
        st._legal_cache = None
        frames = self.frames
        while st.status == "active":
            fr = st.frames[-1]
            step: Any = frames[fr.kind]
            d = (step[fr.stage] if type(step) is dict else step)(st, fr)
            if d is not None:
                st.decision = d
                return
        st.decision = None


RULES = WarBook("the-war", A.ACTION_CLASSES, A.Action)


def typed_stages(stages: dict[str, Any]) -> dict[str, Any]:
    """A stage table of steps over typed frames (core's Step names dict frames)."""
    return stages

# ---------------------------------------------------------------------------------------------------
# cards and zones
# ---------------------------------------------------------------------------------------------------
R = Restriction
IDX = {t: i for i, t in enumerate(TYPES)}


def owner(cid: str) -> str:
    """The seat whose deck the card came from (its losses pile receives it)."""
    return cid.split(".", 1)[0]


def ctrl(st: WarState, cid: str) -> str:
    """The seat controlling a card: its owner, or the seat that captured it ("Capture")."""
    return st.control.get(cid) or owner(cid)


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


def modifiers(st: WarState, cid: str, role: str, air_fight: bool) -> tuple[int, int]:
    """Attack/defense changes from improvements and battlefield conditions. Against enemy aircraft only
    those whose text names aircraft count ("Special cards, battlefield conditions, improvement cards and
    unit features don't affect combat parameters in combat engagement involving enemy aerial units")."""
    da = dd = 0
    sources = [imp for imp, unit in st.attached.items() if unit == cid]
    sources += st.zones["p1"]["conditions"] + st.zones["p2"]["conditions"] + st.active
    for src in sources:
        for e in card(st, src).effects:
            if e.kind != EffectKind.MODIFY or (e.when != "always" and e.when != role):
                continue
            if air_fight and e.target.domain != "air":
                continue
            if matches(st, cid, e.target, owner(src)):
                da += e.attack
                dd += e.defense
    return da, dd


def bonus_applies(st: WarState, against: tuple[str, ...], enemies: list[str]) -> bool:
    """"A unit having bonus in combat against certain unit type ... uses it only when all enemy units it
    fights in current combat engagement belong to this type (or one of types, if many)." """
    if not enemies:
        return False
    for e in enemies:
        c = card(st, e)
        if c.unit_type not in against and c.subtype not in against:
            return False
    return True


def base_values(st: WarState, cid: str, role: str = "always") -> tuple[int, int]:
    """Attack/defense with improvements and conditions, no bonus against a type (non-combat damage,
    breakthrough power)."""
    c = card(st, cid)
    da, dd = modifiers(st, cid, role, False)
    return max(0, (c.attack or 0) + da), (c.defense or 0) + dd


def fight_values(st: WarState, wave: WaveFrame | None, cid: str, role: str, enemies: list[str],
                 second_line: bool = False) -> list[int]:
    """[attack, defense] of a unit in one engagement (role attacking | blocking)."""
    c = card(st, cid)
    air_fight = any(is_air(card(st, e)) for e in enemies)
    if wave is not None and cid in wave.reduced:
        atk, df = wave.reduced[cid]
    else:
        atk, df = c.attack or 0, c.defense or 0
        da, dd = modifiers(st, cid, role, air_fight)
        atk += da
        df += dd
        for b in c.bonuses:
            if bonus_applies(st, b.against, enemies):
                atk += b.attack
                df += b.defense
    if wave is not None:
        for h, u in wave.fire:
            if u == cid:
                atk += next(a.value or 0 for a in card(st, h).abilities
                            if a.kind == AbilityKind.ARTILLERY_SUPPORT)
        if cid in wave.passive:
            atk = 0  # "their attack power is considered to be zero and cannot be increased by any means"
    if is_air(c) and second_line and enemies and not any(is_air(card(st, e)) for e in enemies):
        atk, df = 0, 0  # "Parameters of an airfield (attack/defense) are 0/0."
    return [max(0, atk), df]


def points(st: WarState, cid: str, atk: int, enemies: list[str], mode: str | None = None) -> tuple[int, int]:
    """(ground points, air points) one unit deals in an engagement: one attack value only ("it may use
    only one of them"); a unit with AA-attack against aircraft and ground units uses the announced `mode`."""
    c = card(st, cid)
    enemy_air = any(is_air(card(st, e)) for e in enemies)
    enemy_ground = any(not is_air(card(st, e)) for e in enemies) or not enemies
    if is_air(c):
        if c.bombing_power and enemy_ground:
            return c.bombing_power, 0
        return 0, (atk if enemy_air else 0)
    if c.aa_attack and enemy_air and (mode == "air" or mode is None):
        return 0, c.aa_attack
    return (atk if enemy_ground else 0), 0


# ---------------------------------------------------------------------------------------------------
# resources and payments
# ---------------------------------------------------------------------------------------------------
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


RULES.frame("payment", stages=typed_stages({"pay": step_payment}))
RULES.decision("pay", legal=legal_pay, act=act_pay)


# ---------------------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------------------
def new_game(catalog: TheWarCatalog, setup: GameSetup) -> WarState:
    for seat in SEATS:
        deck = setup.decks.get(seat)
        if not deck:
            raise SetupError(f"{seat} has no deck")
        for code in deck:
            if code not in catalog.cards:
                raise SetupError(f"unknown card {code!r}")
    st = WarState(catalog, setup)
    for seat in SEATS:
        ids = []
        for i, code in enumerate(setup.decks[seat]):
            cid = f"{seat}.{i + 1:02d}"
            st.codes[cid] = code
            ids.append(cid)
        st.rng.shuffle(ids)
        st.zones[seat]["deck"] = ids
    # R1: the seeded RNG decides who moves first
    st.first_seat = SEATS[st.rng.randrange(2)]
    for seat in SEATS:
        draw(st, seat, HAND_SIZE)
    order = [st.first_seat, OTHER[st.first_seat]]
    st.frames = [SetupFrame(order)]
    emit(st, "game_started", {"first": st.first_seat})
    RULES.advance(st)
    return st


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


def redraw_size(st: WarState, seat: str) -> int | None:
    """The new hand's size if this starting hand may be re-drawn (all or no resources: 7; exactly one
    resource: one card fewer), else None. One re-draw per player (R2)."""
    if st.redraws[seat]:
        return None
    hand = st.zones[seat]["hand"]
    n = sum(1 for c in hand if card(st, c).category == Category.RESOURCE)
    if n == len(hand) or n == 0:
        return HAND_SIZE
    if n == 1:
        return len(hand) - 1
    return None


def step_setup(st: WarState, fr: SetupFrame) -> Decision | None:
    while fr.index < len(fr.order):
        seat = fr.order[fr.index]
        size = redraw_size(st, seat)
        if size is not None:
            return Decision(seat, "redraw", {"new_hand_size": size})
        fr.index += 1
    st.frames.pop()
    st.turn = 1
    st.frames.append(TurnFrame(st.first_seat, first=True))
    emit(st, "turn_started", {"seat": st.first_seat, "turn": 1})
    return None


def legal_redraw(st: WarState, fr: SetupFrame) -> list[tuple]:
    seat = fr.order[fr.index]
    return [("redraw", seat), ("keep", seat)]


def act_redraw(st: WarState, fr: SetupFrame, action: Any) -> None:
    seat = action.seat
    if action.type == "redraw":
        size = redraw_size(st, seat) or HAND_SIZE
        hand = st.zones[seat]["hand"]
        st.revealed[seat] = sorted(st.codes[c] for c in hand)
        emit(st, "hand_revealed", {"seat": seat, "cards": st.revealed[seat]})
        st.zones[seat]["deck"].extend(hand)
        st.zones[seat]["hand"] = []
        st.rng.shuffle(st.zones[seat]["deck"])
        st.redraws[seat] += 1
        draw(st, seat, size)
    else:
        emit(st, "kept", {"seat": seat})
        fr.index += 1


RULES.frame("setup", stages=typed_stages({"redraw": step_setup}))
RULES.decision("redraw", legal=legal_redraw, act=act_redraw)


# ---------------------------------------------------------------------------------------------------
# the turn: seven phases, declared in one table
# ---------------------------------------------------------------------------------------------------
def _next_stage(fr: Any, table: tuple[str, ...]) -> None:
    fr.stage = table[table.index(fr.stage) + 1]


def st_restore(st: WarState, fr: TurnFrame) -> None:
    """1. "A player restores all his cards that were rotated during his previous turn or opponent's turn." """
    st.rotated = {c for c in st.rotated if ctrl(st, c) != fr.seat}
    st.scouted[fr.seat] = None
    emit(st, "restored", {"seat": fr.seat})
    _next_stage(fr, TURN_PHASES)


def st_draw(st: WarState, fr: TurnFrame) -> None:
    """2. Draw two (the starting player's first turn: one); unable to draw two -> lose."""
    n = FIRST_TURN_DRAW if fr.first else DRAW_PER_TURN
    if len(st.zones[fr.seat]["deck"]) < n:
        finish(st, OTHER[fr.seat], "deck_exhausted")
        return
    draw(st, fr.seat, n)
    _next_stage(fr, TURN_PHASES)


def finish(st: WarState, winner: str, kind: str) -> None:
    st.status = "finished"
    st.winner = winner
    st.result = {"kind": kind, "winner": winner, "turns": st.turn,
                 "deck": {s: len(st.zones[s]["deck"]) for s in SEATS}}
    emit(st, "game_over", dict(st.result))


def scout_keys(st: WarState, seat: str) -> list[tuple]:
    return [("scout", seat, u) for u in in_lines(st, seat)
            if u not in st.rotated and Feature.SCOUT_PARTY in features(st, u)]


def act_scout(st: WarState, action: Any) -> None:
    st.rotated.add(action.unit)
    hand = sorted(st.codes[c] for c in st.zones[OTHER[action.seat]]["hand"])
    st.scouted[action.seat] = hand
    emit(st, "scouted", {"seat": action.seat, "unit": action.unit})
    emit(st, "scouted_hand", {"seat": action.seat, "cards": hand}, action.seat)


def st_resources(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "resources", {"played": fr.resources_played, "max": RESOURCES_PER_TURN})


def legal_resources(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if fr.resources_played < RESOURCES_PER_TURN:
        seen: set[str] = set()
        for c in st.zones[seat]["hand"]:
            code = st.codes[c]
            if code not in seen and card(st, c).category == Category.RESOURCE:
                seen.add(code)
                keys.append(("play_resource", seat, c))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_resources(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "play_resource":
        move_card(st, action.card, "resources")
        fr.resources_played += 1
        emit(st, "resource_played", {"seat": fr.seat, "card": action.card, "code": st.codes[action.card]})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        _next_stage(fr, TURN_PHASES)


# ---- 4. build -------------------------------------------------------------------------------------
def st_build(st: WarState, fr: TurnFrame) -> Decision:
    for bfc in st.zones[fr.seat]["conditions"]:
        if card(st, bfc).maintenance and bfc not in fr.maintenance_done:
            return Decision(fr.seat, "maintenance", {"card": bfc, "code": st.codes[bfc]})
    return Decision(fr.seat, "build", {})


def legal_maintenance(st: WarState, fr: TurnFrame) -> list[tuple]:
    bfc = next(b for b in st.zones[fr.seat]["conditions"]
               if card(st, b).maintenance and b not in fr.maintenance_done)
    keys = [("maintain", fr.seat, bfc)] if affordable(st, fr.seat, card(st, bfc).maintenance) else []
    return keys + [("abandon", fr.seat, bfc)]


def act_maintenance(st: WarState, fr: TurnFrame, action: Any) -> None:
    fr.maintenance_done.append(action.card)
    if action.type == "abandon":
        move_card(st, action.card, "losses")
        emit(st, "condition_lost", {"seat": fr.seat, "card": action.card, "code": st.codes[action.card]})
    else:
        start_payment(st, fr.seat, "maintain", action.card, card(st, action.card).maintenance)


def hero_blocked(st: WarState, seat: str, c: CardDef) -> bool:
    """"Player can't play a hero card if his opponent already has played it earlier in the game or if the
    same card is in opponent's losses pile." """
    other = OTHER[seat]
    return c.title in st.heroes_played[other] or any(
        card(st, x).title == c.title for x in st.zones[other]["losses"])


def lend_lease_ok(st: WarState, seat: str, c: CardDef) -> bool:
    if Feature.LEND_LEASE not in c.features:
        return True
    return any(e.kind == EffectKind.ENABLE_LEND_LEASE for r in st.zones[seat]["resources"]
               for e in card(st, r).effects)


def improvement_targets(st: WarState, seat: str, imp_card: CardDef) -> list[str]:
    effects = [e for e in imp_card.effects if e.kind in (EffectKind.MODIFY, EffectKind.GRANT_FEATURE)]
    out = []
    for u in st.zones[seat]["line1"] + st.zones[seat]["line2"] + st.zones[seat]["reserve"]:
        if effects and all(matches(st, u, e.target, seat) or e.target.line is not None for e in effects):
            out.append(u)
    return out


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


def legal_build(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    seen: set[str] = set()
    location_in_play = False
    for hand_card in st.zones[seat]["hand"]:
        code = st.codes[hand_card]
        if code in seen:
            continue
        seen.add(code)
        c = card(st, hand_card)
        if c.category == Category.RESOURCE or c.location:
            continue
        if c.is_hero and hero_blocked(st, seat, c):
            continue
        if not affordable(st, seat, c.cost):
            continue
        if c.category == Category.UNIT or c.hero_mode == HeroMode.UNIT:
            if lend_lease_ok(st, seat, c):
                keys.append(("build", seat, hand_card, None))
        elif c.category == Category.BATTLEFIELD_CONDITION:
            keys.append(("build", seat, hand_card, None))
        elif c.category == Category.IMPROVEMENT or c.hero_mode == HeroMode.IMPROVEMENT:
            for u in improvement_targets(st, seat, c):
                keys.append(("improve", seat, hand_card, u))
        elif c.category == Category.SPECIAL or c.hero_mode == HeroMode.SPECIAL:
            for t in special_targets(st, seat, c) or ():
                keys.append(("build", seat, hand_card, t))
    del location_in_play
    for imp, unit in st.attached.items():
        if owner(imp) == seat and imp not in fr.moved_improvements:
            for u in improvement_targets(st, seat, card(st, imp)):
                if u != unit:
                    keys.append(("move_improvement", seat, imp, u))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_build(st: WarState, fr: TurnFrame, action: Any) -> None:
    seat = fr.seat
    t = action.type
    if t == "done":
        _next_stage(fr, TURN_PHASES)
    elif t == "scout":
        act_scout(st, action)
    elif t == "move_improvement":
        fr.moved_improvements.append(action.card)
        st.attached[action.card] = action.unit
        emit(st, "improvement_moved", {"seat": seat, "card": action.card, "unit": action.unit})
    elif t == "improve":
        start_payment(st, seat, "improve", action.card, card(st, action.card).cost, unit=action.unit)
    else:
        c = card(st, action.card)
        start_payment(st, seat, "build", action.card, c.cost, target=action.target)


def paid_build(st: WarState, fr: PaymentFrame) -> None:
    seat, cid = fr.seat, fr.card
    c = card(st, cid)
    code = st.codes[cid]
    if c.category == Category.SPECIAL or c.hero_mode == HeroMode.SPECIAL:
        special_effects(st, seat, cid, fr.target)
        return
    if c.is_hero:
        st.heroes_played[seat].append(c.title)
    if c.category == Category.UNIT or c.hero_mode == HeroMode.UNIT:
        mobile = Feature.MOBILITY in c.features or (
            st.mobile_turn[seat] == st.turn and c.unit_type == UnitType.ARMORED)
        zone = ("line1" if (c.line or 1) == 1 else "line2") if mobile else "reserve"
        move_card(st, cid, zone)
        st.built_turn[cid] = st.turn
        emit(st, "built", {"seat": seat, "card": cid, "code": code, "zone": zone})
    elif c.category == Category.BATTLEFIELD_CONDITION:
        move_card(st, cid, "conditions")
        emit(st, "condition_played", {"seat": seat, "card": cid, "code": code})


def paid_improve(st: WarState, fr: PaymentFrame) -> None:
    c = card(st, fr.card)
    if c.is_hero:
        st.heroes_played[fr.seat].append(c.title)
    st.zones[fr.seat]["hand"].remove(fr.card)  # an improvement lies beneath its unit, in no zone list
    st.attached[fr.card] = fr.unit or ""
    emit(st, "improved", {"seat": fr.seat, "card": fr.card, "code": st.codes[fr.card], "unit": fr.unit})


def paid_maintain(st: WarState, fr: PaymentFrame) -> None:
    emit(st, "maintained", {"seat": fr.seat, "card": fr.card})


def non_combat_damage(st: WarState, cid: str, amount: int) -> None:
    """Damage from special cards and abilities: accumulates this wave; destroyed at its defense."""
    st.damage[cid] = st.damage.get(cid, 0) + amount
    emit(st, "damaged", {"card": cid, "amount": amount})
    if st.damage[cid] >= max(1, base_values(st, cid)[1]):
        destroy(st, cid)


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


# ---- 5. change positions --------------------------------------------------------------------------
def can_move(st: WarState, fr: TurnFrame, u: str) -> bool:
    c = card(st, u)
    return (u not in st.rotated and R.FIXED_POSITION not in c.restrictions and not is_air(c)
            and st.built_turn.get(u, 0) < st.turn and c.unit_type != UnitType.FORTIFICATION)


def legal_positions(st: WarState, fr: TurnFrame) -> list[tuple]:
    keys = [("move", fr.seat, u) for u in in_lines(st, fr.seat) if can_move(st, fr, u)]
    return keys + scout_keys(st, fr.seat) + [("done", fr.seat)]


def act_positions(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "move":
        u = action.unit
        dest = "line2" if zone_of(st, u) == "line1" else "line1"
        move_card(st, u, dest)
        st.rotated.add(u)  # "Moving units rotate"
        emit(st, "moved", {"seat": fr.seat, "unit": u, "to": dest[-1]})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        _next_stage(fr, TURN_PHASES)


# ---- 6. attack: the phase menu; each wave is a WaveFrame ------------------------------------------
def can_attack(st: WarState, u: str) -> bool:
    """A 1st-line unit, not rotated, able to attack ("2nd line units moved to the 1st ... are unable to
    attack"), its attack cost payable."""
    c = card(st, u)
    return (u not in st.rotated and zone_of(st, u) == "line1" and c.category in (Category.UNIT, Category.HERO)
            and (c.line or 1) == 1
            and R.CANNOT_ATTACK not in c.restrictions and not forbidden(st, u, "attack")
            and not is_air(c) and affordable(st, ctrl(st, u), c.attack_cost))


def can_target(st: WarState, u: str) -> bool:
    c = card(st, u)
    if u in st.rotated or Feature.TARGETED_ATTACK not in features(st, u):
        return False
    if forbidden(st, u, "targeted-attack") or forbidden(st, u, "attack"):
        return False
    z = zone_of(st, u)
    if is_air(c):
        ok = z == "line2" and bool(c.bombing_power)
    else:
        ok = z == "line1" and R.CANNOT_ATTACK not in c.restrictions
    return ok and affordable(st, ctrl(st, u), c.attack_cost)


def ability_keys(st: WarState, seat: str) -> list[tuple]:
    keys: list[tuple] = []
    other = OTHER[seat]
    for u in st.zones[seat]["line2"]:
        if u in st.rotated:
            continue
        for ab in card(st, u).abilities:
            if ab.kind == AbilityKind.DECK_HIT:
                keys.append(("deck_hit", seat, u))
            elif ab.kind == AbilityKind.SALVO and affordable(st, seat, ab.cost):
                keys.extend(("salvo", seat, u, t) for t in st.zones[other]["line1"])
    return keys


def striking_aircraft(st: WarState, seat: str) -> list[str]:
    out = []
    for u in st.zones[seat]["line2"]:
        c = card(st, u)
        if (is_air(c) and c.bombing_power and u not in st.rotated
                and R.FIRST_LINE_TARGETS_ONLY not in c.restrictions and affordable(st, seat, c.attack_cost)):
            out.append(u)
    return out


def landing_pairs(st: WarState, seat: str) -> list[tuple[str, str]]:
    """Paratroopers with their assault landing and a troop-carrying aircraft, both on the 2nd line and
    not rotated (one carrier each)."""
    line2 = [u for u in st.zones[seat]["line2"] if u not in st.rotated]
    paras = [u for u in line2 if any(a.kind == AbilityKind.ASSAULT_LANDING for a in card(st, u).abilities)]
    carriers = [u for u in line2 if card(st, u).subtype == UnitSubtype.TROOP_CARRYING_AIRCRAFT]
    return [(p, c) for p in paras for c in carriers]


def st_attack(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "attack_phase", {})


def legal_attack_phase(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if (any(can_attack(st, u) or can_target(st, u) for u in in_lines(st, seat))
            or ability_keys(st, seat) or striking_aircraft(st, seat) or landing_pairs(st, seat)):
        keys.append(("wave", seat))
    return keys + scout_keys(st, seat) + [("done", seat)]


def act_attack_phase(st: WarState, fr: TurnFrame, action: Any) -> None:
    if action.type == "wave":
        st.frames.append(WaveFrame(fr.seat))
        emit(st, "wave_started", {"seat": fr.seat})
    elif action.type == "scout":
        act_scout(st, action)
    else:
        st.power = {}
        _next_stage(fr, TURN_PHASES)


# ---- 7. reserves commitment (end of turn) ---------------------------------------------------------
def st_reserves(st: WarState, fr: TurnFrame) -> None:
    """Units in the reserve zone move to the line their card text gives (R7)."""
    for u in list(st.zones[fr.seat]["reserve"]):
        line = card(st, u).line or 1
        move_card(st, u, f"line{line}")
        emit(st, "committed", {"seat": fr.seat, "unit": u, "line": line})
    _next_stage(fr, TURN_PHASES)


def location_in_play(st: WarState) -> bool:
    return any(card(st, b).location for s in SEATS for b in st.zones[s]["conditions"])


def st_end(st: WarState, fr: TurnFrame) -> Decision:
    return Decision(fr.seat, "end_of_turn", {})


def legal_end(st: WarState, fr: TurnFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = []
    if not location_in_play(st):
        seen: set[str] = set()
        for c in st.zones[seat]["hand"]:
            cd = card(st, c)
            if cd.location and st.codes[c] not in seen and affordable(st, seat, cd.cost):
                seen.add(st.codes[c])
                keys.append(("play_location", seat, c))
    keys += [("discard_condition", seat, b) for b in st.zones[seat]["conditions"]]
    deck = len(st.zones[seat]["deck"])
    for b in st.zones[OTHER[seat]]["conditions"]:
        el = card(st, b).elimination
        if el and el.deck_cards and el.deck_cards <= deck:
            keys.append(("eliminate", seat, b))
    return keys + [("done", seat)]


def act_end(st: WarState, fr: TurnFrame, action: Any) -> None:
    seat = fr.seat
    t = action.type
    if t == "play_location":
        start_payment(st, seat, "location", action.card, card(st, action.card).cost)
    elif t == "discard_condition":
        move_card(st, action.card, "losses")
        emit(st, "condition_lost", {"seat": seat, "card": action.card, "code": st.codes[action.card]})
    elif t == "eliminate":
        el = card(st, action.card).elimination
        mill(st, seat, (el.deck_cards or 0) if el else 0)
        move_card(st, action.card, "losses")
        emit(st, "condition_eliminated", {"seat": seat, "card": action.card, "code": st.codes[action.card]})
    else:
        for s in SEATS:  # R5: unspent resources are lost at the end of the turn
            st.pool[s] = [0, 0, 0, 0, 0, 0]
        st.specials_this_turn = []
        st.frames.pop()
        st.turn += 1
        nxt = OTHER[seat]
        st.frames.append(TurnFrame(nxt))
        emit(st, "turn_started", {"seat": nxt, "turn": st.turn})


def paid_location(st: WarState, fr: PaymentFrame) -> None:
    move_card(st, fr.card, "conditions")
    emit(st, "condition_played", {"seat": fr.seat, "card": fr.card, "code": st.codes[fr.card]})


TURN_PHASES: tuple[str, ...] = ("restore", "draw", "resources", "build", "positions", "attack", "reserves",
                                "end")
TURN_STEPS: dict[str, Callable[[WarState, Any], Decision | None]] = {
    "restore": st_restore, "draw": st_draw, "resources": st_resources, "build": st_build,
    "positions": lambda st, fr: Decision(fr.seat, "positions", {}), "attack": st_attack,
    "reserves": st_reserves, "end": st_end,
}
assert tuple(TURN_STEPS) == TURN_PHASES
RULES.frame("turn", stages=TURN_STEPS)
RULES.decision("resources", legal=legal_resources, act=act_resources)
RULES.decision("maintenance", legal=legal_maintenance, act=act_maintenance)
RULES.decision("build", legal=legal_build, act=act_build)
RULES.decision("positions", legal=legal_positions, act=act_positions)
RULES.decision("attack_phase", legal=legal_attack_phase, act=act_attack_phase)
RULES.decision("end_of_turn", legal=legal_end, act=act_end)


# ---------------------------------------------------------------------------------------------------
# an assault wave, in the rulebook's order
# ---------------------------------------------------------------------------------------------------
def declared(fr: WaveFrame) -> set[str]:
    return {u for u, _ in fr.targeted} | set(fr.general)


def w_targeted(st: WarState, fr: WaveFrame) -> Decision:
    return Decision(fr.seat, "declare_targeted", {"declared": [list(x) for x in fr.targeted]})


def legal_targeted(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys = []
    enemies = st.zones[OTHER[seat]]["line1"]
    for u in in_lines(st, seat):
        if u not in declared(fr) and can_target(st, u):
            c = card(st, u)
            for t in enemies:
                if is_air(c) or not forbidden(st, u, "targeted-attack"):
                    keys.append(("target", seat, u, t))
    keys += escort_keys(st, fr, [u for u, _ in fr.targeted])
    return keys + [("done", seat)]


def escort_keys(st: WarState, fr: WaveFrame, attackers: list[str]) -> list[tuple]:
    """"Fighter escort is announced at the same time as bomber attack"; one escort per fighter."""
    bombers = [u for u in attackers if is_air(card(st, u)) and (
        card(st, u).bombing_power or card(st, u).subtype == UnitSubtype.TROOP_CARRYING_AIRCRAFT)]
    return [("escort", fr.seat, f, b) for f in free_fighters(st, fr, fr.seat) for b in bombers]


def act_escort(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.escorts.append([action.unit, action.bomber])
    st.rotated.add(action.unit)
    emit(st, "escort", {"seat": fr.seat, "unit": action.unit, "bomber": action.bomber})


def act_targeted(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
        return
    if action.type == "escort":
        act_escort(st, fr, action)
        return
    c = card(st, action.unit)
    if c.attack_cost:
        start_payment(st, fr.seat, "target", action.unit, c.attack_cost, target=action.target)
    else:
        declare_target(st, fr, action.unit, action.target)


def declare_target(st: WarState, fr: WaveFrame, u: str, t: str) -> None:
    if t in st.rotated and t not in fr.passive and all(x[1] != t for x in fr.targeted):
        fr.passive.append(t)  # rotated before the targeted attack: deals no damage
    fr.targeted.append([u, t])
    st.rotated.add(u)
    fr.acted = True
    emit(st, "targeted", {"seat": fr.seat, "unit": u, "target": t})


def paid_target(st: WarState, fr: PaymentFrame) -> None:
    wave = st.frames[-1]
    declare_target(st, wave, fr.card, fr.target or "")


def w_general(st: WarState, fr: WaveFrame) -> Decision:
    return Decision(fr.seat, "declare_general", {"declared": list(fr.general)})


def legal_general(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys = [("attack", seat, u) for u in st.zones[seat]["line1"]
            if u not in declared(fr) and can_attack(st, u)]
    return keys + [("done", seat)]


def act_general(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
        return
    c = card(st, action.unit)
    if c.attack_cost:
        start_payment(st, fr.seat, "attack", action.unit, c.attack_cost)
    else:
        declare_general(st, fr, action.unit)


def declare_general(st: WarState, fr: WaveFrame, u: str) -> None:
    fr.general.append(u)
    st.rotated.add(u)
    fr.acted = True
    emit(st, "attacking", {"seat": fr.seat, "unit": u})


def paid_attack(st: WarState, fr: PaymentFrame) -> None:
    declare_general(st, st.frames[-1], fr.card)


def support_fire_keys(st: WarState, fr: WaveFrame, seat: str, units: list[str]) -> list[tuple]:
    keys: list[tuple] = []
    for h in st.zones[seat]["line2"]:
        if h in st.rotated:
            continue
        if any(a.kind == AbilityKind.ARTILLERY_SUPPORT for a in card(st, h).abilities):
            keys.extend(("fire_support", seat, h, u) for u in units if zone_of(st, u) == "line1")
    return keys


def act_fire(st: WarState, fr: WaveFrame, action: Any) -> None:
    st.rotated.add(action.unit)
    fr.fire.append([action.unit, action.to])
    emit(st, "artillery_support", {"seat": action.seat, "unit": action.unit, "to": action.to})


def asked(fr: WaveFrame, has_options: bool) -> bool:
    """Whether to ask at this stage: once asked, a stage is asked until its "done"."""
    if fr.stage in fr.asked:
        return True
    if has_options:
        fr.asked.append(fr.stage)
    return has_options


def w_artillery(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(support_fire_keys(st, fr, fr.seat, sorted(declared(fr))))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "attacker_artillery", {})


def legal_att_artillery(st: WarState, fr: WaveFrame) -> list[tuple]:
    return support_fire_keys(st, fr, fr.seat, [u for u, _ in fr.targeted] + fr.general) + [("done", fr.seat)]


def act_att_artillery(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
    else:
        act_fire(st, fr, action)


def w_abilities(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(ability_keys(st, fr.seat) or special_keys(st, fr.seat, "attacking"))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "attacker_abilities", {})


def legal_abilities(st: WarState, fr: WaveFrame) -> list[tuple]:
    return ability_keys(st, fr.seat) + special_keys(st, fr.seat, "attacking") + [("done", fr.seat)]


def act_abilities(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.acted = fr.acted or action.type != "done"
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
    elif action.type == "play_special":
        start_payment(st, fr.seat, "special", action.card, card(st, action.card).cost, target=action.target)
    elif action.type == "deck_hit":
        st.rotated.add(action.unit)
        value = card(st, action.unit).deck_hit or next(
            a.value or 0 for a in card(st, action.unit).abilities if a.kind == AbilityKind.DECK_HIT)
        emit(st, "ability", {"seat": fr.seat, "unit": action.unit, "kind": "deck-hit"})
        mill(st, OTHER[fr.seat], value)
    else:
        ab = next(a for a in card(st, action.unit).abilities if a.kind == AbilityKind.SALVO)
        st.rotated.add(action.unit)
        start_payment(st, fr.seat, "salvo", action.unit, ab.cost, target=action.target)


def paid_salvo(st: WarState, fr: PaymentFrame) -> None:
    ab = next(a for a in card(st, fr.card).abilities if a.kind == AbilityKind.SALVO)
    emit(st, "ability", {"seat": fr.seat, "unit": fr.card, "kind": "salvo", "target": fr.target})
    if fr.target and zone_of(st, fr.target) in ("line1", "line2"):
        non_combat_damage(st, fr.target, ab.value or 0)


def can_block(st: WarState, b: str, attacker: str) -> bool:
    cb, ca = card(st, b), card(st, attacker)
    if b in st.rotated or R.CANNOT_BLOCK in cb.restrictions or forbidden(st, b, "block"):
        return False
    if is_air(ca):
        return False  # air attackers: only fighters intercept (not modelled, R13)
    if is_air(cb):
        # ground-attack aircraft "are capable to block attacking ground units"
        return cb.subtype == UnitSubtype.GROUND_ATTACK_AIRCRAFT and zone_of(st, b) == "line2"
    if zone_of(st, b) != "line1":
        return False
    heavy = ca.subtype == UnitSubtype.HEAVY_TANK or R.CANNOT_BE_BLOCKED_BY_INFANTRY in ca.restrictions
    infantry = cb.unit_type == UnitType.INFANTRY or R.CANNOT_BLOCK_HEAVY_TANKS in cb.restrictions
    return not (heavy and infantry)


def w_block(st: WarState, fr: WaveFrame) -> Decision | None:
    if not declared(fr) or not fr.blocks and not fr.supports and len(legal_block(st, fr)) == 1:
        # nothing the defender could declare: no question
        end_blocks(st, fr)
        return None
    return Decision(OTHER[fr.seat], "block", {"attackers": fr.general,
                                              "targeted": [list(x) for x in fr.targeted]})


def support_ok(st: WarState, b: str, attackers: list[str]) -> bool:
    """May unit `b` support a 1st-line unit under targeted attack by `attackers`?"""
    cb = card(st, b)
    if b in st.rotated or R.CANNOT_BLOCK in cb.restrictions:
        return False
    air = [a for a in attackers if is_air(card(st, a))]
    if is_air(cb):  # ground-attack aircraft support units "that were attacked by ground"
        return cb.subtype == UnitSubtype.GROUND_ATTACK_AIRCRAFT and not air
    if len(air) == len(attackers) and not cb.aa_attack:
        return False  # "Only units possessing AA-attack may support objects that were attacked only by air"
    if zone_of(st, b) == "line2":  # "AA units at the 2nd line may support units positioned at both lines"
        return bool(cb.aa_attack and air and cb.subtype == UnitSubtype.LIGHT_AA)
    return zone_of(st, b) == "line1"


def legal_block(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    used = ({b for b, _ in fr.blocks} | {s for s, _ in fr.supports} | {t for _, t in fr.targeted}
            | {f for f, _ in fr.intercepts})
    keys: list[tuple] = []
    targets = list(dict.fromkeys(t for _, t in fr.targeted))
    for b in in_lines(st, seat):
        if b in used:
            continue
        for a in fr.general:
            if can_block(st, b, a):
                keys.append(("block", seat, b, a))
        for t in targets:
            if support_ok(st, b, [u for u, x in fr.targeted if x == t]):
                keys.append(("support", seat, b, t))
    fighters = [f for f in free_fighters(st, fr, seat) if f not in used]
    blocking_aircraft = [b for b, _ in fr.blocks if is_air(card(st, b))]
    keys += [("support", seat, f, g) for f in fighters for g in blocking_aircraft]
    attacking_aircraft = [u for u, _ in fr.targeted if is_air(card(st, u))]
    keys += [("intercept", seat, f, b) for f in fighters for b in attacking_aircraft]
    return keys + [("done", seat)]


def act_block(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "intercept":
        fr.intercepts.append([action.unit, action.aircraft])
        emit(st, "intercepted", {"seat": action.seat, "unit": action.unit, "aircraft": action.aircraft})
    elif action.type == "block":
        fr.blocks.append([action.unit, action.attacker])
        emit(st, "blocked", {"seat": action.seat, "unit": action.unit, "attacker": action.attacker})
    elif action.type == "support":
        fr.supports.append([action.unit, action.target])
        emit(st, "supported", {"seat": action.seat, "unit": action.unit, "target": action.target})
    else:
        end_blocks(st, fr)


def end_blocks(st: WarState, fr: WaveFrame) -> None:
    """"When all blocking and supporting units are declared they rotate" (the targets too)."""
    for b, _ in fr.blocks:
        st.rotated.add(b)
    for s, _ in fr.supports:
        st.rotated.add(s)
    for f, _ in fr.intercepts:
        st.rotated.add(f)
    for _, t in fr.targeted:
        st.rotated.add(t)
    _next_stage(fr, WAVE_STAGES)


def w_def_specials(st: WarState, fr: WaveFrame) -> Decision | None:
    """"Defending player plays special cards" (after his blocks and supports; again behind the 1st line)."""
    if not asked(fr, bool(fr.engagements or declared(fr) or fr.strikes)
                 and bool(special_keys(st, OTHER[fr.seat], "blocking"))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(OTHER[fr.seat], "defender_specials", {})


def legal_def_specials(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    return special_keys(st, seat, "blocking") + [("done", seat)]


def act_def_specials(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
    else:
        start_payment(st, action.seat, "special", action.card, card(st, action.card).cost,
                      target=action.target)


def w_def_artillery(st: WarState, fr: WaveFrame) -> Decision | None:
    seat = OTHER[fr.seat]
    units = [b for b, _ in fr.blocks] + [s for s, _ in fr.supports] + [t for _, t in fr.targeted]
    if not asked(fr, bool(support_fire_keys(st, fr, seat, units))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(seat, "defender_artillery", {})


def legal_def_artillery(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    units = list(dict.fromkeys([b for b, _ in fr.blocks] + [s for s, _ in fr.supports]
                               + [t for _, t in fr.targeted]))
    return support_fire_keys(st, fr, seat, units) + [("done", seat)]


def act_def_artillery(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
    else:
        act_fire(st, fr, action)


def w_interception(st: WarState, fr: WaveFrame) -> Decision | None:
    """"Interception of attacking or blocking GA aircraft is declared after declaring all blocking and
    supporting units in current assault wave": the attacker's fighters against blocking aircraft."""
    if not asked(fr, len(legal_interception(st, fr)) > 1):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "interception", {})


def legal_interception(st: WarState, fr: WaveFrame) -> list[tuple]:
    blocking_aircraft = [b for b, _ in fr.blocks if is_air(card(st, b))]
    keys = [("intercept", fr.seat, f, b) for f in free_fighters(st, fr, fr.seat) for b in blocking_aircraft]
    return keys + [("done", fr.seat)]


def act_interception(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "done":
        _next_stage(fr, WAVE_STAGES)
    else:
        act_intercept(st, fr, action)


def alive(st: WarState, u: str) -> bool:
    return zone_of(st, u) in ("line1", "line2", "resources")


def ground_units(st: WarState, units: list[str]) -> list[str]:
    return [u for u in units if not is_air(card(st, u)) and card(st, u).category != Category.RESOURCE]


def air_units(st: WarState, units: list[str]) -> list[str]:
    return [u for u in units if is_air(card(st, u))]


def is_object(st: WarState, o: str | None) -> bool:
    return o is not None and (o == DECK or card(st, o).category == Category.RESOURCE)


def make_engagement(st: WarState, fr: WaveFrame, attackers: list[str], defenders: list[str],
                    target: str | None, second_line: bool = False,
                    restricted: dict[str, list[str]] | None = None) -> Engagement:
    """Fix every unit's values and the damage pools: each side's ground points go on enemy ground units,
    its air points (AA-attack, fighters) on enemy aircraft; a resource or the deck takes all the
    attackers' points; an interceptor facing escorts fights only them; bombers bomb an airfield."""
    restricted = restricted or {}
    eng = Engagement(list(attackers), list(defenders), target, second_line, restricted=dict(restricted))
    obj = second_line and is_object(st, target)
    airfield = second_line and target is not None and not obj and is_air(card(st, target))
    sums = {"attacker": [0, 0], "defender": [0, 0]}
    extra: list[Pool] = []
    for side, own, enemies, role in (("attacker", attackers, defenders, "attacking"),
                                     ("defender", defenders, attackers, "blocking")):
        for u in own:
            c = card(st, u)
            if c.category == Category.RESOURCE:
                eng.values[u] = [0, c.defense or 0]
                continue
            v = fight_values(st, fr, u, role, enemies, second_line)
            if airfield and u == target:
                v = [v[0], 0]  # "Parameters of an airfield (attack/defense) are 0/0."
            eng.values[u] = v
            g, a = points(st, u, v[0], enemies, fr.aa_modes.get(u))
            if airfield and side == "attacker" and is_air(c) and c.bombing_power and u not in restricted:
                extra.append(Pool(side, c.bombing_power, [target or ""]))
            elif u in restricted:
                extra.append(Pool(side, g + a, list(restricted[u])))
            else:
                sums[side][0] += g
                sums[side][1] += a
    if obj:
        pools = [Pool("attacker", sums["attacker"][0] + sums["attacker"][1], [target or DECK])]
    else:
        pools = [Pool("attacker", sums["attacker"][0], ground_units(st, defenders)),
                 Pool("attacker", sums["attacker"][1], air_units(st, defenders))]
    pools += [p for p in extra if p.side == "attacker"]
    pools += [Pool("defender", sums["defender"][0], ground_units(st, attackers)),
              Pool("defender", sums["defender"][1], air_units(st, attackers))]
    pools += [p for p in extra if p.side == "defender"]
    eng.pools = [p for p in pools if p.points > 0]
    return eng


def interceptors(st: WarState, fr: WaveFrame, b: str) -> list[str]:
    return [f for f, x in fr.intercepts if x == b and alive(st, f)]


def escorts_of(st: WarState, fr: WaveFrame, b: str) -> list[str]:
    return [f for f, x in fr.escorts if x == b and alive(st, f)]


def with_air_combat(st: WarState, fr: WaveFrame, attackers: list[str], defenders: list[str],
                    engs: list[Engagement]) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Attacking bombers, their escorts and the fighters intercepting them: an intercepted bomber without
    escort fights the interceptors alone (its attack on the object is cancelled); with escort, the
    interceptors must fight the escorts and the bomber goes on."""
    restricted: dict[str, list[str]] = {}
    for b in list(attackers):
        if not is_air(card(st, b)):
            continue
        esc = escorts_of(st, fr, b)
        attackers += [e for e in esc if e not in attackers]
        icp = interceptors(st, fr, b)
        if not icp:
            continue
        if esc:
            defenders += [i for i in icp if i not in defenders]
            for i in icp:
                restricted[i] = esc
        else:
            attackers.remove(b)
            engs.append(make_engagement(st, fr, [b], icp, None))
    return attackers, defenders, restricted


def w_engagements(st: WarState, fr: WaveFrame) -> None:
    """"Jointly fighting units and combat engagements are determined" (R8: in declaration order)."""
    engs: list[Engagement] = []
    for t in dict.fromkeys(t for _, t in fr.targeted):
        attackers = [u for u, x in fr.targeted if x == t and alive(st, u)]
        defenders = [x for x in [t] + [s for s, y in fr.supports if y == t] if alive(st, x)]
        attackers, defenders, forced = with_air_combat(st, fr, attackers, defenders, engs)
        if attackers and defenders:
            engs.append(make_engagement(st, fr, attackers, defenders, t, restricted=forced))
    for a in fr.general:
        if not alive(st, a):
            continue
        blocked = any(x == a for _, x in fr.blocks)
        fighting: list[str] = []
        extra: list[str] = []
        restricted: dict[str, list[str]] = {}
        for b in [b for b, x in fr.blocks if x == a and alive(st, b)]:
            icp = interceptors(st, fr, b)
            if not icp:
                fighting.append(b)
                continue
            sup = [s for s, x in fr.supports if x == b and alive(st, s)]
            if sup:  # the interceptor "must fight supporting fighter"; the aircraft still blocks
                fighting += [b] + sup
                extra += icp
                for i in icp:
                    restricted[i] = sup
            else:  # "The blocking aircraft is now unable to use its bombing power": air combat only
                engs.append(make_engagement(st, fr, icp, [b], None))
        if fighting:
            engs.append(make_engagement(st, fr, [a] + extra, fighting, None, restricted=restricted))
        elif not blocked:
            fr.through.append(a)  # unblocked: it reaches the 2nd line
    fr.engagements = engs
    fr.index = 0
    _next_stage(fr, WAVE_STAGES)


def aa_choices(st: WarState, fr: WaveFrame) -> tuple[str, int] | None:
    """The next unit that must announce whether its AA-attack fights aircraft or its attack ground units
    (Example 3: "attacking player must announce whether his AA-gun fights an aircraft or a tank")."""
    for i, eng in enumerate(fr.engagements):
        for side, enemies in ((eng.attackers, eng.defenders), (eng.defenders, eng.attackers)):
            kinds = {is_air(card(st, e)) for e in enemies}
            if kinds != {True, False}:
                continue
            for u in side:
                c = card(st, u)
                if c.aa_attack and not is_air(c) and u not in fr.aa_modes:
                    return u, i
    return None


def w_aa(st: WarState, fr: WaveFrame) -> Decision | None:
    nxt = aa_choices(st, fr)
    if nxt is None:
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(ctrl(st, nxt[0]), "aa_mode", {"unit": nxt[0], "engagement": nxt[1]})


def legal_aa(st: WarState, fr: WaveFrame) -> list[tuple]:
    u, _ = aa_choices(st, fr)  # type: ignore[misc]
    return [("aa_mode", ctrl(st, u), u, "air"), ("aa_mode", ctrl(st, u), u, "ground")]


def act_aa(st: WarState, fr: WaveFrame, action: Any) -> None:
    _, i = aa_choices(st, fr)  # type: ignore[misc]
    fr.aa_modes[action.unit] = action.mode
    eng = fr.engagements[i]
    fr.engagements[i] = make_engagement(st, fr, eng.attackers, eng.defenders, eng.target, eng.second_line,
                                        eng.restricted)
    emit(st, "aa_mode", {"seat": action.seat, "unit": action.unit, "mode": action.mode})


def hit_targets(st: WarState, eng: Engagement) -> tuple[int, list[str]]:
    """The pool to distribute now and where its points may go; (-1, []) when nothing is left."""
    for i, pool in enumerate(eng.pools):
        if pool.points <= 0:
            continue
        targets = [t for t in pool.targets if t == DECK or alive(st, t)]
        if not targets:
            pool.points = 0
            continue
        return i, targets
    return -1, []


def step_resolve(st: WarState, fr: WaveFrame) -> Decision | None:
    while fr.index < len(fr.engagements):
        eng = fr.engagements[fr.index]
        i, targets = hit_targets(st, eng)
        if i < 0:
            fr.index += 1
            continue
        pool = eng.pools[i]
        if len(targets) == 1:
            put_damage(st, eng, targets[0], pool.points)
            pool.points = 0
            continue
        seat = fr.seat if pool.side == "attacker" else OTHER[fr.seat]
        return Decision(seat, "damage", {"points": pool.points, "engagement": fr.index,
                                         "attackers": eng.attackers, "defenders": eng.defenders})
    close_engagements(st, fr)
    _next_stage(fr, WAVE_STAGES)
    return None


def put_damage(st: WarState, eng: Engagement, target: str, n: int) -> None:
    if target == DECK:
        st.damage[DECK] = st.damage.get(DECK, 0) + n
    else:
        st.damage[target] = st.damage.get(target, 0) + n
    emit(st, "damage", {"target": target, "amount": n})


def legal_damage(st: WarState, fr: WaveFrame) -> list[tuple]:
    eng = fr.engagements[fr.index]
    i, targets = hit_targets(st, eng)
    seat = fr.seat if eng.pools[i].side == "attacker" else OTHER[fr.seat]
    return [("hit", seat, t) for t in targets]


def act_damage(st: WarState, fr: WaveFrame, action: Any) -> None:
    eng = fr.engagements[fr.index]
    i, _ = hit_targets(st, eng)
    put_damage(st, eng, action.target, 1)
    eng.pools[i].points -= 1


def close_engagements(st: WarState, fr: WaveFrame) -> None:
    """"All units that received an amount of damage equal or greater then their defense are put into
    losses"; a zero-defense unit fighting alone is destroyed, supported it needs one point (R9)."""
    dead: list[str] = []
    milled: dict[str, int] = {}
    for eng in fr.engagements:
        for side in (eng.attackers, eng.defenders):
            for u in side:
                if u == DECK:
                    continue
                df = eng.values.get(u, [0, 0])[1]
                dmg = st.damage.get(u, 0)
                if df > 0 and dmg >= df or df <= 0 and (len(side) == 1 or dmg >= 1):
                    dead.append(u)
        if eng.target == DECK:
            milled[OTHER[fr.seat]] = milled.get(OTHER[fr.seat], 0) + st.damage.pop(DECK, 0)
    for u in dict.fromkeys(dead):
        destroy(st, u)
    for seat, n in milled.items():
        mill(st, seat, n)


def w_after_first(st: WarState, fr: WaveFrame) -> None:
    """Breakthrough feature: a blocked unit that destroyed all its blockers goes on with reduced values."""
    for eng in fr.engagements:
        if eng.target is not None or len(eng.attackers) != 1:
            continue
        a = eng.attackers[0]
        if not alive(st, a) or Feature.BREAKTHROUGH not in features(st, a):
            continue
        if any(alive(st, b) for b in eng.defenders):
            continue
        atk = base_values(st, a, "attacking")[0]
        sum_def = sum(eng.values[b][1] for b in eng.defenders)
        sum_atk = sum(eng.values[b][0] for b in eng.defenders)
        if atk > sum_def:
            fr.offered.append(a)
            fr.reduced[a] = [atk - sum_def, eng.values[a][1] - sum_atk]
    fr.engagements = []
    _next_stage(fr, WAVE_STAGES)


def w_strike(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(fr.through or fr.offered or striking_aircraft(st, fr.seat)
                          or landing_pairs(st, fr.seat))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(fr.seat, "strike", {"through": fr.through, "breakthrough": fr.offered})


def strike_objects(st: WarState, seat: str) -> list[str]:
    other = OTHER[seat]
    return st.zones[other]["line2"] + st.zones[other]["resources"] + [DECK]


def legal_strike(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = fr.seat
    keys: list[tuple] = [("breakthrough", seat, u) for u in fr.offered]
    striking = {u for u, _ in fr.strikes}
    objects = strike_objects(st, seat)
    for u in fr.through + [a for a in striking_aircraft(st, seat) if a not in declared(fr)]:
        if u not in striking and u not in {f for f, _ in fr.escorts}:
            keys.extend(("strike", seat, u, o) for o in objects)
    keys += [("land", seat, p, c, o) for p, c in landing_pairs(st, seat) for o in objects]
    keys += escort_keys(st, fr, [u for u, _ in fr.strikes] + [c for _, c, _ in fr.landings])
    return keys + [("done", seat)]


def act_strike(st: WarState, fr: WaveFrame, action: Any) -> None:
    seat = fr.seat
    if action.type == "breakthrough":
        fr.offered.remove(action.unit)
        fr.through.append(action.unit)
        emit(st, "broke_through", {"seat": seat, "unit": action.unit, "values": fr.reduced[action.unit]})
    elif action.type == "escort":
        act_escort(st, fr, action)
    elif action.type == "land":
        fr.landings.append([action.unit, action.carrier, action.target])
        st.rotated.add(action.carrier)
        declare_strike(st, fr, action.unit, action.target)
    elif action.type == "strike":
        c = card(st, action.unit)
        if action.unit not in fr.through and c.attack_cost:
            start_payment(st, seat, "strike", action.unit, c.attack_cost, target=action.target)
        else:
            declare_strike(st, fr, action.unit, action.target)
    else:
        for u in fr.offered:
            fr.reduced.pop(u, None)
        fr.offered = []
        accumulate_power(st, fr)
        objects = [o for o in dict.fromkeys(o for _, o in fr.strikes) if o != DECK]
        fr.passive += [o for o in objects if o in st.rotated and o not in fr.passive]  # rotated before
        st.rotated.update(objects)  # "Attacked units rotate"
        _next_stage(fr, WAVE_STAGES)


def declare_strike(st: WarState, fr: WaveFrame, u: str, o: str) -> None:
    fr.strikes.append([u, o])
    st.rotated.add(u)
    fr.acted = True
    emit(st, "strike", {"seat": fr.seat, "unit": u, "target": o})


def paid_strike(st: WarState, fr: PaymentFrame) -> None:
    declare_strike(st, st.frames[-1], fr.card, fr.target or DECK)


def breakthrough_power(st: WarState, fr: WaveFrame, u: str) -> int:
    """Total attack of units that reached the 2nd line: bonuses against unit types do not count."""
    if u in fr.reduced:
        return fr.reduced[u][0]
    return base_values(st, u, "attacking")[0]


def accumulate_power(st: WarState, fr: WaveFrame) -> None:
    ground = [u for u in fr.through if not is_air(card(st, u))]
    if not ground:
        return
    power = sum(breakthrough_power(st, fr, u) for u in ground)
    for b in st.zones[OTHER[fr.seat]]["conditions"]:
        el = card(st, b).elimination
        if el and el.breakthrough_power:
            st.power[b] = st.power.get(b, 0) + power
            emit(st, "breakthrough_power", {"card": b, "power": st.power[b], "needed": el.breakthrough_power})


def free_fighters(st: WarState, fr: WaveFrame, seat: str) -> list[str]:
    used = ({f for f, _ in fr.escorts} | {f for f, _ in fr.intercepts} | {u for u, _ in fr.supports}
            | declared(fr) | {u for u, _ in fr.strikes})
    return [u for u in st.zones[seat]["line2"] if card(st, u).subtype == UnitSubtype.FIGHTER
            and u not in st.rotated and u not in used]


def rear_support_ok(st: WarState, fr: WaveFrame, s: str, o: str) -> bool:
    """Who may support an object attacked behind the 1st line: 1st-line units moved to the 2nd line
    (objects attacked by ground units); AA units against aircraft ("Only units possessing AA-attack may
    support objects that were attacked only by air units"): light AA units and resources, not against
    strategic bombers; heavy AA the deck, and resources attacked by strategic bombers."""
    c = card(st, s)
    attackers = [u for u, x in fr.strikes if x == o]
    air = [u for u in attackers if is_air(card(st, u))]
    strategic = any(card(st, u).subtype == UnitSubtype.STRATEGIC_BOMBER for u in air)
    if c.aa_attack and c.subtype in (UnitSubtype.LIGHT_AA, UnitSubtype.HEAVY_AA):
        if any(x == o for _, _, x in fr.landings):
            # "An object that was attacked via assault landing may be supported by LAA gun ... as well as
            # by other light AA units placed at the 2nd line"
            return c.subtype == UnitSubtype.LIGHT_AA
        if not air:
            return False
        if c.subtype == UnitSubtype.LIGHT_AA:
            return o != DECK and not strategic
        return o == DECK or (strategic and o != DECK and card(st, o).category == Category.RESOURCE)
    return (len(air) < len(attackers) and (c.line or 1) == 1 and not is_air(c)
            and R.CANNOT_BLOCK not in c.restrictions)


def legal_second_support(st: WarState, fr: WaveFrame) -> list[tuple]:
    seat = OTHER[fr.seat]
    used = {s for s, _ in fr.supports} | {f for f, _ in fr.intercepts}
    objects = list(dict.fromkeys(o for _, o in fr.strikes))
    keys = [("support", seat, s, o) for s in st.zones[seat]["line2"] if s not in used and s not in st.rotated
            for o in objects if o != s and rear_support_ok(st, fr, s, o)]
    bombers = [u for u, _ in fr.strikes if is_air(card(st, u))] + [c for _, c, _ in fr.landings]
    keys += [("intercept", seat, f, b) for f in free_fighters(st, fr, seat) for b in bombers]
    # "Non-rotated fighters may intercept bombers attacking them" (their being attacked does not count)
    keys += [("intercept", seat, o, b) for b, o in fr.strikes if b in bombers and o != DECK
             and card(st, o).subtype == UnitSubtype.FIGHTER and o not in fr.passive and o not in used
             and ("intercept", seat, o, b) not in keys]
    return keys


def w_second_support(st: WarState, fr: WaveFrame) -> Decision | None:
    if not asked(fr, bool(fr.strikes and legal_second_support(st, fr))):
        _next_stage(fr, WAVE_STAGES)
        return None
    return Decision(OTHER[fr.seat], "second_line_support", {"strikes": [list(x) for x in fr.strikes]})


def legal_second_support_done(st: WarState, fr: WaveFrame) -> list[tuple]:
    return legal_second_support(st, fr) + [("done", OTHER[fr.seat])]


def act_second_support(st: WarState, fr: WaveFrame, action: Any) -> None:
    if action.type == "support":
        fr.supports.append([action.unit, action.target])
        st.rotated.add(action.unit)
        emit(st, "supported", {"seat": action.seat, "unit": action.unit, "target": action.target})
    elif action.type == "intercept":
        act_intercept(st, fr, action)
    else:
        _next_stage(fr, WAVE_STAGES)


def act_intercept(st: WarState, fr: WaveFrame, action: Any) -> None:
    fr.intercepts.append([action.unit, action.aircraft])
    st.rotated.add(action.unit)  # "The intercepting fighter rotates."
    emit(st, "intercepted", {"seat": action.seat, "unit": action.unit, "aircraft": action.aircraft})


def w_second_engagements(st: WarState, fr: WaveFrame) -> None:
    engs: list[Engagement] = []
    for o in dict.fromkeys(o for _, o in fr.strikes):
        attackers = [u for u, x in fr.strikes if x == o and alive(st, u)]
        supporters = [s for s, x in fr.supports if x == o and alive(st, s)]
        defenders = ([o] if o != DECK and alive(st, o) else []) + supporters
        if o != DECK and not alive(st, o):
            continue
        for p, c, x in fr.landings:
            if x != o or p not in attackers:
                continue
            icp, esc = interceptors(st, fr, c), escorts_of(st, fr, c)
            if icp and not esc:  # "assault landing becomes cancelled": both to losses
                attackers.remove(p)
                destroy(st, p)
                destroy(st, c)
                continue
            if icp:
                engs.append(make_engagement(st, fr, esc, icp, None))
            aa = [d for d in defenders if card(st, d).aa_attack and not is_air(card(st, d)) and d != o]
            if aa:  # "AA unit destroys troop-carrying aircraft but don't prevent attack of Paratroopers"
                defenders = [d for d in defenders if d not in aa]
                engs.append(make_engagement(st, fr, [c], aa, None))
        attackers, defenders, restricted = with_air_combat(st, fr, attackers, defenders, engs)
        if attackers:
            engs.append(make_engagement(st, fr, attackers, defenders, o, True, restricted))
    fr.engagements = engs
    fr.index = 0
    _next_stage(fr, WAVE_STAGES)


def w_close(st: WarState, fr: WaveFrame) -> None:
    """End of the wave: damage cleared; conditions whose breakthrough power was reached go to losses."""
    st.damage = {}
    st.active = []
    for b in list(st.zones[OTHER[fr.seat]]["conditions"]):
        el = card(st, b).elimination
        if el and el.breakthrough_power and st.power.get(b, 0) >= el.breakthrough_power:
            move_card(st, b, "losses")
            st.power.pop(b, None)
            emit(st, "condition_eliminated", {"seat": fr.seat, "card": b, "code": st.codes[b]})
    st.frames.pop()
    emit(st, "wave_ended", {"seat": fr.seat})
    turn = st.frames[-1]
    if not fr.acted:  # R6: an empty wave ends the attack phase
        st.power = {}
        _next_stage(turn, TURN_PHASES)


WAVE_STAGES: tuple[str, ...] = (
    "targeted",            # units performing targeted attack and their targets; they rotate
    "general",             # units for general attack on the 1st line; they rotate
    "attacker_artillery",  # artillery support for attacking units
    "attacker_abilities",  # special cards and abilities of units (salvo, heavy artillery)
    "block",               # the defender assigns blocking and supporting units; they rotate
    "defender_specials",   # the defending player plays special cards
    "defender_artillery",  # artillery support for blocking (supporting) units
    "interception",        # the attacker's fighters intercept blocking aircraft (after all blocks)
    "engagements",         # jointly fighting units and combat engagements are determined
    "aa_first",            # units with AA-attack facing aircraft and ground units announce which they fight
    "resolve_first",       # results of each engagement; destroyed units to losses
    "after_first",         # breakthrough feature offers
    "strike",              # units attacking the 2nd line, resources, deck; attacked units rotate
    "second_support",      # the defender's 2nd-line supports
    "defender_specials_2", # the defending player plays special cards
    "second_engagements",  # engagements determined
    "aa_second",           # AA announcements (as above)
    "resolve_second",      # results; the deck loses cards
    "close",               # damage cleared, conditions eliminated
)
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
RULES.frame("wave", stages=WAVE_STEPS)
RULES.decision("declare_targeted", legal=legal_targeted, act=act_targeted)
RULES.decision("declare_general", legal=legal_general, act=act_general)
RULES.decision("attacker_artillery", legal=legal_att_artillery, act=act_att_artillery)
RULES.decision("attacker_abilities", legal=legal_abilities, act=act_abilities)
RULES.decision("block", legal=legal_block, act=act_block)
RULES.decision("defender_specials", legal=legal_def_specials, act=act_def_specials)
RULES.decision("defender_artillery", legal=legal_def_artillery, act=act_def_artillery)
RULES.decision("interception", legal=legal_interception, act=act_interception)
RULES.decision("aa_mode", legal=legal_aa, act=act_aa)
RULES.decision("damage", legal=legal_damage, act=act_damage)
RULES.decision("strike", legal=legal_strike, act=act_strike)
RULES.decision("second_line_support", legal=legal_second_support_done, act=act_second_support)

PAID: dict[str, Callable[[WarState, PaymentFrame], None]] = {
    "build": paid_build, "improve": paid_improve, "maintain": paid_maintain, "location": paid_location,
    "target": paid_target, "attack": paid_attack, "strike": paid_strike, "salvo": paid_salvo,
    "special": paid_special,
}
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
