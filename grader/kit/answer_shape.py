"""The declared answer shape, both ways: a student's answer read into its parts, the right answer written in it.

``[student] returns`` names the parts in their order: ``"value"``, ``"move"``, ``"(value, move)"``,
``"[move, value]"``, or ``"[*move, value]"``, a move that is a sequence spread into the list
(``[row, col, score]``). ``no_move`` says how the course writes "there is no move" (``None``
unless declared, e.g. ``[-1, -1]``), and ``answer_words`` how the statement names the answer
("a list [row, col, score]"). Reports show the expected answer in that same shape
(``[-1, -1, 0]``, ``(1, (0, 2)) or (1, (2, 1))``), never the reference's own record. ``any_sequence =
true`` accepts a tuple where a list is declared, or the other way round.
"""

from __future__ import annotations

import re

from grader.vocabulary.answers import Answer
from grader.kit.errors import DeclarationError
from grader.kit.game import from_plain


def parse(student: dict, fallback) -> dict:
    """The ``returns`` shape with ``spread``, ``no_move`` and ``words``; ``fallback`` reads the plain forms."""
    text = str(student.get("returns", "value")).strip()
    spread = re.fullmatch(r"\[\s*\*\s*move\s*,\s*value\s*\]", text)
    shape = {"container": "list", "items": ["move", "value"]} if spread else fallback(text)
    no_move = student.get("no_move")
    if spread and not (isinstance(no_move, list) and no_move):
        raise DeclarationError(f"[student] returns = {text!r} spreads the move into the list: declare no_move = [...], "
                         "how the answer writes that there is no move (e.g. [-1, -1])")
    return {**shape, "spread": bool(spread), "no_move": no_move, "words": student.get("answer_words"),
            "any_sequence": bool(student.get("any_sequence", False))}  # a tuple as good as the declared list


def words(shape: dict) -> str:
    """How the statement names the answer, for messages: the declared words, else the shape itself."""
    if shape.get("words"):
        return str(shape["words"])
    if shape["container"] is None:
        return f"the {shape['items'][0]}"
    inner = ", ".join(("*move" if shape.get("spread") and item == "move" else item) for item in shape["items"])
    return f"({inner})" if shape["container"] == "tuple" else f"[{inner}]"


def split(shape: dict, answer: Answer, function: str) -> tuple[dict | None, str | None]:
    """({"value": Answer, "move": Answer}, None), or (None, what is wrong with the shape)."""
    if shape["container"] is None:
        return {shape["items"][0]: answer}, None
    size = len(shape["no_move"]) + 1 if shape.get("spread") else 2
    if answer.kind not in ("list", "tuple") or len(answer.items) != size:
        return None, f"returned {answer.describe()}; {function} must return {words(shape)}"
    if not shape.get("spread"):
        return dict(zip(shape["items"], answer.items)), None
    move = Answer._container("list", answer.items[:-1])  # the spread move, read back as one list
    return {"move": move, "value": answer.items[-1]}, None


def is_no_move(shape: dict, move: Answer) -> bool:
    """The answer's move says "there is no move", as the course writes it."""
    return move.kind == "none" if shape.get("no_move") is None else move.same_as(shape["no_move"])


def show(shape: dict, value, move) -> str:
    """One answer in the declared shape, a move as the student's code sees it (tuples stay tuples)."""
    if move is None and shape.get("no_move") is not None:
        move = shape["no_move"]
    shown = {"value": repr(value), "move": repr(from_plain(move)) if not shape.get("spread") else None}
    if shape["container"] is None:
        return shown[shape["items"][0]]
    if shape.get("spread"):
        return "[" + ", ".join([repr(from_plain(item)) for item in move] + [repr(value)]) + "]"
    inner = ", ".join(shown[item] for item in shape["items"])
    return f"({inner})" if shape["container"] == "tuple" else f"[{inner}]"


def show_expected(shape: dict, expected: dict) -> str:
    """The right answers in the declared shape: every optimal move, joined by "or"."""
    moves = expected.get("moves") or [None]
    if "move" not in shape["items"]:
        moves = [None]
    shown = list(dict.fromkeys(show(shape, expected["value"], move) for move in moves))
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
