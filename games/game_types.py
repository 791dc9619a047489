"""The game types the service plays, each an adapter around its pure engine (games.engine.*).

The services, selectors and APIs play every game through its adapter: they ask `get_game_type(name)` (or
`game_type_of(game)`) and call the same methods whatever the game: load a state, parse and apply an action,
list the legal actions, build a seat's view, make a bot, replay a log, simulate. What differs between games
(seats, options, how the frozen card snapshot is built, which card definitions a view names, whether players
bring decks) lives here, one class per game. Only dealing a Battlecards game from two matched decks stays
Battlecards code in games.services (games.services.deal, with games.decks_glue).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from django.utils.module_loading import import_string

from config.errors import ValidationFailed
from games.engine import registry
from games.engine.core.engine import Engine, ModuleEngine
from games.engine.core.errors import EngineError
from games.engine.core.registry import GameSpec
from games.options import game_options, rules_options


class GameType:
    """The Django-side definition of one game, registered under its id in the pure registry
    (games.engine.registry): what the service needs around the game's `Engine` (games.engine.core.engine):
    options, the frozen catalog snapshot, the card definitions a view names, bots, set-up of shared-deck
    games. The id, label, seats and engine come from the registry's spec; a subclass sets `name` (the id)
    and what differs."""

    name: str = ""
    uses_decks: bool = True  # players bring decks (Battlecards) or share one deck (Battlefront)
    # Clocks, takebacks and ratings (issue 25) apply to a game of moves; not to a referee whose every
    # activation rolls dice (Tide of Iron): its matches are created without them and refuse takebacks.
    live_play: bool = True
    # The web part (optional): the play page's table (None: the view's parts drawn generically), one control
    # title per decision kind in the game's own words (the buttons are the decision's legal actions), and
    # the reports a seat types in (action type -> its fields) when the board is physical.
    board_template: str | None = None
    controls: Mapping[str, str] = {}
    reports: Mapping[str, list[tuple[str, str]]] = {}
    # The deck part (optional): the import path of the game's decks.deck_games.DeckGame when its players build
    # their own decks in the deck builder (decks/, web/deck_editor.py).
    deck_part: str | None = None
    # Team games (Battlecards' armies: several players a side, each playing one army of the side).
    team_games: bool = False
    # The catalog part (optional): the links GET /api/ lists for the game's card collections, (key, URL
    # name) pairs in the order listed (a name not routed yet is skipped).
    api_links: tuple[tuple[str, str], ...] = ()
    # The game's section of the catalog's bulk file (cards.bulk), None when it adds none: (its key in the
    # file, the import path of the function that gives it).
    bulk_section: tuple[str, str] | None = None
    # The play page's card faces: (a card definition's "type", the URL name of its face image).
    face_routes: tuple[tuple[str, str], ...] = ()
    # Saved decks dealt by the game's own services (optional; The War: each player brings a deck of his own
    # though the game is not dealt by games.services.deal): import paths of the function that creates a game
    # from my_deck/opponent_deck, of the one that deals a joining seat's deck, and of the one that queues a
    # simulation of deck_a against deck_b.
    deck_create: str | None = None
    deck_join_deal: str | None = None
    deck_simulation: str | None = None

    @cached_property
    def decks(self) -> Any:
        """The game's deck part (decks.deck_games.DeckGame), None when its players build no decks."""
        return import_string(self.deck_part)() if self.deck_part else None

    @property
    def spec(self) -> GameSpec:
        return registry.get(self.name)

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def seats(self) -> tuple[str, ...]:
        return self.spec.seats

    @property
    def bots_available(self) -> bool:
        """False: a referee of a physical game (Tide of Iron) seats humans only."""
        return self.spec.engine.has_bots

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        """The bots this game offers (the engine's: random, heuristic and its search levels, if any)."""
        if not self.bots_available:
            return ()
        return tuple(getattr(self.spec.engine, "bot_kinds", ("random", "heuristic")))

    @property
    def engine(self) -> Engine:
        return self.spec.engine

    @property
    def package(self) -> Any:
        """The engine's package (its game-specific names: Options, GameSetup, its catalog class, ...)."""
        engine = self.spec.engine
        return engine.package if isinstance(engine, ModuleEngine) else engine

    @property
    def errors(self) -> type[EngineError]:
        """The engine's error base (every engine raises the core's EngineError and its subclasses; caught and
        turned into 400s with the engine's code and message)."""
        return EngineError

    def other_seat(self, seat: str) -> str:
        first, second = self.seats
        return second if seat == first else first

    # ------------------------------------------------------------------------------------ set-up

    def options(self, data: Mapping[str, Any]) -> Any:
        """The engine's Options from a request's JSON (400 invalid_options when the engine refuses it)."""
        try:
            return self.package.Options.from_json(rules_options(dict(data)))
        except self.errors as exc:
            raise ValidationFailed(exc.message, code="invalid_options") from exc
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ValidationFailed(f"Invalid options: {exc}", code="invalid_options") from exc

    def setup_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.engine.setup_from_json(data)

    def catalog_from_dicts(self, data: Mapping[str, Any]) -> Any:
        return self.engine.catalog_from_dicts(data)

    def catalog_from_snapshot(self, data: Mapping[str, Any], digest: str | None = None) -> Any:
        """The frozen catalog of a game (cached per snapshot hash by games.catalog_snapshot)."""
        from games.catalog_snapshot import catalog_from_snapshot

        return catalog_from_snapshot(data, digest, build=self.catalog_from_dicts)

    def new_state(self, catalog: Any, setup: Any) -> Any:
        return self.engine.new_game(catalog, setup)

    # -------------------------------------------------------------------------------------- play

    def state_from_json(self, data: Mapping[str, Any], catalog: Any) -> Any:
        return self.engine.state_from_json(data, catalog)

    def parse_action(self, data: Mapping[str, Any]) -> Any:
        """The engine's Action (raises the engine's error, code malformed_action, for a bad one)."""
        return self.engine.parse_action(data)

    def apply(self, state: Any, action: Any) -> list[Any]:
        return self.engine.apply(state, action)

    def legal_actions(self, state: Any) -> list[Any]:
        return self.engine.legal_actions(state)

    def view(self, state: Any, seat: str) -> dict[str, Any]:
        return self.engine.view(state, seat)

    def public_view(self, state: Any) -> dict[str, Any]:
        """What a spectator may see: only what every seat sees (the engine's public_view)."""
        return self.engine.public_view(state)

    def bot(self, kind: str, *, catalog: Any, salt: str | None = None) -> Any:
        """A bot that sees only its seat's view; its choices hash `salt` (no second RNG)."""
        if not self.bots_available:
            raise ValueError(f"{self.label} has no bots")
        return self.engine.bot(kind, catalog=catalog, salt=salt)

    def replay(self, catalog: Any, setup_json: Mapping[str, Any], actions: list[Any]) -> Any:
        return self.engine.replay(catalog, self.setup_from_json(setup_json), actions)

    def play_game(self, catalog: Any, setup: Any, bots: Mapping[str, Any], *, max_plies: int) -> Any:
        return self.engine.play_game(catalog, setup, dict(bots), max_plies=max_plies)

    def card_codes(self, view: Any) -> set[str]:
        """The card codes a view shows (the string values of its "code" keys, in its dicts and lists at any
        depth). A recursive walk: about 3x faster than a stack of generators on a view of turn 20."""
        codes: set[str] = set()
        add = codes.add
        containers = (dict, list)

        def walk(values: Any) -> None:
            for value in values:
                if isinstance(value, containers):
                    if isinstance(value, dict):
                        code = value.get("code")
                        if isinstance(code, str):
                            add(code)
                        walk(value.values())
                    else:
                        walk(value)

        walk((view,))
        return codes

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        """The frozen definition of each card code (only codes the view already shows), keyed by code in
        sorted order; a code's definition depends on that code and the catalog alone, and a code the catalog
        does not know is left out (games.selectors.view_cards_json encodes each card once per catalog)."""
        raise NotImplementedError

    # ------------------------------------------------------------ shared-deck games (uses_decks False)

    def live_snapshot(self) -> dict[str, Any]:
        """The card definitions a new game is dealt with, as the JSON its frozen snapshot stores."""
        raise NotImplementedError

    def new_setup(self, *, seed: int, options: Any) -> Any:
        """The engine's setup of a new game from its (mixed) seed and its Options."""
        raise NotImplementedError

    def seat_nations(self, options: Any) -> dict[str, str]:  # noqa: ARG002
        """What each seat plays as, shown on the seat (empty: nothing to show)."""
        return {}

    # ------------------------------------------------------------------------------ web part

    def face_route(self, definition: Mapping[str, Any]) -> str | None:
        """The URL name of a card's face image on the play page (None: the card is drawn as text)."""
        return dict(self.face_routes).get(definition.get("type") or "")

    def lobby_options(self, post: Mapping[str, Any]) -> dict[str, Any] | None:  # noqa: ARG002
        """The options the lobby's form gives a new game of this type (None: the defaults)."""
        return None

    # The rules options the lobby shows as checkboxes for this game: (option name, label); the field is
    # opt_<name>. lobby_rule_options reads them (a game with other fields adds them there).
    lobby_checkboxes: tuple[tuple[str, str], ...] = ()

    def lobby_rule_options(self, post: Mapping[str, Any]) -> dict[str, Any]:
        """The rules options the lobby's fields of this game give (its checkboxes, ticked)."""
        return {name: True for name, _ in self.lobby_checkboxes if post.get(f"opt_{name}") == "on"}


class Battlecards(GameType):
    name = "battlecards"
    lobby_checkboxes = (("larger_standing_armies", "Larger standing armies (optional rule)"),
                        ("occupying_force", "Occupying force (optional rule)"))
    deck_part = "decks.deck_games.BattlecardsDecks"
    team_games = True
    face_routes = (("arsenal", "arsenalcard-face"), ("conflict", "conflictcard-face"),
                   ("battlecard", "battlecard-face"))
    api_links = (
        ("nations", "nation-list"), ("theaters", "theater-list"), ("sets", "cardset-list"),
        ("arsenal_cards", "arsenalcard-list"), ("conflict_cards", "conflictcard-list"),
        ("battlecards", "battlecard-list"),  # the collection of the battlecard cards
    )
    controls = {
        "turn_start": "Start your turn",
        "initial_deploy": "Deploy your initial forces",
        "deploy": "Deploy units",
        "transfer": "Transfer units between stacks",
        "sabotage_victim": "Choose the general or leader the sabotage removes",
        "v2_effect": "Resolve the V-2 rocket",
        "divide_choose": "Choose how to divide a stack",
        "divide_stack": "Divide the stack",
        "reorganize": "Reorganize your reserve hand",
        "reorganize_swap": "Swap cards while reorganizing",
        "capture_browse": "Look at the captured stack",
        "capture_pick": "Pick the captured cards to keep",
        "fight_or_decline": "Fight this battle or decline it",
        "preemptive_choice": "Preemptive strike?",
        "battlecard_response": "Respond to the battlecard",
        "emergency_deploy": "Emergency deployment",
        "scorched_earth": "Scorched earth?",
        "commit_optional": "Commit optional forces to the battle",
        "battle_stack": "Choose the stack that fights",
        "choose_enemy_army": "Choose the enemy army to attack",
        "battle_window": "Battle: play a card or go on",
        "withdraw": "Withdraw from the battle?",
        "sabotage_target": "Choose the unit to sabotage",
        "sub_withdraw": "Submarine: withdraw?",
        "defend": "Defend against the shot",
        "retarget": "Choose a new target",
        "fire": "Fire",
        "a_bomb_window": "Drop the A-bomb now, or pass",
        "army_transfer": "Transfer cards to an allied army",
        "reserve_trade": "Trade reserve cards with an ally",
        "seat_trade": "Trade with an allied seat",
    }
    uses_decks = True

    def options(self, data: Mapping[str, Any]) -> Any:
        """Known names only, each of its default's type: games.options.game_options, the one home of the
        Battlecards option checks."""
        return game_options(dict(data))

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        from cards.battlecards.snapshot import arsenal_to_dict, battlecard_to_dict, conflict_to_dict

        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            if code in catalog.arsenal:
                card = {"type": "arsenal", **arsenal_to_dict(catalog.arsenal[code])}
            elif code in catalog.conflict:
                card = {"type": "conflict", **conflict_to_dict(catalog.conflict[code])}
            elif code in catalog.battlecards:
                card = {"type": "battlecard", **battlecard_to_dict(catalog.battlecards[code])}
            else:
                continue
            card.pop("provenance", None)
            cards[code] = card
        return cards


class Battlefront(GameType):
    lobby_checkboxes = (("two_front_victory", "Two-front victory conditions (optional rule)"),)
    # the lobby's selects of Battlefront's other optional rules: the Blitzkrieg attacker and Special cards
    LOBBY_SEATS = (("west", "West"), ("east", "East"))
    LOBBY_NATIONALITIES = (("DE", "Germany"), ("RU", "Soviet Union"), ("US", "United States"),
                           ("GB", "Great Britain"), ("JP", "Japan"))

    def lobby_rule_options(self, post: Mapping[str, Any]) -> dict[str, Any]:
        options = super().lobby_rule_options(post)
        if post.get("opt_blitzkrieg_attacker") in dict(self.LOBBY_SEATS):
            options["blitzkrieg_attacker"] = post["opt_blitzkrieg_attacker"]
        special = {seat: post.get(f"opt_special_{seat}") for seat, _ in self.LOBBY_SEATS}
        if all(value in dict(self.LOBBY_NATIONALITIES) for value in special.values()):
            options["special_cards"] = special
        elif any(special.values()):
            raise ValidationFailed("Special cards: choose a nationality for both seats, or for neither.",
                                   code="invalid_options")
        return options

    """Battlefront (battlefront-rules.txt): one shared 70-card deck (75 with the Special cards), seats
    west and east, five fronts. The cards are frozen per game from fixtures/battlefront/cards.json."""

    name = "battlefront"
    api_links = (
        ("battlefront_cards", "battlefrontcard-list"),
        ("battlefront_special_uses", "battlefrontspecialuse-list"),
    )
    bulk_section = ("battlefront", "cards.battlefront.selectors.battlefront_dicts")
    controls = {
        "deploy": "Play a card on a front, or pass",
        "discard": "Discard down to your hand limit",
    }
    uses_decks = False

    def live_snapshot(self) -> dict[str, Any]:
        catalog = self.package.load_cards()
        return {
            "cards": [card.to_dict() for card in catalog.cards.values()],
            "special_cards": [card.to_dict() for card in catalog.special_cards.values()],
            "special_uses": [use.to_dict() for uses in catalog.special_uses.values() for use in uses],
        }

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return self.package.GameSetup(seed=seed, options=options)

    def seat_nations(self, options: Any) -> dict[str, str]:
        return dict(options.special_cards or {})

    def face_route(self, definition: Mapping[str, Any]) -> str | None:  # noqa: ARG002
        return "battlefrontcard-face"  # every card of the shared deck has its face

    def card_codes(self, view: Any) -> set[str]:
        """Every string of the view that is a card code (hand and fronts name cards in {"code"} objects,
        discards, scouted hands and battle reports as bare codes): only what the seat already sees."""
        codes: set[str] = set()
        stack = [view]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                codes.add(item)  # card_definitions keeps the catalog's codes only
        return codes

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code) or catalog.special_cards.get(code)
            if card is None:
                continue
            cards[code] = card.to_dict()
            if card.type == "X":  # a Special card: how each nationality may use it
                cards[code]["uses"] = [u.to_dict() for uses in catalog.special_uses.values() for u in uses]
        return cards


class TheWar(GameType):
    lobby_checkboxes = (("casual", "Casual play (equal deck sizes)"),)
    """The War (the-war-rules.txt): each player has his own deck; seats p1 and p2 (the seeded RNG decides
    who moves first). Until the games service deals The War decks from saved decks, a game's two decks are
    named in its options (starter codes or explicit entries) and checked at creation by the deck rules
    (decks.rules_the_war: every deck rule, and in casual play the equal-size rule). The cards are frozen per
    game from fixtures/the_war/ (cards.json and starters.json, as read)."""

    name = "the-war"
    deck_part = "decks.deck_games.TheWarDecks"
    deck_create = "games.services.the_war.war_game_create"
    deck_join_deal = "games.services.the_war.war_game_join_deal"
    deck_simulation = "simulations.services._war_simulation_create"
    api_links = (
        ("the_war_cards", "thewarcard-list"), ("the_war_starters", "thewarstarter-list"),
        ("the_war_changes", "thewar-changes"),
    )
    bulk_section = ("the_war", "cards.the_war.selectors.the_war_bulk_section")
    board_template = "web/play/partials/board_the-war.html"
    controls = {
        "pay": "Pay the cost: tap a resource",
        "redraw": "Keep your starting hand or draw a new one",
        "resources": "Resources: put a resource card into play, or go on",
        "maintenance": "Maintain the battlefield condition, or abandon it",
        "build": "Build: put a card from your hand into play, or go on",
        "positions": "Positions: move a unit between the lines, or go on",
        "attack_phase": "Attack phase: attack, or end the phase",
        "end_of_turn": "End of turn: discard, or end your turn",
        "declare_targeted": "Declare a targeted attack",
        "declare_general": "Declare a general attack",
        "attacker_artillery": "Attacking artillery: fire, or go on",
        "attacker_abilities": "Attacker: use an ability or a special card, or go on",
        "block": "Block the attackers",
        "defender_specials": "Defender: play a special card, or go on",
        "defender_artillery": "Defending artillery: fire, or go on",
        "interception": "Intercept the blocking aircraft with a fighter, or go on",
        "aa_mode": "Anti-aircraft: fire at the air or at the ground",
        "damage": "Assign the damage",
        "strike": "Breakthrough and strikes: choose what each unit strikes",
        "second_line_support": "Support from the second line, or go on",
    }
    uses_decks = False
    DEFAULT_DECKS = {"p1": {"starter": "tw-starter-red-army"}, "p2": {"starter": "tw-starter-wehrmacht"}}

    def options(self, data: Mapping[str, Any]) -> Any:
        """{"decks": {"p1": {"starter": code} | {"army": "red-army", "entries": {code: n}}, "p2": ...},
        "casual": bool} -> {"p1": (codes...), "p2": (codes...)} (400 invalid_options, or the deck rules'
        codes in the message when a deck is not legal)."""
        from decks.rules_the_war import DeckInput, validate_pair
        from vocabulary.the_war import load_catalog

        unknown = set(data) - {"decks", "casual"}
        if unknown:
            raise ValidationFailed(f"Unknown option(s) {sorted(unknown)}.", code="invalid_options")
        casual = data.get("casual", False)
        decks = data.get("decks", self.DEFAULT_DECKS)
        if not isinstance(casual, bool) or not isinstance(decks, Mapping) or set(decks) != set(self.seats):
            raise ValidationFailed("decks names one deck per seat (p1, p2); casual is true or false.",
                                   code="invalid_options")
        catalog = load_catalog()
        inputs = {}
        for seat in self.seats:
            ref = decks[seat]
            if isinstance(ref, Mapping) and isinstance(ref.get("starter"), str):
                starter = catalog.starters.get(ref["starter"])
                if starter is None:
                    raise ValidationFailed(f"Unknown starter {ref['starter']!r}.", code="invalid_options")
                inputs[seat] = DeckInput(army=starter.army, entries=dict(starter.entries))
            elif isinstance(ref, Mapping) and isinstance(ref.get("entries"), Mapping):
                inputs[seat] = DeckInput(army=ref.get("army"), entries=dict(ref["entries"]))
            else:
                raise ValidationFailed(f"decks.{seat}: a starter code or army and entries.",
                                       code="invalid_options")
        pair = validate_pair(catalog, inputs["p1"], inputs["p2"], casual=casual)
        if not pair.is_legal:
            codes = ", ".join(sorted({str(v.code) for v in pair.violations}))
            raise ValidationFailed(f"These decks cannot play each other: {codes}.", code="invalid_options")
        return {seat: tuple(c for c, n in sorted(inputs[seat].entries.items()) for _ in range(n))
                for seat in self.seats}

    def catalog_from_dicts(self, data: Mapping[str, Any]) -> Any:
        """The frozen catalog; its rules revision is the snapshot's (a snapshot stored before revisions were
        recorded has none: the engine's LEGACY_RULES_REVISION, so the game replays as it was played)."""
        from vocabulary.the_war import parse_catalog

        revision = data.get("rules_revision", self.package.LEGACY_RULES_REVISION)
        return parse_catalog(data["cards"], data["starters"], rules_revision=revision)

    def live_snapshot(self) -> dict[str, Any]:
        """The fixture documents and the engine's current rules revision, frozen with each new game."""
        import json

        from vocabulary.the_war import FIXTURE_DIR

        snapshot: dict[str, Any] = {
            name: json.loads((FIXTURE_DIR / f"{name}.json").read_text(encoding="utf-8"))
            for name in ("cards", "starters")
        }
        snapshot["rules_revision"] = self.package.RULES_REVISION
        return snapshot

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return self.package.GameSetup(seed, dict(options))

    def lobby_options(self, post: Mapping[str, Any]) -> dict[str, Any] | None:
        """The two starters the lobby's form names (war_p1, war_p2; checked again by options)."""
        return {"decks": {seat: {"starter": post.get(f"war_{seat}") or ref["starter"]}
                          for seat, ref in self.DEFAULT_DECKS.items()}}

    card_codes = Battlefront.card_codes  # cards appear as {"code"} objects and as bare codes (losses)

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        from dataclasses import asdict

        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code)
            if card is not None:
                cards[code] = {k: v for k, v in asdict(card).items()
                               if k != "provenance" and v not in (None, ())}
        return cards


class TideOfIron(GameType):
    """Tide of Iron's Strategy decks (tide-of-iron-strategy-cards.txt): the server referees the off-board
    cards of a physical match played remotely: the shuffled decks (order hidden), every die, the HQ and play
    areas (face up); the players report command points and the board. Seats axis and allies; no bots (a
    referee has no opponent to play). The cards are frozen per match from the catalog rows
    (cards.tide_of_iron, loaded from fixtures/tide_of_iron/)."""

    name = "tide-of-iron"
    api_links = (
        ("tide_of_iron_cards", "toicard-list"), ("tide_of_iron_decks", "toideck-list"),
        ("tide_of_iron_scenarios", "toiscenario-list"),
    )
    board_template = "web/play/partials/board_tide-of-iron.html"
    controls = {
        "act": "Your Strategy cards: activate, retry contact, discard, report the board, or end the phase",
        "target": "Choose the target hex",
        "target_column": "Choose the target hex: its column",
        "target_row": "Choose the target hex: its row",
        "los": "Who has line of sight to the target: a normal unit or an officer?",
        "confirm": "The other player reports: confirm it, or dispute it",
    }
    reports = {
        "report_command": [("points", "Command points")],
        "place_unit": [("unit", "Unit label"), ("hex", "Hex (x,y)"), ("side", "Side (axis or allies)"),
                       ("kind", "Kind (squad or vehicle)")],
        "remove_unit": [("unit", "Unit label")],
        "set_cover": [("hex", "Hex (x,y)"), ("cover", "Cover")],
    }
    uses_decks = False
    live_play = False

    def live_snapshot(self) -> dict[str, Any]:
        from cards.tide_of_iron.selectors import toi_dicts

        rows = toi_dicts()
        return {"cards": rows["toi_cards"], "decks": rows["toi_decks"], "scenarios": rows["toi_scenarios"]}

    def new_setup(self, *, seed: int, options: Any) -> Any:
        return self.package.GameSetup(seed=seed, options=options)

    def lobby_options(self, post: Mapping[str, Any]) -> dict[str, Any] | None:
        """The scenario the lobby's form names, if any."""
        return {"scenario": post["scenario"]} if post.get("scenario") else None

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code)
            if card is not None:
                cards[code] = {k: v for k, v in card.to_dict().items() if k != "provenance"}
        return cards


def side_of_seat(seat: str) -> str:
    """The side a seat plays for: an army seat "allies-2" is on side "allies"; a side seat is its own side
    (axis, allies, west, east). The twin of games.engine.battlecards.setup.side_of for stored seat names."""
    return seat.split("-", 1)[0]


GAME_TYPES: dict[str, GameType] = {}  # the registered definitions, by game id (register_game_type)
DEFAULT_GAME_TYPE = "battlecards"


def register_game_type(definition: GameType) -> GameType:
    """Register a game's Django-side definition under its id; the pure registry must know the id."""
    registry.get(definition.name)  # SetupError for an id the pure registry does not know
    if registry.canonical(definition.name) != definition.name:
        raise ValueError(f"{definition.name!r} is an alias: register the definition under its id")
    GAME_TYPES[definition.name] = definition
    return definition


def unregister_game_type(name: str) -> None:
    GAME_TYPES.pop(name, None)


for _definition in (Battlecards(), Battlefront(), TheWar(), TideOfIron()):
    register_game_type(_definition)


def game_type_list() -> list[dict[str, Any]]:
    """Every registered game type, as GET /api/game-types/ lists it (registration order)."""
    return [
        {"id": name, "label": kind.label, "seats": list(kind.seats), "bots": kind.bots_available,
         "bot_kinds": list(kind.bot_kinds), "decks": kind.uses_decks, "live_play": kind.live_play}
        for name, kind in GAME_TYPES.items()
    ]


def game_type_ids() -> list[str]:
    """Every game type's id, in registration order (what an API lists and validates against)."""
    return list(GAME_TYPES)


def canonical_game_type(name: str | None) -> str | None:
    """The id a name means (an old alias, like "the_war", read for one release), None when unknown."""
    found = registry.canonical(name) if name else None
    return found if found in GAME_TYPES else None


def get_game_type(name: str | None) -> GameType:
    """The adapter of a game type by id or old alias (400 unknown_game_type for any other name)."""
    found = canonical_game_type(name or DEFAULT_GAME_TYPE)
    if found is None:
        raise ValidationFailed(
            f"Unknown game type {name!r}: choose one of {sorted(GAME_TYPES)}.",
            code="unknown_game_type",
            field="game_type",
        )
    return GAME_TYPES[found]


def game_type_or_none(name: str | None) -> GameType | None:
    """The definition of a game by id or old alias (the default game for None), None when unknown: for
    input checks that leave an unknown id to the field that reports it."""
    found = canonical_game_type(name or DEFAULT_GAME_TYPE)
    return GAME_TYPES[found] if found else None


def game_type_of(game: Any) -> GameType:
    """The adapter of a stored game (games.models.Game.game_type)."""
    return get_game_type(getattr(game, "game_type", None) or DEFAULT_GAME_TYPE)
