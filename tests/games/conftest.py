"""Fixtures of the games tests: players, authenticated API clients, game creation and a hidden-info oracle."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameAction, GameSeat
from tests.decks.factories import UserFactory
from tests.engine.helpers import json_strings  # the API tests import it from here too

GB = "gb-we-starter"  # allies
DE = "de-we-starter"  # axis
OTHER = {"axis": "allies", "allies": "axis"}


@pytest.fixture
def make_user(db) -> Callable[[str], Any]:
    def make(name: str) -> Any:
        return UserFactory(username=name)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def current_state_json(game: Any) -> dict[str, Any]:
    """The game's current state as JSON: its state column, or with GAMES_STATE_EVERY above 1 the stored
    state with the engine actions logged after it applied (games.selectors.game_state)."""
    from games.selectors import game_state

    return game_state(game=game).to_json() if game.state_lag else game.state


def token_client(user: Any | None) -> APIClient:
    """An API client authenticated the way real clients are: with an API token header."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api() -> Callable[[Any | None], APIClient]:
    return token_client


def game_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "my_deck": {"starter": GB},
        "opponent_deck": {"starter": DE},
        "opponent": {"kind": "human"},
        "seed": 20020101,
    }
    body.update(overrides)
    return body


@pytest.fixture
def create_game(catalog_rows, api) -> Callable[..., dict[str, Any]]:
    def create(user: Any, **overrides: Any) -> dict[str, Any]:
        response = api(user).post("/api/games/", game_body(**overrides), format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return create


@pytest.fixture
def two_player_game(create_game, api, alice, bob) -> dict[str, Any]:
    """alice (allies, British starter) created it; bob (axis, German starter) joined: active."""
    game = create_game(alice)
    response = api(bob).post(f"/api/games/{game['id']}/join/")
    assert response.status_code == 200, response.json()
    return response.json()


def every_seat_acts(api: Any, game_id: str, users: dict[str, Any], *, max_steps: int = 100) -> None:
    """Play first legal actions through the API, each by the human seat that must decide (`users`: seat ->
    user; bot seats answer on their own), until every seat has an engine action in the log: a rated game
    counts only from then on (games.services.ratings: an aborted game is not rated)."""
    seats = set(GameSeat.objects.filter(game_id=game_id).values_list("seat", flat=True))
    for _ in range(max_steps):
        acted = set(GameAction.objects.filter(game_id=game_id, kind="action").values_list("seat", flat=True))
        if acted >= seats:
            return
        client = token_client(users[Game.objects.get(pk=game_id).current_seat])
        view = client.get(f"/api/games/{game_id}/view/").json()
        action = view["view"]["decision"]["legal_actions"][0]
        answer = client.post(
            f"/api/games/{game_id}/actions/", {"version": view["version"], "action": action}, format="json"
        )
        assert answer.status_code == 200, answer.json()
    raise AssertionError(f"not every seat acted within {max_steps} actions")


# --------------------------------------------------------------------------------- hidden information


def _stack_cards(player: dict[str, Any]) -> Iterable[str]:
    for stacks in player["stacks"].values():
        for stack in stacks:
            yield from stack


def _side(seat: str) -> str:
    return seat.split("-", 1)[0]


class HiddenInfoOracle:
    """Knows, from the engine states of a game, which card instances a seat must never see.

    A 1v1 game: a card instance that has only ever been in the opponent's arsenal deck or reserve hand, or
    in the undrawn conflict deck, was never shown to anyone: it must not appear in anything the seat
    receives (views, action answers, events, streams). Cards that were ever public or deployed (then
    possibly revealed in battle) are left out, so the check has no false alarms.

    A team, uneven or combined game (the state has `pools` and `sides`): a seat may see only its own army's
    hand and stacks (everything they ever held), its side's common zones (kept cards, won battlecards) and
    public information (discards, removed and industry cards, occupied stacks, battle frames, and every card
    an event shown to all names). Everything else is secret to it: every arsenal deck (its own nation's
    common deck too), the undrawn conflict deck, the other side's kept cards, and every other army's reserve
    hand and face-down stacks, its teammates' included (a teammate sees no more than an enemy).

    The oracle re-applies the logged actions one by one, so it sees every intermediate state (bots move
    several times inside one request), and it checks the stored state is the log re-run. RNG state must
    never appear at all.
    """

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.ever_exposed: set[str] = set()
        self.seen_by: dict[str, set[str]] = {}  # team games: army -> cards it held (hand, stacks)
        self.side_seen: dict[str, set[str]] = {}  # team games: side -> its common kept cards, ever
        self.version: int | None = None
        self.stored: dict[str, Any] = {}
        self.teammate_secrets = 0  # team games: teammates' hidden cards checked (the proof is not vacuous)
        self.state: Any = None
        self.seq = 0
        self.log: list[tuple[str, int, Any]] = []  # (kind, seq, action) of the engine actions and takebacks

    def _observe(self, state: dict[str, Any]) -> None:
        if "pools" in state:
            self._observe_team(state)
            return
        exposed = set(state["conflict_discard"]) | set(state.get("aside", []))
        for player in state["players"].values():
            for zone in ("discard", "removed", "won", "industry", "kept"):
                exposed.update(player.get(zone, []))
            exposed.update(_stack_cards(player))
            for cards in player.get("occupied", {}).values():
                exposed.update(cards)
        # a battlecard being decided or fought lies face up (it may go back into the deck: Delay Tactics)
        exposed.update(
            f["card"] for f in state["frames"] if f["kind"] in ("battle", "battlecard") and f.get("card")
        )
        self.ever_exposed |= exposed

    def _observe_team(self, state: dict[str, Any]) -> None:
        ids = state["cards"]
        exposed = set(state["conflict_discard"]) | set(state.get("aside", []))
        for pool in state["pools"].values():
            exposed.update(pool["discard"], pool["removed"])
        for side, zones in state["sides"].items():
            exposed.update(zones["won"])
            self.side_seen.setdefault(side, set()).update(zones["kept"])
        for army, player in state["players"].items():
            exposed.update(player["industry"])
            for cards in player["occupied"].values():
                exposed.update(cards)
            self.seen_by.setdefault(army, set()).update(player["hand"], _stack_cards(player))
        for frame in state["frames"]:
            # a battlecard being decided or fought, and every unit in a battle, lies face up
            if frame["kind"] in ("battle", "battlecard"):
                exposed.update(s for s in json_strings(frame) if s in ids)
            # OR3 reserve trade: the card offered is shown to the friendly army it goes to (engine README)
            if frame["kind"] == "reserve_trade":
                self.seen_by.setdefault(frame["with"], set()).add(frame["card"])
            # Capture (C5, C7): the capturing army looks through the enemy stack it chose, and only it
            if frame["kind"] == "capture" and frame.get("stage") == "pick":
                kind, index = frame["ref"].split(":")
                stacks = state["players"][self.state.foe(frame["seat"])]["stacks"][kind]
                if int(index) < len(stacks):
                    self.seen_by.setdefault(frame["seat"], set()).update(stacks[int(index)])
        self.ever_exposed |= exposed

    def _observe_events(self, events: list[Any]) -> None:
        """Team games: what an event shown to every seat names is public."""
        ids = self.state.code
        for event in events:
            if event.visible_to == "all":
                self.ever_exposed.update(s for s in json_strings(event.data) if s in ids)

    def _sync(self) -> dict[str, Any]:
        from games import engine
        from games.catalog_snapshot import catalog_from_snapshot
        from games.models import Game, GameAction

        version = Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first()
        if self.state is not None and version == self.version:
            return self.stored  # nothing happened since the last look
        game = Game.objects.get(pk=self.game_id)
        self.version = game.version
        if self.state is None:
            catalog = catalog_from_snapshot(game.snapshot.data)
            self.state = engine.new_game(catalog, engine.GameSetup.from_json(game.setup))
            self._observe(self.state.to_json())
        for kind, seq, action in _log_since(GameAction, game, self.seq):
            self.seq = seq
            self.log.append((kind, seq, action))
            if kind != "action":  # a takeback rewinds: the state is the replay of the actions in effect
                self.state = _rewound(self.state, self.log, engine)
                self._observe(self.state.to_json())
                continue
            events = engine.apply(self.state, engine.Action.from_json(action))
            state = self.state.to_json()
            if "pools" in state:
                self._observe_events(events)
            self._observe(state)
        current = current_state_json(game)
        assert self.state.to_json() == current, "the current state is the log replayed"
        self.stored = current
        return current

    def secret_for(self, seat: str | None) -> set[str]:
        state = self._sync()
        if "pools" in state:
            return self._team_secret_for(state, seat)
        never_shown = set(state["conflict_deck"])
        for opponent in [state["players"][OTHER[seat]]] if seat else state["players"].values():
            never_shown |= set(opponent["deck"]) | set(opponent["hand"])  # seat None: a user with no seat
        return never_shown - self.ever_exposed

    def _team_secret_for(self, state: dict[str, Any], seat: str | None) -> set[str]:
        """`seat` None: a user with no seat at the game (everything hidden from every seat)."""
        side = _side(seat) if seat else None
        hidden = set(state["conflict_deck"])
        for pool in state["pools"].values():
            hidden.update(pool["deck"])
        for other_side, zones in state["sides"].items():
            if other_side != side:
                hidden.update(zones["kept"])
        allowed = self.ever_exposed | self.seen_by.get(seat, set()) | self.side_seen.get(side, set())
        for army, player in state["players"].items():
            if army != seat:
                cards = (set(player["hand"]) | set(_stack_cards(player))) - allowed
                hidden |= cards
                if _side(army) == side:
                    self.teammate_secrets += len(cards)
        return hidden - allowed

    def check(self, payload: Any, seat: str | None) -> int:
        """Assert nothing secret is in `payload`; returns how many secret card instances were checked."""
        strings = json_strings(payload)
        secret = self.secret_for(seat)
        leaked = secret & strings
        assert not leaked, (
            f"{seat} received hidden card instances {sorted(leaked)[:5]} at {_paths(payload, leaked)[:5]}; "
            f"they lie in {_zones(self.state.to_json(), leaked)[:5]}"
        )
        assert "rng" not in strings, f"{seat} received RNG state"
        return len(secret)


def _log_since(model: Any, game: Any, seq: int) -> Any:
    """The engine actions and the accepted takebacks after `seq`: (kind, seq, action)."""
    rows = model.objects.filter(game=game, seq__gt=seq, kind__in=("action", "takeback")).order_by("seq")
    return [
        (kind, s, action)
        for kind, s, action in rows.values_list("kind", "seq", "action")
        if kind == "action" or action.get("type") == "takeback"
    ]


def _rewound(state: Any, log: list[tuple[str, int, Any]], engine: Any) -> Any:
    """The state rebuilt from the game's set-up and the actions still in effect (what the oracle has already
    seen stays seen: a takeback cannot make a seat forget)."""
    from games.takeback_rules import effective_actions

    fresh = engine.new_game(state.catalog, state.setup)
    for _kind, _seq, action in effective_actions(log):
        engine.apply(fresh, engine.Action.from_json(action))
    return fresh


def _paths(value: Any, wanted: set[str], path: str = "") -> list[str]:
    """Where in a JSON document the strings `wanted` occur (for a readable failure)."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _paths(v, wanted, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _paths(v, wanted, f"{path}[{i}]")]
    return [f"{path}={value}"] if value in wanted else []


def _zones(state: dict[str, Any], wanted: set[str]) -> list[str]:
    return _paths({k: v for k, v in state.items() if k not in ("cards", "owners")}, wanted)


class BattlefrontOracle:
    """The hidden-information oracle of a Battlefront game (one shared deck, seats west and east).

    A seat must never receive a card code that is in the undrawn deck, in the opponent's hand or among the
    opponent's (face-down) discards, unless that seat saw it legitimately: it was played face up on a
    front or used openly (a Special card's Industrial Giant), or the seat's own scout showed the opponent's
    hand ("If you play a Scout card, you may look at your opponent's hand": to the scout's owner only).
    Like HiddenInfoOracle it re-applies the log action by action, so every intermediate state (bots move
    several times inside one request) is accounted for, and it checks the stored state is the log re-run.
    """

    SEATS = ("west", "east")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.public: set[str] = set()  # seen by both seats
        self.seen_by: dict[str, set[str]] = {seat: set() for seat in self.SEATS}
        self.state: Any = None
        self.seq = 0
        self.log: list[tuple[str, int, Any]] = []  # (kind, seq, action) of the engine actions and takebacks
        self.log: list[tuple[str, int, Any]] = []  # (kind, seq, action) of the engine actions and takebacks
        self.scout_reveals: dict[str, int] = dict.fromkeys(self.SEATS, 0)

    def _observe(self, state: dict[str, Any]) -> None:
        for front in state["fronts"].values():
            for cards in front.values():
                self.public.update(cards)
        for seat in self.SEATS:
            self.seen_by[seat].update(state["hands"][seat], state["discards"][seat])
            if state["scouted"][seat]:
                self.seen_by[seat].update(state["scouted"][seat])

    def _sync(self) -> dict[str, Any]:
        from games.engine import battlefront as bf
        from games.models import Game, GameAction

        game = Game.objects.get(pk=self.game_id)
        if self.state is None:
            catalog = bf.BattlefrontCatalog.from_dicts(**game.snapshot.data)
            self.state = bf.new_game(catalog, bf.GameSetup.from_json(game.setup))
            self._observe(self.state.to_json())
        for kind, seq, action in _log_since(GameAction, game, self.seq):
            self.seq = seq
            self.log.append((kind, seq, action))
            if kind != "action":  # a takeback rewinds: the state is the replay of the actions in effect
                self.state = _rewound(self.state, self.log, bf)
                self._observe(self.state.to_json())
                continue
            events = bf.apply(self.state, bf.Action.from_json(action))
            for event in events:
                if event.type == "special_used":  # used openly: the card is named to both seats
                    self.public.add(event.data["card"])
                if event.type == "scouted_hand":
                    self.scout_reveals[event.visible_to] += 1
            self._observe(self.state.to_json())
        current = current_state_json(game)
        assert self.state.to_json() == current, "the current state is the log replayed"
        return current

    def secret_for(self, seat: str | None) -> set[str]:
        """`seat` None: a spectator (both hands and face-down discards are secret to him)."""
        state = self._sync()
        others = [s for s in self.SEATS if s != seat]
        never_shown = set(state["deck"])
        for other in others:
            never_shown |= set(state["hands"][other]) | set(state["discards"][other])
        return never_shown - self.public - (self.seen_by[seat] if seat else set())

    def check(self, payload: Any, seat: str | None) -> int:
        """Assert nothing secret is in `payload`; returns how many secret cards were checked."""
        strings = json_strings(payload)
        secret = self.secret_for(seat)
        leaked = secret & strings
        assert not leaked, f"{seat} received hidden cards {sorted(leaked)[:5]}"
        assert "rng" not in strings, f"{seat} received RNG state"
        return len(secret)


class TheWarOracle:
    """The hidden-information oracle of a The War game (seats p1 and p2, each with his own deck).

    Cards are instances ("p1.16") of codes ("tw-depot"). A seat must never receive the id of a card that is
    in any deck or in the opponent's hand unless that seat saw it legitimately (its own hand, a card ever in
    a public zone); nor any deck order (no list it receives holds two cards of a deck); nor, for the
    opponent's hand, a card code the seat has no public reason to know of: a code it never saw in a public
    zone, in its own cards, in the public re-draw reveal or in what its own scout party showed it ("what a
    scout party shows its owner"). Spectators (seat None) see no hand at all and no scouted hand. Like the
    other oracles it re-applies the log action by action, so states in between (bot moves) count too.
    """

    SEATS = ("p1", "p2")
    PUBLIC_ZONES = ("resources", "line1", "line2", "reserve", "conditions", "losses")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.public_ids: set[str] = set()
        self.public_codes: set[str] = set()
        self.seen_ids: dict[str, set[str]] = {seat: set() for seat in self.SEATS}
        self.seen_codes: dict[str, set[str]] = {seat: set() for seat in self.SEATS}
        self.state: Any = None
        self.seq = 0
        self.log: list[tuple[str, int, Any]] = []
        self.scout_reveals: dict[str, int] = dict.fromkeys(self.SEATS, 0)
        self.redraw_reveals = 0

    def _observe(self, state: dict[str, Any]) -> None:
        codes = state["codes"]
        for seat in self.SEATS:
            zones = state["zones"][seat]
            for zone in self.PUBLIC_ZONES:
                self.public_ids.update(zones[zone])
                self.public_codes.update(codes[c] for c in zones[zone])
            self.seen_ids[seat].update(zones["hand"])
            self.seen_codes[seat].update(codes[c] for c in zones["hand"])
            self.public_codes.update(state["revealed"][seat] or ())
            self.seen_codes[seat].update(state["scouted"][seat] or ())

    def _sync(self) -> dict[str, Any]:
        from games.engine import the_war as tw
        from games.game_types import get_game_type
        from games.models import Game, GameAction

        game = Game.objects.get(pk=self.game_id)
        if self.state is None:
            kind = get_game_type("the-war")
            catalog = kind.catalog_from_dicts(game.snapshot.data)
            self.state = tw.new_game(catalog, tw.GameSetup.from_json(game.setup))
            self._observe(self.state.to_json())
        for kind_, seq, action in _log_since(GameAction, game, self.seq):
            self.seq = seq
            self.log.append((kind_, seq, action))
            if kind_ != "action":
                self.state = _rewound(self.state, self.log, tw)
                self._observe(self.state.to_json())
                continue
            for event in tw.apply(self.state, tw.Action.from_json(action)):
                if event.type == "scouted_hand":
                    self.scout_reveals[event.visible_to] += 1
                if event.type == "hand_revealed":
                    self.redraw_reveals += 1
            self._observe(self.state.to_json())
        current = current_state_json(game)
        assert self.state.to_json() == current, "the current state is the log replayed"
        return current

    def check(self, payload: Any, seat: str | None) -> int:
        """Assert nothing secret is in `payload` (seat None: a spectator); returns the secrets checked."""
        state = self._sync()
        zones, codes = state["zones"], state["codes"]
        deck_ids = {c for s in self.SEATS for c in zones[s]["deck"]}
        others = [s for s in self.SEATS if s != seat]
        hidden_ids = set(deck_ids)
        for other in others:
            hidden_ids |= set(zones[other]["hand"])
        secret_ids = hidden_ids - self.public_ids - (self.seen_ids[seat] if seat else set())
        known_codes = self.public_codes | (self.seen_codes[seat] if seat else set())
        if seat:
            known_codes |= {codes[c] for c in codes if c.startswith(f"{seat}.")}
        secret_codes = {codes[c] for other in others for c in zones[other]["hand"]} - known_codes
        strings = json_strings(payload)
        leaked = (secret_ids | secret_codes) & strings
        assert not leaked, f"{seat} received hidden cards {sorted(leaked)[:5]}"
        assert "rng" not in strings, f"{seat} received RNG state"
        stack = [payload]
        while stack:  # no deck order: no list holds two cards of a deck
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                assert sum(1 for x in item if isinstance(x, str) and x in deck_ids) < 2, "a deck order"
                stack.extend(item)
        return len(secret_ids) + len(secret_codes)


@pytest.fixture
def bot_game(catalog_rows, alice) -> dict[str, Any]:
    """A game of alice's against the random bot, as created through the API."""
    response = token_client(alice).post(
        "/api/games/", game_body(opponent={"kind": "bot", "bot": "random"}), format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def _close_this_threads_connection() -> None:
    connection.close()


def run_closing_connection(scenario: Any) -> None:
    """Run an async test scenario; the connection its sync_to_async thread opened (its requests keep it
    open) is closed at the end, so it never outlives the test."""

    async def main() -> None:
        try:
            await scenario
        finally:
            await sync_to_async(_close_this_threads_connection)()

    asyncio.run(main())
