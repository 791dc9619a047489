"""The Battlecards machine: set-up, and the rule book with every rule module registered.

`advance`, `legal_keys`, `legal_key_at`, `legal_actions`, `materialize`, `apply` and `apply_legal` are
the book's (see core.machine); this module imports every rule module so that each one has registered its
frames and decisions.
"""
from __future__ import annotations

from vocabulary.battlecards import BattlecardDef, Catalog

from ..core.errors import EngineError, SetupError
from ..core.machine import declare_resume
from . import optional_rules, team_play
from .book import RULES
from .effects import abomb, battle_window, immediate, sabotage, theater, turn_start
from .frames import DeployFrame, GameFrame, SetupRevealFrame
from .phases import battle, battlecard, deploy, fire, settle, turn
from .setup import SEATS, GameSetup, check_armies, side_of
from .state import OTHER, GameState, new_army, new_pool, new_side, pool_key
from .zones import draw_arsenal

# Every rule module with frames or decisions, in registration order (the order of DECISION_KINDS): each one
# registers them in the book here, explicitly. The card behaviours of effects.theater and effects.turn_start
# (and of the modules above) are in behaviour.EFFECTS / ABILITIES, keyed by the card vocabulary.
RULE_MODULES = (deploy, optional_rules, team_play, abomb, battle_window, immediate, sabotage, fire, settle,
                battle, battlecard, turn)
CARD_BEHAVIOUR_MODULES = (theater, turn_start)
for _module in RULE_MODULES:
    _module.register(RULES)

advance = RULES.advance
legal_keys = RULES.legal_keys
legal_key_at = RULES.legal_key_at
legal_actions = RULES.legal_actions
materialize = RULES.materialize
apply = RULES.apply
apply_legal = RULES.apply_legal
DECISION_KINDS = tuple(RULES.decisions)  # every kind of decision the engine can ask for
declare_resume(GameState, advance)  # GameState.from_json recomputes the pending decision with it


def _validate_setup(catalog: Catalog, setup: GameSetup) -> None:
    try:
        check_armies(setup.nations)
    except EngineError as exc:
        raise SetupError(exc.message) from exc
    if set(setup.decks) != set(setup.nations):
        raise SetupError("every army needs a deck entry (empty when a teammate brings the nation's cards)")
    if setup.uneven and setup.options.larger_standing_armies:
        # FAQ Optional Rule 4, NOTE: "Games with uneven teams cannot use Optional Rule #1"
        raise SetupError("games with uneven teams cannot use Optional Rule 1 (larger standing armies)")
    pools: dict[str, set[str]] = {}
    for seat in setup.armies:
        side = side_of(seat)
        nation = catalog.nations.get(setup.nations[seat])
        if nation is None:
            raise SetupError(f"unknown nation {setup.nations[seat]!r}")
        if nation.side != side:
            raise SetupError(f"nation {nation.code} fights for {nation.side}, not {side}")
        # one arsenal deck per nation and side (its armies' decks pooled, FAQ Optional Rule 3)
        singles = pools.setdefault(pool_key(seat, nation.code), set())
        for code in setup.decks[seat]:
            card = catalog.arsenal.get(code)
            if card is None:
                raise SetupError(f"unknown arsenal card {code!r}")
            if card.side != side:
                raise SetupError(f"{code} is not an {side} card")
            if card.is_single_copy:
                # TO SET UP THE GAME: "only one representation of each LEADER or GENERAL" per arsenal deck
                if code in singles:
                    raise SetupError(f"{code} is a general or leader: only one copy per deck")
                singles.add(code)
    for key in pools:
        if not any(setup.decks[a] for a in setup.armies if pool_key(a, setup.nations[a]) == key):
            raise SetupError(f"the {key} arsenal deck is empty: give one of its armies a deck")
    for code in setup.conflict_deck:
        if code not in catalog.conflict and code not in catalog.battlecards:
            raise SetupError(f"unknown conflict card {code!r}")


def _new_armies(st: GameState, setup: GameSetup) -> None:
    """Every army, every side's common zones and every nation's arsenal: one shape for classic and team
    games (README, "State shape"; a classic game: armies "axis" and "allies", one a side)."""
    for side in SEATS:
        st.sides[side] = new_side()
    for seat in setup.armies:
        st.players[seat] = new_army(setup.nations[seat], _across(setup, seat))
        st.pools.setdefault(pool_key(seat, setup.nations[seat]), new_pool())


def _across(setup: GameSetup, army: str) -> str:
    """The enemy army `army` sits across from at the start. OR3: "sitting directly across from an
    opponent"; with uneven teams (OR4) the smaller side's last army faces every army of the bigger side
    beyond its own count. A classic game's two seats face each other."""
    enemy = setup.armies_of(OTHER[side_of(army)])
    n = int(army.split("-")[1]) if "-" in army else 1
    return enemy[min(n, len(enemy)) - 1]


def initial_counts(setup: GameSetup, seat: str) -> tuple[int, int]:
    """(draw, deploy) at set-up. Optional Rule 1: 9 and 6. Optional Rule 4: the disadvantaged side "begins
    the game with 6 extra deployed units", shared by its armies: 12/9 for one army, 9/6 each for two, 8/5
    each for three (6 // armies: the FAQ's three examples)."""
    opts = setup.options
    draw, deploy = opts.initial_draw, opts.initial_deploy
    if setup.uneven:
        mine = len(setup.armies_of(side_of(seat)))
        theirs = len(setup.armies_of(OTHER[side_of(seat)]))
        if mine < theirs:
            extra = 6 // mine
            draw, deploy = draw + extra, deploy + extra
    return draw, deploy


def new_game(catalog: Catalog, setup: GameSetup) -> GameState:
    _validate_setup(catalog, setup)
    st = GameState(catalog, setup)
    rng = st.rng
    entries: list[tuple[str | None, str]] = []
    for army in setup.armies:
        entries.extend((army, code) for code in setup.decks[army])
    entries.extend((None, code) for code in setup.conflict_deck)
    # Instance ids come from a shuffled numbering, so an id says nothing about a card's code or position.
    numbers = list(range(1, len(entries) + 1))
    rng.shuffle(numbers)
    _new_armies(st, setup)
    st.link_zones()
    pool_of = {army: pool_key(army, setup.nations[army]) for army in setup.armies}
    for (seat, code), n in zip(entries, numbers, strict=True):
        cid = f"c{n}"
        st.code[cid] = code
        if seat is not None:
            st.owner[cid] = pool_of[seat]
            st.arsenal(seat)["deck"].append(cid)
        elif code in catalog.conflict and catalog.conflict[code].effect == "battlecard-list":
            st.aside.append(cid)  # set aside face up (TO SET UP THE GAME)
        else:
            st.conflict_deck.append(cid)
    st.rebuild_derived()
    for pool in st.pools.values():
        rng.shuffle(pool["deck"])
    rng.shuffle(st.conflict_deck)
    total = sum(st.defs[c].victory_points for c in st.conflict_deck if isinstance(st.defs[c], BattlecardDef))
    st.vp_threshold = (total + 1) // 2  # "at least half": 38 of 75 in the Western Europe deck
    for seat in st.armies:
        for _ in range(initial_counts(setup, seat)[0]):
            drawn = draw_arsenal(st, seat)
            if drawn is not None:
                st.players[seat]["hand"].append(drawn)
    # "Secretly look at your hands, and Deploy 3": the set-up deployment is simultaneous in effect. The
    # seats deploy in turn, but every initial deployment is private (phases.deploy) and the views show the
    # opponent as dealt (view._opponent) until the setup_reveal frame reveals both (phases.deploy).
    st.frames = [GameFrame(st.armies[0]), SetupRevealFrame()]
    st.frames.extend(DeployFrame(seat, initial_counts(setup, seat)[1], None, "initial")
                     for seat in reversed(st.armies))
    advance(st)
    return st
