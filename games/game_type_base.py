"""The Django-side definition of a game (GameType): the adapter around its pure engine that the services,
selectors and APIs play every game through. Each game's own definition subclasses it in
games/definitions/<game>.py; games.game_types registers them and answers which one a game uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.module_loading import import_string

from config.errors import ValidationFailed
from games.engine import registry
from games.engine.core.engine import Engine, ModuleEngine
from games.engine.core.errors import EngineError
from games.engine.core.registry import GameSpec
from games.options import rules_options


@dataclass(frozen=True)
class ApiSchema:
    """How the OpenAPI schema documents a game (games.decision_schemas builds its components from the
    engine's `action_schema` and `prompt_schemas`): `prefix` names its components (TheWar: TheWarAction,
    TheWarPayDecision, TheWarPayPrompt...), `words` names the game in their descriptions, `role` keeps its
    enums apart from another game's of the same values, `view` is the import path of its view's serializer
    and `legal_help` describes a decision's legal actions."""

    prefix: str
    words: str
    role: str
    view: str
    legal_help: str = "Send exactly one of these (empty: nobody may act)."


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
    # the reports a seat types in when the board is physical (action type -> its fields: (name, label), or
    # (name, label, choices) for a select).
    board_template: str | None = None
    # drawn above the public table of the watch and replay pages (None: the table alone), from the same
    # public payload: Tide of Iron's board as a hex grid
    public_board_template: str | None = None
    controls: Mapping[str, str] = {}
    reports: Mapping[str, list[tuple]] = {}
    # why a finished game ended, by the kind of the view's `result` (else the end reason's words): its
    # fields by name, a seat as who plays it, a result as who won or a draw
    end_words: Mapping[str, str] = {}
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
    # The OpenAPI part (None: the schema documents no view, decisions or actions of the game).
    api_schema: ApiSchema | None = None

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
        does not know is left out (games.fastpath.answers.view_cards_json encodes each card once per
        catalog)."""
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

    def lobby_selects(self) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
        """The rules options the lobby shows as selects: (field, label, its (value, label) choices)."""
        return []

    def lobby_rule_options(self, post: Mapping[str, Any]) -> dict[str, Any]:
        """The rules options the lobby's fields of this game give (its checkboxes, ticked)."""
        return {name: True for name, _ in self.lobby_checkboxes if post.get(f"opt_{name}") == "on"}


def every_string(self: GameType, view: Any) -> set[str]:  # noqa: ARG001
    """A GameType.card_codes for views that name cards by bare codes too (Battlefront, The War: discards,
    scouted hands, battle reports, losses): every string of the view, at any depth; card_definitions keeps
    the catalog's codes only, so this gives only what the seat already sees."""
    codes: set[str] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            codes.add(item)
    return codes
