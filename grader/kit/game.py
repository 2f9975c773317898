"""An instructor's game module, loaded and checked once, with plain-data states around it.

The game is trusted exercise code: it runs in the grader's process for the references and,
as a copy, in the sandbox to build what the student is handed. Its states may be any Python
values; ``encode``/``decode`` turn them into JSON-ready data and back (by default tuples
become lists and lists become tuples again, which suits games whose states are tuples).
The first of ``PLAYERS`` is MAX: every value the grader speaks of is from MAX's point of view.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import random
from functools import cached_property
from pathlib import Path

REQUIRED = ("to_move", "actions", "result", "is_terminal", "utility")
# How each rule is called: its parameters, and the other form a value may take (MAX's value alone).
SIGNATURES = {"to_move": ("state",), "actions": ("state",), "result": ("state", "action"), "is_terminal": ("state",),
              "utility": ("state", "player"), "evaluate": ("state", "player")}
MAX_VALUED = ("utility", "evaluate")  # may also be written f(state): the value for MAX (PLAYERS[0])


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


def _positional_counts(function) -> tuple[int, int | None] | None:
    """(required, most) positional parameters of ``function``; None when it cannot be read (a builtin)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    if any(p.kind is p.KEYWORD_ONLY and p.default is p.empty for p in parameters):
        return (len(required), -1)  # a keyword the kit never passes: cannot be called
    most = None if any(p.kind is p.VAR_POSITIONAL for p in parameters) else len(positional)
    return len(required), most


def takes(function, count: int) -> bool | None:
    """Whether ``function`` can be called with ``count`` positional arguments (None: cannot tell)."""
    counts = _positional_counts(function)
    if counts is None:
        return None
    required, most = counts
    return most != -1 and required <= count and (most is None or count <= most)


def max_valued(module, name: str) -> bool:
    """Whether the game's ``utility``/``evaluate`` is the course form ``f(state)``, the value for MAX
    (PLAYERS[0]), rather than ``f(state, player)``: read from its signature. Raises GameError, in one line,
    when it is neither."""
    function = getattr(module, name)
    if takes(function, 2) is not False:
        return False
    if takes(function, 1):
        return True
    raise GameError(f"{name}{inspect.signature(function)} in the game module: expected {name}(state, player) "
                    f"(the value for that player) or {name}(state) (the value for MAX, the first of PLAYERS)")


def check_rules(module, path: Path | None = None) -> None:
    """Each rule the kit calls, called as the kit calls it: one line naming the function and what was expected."""
    where = getattr(path, "name", None) or getattr(module, "__name__", "the game module")
    missing = [name for name in REQUIRED if not callable(getattr(module, name, None))]
    if missing:
        raise GameError(f"the game module {where} lacks {', '.join(missing)}")
    for name, parameters in SIGNATURES.items():
        function = getattr(module, name, None)
        if not callable(function):
            continue
        if name in MAX_VALUED:
            max_valued(module, name)
        elif takes(function, len(parameters)) is False:
            raise GameError(f"{where}: {name}{inspect.signature(function)} cannot be called as "
                            f"{name}({', '.join(parameters)}), the way the kit calls it")


class Game:
    """The game's rules as the kit calls them, with the optional parts filled in by default.

    ``utility`` and ``evaluate`` may be written as the course writes them, ``f(state)`` giving MAX's value
    (found from the signature): the kit then asks ``f(state, player)`` as ``f(state)`` for MAX and
    ``-f(state)`` for MIN (a zero-sum game)."""

    def __init__(self, module, path: Path | None = None):
        check_rules(module, path)
        players = getattr(module, "PLAYERS", None)
        if not isinstance(players, (tuple, list)) or len(players) != 2:
            raise GameError("the game module must name its two players: PLAYERS = (MAX, MIN)")
        self.module = module
        self.path = path
        self.max_player, self.min_player = players
        self.to_move = module.to_move
        self.result = module.result
        self.max_valued = {name: callable(getattr(module, name, None)) and max_valued(module, name) for name in MAX_VALUED}
        self.utility = self._for_player(module.utility) if self.max_valued["utility"] else module.utility
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
        if self.max_valued["evaluate"]:
            value = self.module.evaluate(state)
            return value if player == self.max_player else -value
        return self.module.evaluate(state, player)

    def _for_player(self, function):
        """``f(state)``, MAX's value, asked as ``f(state, player)``."""
        max_player = self.max_player

        def for_player(state, player):
            value = function(state)
            return value if player == max_player else -value

        return for_player

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

    def has_extra_turns(self, look_at: int = 3000) -> bool:
        """Whether a player may move twice in a row somewhere (among the first ``look_at`` positions reachable
        from the starts): the families that assume alternation, and the depth_counts choice, matter only then."""
        seen, frontier = 0, list(self.starts)
        while frontier and seen < look_at:
            state = frontier.pop()
            seen += 1
            if self.is_terminal(state):
                continue
            mover = self.to_move(state)
            for action in self.actions(state):
                child = self.result(state, action)
                if not self.is_terminal(child) and self.to_move(child) == mover:
                    return True
                frontier.append(child)
        return False

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
