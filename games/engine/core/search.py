"""The information-set search bot: Single-Observer Information Set MCTS with determinization (pure Python).

Why this method: the games with bots hide cards (hands, deck order) and shuffle, so a perfect-information
search over the true state would cheat and a search over one guessed state would overfit that guess.
SO-ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012) keeps
ONE tree over the searching seat's information set and draws a fresh determinization (a full state
consistent with what the seat knows) on every iteration; a node's statistics are shared by every
determinization that reaches it, and UCB counts an action's *availability* (how often it was legal when
its parent was visited) instead of the parent's visits. It needs no game-specific evaluation, only a way
to sample a consistent state, which each game supplies (its `determinizer` module).

What the bot is given: the seat's view JSON, its legal actions and its seat, exactly what a third-party
client gets; never the state. The bot module imports no game's state module (an import-linter contract in
pyproject.toml). Its randomness is its own `random.Random`, seeded from (salt, view ply, seat), never the
game's RNG: the same salt and the same view give the same choice.

Strength is a budget of iterations (playouts) per decision, named by `LEVELS` (`search-1` ... `search-4`);
a game may give its own iterations at a level's name (its determinizer's `budgets`).

What makes it strong (uniform random playouts lost to the games' heuristic bots): a game may give its
heuristic bot as a `policy` on a sampled state, and then
- playouts follow that policy, epsilon-greedy (with probability `Level.epsilon` a uniform random action):
  Monte-Carlo rollout of a base policy, which improves on it (Tesauro & Galperin, "On-line policy
  improvement using Monte-Carlo search", NIPS 1996; Bertsekas' rollout algorithm); random playouts
  mostly measure random play;
- the tree is biased towards the policy's action: it is expanded first at a node and its UCB value gets a
  progressive bias `PRIOR_BIAS / (visits + 1)` (Chaslot et al., "Progressive strategies for Monte-Carlo
  tree search", 2008), so a small budget keeps the heuristic's move unless the playouts clearly prefer
  another, and a large one lets the playouts decide;
- progressive widening (Coulom 2007; Chaslot et al. 2008, "progressive unpruning"), for a game whose
  decisions have more legal actions than a small budget has playouts (it sets `widening`): a node grows a
  new child only while it has fewer than ceil(widening * sqrt(visits + 1)), the policy's action first, so
  the playouts go to a few actions instead of one each to many (with one playout each, the most visited
  action is whichever won its single playout);
- a long game stops a playout after the game's `rollout_plies` and scores it with its `evaluate`
  (truncated playouts with an evaluation function); a single legal action is played without searching.
"""
from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Determinizer(Protocol):
    """A game's hook: build full states consistent with one seat's view, and play them out.

    `determinize(view, rng)` returns a fresh state (the bot may mutate it) in which the seat's own hand,
    everything public and every count the view shows are as in the view, and what the seat cannot see
    (the other seats' hands, the deck order, the game RNG) is drawn with `rng` from the cards not seen
    (the known deck list minus every card the view shows), or from a documented prior where the view
    does not show a fact. `legal_actions`, `apply` (given only actions from `legal_actions`), `to_move`
    (None when over) and `reward(state, seat)` (1 win, 0 loss, 0.5 draw) run the game's own rules on such
    a state. `playout_step(state, rng)`, optional, plays one uniformly random legal action (a game's fast
    path); without it a playout picks from `legal_actions`. `evaluate(state, seat)`, optional, scores a
    playout the level's ply cap stopped before the end (in [0, 1], from the sampled state); without it such
    a playout scores 0.5. `rollout_plies`, optional, caps a playout below the level's cap (a long game with
    an `evaluate` plays short playouts). `budgets`, optional (level name -> iterations), gives a game its own
    playouts per decision at a named level (a game whose playouts cost more plays fewer at the same name).
    `policy(state, rng)`, optional, is the game's own heuristic choice among `legal_actions(state)` on a
    sampled state (its heuristic bot, reading what the mover would see): playouts follow it epsilon-greedily
    and the tree prefers it (see the module docstring). `widening`, optional (a float), turns on progressive
    widening with that constant.
    """

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> Any: ...
    def legal_actions(self, state: Any) -> list[Any]: ...
    def apply(self, state: Any, action: Any) -> None: ...
    def to_move(self, state: Any) -> str | None: ...
    def reward(self, state: Any, seat: str) -> float: ...


@dataclass(frozen=True)
class Level:
    iterations: int      # determinized playouts per decision
    rollout_plies: int   # a playout stops after this many plies (an unfinished one scores 0.5)
    epsilon: float = 0.1  # with a game's policy: the share of uniform random actions in a playout


LEVELS: dict[str, Level] = {
    "search-1": Level(iterations=48, rollout_plies=400),
    "search-2": Level(iterations=160, rollout_plies=400),
    "search-3": Level(iterations=500, rollout_plies=600),
    "search-4": Level(iterations=1500, rollout_plies=800),
}

@dataclass(frozen=True)
class ActionStat:
    action: Any
    visits: int     # iterations that tried this action at the root
    value: float    # their mean reward for the searching seat (1 win, 0 loss, 0.5 draw or unfinished)


@dataclass(frozen=True)
class Estimate:
    value: float                      # the seat's estimated reward: the mean of the action `choose` plays
    iterations: int                   # the search's iterations (root visits)
    actions: tuple[ActionStat, ...]   # the legal actions tried, most visited first


EXPLORATION = 0.7  # UCB1's constant, for rewards in [0, 1]
PRIOR_BIAS = 1.0   # the progressive bias of the game policy's action: PRIOR_BIAS / (visits + 1)


class _Node:
    __slots__ = ("action", "avail", "children", "mover", "parent", "visits", "wins")

    def __init__(self, parent: _Node | None, action: Any, mover: str | None) -> None:
        self.parent = parent
        self.action = action    # the action leading here (None at the root)
        self.mover = mover      # the seat that played it (its reward is what `wins` sums)
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.wins = 0.0


def bot_seed(salt: str, ply: int, seat: str) -> int:
    """The bot's own seed for one decision: a hash of (salt, ply, seat); never the game's RNG."""
    digest = hashlib.blake2b(f"{salt}|{ply}|{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class SearchBot:
    """`choose(view, legal, seat)` returns one of `legal`, searched with `level`'s budget."""

    needs_view = True

    def __init__(self, determinizer: Determinizer, *, level: str = "search-1", salt: str | int = "search",
                 iterations: int | None = None, seconds: float | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown search level {level!r}: one of {sorted(LEVELS)}")
        self.game = determinizer
        self.level = LEVELS[level]
        budgets = getattr(determinizer, "budgets", None) or {}
        self.iterations = iterations if iterations is not None else budgets.get(level, self.level.iterations)
        self.salt = str(salt)
        # A time budget (the bench's "1 s a decision"): the search also stops once this much process CPU
        # time has gone into the decision (after at least one iteration). Its choices then depend on the
        # machine's speed, so the named levels (the API's, the analysis') are playout budgets only.
        self.seconds = seconds

    def choose(self, view: Mapping[str, Any], legal: list[Any], seat: str) -> Any:
        if len(legal) == 1:
            return legal[0]
        root, rng = self._search(view, legal, seat)
        best = _best_child(root, set(legal))
        if best is None:
            return legal[rng.randrange(len(legal))]
        for a in legal:  # the caller's own object
            if a == best.action:
                return a
        return best.action

    def evaluate(self, view: Mapping[str, Any], legal: list[Any], seat: str) -> Estimate:
        """The same search as `choose` (same seed, same budget), even with one legal action, reporting what
        it learned: the seat's estimated reward (the mean reward of the action `choose` would play) and,
        for each legal action it tried, its visits and mean reward for the seat. Used by the analysis of
        a finished game (core.analysis)."""
        root, _ = self._search(view, legal, seat)
        allowed = set(legal)
        stats = sorted(
            (ActionStat(action=a, visits=c.visits, value=c.wins / c.visits if c.visits else 0.5)
             for a, c in root.children.items() if a in allowed),
            key=lambda s: (-s.visits, -s.value),
        )
        best = _best_child(root, allowed)
        value = best.wins / best.visits if best is not None and best.visits else 0.5
        return Estimate(value=value, iterations=root.visits, actions=tuple(stats))

    def _search(self, view: Mapping[str, Any], legal: list[Any], seat: str) -> tuple[_Node, random.Random]:
        """Run the budget's iterations from the seat's view; the root of the tree and the bot's RNG."""
        rng = random.Random(bot_seed(self.salt, int(view["ply"]), seat))
        root = _Node(None, None, None)
        allowed = set(legal)
        game = self.game
        step = getattr(game, "playout_step", None)
        evaluate = getattr(game, "evaluate", None)
        policy = getattr(game, "policy", None)
        widening = getattr(game, "widening", None)
        epsilon = self.level.epsilon
        cap = min(self.level.rollout_plies, getattr(game, "rollout_plies", self.level.rollout_plies))
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        for _ in range(self.iterations):
            if deadline is not None and root.visits and time.process_time() >= deadline:
                break
            state = game.determinize(view, rng)
            node = root
            # selection: descend while every action legal here has a child
            while True:
                mover = game.to_move(state)
                if mover is None:
                    break
                actions = game.legal_actions(state)
                if node is root:
                    actions = [a for a in actions if a in allowed] or actions
                for a in actions:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                preferred = policy(state, rng) if policy is not None and len(actions) > 1 else None
                untried = [a for a in actions if a not in node.children]
                if untried and widening is not None and len(untried) < len(actions) and (
                        len(node.children) >= math.ceil(widening * math.sqrt(node.visits + 1))):
                    untried = []  # progressive widening: this node may not grow yet
                if untried:
                    action = (preferred if preferred is not None and preferred in untried
                              else untried[rng.randrange(len(untried))])
                    child = node.children[action] = _Node(node, action, mover)
                    child.avail = 1
                    game.apply(state, action)
                    node = child
                    break
                node = max((node.children[a] for a in actions if a in node.children),
                           key=lambda c: _biased_ucb(c, preferred))
                game.apply(state, node.action)
            # playout: the game's policy epsilon-greedy, else uniform random; capped
            plies = 0
            while plies < cap and game.to_move(state) is not None:
                if policy is not None and rng.random() >= epsilon:
                    game.apply(state, policy(state, rng))
                elif step is not None:
                    step(state, rng)
                else:
                    actions = game.legal_actions(state)
                    game.apply(state, actions[rng.randrange(len(actions))])
                plies += 1
            over = game.to_move(state) is None
            # backpropagation: each node scores the reward of the seat that moved into it
            rewards: dict[str, float] = {}
            while node is not root:
                m = node.mover
                assert m is not None  # every node below the root was moved into by a seat
                r = rewards.get(m)
                if r is None:
                    r = rewards[m] = (game.reward(state, m) if over
                                      else evaluate(state, m) if evaluate is not None else 0.5)
                node.visits += 1
                node.wins += r
                node = node.parent  # type: ignore[assignment]
            root.visits += 1
        return root, rng


def _best_child(root: _Node, allowed: set[Any]) -> _Node | None:
    """The root's child `choose` plays: the most visited legal action (ties: the higher total reward)."""
    return max((c for a, c in root.children.items() if a in allowed),
               key=lambda c: (c.visits, c.wins), default=None)


def _biased_ucb(node: _Node, preferred: Any) -> float:
    """UCB1 plus the progressive bias of the game policy's action (Chaslot et al. 2008)."""
    return _ucb(node) + (PRIOR_BIAS / (node.visits + 1) if preferred is not None and node.action == preferred
                         else 0.0)


def _ucb(node: _Node) -> float:
    if node.visits == 0:
        return math.inf
    return node.wins / node.visits + EXPLORATION * math.sqrt(math.log(max(node.avail, 1)) / node.visits)
