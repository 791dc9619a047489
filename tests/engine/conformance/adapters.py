"""The per-game table of the conformance suite: what the generic driver (driver.py) cannot ask the games
service's GameType (games.game_types) for.

GameType already offers set-up from a catalog and a setup, legal actions, apply, a seat's view, the
spectator's view, state to/from JSON, replay from a setup's JSON and a log, the bots and the engine's error
classes. Each adapter adds only what GameType does not: the catalog read straight from fixtures/ (no
database), a setup from a seed, the policies the game is played with, the result kinds that are a guard
rather than a rule, and the re-deal of the cards a viewer cannot see (`redeal`).

A re-deal works on the state's JSON (the RNG state is kept as it is) and moves only cards that the viewer
cannot tell apart: the order of every deck, and the cards of an opponent's hidden zones (hand, face-down
stacks, face-down discards, face-down kept cards) exchanged with his deck, each zone keeping its size, a
face-down stack its kind. Pinned (left in place): a card that any frame names (a card being played, a unit
in a battle), a card the viewer's own decision shows it (driver.shown: Battlecards' capture browses a
face-down stack) and a fact the pending step makes public next (a hand that deploys whole, a sabotage
victim's units of the class). `redeal_hands` is the narrow re-deal of the next-decision check: opponents'
hands only, every deck's top left alone.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.engine.core.plain import plain_strings
from games.game_types import GAME_TYPES, GameType

Json = dict[str, Any]
SPECTATOR = None  # the viewer of the public (spectator) view
# redeal_hands leaves the top of every deck alone: more cards than one action of any game draws or reveals
# (Battlefront's logistics deals 7 to each seat; a Battlecards set-up draws 9; The War draws 2 a turn)
STEP_DRAWS = 24


def strings_in(value: Any) -> list[str]:
    """Every string value of a JSON document, at any depth (dict keys included)."""
    return plain_strings(value)


def shuffle_free(cards: list[str], pinned: set[str], rnd: random.Random) -> list[str]:
    """`cards` with the ones not in `pinned` permuted among their own positions."""
    free_at = [i for i, c in enumerate(cards) if c not in pinned]
    free = [cards[i] for i in free_at]
    rnd.shuffle(free)
    out = list(cards)
    for i, c in zip(free_at, free, strict=True):
        out[i] = c
    return out


def redeal_zones(zones: list[list[str]], pinned: set[str], rnd: random.Random,
                 fits: Callable[[int, str], bool] | None = None, *, fresh: tuple[int, ...] = (),
                 code_of: Callable[[str], str] = str, fresh_chance: float = 0.5) -> list[list[str]]:
    """Deal the unpinned cards of `zones` again over their positions (each zone keeps its size and its
    pinned cards in place). `fits(zone_index, card)`: whether a card may lie in that zone (a face-down stack
    of one kind); the positions it restricts are filled first, from the cards that fit. Every other call, the
    zones in `fresh` (hands) are dealt, as far as the pool allows, cards whose code (`code_of`) none of their
    cards had (always with fresh_chance=1): a decision that a hidden card allows then meets a hand without
    it."""
    slots = [(z, i) for z, cards in enumerate(zones) for i, c in enumerate(cards) if c not in pinned]
    pool = [zones[z][i] for z, i in slots]
    rnd.shuffle(pool)
    out = [list(cards) for cards in zones]

    def take(z: int, i: int, card: str) -> None:
        pool.remove(card)
        out[z][i] = card
        slots.remove((z, i))

    if fits is not None:
        restricted = {z for z in {z for z, _ in slots} if any(not fits(z, c) for c in pool)}  # once a zone
        for z, i in [(z, i) for z, i in slots if z in restricted]:
            take(z, i, next(c for c in pool if fits(z, c)))  # the card that lay there fits: never empty
    if fresh and rnd.random() < fresh_chance:
        for z in fresh:
            had = {code_of(c) for c in zones[z]}
            for i in [i for zz, i in slots if zz == z]:
                new = [c for c in pool if code_of(c) not in had and (fits is None or fits(z, c))]
                if new:
                    take(z, i, new[0])
    for (z, i), c in zip(slots, pool, strict=True):
        out[z][i] = c
    return out


@dataclass(frozen=True)
class Adapter:
    name: str
    catalog: Callable[[], Any]
    setup: Callable[[Any, int], Any]  # (catalog, seed) -> the engine's GameSetup
    # (state JSON, viewer, catalog, rnd, the strings that stay put: driver.shown) -> the state JSON re-dealt
    redeal: Callable[[Json, str | None, Any, random.Random, set[str]], Json]
    policies: tuple[str, ...]  # "random", "heuristic" (GameType.bot), "referee" (random_referee below)
    # the same signature: each opponent's hand exchanged with the deck it draws from below its top
    # STEP_DRAWS cards, every order kept (what the next action draws or reveals stays the same); None: no
    # hidden hands
    redeal_hands: Callable[[Json, str | None, Any, random.Random, set[str]], Json] | None = None
    guards: frozenset[str] = frozenset()  # result kinds that a guard ends, not a rule
    max_plies: int = 20_000  # the driver's own guard
    report_types: frozenset[str] = field(default_factory=frozenset)  # accepted, but never listed as legal
    # a context in which the game is registered (a test-only game: the toy game of tests/toy_game/)
    registered: Callable[[], AbstractContextManager[Any]] = nullcontext

    @property
    def game_type(self) -> GameType:
        return GAME_TYPES[self.name]

    def setup_json(self, setup: Any) -> Json:
        return setup.to_json()


# ---------------------------------------------------------------------------------------- Battlecards

@cache
def battlecards_catalog() -> Any:
    from games.engine import load_catalog_dir

    return load_catalog_dir()


def battlecards_setup(catalog: Any, seed: int) -> Any:
    from games.engine import Options, starter_setup

    rnd = random.Random(seed)
    options = Options(larger_standing_armies=rnd.random() < 0.5, occupying_force=rnd.random() < 0.5)
    return starter_setup(catalog, seed, theater=("WE", "PAC", "EF")[seed % 3], options=options)


def battlecards_redeal(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                       visible: set[str]) -> Json:
    """A classic game's JSON (games.engine.state: one dict per seat with its arsenal and side zones)."""
    out = _copy(data)
    code = out["cards"]
    pinned = set(strings_in(out["frames"])) | visible
    players = out["players"]
    seats = list(players)
    foes = seats if viewer is None else [s for s in seats if s != viewer]
    for fr in out["frames"]:  # facts the pending step makes public next
        hand = players[fr["seat"]]["hand"] if fr["kind"] in ("deploy", "sabotage") else []
        if fr["kind"] == "deploy" and fr.get("cards") is None and fr["count"] >= len(hand):
            pinned.update(hand)  # every card of the hand deploys now, each onto a stack of its kind (public)
        if fr["kind"] == "sabotage":  # the victim destroys one of his deployed units of the class (public)
            pinned.update(c for stacks in players[fr["seat"]]["stacks"].values() for s in stacks for c in s
                          if c in code and fr["cls"] in _classes(catalog, code[c]))
    for seat in seats:  # every arsenal deck's order (the viewer's own too)
        players[seat]["deck"] = shuffle_free(players[seat]["deck"], pinned, rnd)
    kind_of = {cid: catalog.arsenal[c].kind for cid, c in code.items() if c in catalog.arsenal}
    for foe in foes:
        p = players[foe]
        hand_known = viewer is not None and _sees_hand(players[viewer], code, catalog)
        zones: list[list[str]] = [p["deck"]] if hand_known else [p["deck"], p["hand"]]
        kinds: list[str | None] = [None] * len(zones)
        for kind, stacks in p["stacks"].items():  # face-down deployed stacks: sizes and kinds are public
            for stack in stacks:
                zones.append(stack)
                kinds.append(kind)
        dealt = redeal_zones(zones, pinned, rnd,
                             fits=lambda z, c, kinds=kinds: kinds[z] is None or kind_of.get(c) == kinds[z],
                             fresh=() if hand_known else (1,), code_of=code.__getitem__)
        p["deck"] = dealt[0]
        if not hand_known:
            p["hand"] = dealt[1]
        at = 1 if hand_known else 2
        for stacks in p["stacks"].values():
            for j in range(len(stacks)):
                stacks[j] = dealt[at]
                at += 1
    # the conflict deck's order, and each foe side's face-down kept cards exchanged with kept-category
    # cards of the conflict deck
    keepable = {cid for cid, c in code.items()
                if c in catalog.conflict and catalog.conflict[c].category == "kept"}
    deck = out["conflict_deck"]
    for foe in foes:
        kept = players[foe]["kept"]
        zones = redeal_zones([kept, [c for c in deck if c in keepable]], pinned, rnd)
        players[foe]["kept"] = zones[0]
        rest = iter(zones[1])
        deck = [next(rest) if c in keepable else c for c in deck]
    out["conflict_deck"] = shuffle_free(deck, pinned, rnd)
    return out


def battlecards_redeal_hands(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                             visible: set[str]) -> Json:
    """Each opponent's hand exchanged with his deck below its top, card for card of the same kind: a
    deployment shows each card's kind (the stack it goes to) right after, so whether the deploy decision is
    asked at all (a choice of stacks of its kinds) tells the others nothing the next plies do not."""
    out = _copy(data)
    code = out["cards"]
    pinned = set(strings_in(out["frames"])) | visible
    players = out["players"]
    kind_of = {cid: catalog.arsenal[c].kind if c in catalog.arsenal else None for cid, c in code.items()}
    for foe in (s for s in players if s != viewer):
        p = players[foe]
        if viewer is not None and _sees_hand(players[viewer], code, catalog):
            continue
        deck, hand = p["deck"], p["hand"]
        below = max(0, len(deck) - STEP_DRAWS)
        for kind in {kind_of[c] for c in hand}:
            at_deck = [i for i in range(below) if kind_of[deck[i]] == kind]
            at_hand = [i for i, c in enumerate(hand) if kind_of[c] == kind]
            zones = [[deck[i] for i in at_deck], [hand[i] for i in at_hand]]
            new_deck, new_hand = redeal_zones(zones, pinned, rnd, fresh=(1,), code_of=code.__getitem__,
                                              fresh_chance=1)
            for i, c in zip(at_deck, new_deck, strict=True):
                deck[i] = c
            for i, c in zip(at_hand, new_hand, strict=True):
                hand[i] = c
    return out


def _classes(catalog: Any, code: str) -> tuple[str, ...]:
    card = catalog.arsenal.get(code)
    return card.classes if card is not None else ()


def _sees_hand(me: Json, code: dict[str, str], catalog: Any) -> bool:
    """A deployed standing-intelligence unit shows its owner the enemy reserve hand (games.engine.view)."""
    return any(catalog.arsenal[code[c]].ability("intelligence") is not None
               for stacks in me["stacks"].values() for s in stacks for c in s if code[c] in catalog.arsenal)


# ---------------------------------------------------------------------------------------- Battlefront

@cache
def battlefront_catalog() -> Any:
    from games.engine.battlefront import load_cards

    return load_cards()


def battlefront_setup(catalog: Any, seed: int) -> Any:
    from games.engine import battlefront as bf

    rnd = random.Random(seed)
    specials = None
    if rnd.random() < 0.5:
        nations = sorted(bf.NATIONALITIES)
        specials = {s: rnd.choice(nations) for s in bf.SEATS}
    options = bf.Options(two_front_victory=rnd.random() < 0.5,
                         blitzkrieg_attacker=rnd.choice((None, *bf.SEATS)), special_cards=specials)
    return bf.GameSetup(seed=seed, options=options)


def battlefront_redeal(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                       visible: set[str]) -> Json:
    """The shared deck, and each opponent's hand and face-down discards (sizes public). Cards are codes,
    one card each."""
    out = _copy(data)
    seats = list(out["hands"])
    foes = seats if viewer is None else [s for s in seats if s != viewer]
    zones = [out["deck"], *(out["hands"][s] for s in foes), *(out["discards"][s] for s in foes)]
    dealt = redeal_zones(zones, visible, rnd, fresh=tuple(range(1, 1 + len(foes))))
    out["deck"] = dealt[0]
    for i, s in enumerate(foes):
        out["hands"][s] = dealt[1 + i]
        out["discards"][s] = dealt[1 + len(foes) + i]
    return out


def battlefront_redeal_hands(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                             visible: set[str]) -> Json:
    out = _copy(data)
    foes = [s for s in out["hands"] if s != viewer]
    below = max(0, len(out["deck"]) - STEP_DRAWS)
    dealt = redeal_zones([out["deck"][:below], *(out["hands"][s] for s in foes)], visible, rnd,
                         fresh=tuple(range(1, 1 + len(foes))), fresh_chance=1)
    out["deck"][:below] = dealt[0]
    for i, s in enumerate(foes):
        out["hands"][s] = dealt[1 + i]
    return out


# ------------------------------------------------------------------------------------------- The War

@cache
def the_war_catalog() -> Any:
    from vocabulary.the_war import load_catalog

    return load_catalog()


def the_war_setup(catalog: Any, seed: int) -> Any:
    """The two starters (the armies swap seats with the seed's second bit); every other pair of seeds adds
    two copies of each special card its army may play to each deck (the starters lack some, e.g. "Not a
    step back!", so their decisions would never come up)."""
    from games.engine import the_war as tw
    from vocabulary.the_war import Category

    first, second = "tw-starter-red-army", "tw-starter-wehrmacht"
    if seed // 2 % 2:
        first, second = second, first
    setup = tw.starter_setup(catalog, seed, first, second)
    if seed // 4 % 2 == 0:
        return setup
    decks = {}
    for seat, starter in zip(tw.SEATS, (first, second), strict=True):
        army = catalog.starters[starter].army
        specials = [c.code for c in catalog.cards.values()
                    if c.category == Category.SPECIAL and c.army in (None, army)]
        decks[seat] = tuple(sorted(setup.decks[seat] + tuple(specials) * 2))
    return tw.GameSetup(seed, decks)


def the_war_redeal(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                   visible: set[str]) -> Json:
    """Card ids name their owner (p1.07): each opponent's hand exchanged with his own deck, and every deck's
    order."""
    out = _copy(data)
    pinned = set(strings_in(out["frames"])) | visible
    zones = out["zones"]
    for seat in zones:
        z = zones[seat]
        if seat == viewer:
            z["deck"] = shuffle_free(z["deck"], pinned, rnd)
        else:
            z["deck"], z["hand"] = redeal_zones([z["deck"], z["hand"]], pinned, rnd, fresh=(1,),
                                                code_of=out["codes"].__getitem__)
    return out


def the_war_redeal_hands(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                        visible: set[str]) -> Json:
    out = _copy(data)
    pinned = set(strings_in(out["frames"])) | visible
    for seat, z in out["zones"].items():
        if seat != viewer:
            below = max(0, len(z["deck"]) - STEP_DRAWS)
            bottom, z["hand"] = redeal_zones([z["deck"][:below], z["hand"]], pinned, rnd, fresh=(1,),
                                             code_of=out["codes"].__getitem__, fresh_chance=1)
            z["deck"][:below] = bottom
    return out


# -------------------------------------------------------------------------------------- Tide of Iron

@cache
def tide_of_iron_catalog() -> Any:
    from games.engine import tide_of_iron as toi
    from vocabulary.tide_of_iron import read_documents

    cards, decks = read_documents()
    return toi.TideOfIronCatalog.from_dicts(cards=cards["cards"], decks=decks["decks"],
                                            scenarios=decks["scenarios"])


def tide_of_iron_setup(catalog: Any, seed: int) -> Any:
    from games.engine import tide_of_iron as toi

    scenarios = sorted(catalog.scenarios)
    options = toi.Options(scenario=scenarios[seed % len(scenarios)], board_width=12, board_height=10,
                          first_player=toi.SEATS[seed // 2 % 2])
    return toi.GameSetup(seed=seed, options=options)


def tide_of_iron_redeal(data: Json, viewer: str | None, catalog: Any, rnd: random.Random,
                        visible: set[str]) -> Json:
    """The Strategy decks' order (hidden from both players and never shown: a code the view shows is
    another copy's); the HQ and play areas are face up."""
    out = _copy(data)
    for decks in out["decks"].values():
        # {deck: cards}, or a list of {"deck", "cards"} in the scenario's order (issue 36 item 7's shape)
        for entry in decks.values() if isinstance(decks, dict) else (d["cards"] for d in decks):
            entry[:] = shuffle_free(entry, set(), rnd)
    return out


def random_referee(view: Json, legal: list[Any], rnd: random.Random) -> Json:
    """Random play of a Tide of Iron seat: a legal action, or now and then a report (command points, a
    unit, cover) so that cards get activated and area attacks roll against units; the match is ended by a
    player's report (`end_match`, a rule of the referee), seldom, so that rounds and draws happen."""
    decision = view["decision"]
    seat = decision["seat"]
    actions = [a.to_json() for a in legal]
    if decision["kind"] != "act":
        return rnd.choice(actions)
    roll = rnd.random()
    if roll < 0.15:
        return {"type": "report_command", "seat": seat, "points": str(rnd.randint(0, 8))}
    if roll < 0.20 and len(view["board"]["units"]) < 6:
        side = rnd.choice(("axis", "allies"))
        return {"type": "place_unit", "seat": seat, "unit": f"U{rnd.randint(1, 9)}",
                "hex": f"{rnd.randint(1, 12)},{rnd.randint(1, 10)}", "side": side,
                "kind": rnd.choice(("squad", "vehicle")), "officer": "no"}
    if roll < 0.22:
        return {"type": "set_cover", "seat": seat, "hex": f"{rnd.randint(1, 12)},{rnd.randint(1, 10)}",
                "cover": str(rnd.randint(0, 3))}
    ending = [a for a in actions if a["type"] == "end_match"]
    if roll < 0.23 or view["round"] > 12:
        return rnd.choice(ending)
    return rnd.choice([a for a in actions if a["type"] != "end_match"])


def _copy(data: Json) -> Json:
    import json

    return json.loads(json.dumps(data))


# ---------------------------------------------------------------------------------------- the toy game

def toy_catalog() -> Any:
    from tests.toy_game import engine

    return engine.Catalog.from_dicts(cards=engine.CARDS)


def toy_setup(catalog: Any, seed: int) -> Any:
    from tests.toy_game import engine

    return engine.GameSetup(seed)


def toy_redeal(data: Json, viewer: str | None, catalog: Any, rnd: random.Random, visible: set[str]) -> Json:
    """The cards in hand a viewer cannot see: a seat sees its own, which leaves the other's one card (no
    freedom); the spectator sees neither until played, so two unplayed hands may be exchanged."""
    out = _copy(data)
    unseen = [s for s in sorted(out["hands"]) if s not in out["played"] and s != viewer]
    if len(unseen) == 2 and rnd.random() < 0.5:
        a, b = unseen
        out["hands"][a], out["hands"][b] = out["hands"][b], out["hands"][a]
    return out


@contextmanager
def toy_registered() -> Iterator[None]:
    from games.engine import registry
    from games.game_types import register_game_type, unregister_game_type
    from tests.toy_game.definition import SPEC, Toy

    registry.register(SPEC)
    register_game_type(Toy())
    try:
        yield
    finally:
        unregister_game_type(SPEC.id)
        registry.unregister(SPEC.id)


ADAPTERS: dict[str, Adapter] = {a.name: a for a in (
    Adapter("battlecards", battlecards_catalog, battlecards_setup, battlecards_redeal,
            policies=("random", "heuristic"), redeal_hands=battlecards_redeal_hands,
            guards=frozenset({"turn-limit"})),
    Adapter("battlefront", battlefront_catalog, battlefront_setup, battlefront_redeal,
            policies=("random", "heuristic"), redeal_hands=battlefront_redeal_hands),
    Adapter("the-war", the_war_catalog, the_war_setup, the_war_redeal, policies=("random", "heuristic"),
            redeal_hands=the_war_redeal_hands),
    Adapter("tide-of-iron", tide_of_iron_catalog, tide_of_iron_setup, tide_of_iron_redeal,
            policies=("referee",), max_plies=3_000,
            report_types=frozenset({"report_command", "place_unit", "remove_unit", "set_cover"})),
    Adapter("toy", toy_catalog, toy_setup, toy_redeal, policies=("referee",), registered=toy_registered),
)}
