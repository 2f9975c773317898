"""``[agent]`` of exercise.toml (the kit's object route), read once into one plain, validated dict.

The student writes classes and functions over a board object; the declaration says under which
names the course's board offers each of the kit's operations (``[agent.board]``), how a player is
constructed (``[agent.constructor]``) and what to ask (``[[agent.tasks]]``). The same dict goes to
the sandbox's ``agent_driver`` as JSON. Every mistake is one line that names the key.
"""

from __future__ import annotations

from grader.kit.errors import DeclarationError

BOARD_OPS = ("legal_moves", "forecast", "apply_move", "copy", "active_player", "inactive_player", "opponent",
             "is_winner", "is_loser", "utility", "location", "move_count", "width", "height", "blank_cells",
             "to_string", "is_legal", "hash")
# the operations the board offers as properties (``board.NAME``, not ``board.NAME()``); the sandbox's agent_driver,
# which imports nothing of the grader's, keeps its own copy (tests/test_agent_course_connect3.py compares them)
OPS_PROPERTIES = ("active_player", "inactive_player", "move_count", "width", "height")
CONSTRUCTOR_SOURCES = ("depth", "score", "threshold")
TASK_KINDS = ("search", "bounds", "timeout", "iterative", "no-moves", "game", "heuristic")
ARGUMENT_SOURCES = ("game", "depth", "time_left", "legal_moves", "alpha", "beta", "maximizing")
RETURNS = ("move", "(value, move)")


TASK_KEYS = ("group", "kind", "positions", "constants", "function", "class", "method", "arguments", "returns", "depths",
             "score", "own_score", "clock", "threshold", "watch", "search", "bounds")


def _task(raw, index: int, decl: dict) -> dict:
    where = f"[[agent.tasks]] number {index + 1}"
    if not isinstance(raw, dict) or not raw.get("group") or raw.get("kind") not in TASK_KINDS:
        raise DeclarationError(f"{where}: needs group = \"...\" and kind = one of {', '.join(TASK_KINDS)}")
    unknown = [key for key in raw if key not in TASK_KEYS]
    if unknown:  # a misspelt key did nothing at all (the 130th helper's score_function)
        raise DeclarationError(f"{where} (group {raw['group']!r}): unknown key {unknown[0]!r}; a task's keys are "
                               f"{', '.join(TASK_KEYS)}")
    kind = raw["kind"]
    constants = raw.get("constants", {})  # constructor keywords given as they are (iterative = true, method = "minimax")
    if not isinstance(constants, dict) or not all(type(v) in (bool, int, float, str) for v in constants.values()):
        raise DeclarationError(f"{where}: constants = {{keyword = value}}, each value a bool, number or string")
    task = {"group": str(raw["group"]), "kind": kind, "positions": int(raw.get("positions", 4)),
            "timeout_exception": decl["timeout_exception"], "constructor": decl["constructor"],
            "constants": dict(constants)}
    if kind == "heuristic":
        if not raw.get("function"):
            raise DeclarationError(f"{where}: a heuristic task names its function = \"custom_score\"")
        task["function"] = str(raw["function"])
        return task
    if not raw.get("class") or not raw.get("method"):
        raise DeclarationError(f"{where}: name the class = \"...\" to construct and the method = \"...\" to call")
    arguments = [str(a) for a in raw.get("arguments", ["game", "depth"])]
    bad = [a for a in arguments if a not in ARGUMENT_SOURCES]
    if bad:
        raise DeclarationError(f"{where}: arguments {bad!r}: each one of {', '.join(ARGUMENT_SOURCES)}")
    returns = str(raw.get("returns", "move"))
    if returns not in RETURNS:
        raise DeclarationError(f"{where}: returns = {returns!r}: \"move\" or \"(value, move)\"")
    depths = [int(d) for d in raw.get("depths", [1, 2, 3])]
    if not depths or min(depths) < 1:
        raise DeclarationError(f"{where}: depths = [...] lists depths of at least 1")
    task.update({"class": str(raw["class"]), "method": str(raw["method"]), "arguments": arguments,
                 "returns": returns, "depths": depths, "score": raw.get("score", "improved"),
                 "clock": float(raw.get("clock", 60)), "threshold": float(raw.get("threshold", decl["threshold"])),
                 "watch": [str(w) for w in raw.get("watch", [])], "search": str(raw.get("search", "minimax")),
                 "bounds": [float(b) for b in raw.get("bounds", [])]})
    if kind == "game":
        task["score"] = None  # the student's own score function plays (their custom_score)
        task["own_score"] = str(raw.get("own_score", "custom_score"))
        task["opponent_score"] = str(raw.get("score", "improved"))  # what the greedy opponent plays by
    return task


def _check_scores(tasks: list[dict], rules, rules_name: str) -> None:
    """Every score a task names (``score``, "improved" where none is named) is one of the rules' ``SCORES``: a
    missing one raised KeyError in the grading process while it answered a question, and every student, a correct
    one too, was told they had tampered with the result channel (the 130th helper)."""
    known = sorted(rules.SCORES)  # (read() has refused rules without SCORES before the tasks are read)
    for task in tasks:
        name = task.get("opponent_score") or task.get("score")
        if name is None or name in known:
            continue
        role = "the greedy opponent of a game task plays by" if task["kind"] == "game" else "the grader scores by"
        raise DeclarationError(f"[[agent.tasks]] group {task['group']!r}: score {name!r} ({role} it; \"improved\" "
                               f"where no score = is given) is not in {rules_name}'s SCORES "
                               f"({', '.join(known) or 'empty'}): add it there or name one with score = \"...\"")


def read(meta: dict, rules) -> dict:
    agent = meta.get("agent")
    if not isinstance(agent, dict) or not agent.get("rules"):
        raise DeclarationError("[agent] must name the game's rules: rules = \"mygame.py\"")
    board = agent.get("board")
    if not isinstance(board, dict) or not board:
        raise DeclarationError("[agent.board] must map the course's method names to the kit's operations "
                               f"({', '.join(BOARD_OPS)})")
    for name, op in board.items():
        if op not in BOARD_OPS:
            raise DeclarationError(f"[agent.board] {name} = {op!r}: one of {', '.join(BOARD_OPS)}")
    for name, op in board.items():
        needed = {"location": "location", "blank_cells": "blank_cells", "move_count": "move_count"}.get(op)
        if needed and not callable(getattr(rules, needed, None)):
            raise DeclarationError(f"[agent.board] {name} = {op!r} needs a function {needed}(state, ...) in "
                                   f"{agent['rules']}")
    constructor = agent.get("constructor") or {}
    for name, source in constructor.items():
        if source not in CONSTRUCTOR_SOURCES:
            raise DeclarationError(f"[agent.constructor] {name} = {source!r}: one of {', '.join(CONSTRUCTOR_SOURCES)}")
    for name in ("start_positions", "to_move", "moves_for", "result", "encode", "decode", "utility", "SCORES",
                 "WIDTH", "HEIGHT", "cells", "render"):
        if not hasattr(rules, name):
            raise DeclarationError(f"the rules module {agent['rules']} defines no {name}")
    decl = {"rules": str(agent["rules"]), "board": {str(k): str(v) for k, v in board.items()},
            "constructor": {str(k): str(v) for k, v in constructor.items()},
            "timeout_exception": str(agent.get("timeout_exception", "")),
            "threshold": float(agent.get("threshold", 10.0)),
            "no_move": list(agent.get("no_move", [-1, -1])), "baseline": str(agent.get("baseline", "greedy"))}
    tasks = agent.get("tasks")
    if not isinstance(tasks, list) or not tasks:
        raise DeclarationError("[[agent.tasks]] must list what to ask (kind = \"search\", \"timeout\", ...)")
    decl["tasks"] = [_task(raw, i, decl) for i, raw in enumerate(tasks)]
    _check_scores(decl["tasks"], rules, agent["rules"])
    groups = [t["group"] for t in decl["tasks"]]
    if len(set(groups)) != len(groups):
        raise DeclarationError("[[agent.tasks]]: every task needs a group of its own")
    for spec in meta.get("checks", []):
        for group in spec.get("groups", []):
            if group not in groups:
                raise DeclarationError(f"[[checks]] {spec.get('name')}: group {group!r} is no [[agent.tasks]] group")
    return decl
