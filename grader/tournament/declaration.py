"""The ``[tournament]`` table of an exercise: what a class tournament of that exercise plays.

Declared, not coded: a new exercise whose student writes an agent only adds the table::

    [tournament]
    depth = 3                    # the depth argument a student's agent is called with (when it takes one)
    budget = 400                 # positions scored per move, counted by the grading process
    move_guard = 5.0             # seconds per move: a wall-clock guard only, never the measure
    opening_moves = 2            # random first moves (from the seed), played by neither side
    games = 20                   # games per pairing (even: both sides of each opening)
    baselines = ["random", "greedy", "alphabeta:1", "alphabeta:3", "file:agents/strong.py"]

    [[tournament.thresholds]]
    against = "random"           # a baseline's name
    win_rate = 0.9               # the share of games won against it
    points = 2.0
    title = "beats random in at least 90% of games"

A baseline is ``random``, ``greedy`` (the best evaluation one move on), ``minimax:D`` or
``alphabeta:D`` (the kit's reference at depth D; the same moves, alpha-beta scoring fewer
positions; without ``:D`` to the end of the game), or ``file:PATH`` (an instructor's agent, written like a student's, relative to the
exercise folder; it runs sandboxed like any student's). Every mistake is one line.

An object-route exercise (``[agent]``: an agent class over a board object) plays the same way; its table
may also say which agent plays (``class``, ``method``, ``arguments``, ``score_function``, ``constants``;
by default those of its full-game task), its ``budget`` is the virtual clock's calls per move, and
``greedy``, ``minimax:D`` and ``alphabeta:D`` take ``@SCORE``, a score function of the game's rules
(``greedy@open``, ``alphabeta:3@improved``). What it asks of the exercise is ``arena_of``'s.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

BASELINE = re.compile(r"^(random|greedy|(minimax|alphabeta)(?::([1-9][0-9]?))?|file:(.+))(?:@([A-Za-z_][A-Za-z0-9_]*))?$")
PLAYER_KEYS = ("class", "method", "arguments", "score_function", "constants")  # the object route's agent


class TournamentError(Exception):
    """The exercise cannot hold a tournament, or its ``[tournament]`` table is wrong (one line)."""


@dataclass(frozen=True)
class Threshold:
    against: str
    win_rate: float
    points: float
    title: str

    @property
    def check_name(self) -> str:
        return f"beats-{self.against}"


@dataclass(frozen=True)
class Declaration:
    exercise: str
    depth: int | None
    budget: int
    move_guard: float
    opening_moves: int
    games: int
    baselines: tuple[dict, ...]
    thresholds: tuple[Threshold, ...] = field(default=())
    max_plies: int = 400
    route: str = "function"    # "object": an [agent] exercise, the budget a virtual clock (see agents.Clocked)
    player: str = ""           # the object route's agent, as declared (JSON, sorted keys)

    @property
    def unit(self) -> str:
        """What the budget counts, as a page says it."""
        return "calls on the clock" if self.route == "object" else "positions scored"

    def baseline(self, name: str) -> dict:
        return next(b for b in self.baselines if b["id"] == name)


def _baseline(text, folder: Path, scores: list[str] | None) -> dict:
    """One baseline. ``scores``: the score functions an object-route game names (``greedy@open``,
    ``alphabeta:3@improved``); None for a function-route game, whose one evaluation every baseline uses."""
    found = BASELINE.match(str(text)) if type(text) is str else None
    if not found or (found.group(4) or found.group(1) == "random") and found.group(5):
        raise TournamentError(f"baseline {text!r}: say random, greedy, minimax[:D], alphabeta[:D] or file:PATH"
                              + (", the searches and greedy with @SCORE" if scores else ""))
    score = found.group(5)
    if score is not None and scores is None:
        raise TournamentError(f"baseline {text!r}: this game has one evaluation, so no @SCORE")
    if score is not None and score not in scores:
        raise TournamentError(f"baseline {text!r}: no score {score!r} in the game's rules ({', '.join(scores)})")
    named = f"-{score}" if score else ""
    if found.group(1) in ("random", "greedy"):
        return {"id": found.group(1) + named, "kind": found.group(1), **({"score": score} if score else {})}
    if found.group(2):  # without a depth: to the end of the game
        depth = int(found.group(3)) if found.group(3) else None
        if depth is None and scores is not None:
            raise TournamentError(f"baseline {text!r}: give the depth ({found.group(2)}:3), the game is long")
        return {"id": f"{found.group(2)}-{depth or 'end'}{named}", "kind": found.group(2), "depth": depth,
                **({"score": score} if score else {})}
    path = (folder / found.group(4)).resolve()
    if not path.is_file():
        raise TournamentError(f"baseline {text!r}: no file {path}")
    return {"id": path.stem, "kind": "file", "path": str(path)}


def _number(table: dict, key: str, default, kind, low, high):
    value = table.get(key, default)
    if type(value) not in ((int,) if kind is int else (int, float)) or not low <= value <= high:
        raise TournamentError(f"[tournament] {key} = {value!r}: a number from {low} to {high}")
    return kind(value)


def read(exercise) -> Declaration:
    """The exercise's tournament, or ``TournamentError`` saying why it has none."""
    table = exercise.meta.get("tournament")
    arena, scores, player = None, None, ""
    if exercise.kit is None and getattr(exercise, "agent", None) is not None:  # the object route: an agent class
        if not isinstance(table, dict):
            raise TournamentError(f"{exercise.id} declares no [tournament] table in its exercise.toml")
        arena = arena_of(exercise)
        scores = arena.scores()
        player = json.dumps(arena.task, sort_keys=True)
    else:
        if exercise.kit is None or "returns" not in exercise.kit.decl:
            raise TournamentError(f"{exercise.id}: only a game exercise whose student returns a move can play tournaments")
        if "move" not in exercise.kit.decl["returns"]["items"]:
            raise TournamentError(f"{exercise.id}: the student's function returns no move, so it cannot play")
        if not isinstance(table, dict):
            raise TournamentError(f"{exercise.id} declares no [tournament] table in its exercise.toml")
    known = {"depth", "budget", "move_guard", "opening_moves", "games", "baselines", "thresholds", "max_plies"}
    known |= set(PLAYER_KEYS) if arena is not None else set()
    unknown = sorted(set(table) - known)
    if unknown:
        raise TournamentError(f"[tournament] of {exercise.id}: unknown key(s) {', '.join(unknown)}")
    takes_depth = arena is not None or "depth" in exercise.kit.decl["arguments"].values()
    depth = _number(table, "depth", 3, int, 1, 50) if takes_depth else None
    raw = table.get("baselines", ["random"])
    if not isinstance(raw, list) or not raw:
        raise TournamentError("[tournament] baselines: a list such as [\"random\", \"alphabeta:2\"]")
    baselines = tuple(_baseline(b, exercise.folder, scores) for b in raw)
    names = [b["id"] for b in baselines]
    if len(set(names)) != len(names):
        raise TournamentError(f"[tournament] baselines: a name twice ({', '.join(names)})")
    thresholds = []
    for item in table.get("thresholds", []):
        if not isinstance(item, dict) or item.get("against") not in names:
            raise TournamentError(f"[[tournament.thresholds]] {item!r}: 'against' must name a baseline ({', '.join(names)})")
        rate = _number(item, "win_rate", None, float, 0.0, 1.0)
        points = _number(item, "points", None, float, 0.0, 1000.0)
        title = str(item.get("title") or f"beats {item['against']} in at least {rate:.0%} of games")
        thresholds.append(Threshold(item["against"], rate, points, title))
    games = _number(table, "games", 20, int, 2, 10000)
    guard = _number(table, "move_guard", 5.0, float, 0.1, 600.0)
    if not math.isfinite(guard):
        raise TournamentError("[tournament] move_guard must be finite")
    return Declaration(exercise=exercise.id, depth=depth, budget=_number(table, "budget", 1000, int, 1, 10_000_000),
                       move_guard=guard, opening_moves=_number(table, "opening_moves", 2, int, 0, 50), games=games,
                       baselines=baselines, thresholds=tuple(thresholds),
                       max_plies=_number(table, "max_plies", 400, int, 1, 100_000),
                       route="object" if arena is not None else "function", player=player)


def arena_of(exercise):
    """The object route's view of ``exercise`` for a tournament (``AgentHooks.arena``), made once per exercise."""
    found = _ARENAS.get(id(exercise))
    if found is None or found[0] is not exercise:
        try:
            found = _ARENAS[id(exercise)] = (exercise, exercise.agent.arena(exercise.meta.get("tournament") or {}))
        except Exception as exc:  # noqa: BLE001 - the kit's DeclarationError (this layer may not import it)
            raise TournamentError(f"[tournament] of {exercise.id}: {str(exc).splitlines()[0]}") from None
    return found[1]


_ARENAS: dict[int, tuple] = {}
