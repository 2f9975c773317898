"""An instructor's game module, loaded and checked once, with plain-data states around it.

The game is trusted exercise code: it runs in the grader's process for the references and,
as a copy, in the sandbox to build what the student is handed. Its states may be any Python
values; ``encode``/``decode`` turn them into JSON-ready data and back (by default tuples
become lists and lists become tuples again, which suits games whose states are tuples).
The first of ``PLAYERS`` is MAX: every value the grader speaks of is from MAX's point of view.
"""

from __future__ import annotations

import importlib.util
import json
import random
from functools import cached_property
from pathlib import Path

REQUIRED = ("to_move", "actions", "result", "is_terminal", "utility")


class GameError(Exception):
    """The game module is missing, malformed or breaks its own rules (an instructor's problem)."""


def to_plain(value):
    """Tuples as lists, all the way down: what JSON can carry."""
    if type(value) in (tuple, list):
        return [to_plain(item) for item in value]
    if type(value) is dict:
        return {str(k): to_plain(v) for k, v in value.items()}
    return value


def from_plain(value):
    """Lists as tuples, all the way down: the default decoding of a state or a move."""
    if type(value) is list:
        return tuple(from_plain(item) for item in value)
    if type(value) is dict:
        return {k: from_plain(v) for k, v in value.items()}
    return value


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise GameError(f"cannot load the game module {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the instructor's file: say which and why, in one line
        raise GameError(f"the game module {path.name} failed to load: {type(exc).__name__}: {exc}") from None
    return module


class Game:
    """The game's rules as the kit calls them, with the optional parts filled in by default."""

    def __init__(self, module, path: Path | None = None):
        missing = [name for name in REQUIRED if not callable(getattr(module, name, None))]
        if missing:
            raise GameError(f"the game module {getattr(path, 'name', module)} lacks {', '.join(missing)}")
        players = getattr(module, "PLAYERS", None)
        if not isinstance(players, (tuple, list)) or len(players) != 2:
            raise GameError("the game module must name its two players: PLAYERS = (MAX, MIN)")
        self.module = module
        self.path = path
        self.max_player, self.min_player = players
        self.to_move = module.to_move
        self.result = module.result
        self.utility = module.utility
        self._terminal: dict = {}  # the game's rules are pure: asked once per position
        self._left: dict = {}  # moves left to the end of the game, by position (see moves_left)
        self.has_evaluate = callable(getattr(module, "evaluate", None))
        self.name = str(getattr(module, "NAME", path.stem if path else "game"))

    @classmethod
    def from_file(cls, path: Path, name: str = "_minimax_grader_game") -> "Game":
        return cls(load_module(path, name), path)

    def is_terminal(self, state) -> bool:
        ident = self.ident(state)
        found = self._terminal.get(ident)
        if found is None:
            found = self._terminal[ident] = bool(self.module.is_terminal(state))
        return found

    def ident(self, state):
        """The position itself where it is hashable (quick), else its encoding as text."""
        try:
            hash(state)
        except TypeError:
            return self.key(state)
        return state

    def actions(self, state) -> list:
        return list(self.module.actions(state))

    def children(self, state) -> list:
        """The positions one move on, in the order of ``actions`` (a game over given trees reads them
        straight from the node)."""
        result = self.module.result
        return [result(state, action) for action in self.actions(state)]

    def evaluate(self, state, player):
        if not self.has_evaluate:
            raise GameError(f"{self.name} has no evaluate(state, player): a depth-limited search needs one")
        return self.module.evaluate(state, player)

    def encode(self, state):
        custom = getattr(self.module, "encode", None)
        return to_plain(custom(state) if custom else state)

    def decode(self, data):
        custom = getattr(self.module, "decode", None)
        return custom(data) if custom else from_plain(data)

    def key(self, state) -> str:
        """A position's identity as text: equal positions, equal keys."""
        return json.dumps(self.encode(state), sort_keys=True)

    def move_data(self, action):
        return to_plain(action)

    @cached_property
    def starts(self) -> list:
        """The start positions: ``start_positions()``, else ``initial``."""
        if callable(getattr(self.module, "start_positions", None)):
            found = list(self.module.start_positions())
        elif hasattr(self.module, "initial"):
            found = [self.module.initial]
        else:
            raise GameError(f"{self.name} has neither start_positions() nor initial")
        if not found:
            raise GameError(f"{self.name}: start_positions() gave no position")
        return found

    def moves_left(self, state) -> int:
        """How many moves can still be played at most: the game's ``moves_left``, else the longest line of play."""
        custom = getattr(self.module, "moves_left", None)
        if callable(custom):
            return int(custom(state))
        ident = self.ident(state)
        if ident not in self._left:  # memoised: a line of play meets the same positions again and again
            self._left[ident] = 0 if self.is_terminal(state) else 1 + max(
                self.moves_left(self.result(state, a)) for a in self.actions(state))
        return self._left[ident]

    def render(self, state) -> str | None:
        custom = getattr(self.module, "render", None)
        return custom(state) if custom else None

    def play(self, state, choices) -> object:
        """The position reached by following ``choices`` (indices into each position's actions)."""
        for index in choices:
            if self.is_terminal(state):
                break
            moves = self.actions(state)
            state = self.result(state, moves[index % len(moves)])
        return state

    def reachable(self, cap: int) -> list:
        """Every position reachable from the start positions, breadth first, at most ``cap`` of them."""
        seen: dict[str, object] = {}
        frontier = list(self.starts)
        while frontier and len(seen) < cap:
            following = []
            for state in frontier:
                key = self.key(state)
                if key in seen:
                    continue
                seen[key] = state
                if len(seen) >= cap:
                    break
                if not self.is_terminal(state):
                    following.extend(self.result(state, a) for a in self.actions(state))
            frontier = following
        return list(seen.values())

    def random_play(self, seed: int, moves: int):
        """A position after ``moves`` random legal moves from a seeded start (for very large games)."""
        rng = random.Random(seed)
        state = rng.choice(self.starts)
        return self.play(state, [rng.randrange(1 << 16) for _ in range(moves)])
