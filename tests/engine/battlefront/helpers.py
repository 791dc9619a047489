"""Scenario states for the Battlefront rule tests: a real new game whose zones are then set by hand."""
from __future__ import annotations

from typing import Any

from games.engine import battlefront as bf
from games.engine.battlefront.rules import advance
from games.engine.battlefront.state import DeployFrame, GameFrame

W, E = "west", "east"


def scenario(catalog: bf.BattlefrontCatalog, *, hands: dict[str, list[str]] | None = None,
             fronts: dict[str, dict[str, list[str]]] | None = None, uses: dict[str, str] | None = None,
             markers: dict[str, dict[str, int]] | None = None, captured: dict[str, str] | None = None,
             deck: list[str] | None = None, options: bf.Options | None = None, seat: str = W,
             placed: dict[str, dict[str, int]] | None = None, turn: int = 1,
             seed: int = 0, changed: bool = True) -> bf.BattlefrontState:
    """A game in turn `turn`'s deployment phase with `seat` to play (deck: top = last; by default the cards
    not named elsewhere, in catalog order, so that the next turn deals and asks again). `changed`: whether
    this turn has dealt cards already (R12)."""
    st = bf.new_game(catalog, bf.GameSetup(seed, options or bf.Options()))
    if hands is None:  # one card each, so that the deployment phase asks (empty hands pass at once)
        hands = {W: ["bf-steam-roller-tactics"], E: ["bf-hook-maneuver"]}
    if deck is None:
        named = repr((hands, fronts))
        deck = [c for c in catalog.cards if f"'{c}'" not in named]
    st.deck = list(deck)
    st.hands = {s: list((hands or {}).get(s, [])) for s in bf.SEATS}
    st.fronts = {f: {s: list((fronts or {}).get(f, {}).get(s, [])) for s in bf.SEATS} for f in bf.FRONTS}
    st.uses = dict(uses or {})
    st.markers = {f: {s: (markers or {}).get(f, {}).get(s, 0) for s in bf.SEATS} for f in bf.FRONTS}
    st.captured = {f: (captured or {}).get(f) for f in bf.FRONTS}
    st.turn = turn
    st.first_seat = seat
    st.frames = [GameFrame("battle", changed=changed, opening=W),
                 DeployFrame(seat, placed={s: dict((placed or {}).get(s, {})) for s in bf.SEATS})]
    advance(st)  # the pending decision, as BattlefrontState.from_json computes it
    return st


def end_deployment(st: bf.BattlefrontState) -> list[bf.Event]:
    """Both players pass: the deployment phase ends and the battle phase runs; returns the events."""
    events: list[bf.Event] = []
    turn = st.turn
    while st.decision is not None and st.decision.kind == "deploy" and st.turn == turn:
        events += bf.apply(st, bf.Pass(st.decision.seat))
    return events


def keys(st: bf.BattlefrontState) -> set[tuple]:
    return set(bf.legal_keys(st))


def plays(st: bf.BattlefrontState, card: str) -> set[str]:
    """The fronts `card` may be played to now."""
    return {k[3] for k in bf.legal_keys(st) if k[0] == "play" and k[2] == card}


def event(events: list[bf.Event], type_: str) -> dict[str, Any]:
    return next(e.data for e in events if e.type == type_)
