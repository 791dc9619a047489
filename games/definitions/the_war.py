"""The War's Django-side definition (registered by games.game_types)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from config.errors import ValidationFailed
from games.game_type_base import ApiSchema, GameType, every_string


class TheWar(GameType):
    lobby_checkboxes = (("casual", "Casual play (equal deck sizes)"),)
    """The War (the-war-rules.txt): each player has his own deck; seats p1 and p2 (the seeded RNG decides
    who moves first). Until the games service deals The War decks from saved decks, a game's two decks are
    named in its options (starter codes or explicit entries) and checked at creation by the deck rules
    (decks.rules_the_war: every deck rule, and in casual play the equal-size rule). The cards are frozen per
    game from fixtures/the_war/ (cards.json and starters.json, as read)."""

    name = "the-war"
    api_schema = ApiSchema(prefix="TheWar", words="The War ", role="the-war-",
                           view="games.view_serializers_the_war.TheWarViewSerializer")
    deck_part = "decks.deck_games.TheWarDecks"
    deck_create = "games.services.the_war.war_game_create"
    deck_join_deal = "games.services.the_war.war_game_join_deal"
    deck_simulation = "simulations.services.jobs_the_war.war_simulation_plan"
    deck_balance = "simulations.services.jobs_the_war.war_balance_plan"
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
        "aa_mode": "Anti-aircraft: fire at the air (air), at the ground (ground), or not at all (none)",
        "damage": "Assign the damage",
        "strike": "Breakthrough and strikes: choose what each unit strikes",
        "second_line_support": "Support from the second line, or go on",
    }
    uses_decks = False
    DEFAULT_DECKS = {"p1": {"starter": "tw-starter-red-army"}, "p2": {"starter": "tw-starter-wehrmacht"}}

    def face_route(self, definition: Mapping[str, Any]) -> str | None:  # noqa: ARG002
        return "thewarcard-face"  # every card of The War has its face

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

    card_codes = every_string  # cards appear as {"code"} objects and as bare codes (losses)

    def card_definitions(self, codes: set[str], catalog: Any) -> dict[str, dict[str, Any]]:
        from dataclasses import asdict

        cards: dict[str, dict[str, Any]] = {}
        for code in sorted(codes):
            card = catalog.cards.get(code)
            if card is not None:
                cards[code] = {k: v for k, v in asdict(card).items()
                               if k != "provenance" and v not in (None, ())}
        return cards
