"""``[game]`` and ``[student]`` of exercise.toml, read once into one plain, validated dict.

The same dict configures both sides: the grader's hooks read it here, and the sandbox's
generic driver gets it as JSON (it never imports this module). Every mistake in the file is
reported in one line that names the key, so an instructor fixes it without reading the kit.
"""

from __future__ import annotations

import math
import re

from grader.kit import answer_shape, groups
from grader.kit.errors import DeclarationError

SOURCES = ("state", "depth", "player", "alpha", "beta")
OPERATIONS = ("to_move", "actions", "result", "is_terminal", "utility", "evaluate")
ROLES = ("max", "min")
SEARCHES = ("minimax", "alphabeta")
RETURN_ITEMS = ("value", "move")


def _returns(text: str) -> dict:
    """``"value"``, ``"move"``, ``"(value, move)"``, ``"[move, value]"``: what comes back, and in what."""
    text = str(text).strip()
    if text in RETURN_ITEMS:
        return {"container": None, "items": [text]}
    match = re.fullmatch(r"([(\[])\s*(\w+)\s*,\s*(\w+)\s*([)\]])", text)
    if not match or {match[1] + match[4]} - {"()", "[]"} or sorted([match[2], match[3]]) != ["move", "value"]:
        raise DeclarationError(f"[student] returns = {text!r}: write \"value\", \"move\", \"(value, move)\" "
                               "or \"[move, value]\" (a tuple or a list of the two, in your order)")
    return {"container": "tuple" if match[1] == "(" else "list", "items": [match[2], match[3]]}


def _helper(name: str, raw) -> dict:
    if isinstance(raw, dict) and "function" in raw:  # a function of the game module, handed over as it is
        return {"op": "function", "function": str(raw["function"]), "player": None,
                "parameters": [str(p) for p in raw.get("parameters", ["state"])]}
    if isinstance(raw, str):
        raw = {"op": raw}
    if not isinstance(raw, dict) or raw.get("op") not in OPERATIONS:
        raise DeclarationError(f"[student.helpers] {name}: name one game operation ({', '.join(OPERATIONS)}), "
                               "as a string or as {op = ..., player = \"max\"}")
    fixed = raw.get("player")
    if fixed is not None and fixed not in ROLES:
        raise DeclarationError(f"[student.helpers] {name}: player = {fixed!r} must be \"max\" or \"min\"")
    if fixed is not None and raw["op"] not in ("utility", "evaluate"):
        raise DeclarationError(f"[student.helpers] {name}: only utility and evaluate take a fixed player")
    return {"op": raw["op"], "player": fixed}


def read(meta: dict) -> dict:
    """The declaration of one exercise, with defaults filled in; raises DeclarationError."""
    game = meta.get("game")
    student = meta.get("student")
    if not isinstance(game, dict) or not game.get("module"):
        raise DeclarationError("[game] must name the game's module: module = \"mygame.py\"")
    if not isinstance(student, dict) or not student.get("function"):
        raise DeclarationError("[student] must name the function the student writes: function = \"minimax\"")
    arguments = student.get("arguments")
    if not isinstance(arguments, dict) or not arguments:
        raise DeclarationError("[student.arguments] must list each parameter and what it is built from "
                               f"({', '.join(SOURCES)})")
    for name, source in arguments.items():
        if source not in SOURCES:
            raise DeclarationError(f"[student.arguments] {name} = {source!r}: one of {', '.join(SOURCES)}")
    players = student.get("players", {"max": "max", "min": "min"})
    if not isinstance(players, dict) or set(players) != set(ROLES):
        raise DeclarationError("[student.players] must give the course's value for both max and min")
    search = student.get("search", "minimax")
    if search not in SEARCHES:
        raise DeclarationError(f"[student] search = {search!r}: one of {', '.join(SEARCHES)}")
    depth_limited = "depth" in arguments.values()
    to_end = game.get("depths") == "moves-left"  # each position asked with as much depth as it has moves left
    depths = [None] if to_end else [int(d) for d in game.get("depths", [])]
    if depth_limited and not to_end and (not depths or min(depths) < 0):
        raise DeclarationError("[game] depths = [...] must list the depths to ask about (the student takes a depth), "
                               "or be \"moves-left\"")
    counts = game.get("depth_counts", "plies")
    if counts not in ("plies", "turns"):
        raise DeclarationError(f"[game] depth_counts = {counts!r}: \"plies\" (every move) or \"turns\" (every change of player)")
    positions = game.get("positions", "reachable")
    if positions not in ("reachable", "random"):
        raise DeclarationError(f"[game] positions = {positions!r}: \"reachable\" (small games) or \"random\" (large ones)")
    moves = game.get("random_moves", [0, 12])
    if not (isinstance(moves, list) and len(moves) == 2 and 0 <= int(moves[0]) <= int(moves[1])):
        raise DeclarationError("[game] random_moves = [fewest, most]: how many random moves make a random position")
    alpha, beta = float(student.get("alpha", -math.inf)), float(student.get("beta", math.inf))
    return {
        "module": str(game["module"]),
        "fixtures": game.get("fixtures"),
        "positions": positions,
        "cap": int(game.get("cap", 2000)),
        "random_moves": [int(moves[0]), int(moves[1])],
        "depths": depths,
        "depth_to_end": to_end,
        "groups": groups.read(game.get("groups") or {}),
        "state_view": student.get("state_view"),  # a function of the game: what the student is handed as the state
        "state_name": str(student.get("state_name", "")),  # how call texts and messages name the state
        "depth_counts": counts,
        "function": str(student["function"]),
        "arguments": {str(k): str(v) for k, v in arguments.items()},
        "players": {"max": players["max"], "min": players["min"]},
        "helpers": {str(name): _helper(name, raw) for name, raw in (student.get("helpers") or {}).items()},
        "constants": dict(student.get("constants") or {}),
        "search": search,
        "returns": answer_shape.parse(student, _returns),
        "alpha": alpha,
        "beta": beta,
        "depth_limited": depth_limited,
    }


KIT_GROUPS = ("fixtures", "reachable", "random")  # the groups every kit bank may hold (hooks.GROUP_WORDS names them)


def unknown_groups(decl: dict, specs) -> str | None:
    """The first check that names a group no case can be in, as one line; None when there is none.

    A misspelt group is not a smaller check but an empty one: it would be skipped ("this run asked no
    ...") and its points would leave the maximum, so a buggy file could pass it by default."""
    known = [*KIT_GROUPS, *decl["groups"]]
    for spec in specs:
        unknown = [group for group in spec.groups if group not in known]
        if unknown:
            return (f"[[checks]] {spec.name}: groups names {', '.join(repr(g) for g in unknown)}, which is neither "
                    f"a kit group nor a [game.groups.NAME] table (known: {', '.join(known)})")
    return None


def vacuous_checks(decl: dict, specs, handed_immutable: bool) -> str | None:
    """The first check that could only ever pass for this declaration, as one line; None when there is none.

    A ``move`` check when the answer has no move (``returns = "value"``), a ``value`` check when it has no
    value, a ``restored``/``unchanged`` check when the student is handed a position nothing can change:
    each would pass every case whatever the student writes, give points and sway the mistake's name."""
    items = decl["returns"]["items"]
    for spec in specs:
        kind = spec.kind
        if kind in ("move", "value") and kind not in items:
            return (f"[[checks]] {spec.name}: kind = \"{kind}\" cannot fail, since [student] returns = "
                    f"{' and '.join(items)} alone (no {kind}); remove the check or declare a {kind} in returns")
        if kind in ("restored", "board-restored", "unchanged", "state-unchanged") and handed_immutable:
            return (f"[[checks]] {spec.name}: kind = \"{kind}\" cannot fail, since the student is handed a position "
                    "that cannot be changed (hand over a mutable one with [student] state_view, or remove the check)")
    return None
