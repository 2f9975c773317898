"""Answer shapes any game's exercise may ask for, read from an ``Answer`` with exact types.

A move is a tuple or a list of ints (``width`` of them, ``(x, y)`` by default); the legal moves
are a list or tuple of moves, each once, in any order; a decision is one move among the best;
a test is exactly True or False; a value is a number. Each ``*_problem`` is None when the answer
is right, else one line on what is wrong, naming the function the student wrote; the readers
(``as_move``, ``as_moves``) give plain tuples or None, for mistake rules to compare with.
"""

from __future__ import annotations

import ast


def as_move(answer, width: int = 2) -> tuple | None:
    if answer is not None and answer.kind in ("tuple", "list") and answer.is_sequence_of(("int",), length=width):
        return tuple(item.value for item in answer.items)
    return None


def wrapped_move(answer, width: int = 2) -> tuple | None:
    """The move inside an answer that holds one where a move alone was due: a list or tuple of one move, or a
    pair of a move and a number (its value). None for anything else (a move itself included)."""
    if answer is None or answer.kind not in ("list", "tuple") or len(answer.items) not in (1, 2):
        return None
    if len(answer.items) == 2 and not answer.items[1].is_number:
        return None
    return as_move(answer.items[0], width)


def as_moves(answer, width: int = 2) -> list | None:
    if answer is None or answer.kind not in ("list", "tuple"):
        return None
    moves = [as_move(item, width) for item in answer.items]
    return None if None in moves else moves


def sorted_moves(answer, width: int = 2) -> list | None:
    """The moves of a list or tuple, sorted (the order left aside), or None."""
    moves = as_moves(answer, width)
    return None if moves is None else sorted(moves)


# Lazy collections a list of moves is often handed back as: their moves cannot be read from the answer.
LAZY_TYPES = ("generator", "list_iterator", "tuple_iterator", "set_iterator", "map", "filter", "zip", "range",
              "dict_keys", "dict_values", "dict_items", "itertools.chain", "chain")


def lazy_collection(answer) -> str | None:
    """The type's name when the answer is a lazy collection (a generator, an iterator, a map...), else None."""
    if answer is None or answer.kind != "other" or answer.type_name not in LAZY_TYPES:
        return None
    return answer.type_name


def moves_of_a_set(answer) -> list | None:
    """The moves of a set or frozenset (the sandbox hands it over as its text), sorted, or None."""
    if answer is None or answer.kind != "other" or answer.type_name not in ("set", "frozenset"):
        return None
    try:
        moves = ast.literal_eval(answer.text)
    except Exception:  # not a literal (or cut short): nothing to read
        return None
    return sorted(moves) if isinstance(moves, (set, frozenset)) and all(type(m) is tuple for m in moves) else None


def moves_problem(answer, expected, function: str, move: str = "(x, y)") -> str | None:
    moves = as_moves(answer, len(move.split(",")))
    if moves is None:
        return f"returned {answer.describe()}; {function} must return a list of {move} moves"
    if len(set(moves)) != len(moves):
        return f"returned {answer.text}, which lists a move twice"
    wanted = {tuple(m) for m in expected}
    if set(moves) == wanted:
        return None
    said = [f"{', '.join(map(str, cells))} {'is' if len(cells) == 1 else 'are'} {what}"
            for cells, what in ((sorted(set(moves) - wanted), "not legal"), (sorted(wanted - set(moves)), "missing"))
            if cells]
    return f"returned {answer.text}: {'; '.join(said)}"


def best_move_problem(answer, best, function: str, move: str = "(x, y)") -> str | None:
    found = as_move(answer, len(move.split(",")))
    if found is None:
        return f"returned {answer.describe()}; {function} must return a move {move}"
    best = [tuple(m) for m in best]
    if found in best:
        return None
    return f"returned {found}, which is not a best move here (best: {' or '.join(map(str, best))})"


def bool_problem(answer, expected: bool, function: str) -> str | None:
    if answer.kind != "bool":
        return f"returned {answer.describe()}; {function} must return True or False"
    return None if answer.value is expected else f"returned {answer.text}, expected {expected}"


def number_problem(answer, expected) -> str | None:
    if not answer.is_number:
        return f"returned {answer.describe()}, expected {expected}"
    return None if answer.equals_number(expected) else f"returned {answer.text}, expected {expected}"


def exact_list_problem(answer, function: str, item: str = "tuple", move: str = "(x, y)") -> str | None:
    """A list exactly (not a tuple), of ``item``s exactly: for statements whose own tests demand it."""
    if answer is None:
        return None
    if answer.kind != "list":
        return f"{function} returned a {answer.type_name}; it must return a list"
    if any(part.kind != item for part in answer.items):
        return f"{function} returned {answer.text}; each move must be a {item} {move}"
    return None
