"""A small hand-made catalog with round numbers, and helpers to build and drive scenarios.

Scenario tests use this catalog (not the estimated fixture values) so each test controls every number:
the conflict deck is stacked with "t-n<N>" cards whose action number is N.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import Action, Catalog, GameState, apply, legal_actions, load_scenario
from games.engine.battlecards.inspect import battle_frame, frames_in_progress
from vocabulary.battlecards import Catalog as _Catalog

NONE = {"ground": None, "air": None, "sea": None}

def json_strings(value: Any) -> set[str]:
    """Every string (keys and values) anywhere in a JSON document (a tuple is a list there): the hidden-card
    checks intersect it with the ids a viewer may not see, where searching the JSON text once per id took most
    of their time."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


def unit_def(
    code: str,
    nation: str,
    kind: str,
    classes: list[str],
    attack: dict | None,
    defense: dict | None,
    phase: int | None,
    abilities: list[dict] | None = None,
    points: int = 10,
) -> dict[str, Any]:
    return {
        "code": code,
        "name": code,
        "nation": nation,
        "kind": kind,
        "classes": classes,
        "points": points,
        "max_per_deck": None,
        "attack": attack or NONE,
        "defense": defense or NONE,
        "phase": phase,
        "abilities": abilities or [],
    }


def _g(ground=None, air=None, sea=None) -> dict:
    return {"ground": ground, "air": air, "sea": sea}


def nation_units(prefix: str, nation: str) -> list[dict[str, Any]]:
    p = prefix
    return [
        unit_def(
            f"{p}-inf",
            nation,
            "ground",
            ["infantry"],
            _g(4, 2),
            _g(3, 3, 3),
            4,
            [{"kind": "infantry_support", "bonus": 2}],
            points=4,
        ),
        unit_def(f"{p}-tank", nation, "ground", ["tank"], _g(7, 2), _g(6, 4, 6), 3, points=7),
        unit_def(
            f"{p}-tiger",
            nation,
            "ground",
            ["tank"],
            _g(10, 2),
            _g(8, 6, 8),
            3,
            [
                {
                    "kind": "autokill",
                    "max_defense": 4,
                    "target_kinds": ["ground"],
                    "requires_infantry": True,
                    "first_round_only": False,
                }
            ],
            points=11,
        ),
        unit_def(
            f"{p}-general",
            nation,
            "ground",
            ["general"],
            _g(9, 4),
            _g(8, 5, 5),
            3,
            [
                {"kind": "general_aura", "attack": 2, "defense": 2},
                {
                    "kind": "autokill",
                    "max_defense": 4,
                    "target_kinds": ["ground"],
                    "requires_infantry": False,
                    "first_round_only": False,
                },
            ],
            points=15,
        ),
        unit_def(
            f"{p}-leader",
            nation,
            "ground",
            ["leader"],
            None,
            None,
            None,
            [{"kind": "leader", "draw": 1}],
            points=13,
        ),
        unit_def(
            f"{p}-art",
            nation,
            "ground",
            ["artillery"],
            _g(12, None, 6),
            _g(4, 4, 5),
            1,
            [{"kind": "artillery_support", "bonus": 2, "target_kinds": ["ground", "sea"]}],
            points=10,
        ),
        unit_def(
            f"{p}-flak",
            nation,
            "ground",
            ["anti-aircraft-artillery"],
            _g(4, 8),
            _g(3, 4, 3),
            1,
            [{"kind": "artillery_support", "bonus": 2, "target_kinds": ["air"]}],
            points=7,
        ),
        unit_def(f"{p}-fighter", nation, "air", ["fighter"], _g(4, 12, 4), _g(5, 9, 5), 2, points=10),
        unit_def(
            f"{p}-bomber",
            nation,
            "air",
            ["bomber"],
            _g(14, 5, 11),
            _g(8, 8, 8),
            2,
            [{"kind": "double_attack"}],
            points=15,
        ),
        unit_def(
            f"{p}-battleship",
            nation,
            "sea",
            ["battleship"],
            _g(14, 18, 20),
            _g(12, 10, 14),
            1,
            [{"kind": "big_guns"}],
            points=19,
        ),
        unit_def(
            f"{p}-heavy",
            nation,
            "sea",
            ["battleship"],
            _g(14, 18, 20),
            _g(12, 10, 14),
            1,
            [{"kind": "heavy_guns"}],
            points=21,
        ),
        unit_def(
            f"{p}-destroyer",
            nation,
            "sea",
            ["destroyer"],
            _g(9, 13, 9),
            _g(5, 6, 6),
            2,
            [{"kind": "ship_support", "bonus": 2}],
            points=11,
        ),
        unit_def(
            f"{p}-sub",
            nation,
            "sea",
            ["submarine"],
            _g(5, None, 12),
            _g(3, 3, 3),
            2,
            [{"kind": "submarine"}],
            points=13,
        ),
        unit_def(
            f"{p}-carrier",
            nation,
            "sea",
            ["fleet-carrier"],
            _g(7, 9, 7),
            _g(7, 13, 8),
            2,
            [{"kind": "carrier_bonus", "bonuses": [5, 5]}],
            points=21,
        ),
        unit_def(
            f"{p}-radar",
            nation,
            "ground",
            ["special"],
            None,
            None,
            None,
            [{"kind": "radar", "air_defense_bonus": 2}],
            points=7,
        ),
        unit_def(
            f"{p}-sas",
            nation,
            "ground",
            ["infantry", "special-forces"],
            _g(11, 6),
            _g(8, 8, 8),
            4,
            [
                {"kind": "infantry_support", "bonus": 2},
                {
                    "kind": "autokill",
                    "max_defense": 4,
                    "target_kinds": ["ground"],
                    "requires_infantry": False,
                    "first_round_only": True,
                },
            ],
            points=13,
        ),
        unit_def(
            f"{p}-oss",
            nation,
            "ground",
            ["special-forces"],
            _g(9, 4),
            _g(7, 7, 5),
            4,
            [{"kind": "sabotage", "target_classes": ["general", "leader"]}],
            points=15,
        ),
        unit_def(
            f"{p}-ultra",
            nation,
            "ground",
            ["special"],
            None,
            None,
            None,
            [{"kind": "codebreaker", "attack_bonus": 2}],
            points=30,
        ),
        unit_def(
            f"{p}-spies",
            nation,
            "ground",
            ["special"],
            None,
            None,
            None,
            [{"kind": "intelligence"}],
            points=20,
        ),
        unit_def(
            f"{p}-factory",
            nation,
            "ground",
            ["special"],
            None,
            None,
            None,
            [{"kind": "industry", "extra": 1}],
            points=30,
        ),
        unit_def(f"{p}-v2", nation, "ground", ["rocket"], None, None, None, [{"kind": "v2_rocket"}],
                 points=9),
    ]


KEPT = [
    "counterattack",
    "delay-tactics",
    "misinformation",
    "military-intelligence",
    "stolen-plans",
    "pre-emptive-strike",
    "a-bomb",
    "mine-fields",
    "lack-of-valor",
    "air-raid",
    "scorched-earth",
    "industrial-strike",
    "sabotage",
    "kamikaze",
    "russian-winter",
]


def conflict_defs() -> list[dict[str, Any]]:
    cards = [
        {
            "code": f"t-n{n}",
            "name": f"number {n}",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "military-build-up",
            "action_number": n,
            "effect": "build-up",
            "params": {"draw": 1, "deploy": 1},
        }
        for n in range(1, 21)
    ]
    cards.append(
        {
            "code": "t-build-2",
            "name": "major build-up",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "military-build-up",
            "action_number": 10,
            "effect": "build-up",
            "params": {"draw": 2, "deploy": 2},
        }
    )
    cards.append(
        {
            "code": "t-replenish",
            "name": "replenish",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "military-build-up",
            "action_number": 10,
            "effect": "replenish",
            "params": {"draw": 3},
        }
    )
    cards.append(
        {
            "code": "t-list",
            "name": "battlecard list",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "battlecard-list",
            "action_number": 10,
            "effect": "battlecard-list",
            "params": {},
        }
    )
    for eff in KEPT:
        cards.append(
            {
                "code": f"t-{eff}",
                "name": eff,
                "theater": "TT",
                "set": "t-conflict",
                "count": 1,
                "category": "kept",
                "action_number": 10,
                "effect": eff,
                "params": {},
            }
        )
    cards.append(
        {
            "code": "t-chemical-warfare",
            "name": "chemical warfare",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "kept",
            "action_number": 10,
            "effect": "chemical-warfare",
            "params": {"attack": 13},
        }
    )
    cards.append(
        {
            "code": "t-industrial-complex",
            "name": "industrial complex",
            "theater": "TT",
            "set": "t-conflict",
            "count": 1,
            "category": "kept",
            "action_number": 10,
            "effect": "industrial-complex",
            "params": {"extra": 1},
        }
    )
    for eff in ("divide-and-conquer", "reorganize-forces", "capture"):
        cards.append(
            {
                "code": f"t-{eff}",
                "name": eff,
                "theater": "TT",
                "set": "t-conflict",
                "count": 1,
                "category": "immediate",
                "action_number": 10,
                "effect": eff,
                "params": {},
            }
        )
    return cards


def _bc(code: str, aggressor: str, agg: dict, dfd: dict, vp: int, **extra: Any) -> dict[str, Any]:
    return {
        "code": code,
        "name": code,
        "theater": "TT",
        "set": "t-conflict",
        "count": 1,
        "action_number": 10,
        "aggressor": aggressor,
        "aggressor_forces": agg,
        "defender_forces": dfd,
        "victory_points": vp,
        "prerequisites": extra.pop("prerequisites", []),
        **extra,
    }


GA = {"ground": True, "air": True}
AS = {"air": True, "sea": True}
ALL = {"ground": True, "air": True, "sea": True}


def battlecard_defs() -> list[dict[str, Any]]:
    return [
        _bc("t-land", "DE", GA, GA, 6),
        _bc("t-land-gb", "GB", GA, GA, 6),
        _bc("t-ground", "DE", {"ground": True}, {"ground": True}, 5),
        _bc("t-sea", "drawing-player", AS, AS, 5),
        _bc("t-naval", "DE", {"sea": True}, {"sea": True}, 4),
        _bc("t-air", "DE", {"air": True}, {"air": True}, 4),
        _bc(
            "t-britain",
            "DE",
            {"air": True},
            {"air": True, "optional_ground_classes": ["anti-aircraft-artillery"]},
            7,
        ),
        _bc("t-baltic", "GB", AS, {**AS, "optional_ground_classes": ["artillery"]}, 4),
        _bc(
            "t-normandy",
            "GB",
            {**ALL, "non_artillery_ground_required": True},
            ALL,
            9,
            special_victory="defender-wins-if-aggressor-ground-destroyed",
            special_victory_text="If all allied ground units are destroyed, then the Germans win the battle.",
        ),
        _bc("t-invasion", "DE", {**GA, "non_artillery_ground_required": True}, GA, 6),
        _bc("t-followup", "GB", GA, GA, 6, prerequisites=[{"holder": "DE", "battlecard": "t-invasion"}]),
        _bc(
            "t-invade-britain",
            "DE",
            {**ALL, "non_artillery_ground_required": True},
            ALL,
            8,
            homeland_of="GB",
            emergency_deployment=True,
        ),
        _bc(
            "t-invade-germany",
            "GB",
            {**GA, "non_artillery_ground_required": True},
            GA,
            8,
            homeland_of="DE",
            emergency_deployment=True,
        ),
    ]


def test_catalog() -> Catalog:
    return _Catalog.from_dicts(
        nations=[
            {"code": "GB", "name": "British", "side": "allies"},
            {"code": "DE", "name": "German", "side": "axis"},
        ],
        theaters=[{"code": "TT", "name": "Test theater"}],
        sets=[],
        arsenal=nation_units("de", "DE") + nation_units("gb", "GB"),
        conflict_cards=conflict_defs(),
        battlecards=battlecard_defs(),
    )


test_catalog.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
CAT = test_catalog()
FILLER = ["de-inf"] * 10


def numbers(*ns: int) -> list[str]:
    """Conflict deck (top first) whose cards turn up action numbers `ns` in order."""
    return [f"t-n{n}" for n in ns]


def scenario(
    *,
    axis: dict | None = None,
    allies: dict | None = None,
    deck: list[str] | None = None,
    seat: str = "axis",
    **extra: Any,
) -> dict[str, Any]:
    """A scenario dict with sensible defaults (arsenal decks of 10 infantry so draws never run dry)."""

    def player(spec: dict | None, nation: str) -> dict:
        spec = dict(spec or {})
        spec.setdefault("deck", [f"{nation.lower()}-inf"] * 10)
        return spec

    return {
        "seed": 1,
        "nations": {"axis": "DE", "allies": "GB"},
        "players": {"axis": player(axis, "DE"), "allies": player(allies, "GB")},
        "conflict_deck": deck if deck is not None else numbers(*([10] * 20)),
        "turn": {"seat": seat, "number": 3},
        **extra,
    }


def load(**kw: Any) -> GameState:
    return load_scenario(CAT, scenario(**kw))


def ids(st: GameState, code: str, seat: str | None = None) -> list[str]:
    """Instance ids of `code` in scenario order; cards still in an arsenal deck only if no other matches."""
    out = [cid for cid, c in st.code.items() if c == code]
    if seat is not None:
        p, side = st.players[seat], st.team(seat)
        zones = (
            [c for k in p["stacks"].values() for s in k for c in s]
            + p["hand"]
            + side["kept"]
            + side["won"]
            + p["industry"]
            + [c for s in p["occupied"].values() for c in s]
            + st.arsenal(seat)["discard"]
        )
        out = [c for c in out if c in zones]
    in_decks = {c for s in ("axis", "allies") for c in st.arsenal(s)["deck"]}
    outside = [c for c in out if c not in in_decks]
    return sorted(outside or out, key=lambda c: int(c[1:]))


def one(st: GameState, code: str, seat: str | None = None) -> str:
    found = ids(st, code, seat)
    assert found, f"no {code}"
    return found[0]


def do(st: GameState, type_: str, **fields: Any) -> list:
    """Apply an action for the seat that must decide."""
    data = {"type": type_, "seat": st.decision.seat, **fields}
    return apply(st, Action.from_json(data))


def kinds(st: GameState) -> str:
    return st.decision.kind if st.decision else "finished"


def legal_json(st: GameState) -> list[dict]:
    return [a.to_json() for a in legal_actions(st)]


def event_types(events: list) -> list[str]:
    return [e.type for e in events]


def fight(st: GameState) -> list:
    """From a drawn battlecard: the aggressor fights; pass responses until the battle starts."""
    events = do(st, "choose", option="fight")
    while st.decision and st.decision.kind in ("battlecard_response", "emergency_deploy", "commit_optional"):
        if st.decision.kind == "commit_optional":
            events += do(st, "choose", option="exclude")
        else:
            events += do(st, "pass")
    return events


def pass_until(st: GameState, kind: str, limit: int = 50) -> list:
    """Pass / hold everything until the decision is `kind` (holds units in fire decisions)."""
    events: list = []
    for _ in range(limit):
        if st.decision is None or st.decision.kind == kind:
            return events
        legal = legal_actions(st)
        passes = [a for a in legal if a.type in ("pass",)]
        holds = [a for a in legal if a.type == "hold"]
        if passes:
            events += apply(st, passes[0])
        elif holds:
            events += apply(st, holds[0])
        else:
            raise AssertionError(f"cannot pass through {st.decision.kind}: {[str(a) for a in legal]}")
    raise AssertionError(f"never reached {kind}")


def battle(st: GameState) -> dict:
    fr = battle_frame(st)
    assert fr is not None
    return fr


def card_zones(state: GameState) -> Counter:
    """Every card id in every zone (each army's hand, stacks, occupied stacks and industry, each nation's
    arsenal and each side's kept and won piles), plus the battlecard set aside face up while it is fought
    (not a counterattacked one, which stays in its holder's won pile)."""
    c: Counter = Counter()
    for p in state.players.values():
        for key in ("hand", "industry"):
            c.update(p[key])
        for stacks in p["stacks"].values():
            for s in stacks:
                c.update(s)
        for s in p["occupied"].values():
            c.update(s)
    for zone in (*state.pools.values(), *state.sides.values()):
        for pile in zone.values():
            c.update(pile)
    c.update(state.conflict_deck)
    c.update(state.conflict_discard)
    c.update(state.aside)
    for fr in frames_in_progress(state):
        if (fr.kind in ("battlecard", "battle") and fr.card and not fr.counter
                and fr.stage not in ("scorch", "done")):
            c[fr.card] += 1
    return c


def rng_as_numbers(data: dict[str, Any]) -> dict[str, Any]:
    """A state's JSON with its "rng" entry in the form states were stored in before issue 42 (the Mersenne
    Twister's 625 words as a list of numbers, not one base64 string: games.engine.core.rng): the fixtures of
    old stored games hold that form, and their tests compare today's state with them byte for byte."""
    import random

    from games.engine.core.rng import rng_from_json

    rng = random.Random()
    rng_from_json(rng, data["rng"])
    version, words, gauss = rng.getstate()
    return {**data, "rng": [version, list(words), gauss]}
