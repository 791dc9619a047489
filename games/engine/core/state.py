"""EngineState: what every game's state has in common, and its JSON round trip.

Every game's state (Battlecards' GameState, BattlefrontState, WarState, TideOfIronState) derives from it:

* stored: the catalog and setup it plays (`setup.seed` seeds the one RNG, `rng`), `ply` (actions applied),
  `status` ("active" | "finished" ...), `winner` and `result`;
* derived, never stored: `frames` for a game whose frames are not stored, `decision` (the machine's
  pending decision, core.machine), `record_events` (off in self-play), and the machine's two caches
  `_legal_cache` / `_events`.

The stored JSON is each game's own, key for key as it always was: a game writes its fields between the
shared head (`_json_head`: its "game" tag, the setup, the RNG) and the shared outcome (`_json_outcome`), and
reads them in `_read_json`; `from_json` does the rest in one place (the tag, the setup, the RNG, ply and
outcome, one error for any malformed state, the game's `_loaded` check, then the pending decision by the
step its rules declared, core.machine.resume). Two states are equal when their JSON is.
"""
from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from .errors import EngineError, StateError
from .machine import Decision, resume
from .plain import plain_copy
from .rng import new_rng, rng_from_json, rng_to_json

C = TypeVar("C")
S = TypeVar("S")
State = TypeVar("State", bound="EngineState")


class EngineState(Generic[C, S]):
    """The whole game. Mutated only through the game's `apply`."""

    GAME: ClassVar[str | None] = None  # the stored JSON's "game" tag (None: the JSON has none)
    TITLE: ClassVar[str] = "game"  # the game in error messages: "not a serialised <TITLE> state"
    SETUP: ClassVar[Any]  # the setup class (its from_json reads the stored setup)

    def __init__(self, catalog: C, setup: S) -> None:
        self.catalog = catalog
        self.setup = setup
        self.rng = new_rng(setup.seed)  # type: ignore[attr-defined]
        self.frames: list[Any] = []  # the frame stack, the top one last (core.machine)
        self.ply = 0
        self.status = "active"
        self.winner: str | None = None
        self.result: dict[str, Any] = {}
        # derived, not serialised
        self.record_events = True
        self.decision: Decision | None = None
        self._legal_cache: tuple[int, list] | None = None  # the legal keys of the current ply (core.machine)
        self._events: list = []  # the events of the action being applied (core.machine.emit)

    @property
    def current_seat(self) -> str | None:
        return self.decision.seat if self.decision else None

    def drop_caches(self) -> None:
        """Forget the derived rule caches (they are rebuilt on demand; tests compare against this)."""
        self._legal_cache = None

    # ---- serialisation ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def _json_head(self) -> dict[str, Any]:
        """The stored JSON's first keys: the game's tag (if it has one), the setup, the RNG's state."""
        head: dict[str, Any] = {"game": self.GAME} if self.GAME is not None else {}
        head["setup"] = self.setup.to_json()  # type: ignore[attr-defined]
        head["rng"] = rng_to_json(self.rng)
        return head

    def _json_outcome(self) -> dict[str, Any]:
        return {"status": self.status, "winner": self.winner, "result": plain_copy(self.result)}

    def _read_json(self, data: dict[str, Any]) -> None:
        """Read the game's own stored fields (the head, ply and outcome are read by from_json)."""
        raise NotImplementedError

    def _loaded(self) -> None:
        """After the stored fields are read: check them against the catalog, rebuild what is derived."""

    @classmethod
    def from_json(cls: type[State], data: dict[str, Any], catalog: Any) -> State:
        """A state from its stored JSON, its pending decision recomputed. Raises StateError for anything
        that is not a serialised state of this game (an EngineError while reading it says why)."""
        try:
            if cls.GAME is not None and data.get("game") != cls.GAME:
                raise StateError(f"not a {cls.TITLE} state")
            st = cls(catalog, cls.SETUP.from_json(data["setup"]))
            rng_from_json(st.rng, data["rng"])
            st._read_json(data)
            st.ply = int(data["ply"])
            st.status = data["status"]
            st.winner = data["winner"]
            st.result = plain_copy(data["result"])
            st._loaded()
            resume(st)  # the pending decision, by the step the game's rules declared (core.machine)
        except StateError:
            raise
        except EngineError as exc:
            raise StateError(f"not a serialised {cls.TITLE} state: {exc.message}") from exc
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise StateError(f"not a serialised {cls.TITLE} state: {exc!r}") from exc
        return st

    @staticmethod
    def unknown_card(code: str) -> StateError:
        return StateError(f"card code {code!r} is not in the catalog", code="unknown_card")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} turn={getattr(self, 'turn', None)} ply={self.ply} "
                f"status={self.status} decision={self.decision}>")
