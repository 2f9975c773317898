"""Case groups chosen by a predicate over the reachable positions: ``[game.groups.NAME]`` in exercise.toml.

A rubric often weighs kinds of positions apart: finished games (does the search see the end?),
endgames (a few moves left, every one of them), the rest at random. Each group names what it
takes from the reachable positions, in the kit's fixed (breadth-first) order:

    [game.groups.finished]
    terminal = true         # finished positions only (false: unfinished only)
    every = 4               # one in four of them, evenly

    [game.groups.endgame]
    terminal = false
    moves_left = 2          # at most two moves left (the game's moves_left, or the longest line of play)
"""

from __future__ import annotations

import json

from grader.kit.errors import DeclarationError

KEYS = ("terminal", "moves_left", "every")


def read(raw: dict) -> dict:
    """The groups, validated; raises DeclarationError naming the key."""
    found = {}
    for name, rule in raw.items():
        if not isinstance(rule, dict) or set(rule) - set(KEYS):
            raise DeclarationError(f"[game.groups.{name}]: a table of {', '.join(KEYS)}")
        terminal, most, every = rule.get("terminal"), rule.get("moves_left"), int(rule.get("every", 1))
        if terminal is not None and type(terminal) is not bool or most is not None and int(most) < 0 or every < 1:
            raise DeclarationError(f"[game.groups.{name}]: terminal = true/false, moves_left = k >= 0, every = n >= 1")
        found[str(name)] = {"terminal": terminal, "moves_left": None if most is None else int(most), "every": every}
    return found


def admits(game, rule: dict, state) -> bool:
    """Whether the position passes the group's filters (``every`` thins the chosen ones out, it filters nothing)."""
    return ((rule["terminal"] is None or game.is_terminal(state) == rule["terminal"])
            and (rule["moves_left"] is None or game.moves_left(state) <= rule["moves_left"]))


def cases(game, decl, make_input) -> list[dict]:
    """Every declared group's cases, from the reachable positions (up to ``[game] cap``)."""
    if not decl["groups"]:
        return []
    positions = game.reachable(decl["cap"])
    found = []
    for name, rule in decl["groups"].items():
        chosen = [state for state in positions if admits(game, rule, state)]
        for state in chosen[::rule["every"]]:
            data = make_input(game, state, None, decl)
            found.append({"id": f"{name}/{json.dumps(data, sort_keys=True, separators=(',', ':'))}", "group": name,
                          "input": data})
    return found
