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
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

BASELINE = re.compile(r"^(random|greedy|(minimax|alphabeta)(?::([1-9][0-9]?))?|file:(.+))$")


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

    def baseline(self, name: str) -> dict:
        return next(b for b in self.baselines if b["id"] == name)


def _baseline(text, folder: Path) -> dict:
    found = BASELINE.match(str(text)) if type(text) is str else None
    if not found:
        raise TournamentError(f"baseline {text!r}: say random, greedy, minimax[:D], alphabeta[:D] or file:PATH")
    if found.group(1) in ("random", "greedy"):
        return {"id": found.group(1), "kind": found.group(1)}
    if found.group(2):  # without a depth: to the end of the game
        depth = int(found.group(3)) if found.group(3) else None
        return {"id": f"{found.group(2)}-{depth or 'end'}", "kind": found.group(2), "depth": depth}
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
    if exercise.kit is None or "returns" not in exercise.kit.decl:
        raise TournamentError(f"{exercise.id}: only a game exercise whose student returns a move can play tournaments")
    if "move" not in exercise.kit.decl["returns"]["items"]:
        raise TournamentError(f"{exercise.id}: the student's function returns no move, so it cannot play")
    if not isinstance(table, dict):
        raise TournamentError(f"{exercise.id} declares no [tournament] table in its exercise.toml")
    known = {"depth", "budget", "move_guard", "opening_moves", "games", "baselines", "thresholds", "max_plies"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise TournamentError(f"[tournament] of {exercise.id}: unknown key(s) {', '.join(unknown)}")
    takes_depth = "depth" in exercise.kit.decl["arguments"].values()
    depth = _number(table, "depth", 3, int, 1, 50) if takes_depth else None
    raw = table.get("baselines", ["random"])
    if not isinstance(raw, list) or not raw:
        raise TournamentError(f"[tournament] baselines: a list such as [\"random\", \"alphabeta:2\"]")
    baselines = tuple(_baseline(b, exercise.folder) for b in raw)
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
                       max_plies=_number(table, "max_plies", 400, int, 1, 100_000))
