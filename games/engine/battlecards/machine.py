"""The Battlecards machine: set-up, and the rule book with every rule module registered.

`advance`, `legal_keys`, `legal_key_at`, `legal_actions`, `materialize`, `apply` and `apply_legal` are
the book's (see core.machine); this module imports every rule module so that each one has registered its
frames and decisions.
"""
from __future__ import annotations

from ..cards import BattlecardDef, Catalog
from ..core.errors import SetupError
from ..setup import SEATS, GameSetup
from ..state import GameState, new_player
from . import optional_rules  # noqa: F401  (registers its frames and decisions)
from .book import RULES
from .effects import abomb, battle_window, immediate, sabotage, theater, turn_start  # noqa: F401
from .frames import _deploy_frame
from .phases import battle, battlecard, fire, settle, turn  # noqa: F401
from .zones import _draw_arsenal

advance = RULES.advance
legal_keys = RULES.legal_keys
legal_key_at = RULES.legal_key_at
legal_actions = RULES.legal_actions
materialize = RULES.materialize
apply = RULES.apply
apply_legal = RULES.apply_legal
DECISION_KINDS = tuple(RULES.decisions)  # every kind of decision the engine can ask for
GameState.resume = staticmethod(advance)  # GameState.from_json recomputes the pending decision


def _validate_setup(catalog: Catalog, setup: GameSetup) -> None:
    for seat in SEATS:
        nation = catalog.nations.get(setup.nations[seat])
        if nation is None:
            raise SetupError(f"unknown nation {setup.nations[seat]!r}")
        if nation.side != seat:
            raise SetupError(f"nation {nation.code} fights for {nation.side}, not {seat}")
        singles: set[str] = set()
        for code in setup.decks[seat]:
            card = catalog.arsenal.get(code)
            if card is None:
                raise SetupError(f"unknown arsenal card {code!r}")
            if card.side != seat:
                raise SetupError(f"{code} is not an {seat} card")
            if card.is_general or card.is_leader:
                # TO SET UP THE GAME: "only one representation of each LEADER or GENERAL" per arsenal deck
                if code in singles:
                    raise SetupError(f"{code} is a general or leader: only one copy per deck")
                singles.add(code)
    for code in setup.conflict_deck:
        if code not in catalog.conflict and code not in catalog.battlecards:
            raise SetupError(f"unknown conflict card {code!r}")


def new_game(catalog: Catalog, setup: GameSetup) -> GameState:
    _validate_setup(catalog, setup)
    st = GameState(catalog, setup)
    rng = st.rng
    entries: list[tuple[str | None, str]] = []
    for seat in SEATS:
        entries.extend((seat, code) for code in setup.decks[seat])
    entries.extend((None, code) for code in setup.conflict_deck)
    # Instance ids come from a shuffled numbering, so an id says nothing about a card's code or position.
    numbers = list(range(1, len(entries) + 1))
    rng.shuffle(numbers)
    for seat in SEATS:
        st.players[seat] = new_player(setup.nations[seat])
    for (seat, code), n in zip(entries, numbers, strict=True):
        cid = f"c{n}"
        st.code[cid] = code
        if seat is not None:
            st.owner[cid] = seat
            st.players[seat]["deck"].append(cid)
        elif code in catalog.conflict and catalog.conflict[code].effect == "battlecard-list":
            st.aside.append(cid)  # set aside face up (TO SET UP THE GAME)
        else:
            st.conflict_deck.append(cid)
    st.rebuild_derived()
    for seat in SEATS:
        rng.shuffle(st.players[seat]["deck"])
    rng.shuffle(st.conflict_deck)
    total = sum(st.defs[c].victory_points for c in st.conflict_deck if isinstance(st.defs[c], BattlecardDef))
    st.vp_threshold = (total + 1) // 2  # "at least half": 38 of 75 in the Western Europe deck
    opts = setup.options
    for seat in SEATS:
        for _ in range(opts.initial_draw):
            cid = _draw_arsenal(st, seat)
            if cid is not None:
                st.players[seat]["hand"].append(cid)
    # "Secretly look at your hands, and Deploy 3": the set-up deployment is simultaneous in effect. The
    # seats deploy in turn, but every initial deployment is private (phases.deploy) and the views show the
    # opponent as dealt (view._opponent) until the setup_reveal frame reveals both (phases.deploy).
    st.frames = [
        {"kind": "game", "next": "axis"},
        {"kind": "setup_reveal"},
        _deploy_frame("allies", opts.initial_deploy, None, "initial"),
        _deploy_frame("axis", opts.initial_deploy, None, "initial"),
    ]
    advance(st)
    return st
