"""Judging an answer that is a move alone: a legal move, exactly as the game gives it, and a best one.

A move must come back with its own value and type (a ``(row, col)`` tuple stays a tuple, a label
keeps its type); any move that keeps the position's value is right, so ties are never decided for
the student. Moves are shown as the game's own type, never as the lists a plain-data record holds.
"""

from __future__ import annotations

import json

from grader.kit.game import from_plain


def moves_text(moves) -> str:
    """"(1, 1)", "1 or 3", "'a', 'b' or 'c'": moves as the game gives them."""
    shown = [repr(from_plain(m)) for m in moves]  # lists become the game's tuples again
    if not shown:
        return "none"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def legal_problem(legal: list, answer, offered_by: str) -> str | None:
    """What is wrong with ``answer`` as one of the ``legal`` moves (None: it is one, with its exact type)."""
    if any(answer.same_as(m) for m in legal):
        return None
    shown = moves_text(legal)
    if answer.kind == "none":
        return f"returned None; there are legal moves here: {shown}"
    if answer.kind == "list" and any(answer.plain() == list(m) for m in legal if type(m) is tuple):
        return f"returned {answer.describe()}, a list; moves are the tuples {offered_by} gives, e.g. {shown}"
    if answer.kind in ("int", "str") and any(str(answer.value) == str(m) for m in legal):
        return f"returned {answer.describe()}, a {answer.kind}; the move has another type here: {shown}"
    return f"returned {answer.describe()}, which is not a legal move here; the moves are {shown}"


def best_problem(answer, expected: dict, wants: str, best_key: str = "moves") -> str | None:
    """A legal move judged by the value it leads to (``expected["move values"]``: [[move, value], ...]);
    ``wants``: who chooses and what, in the game's words ("player 1 wants the lowest value")."""
    values = {json.dumps(m): v for m, v in expected["move values"]}
    mine = values[json.dumps(answer.plain())]
    if mine == expected["value"]:
        return None
    best = expected[best_key]
    return (f"returned {answer.describe()}, which leads to a value of {mine}; {wants}, {expected['value']}, which "
            f"{moves_text(best)} {'gets' if len(best) == 1 else 'get'}")
