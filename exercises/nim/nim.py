"""Nim, the rules only: several heaps, take one or more objects from one heap, taking the last one wins.

A position is ``(heaps, player)``: a tuple of heap sizes and "MAX" or "MIN", the player to move.
A move is ``(heap, count)``: take ``count`` objects from heap number ``heap`` (counting from 0).
"""

NAME = "nim"
PLAYERS = ("MAX", "MIN")  # MAX first: values are MAX's


def start_positions():
    return [((1, 2, 3), "MAX"), ((2, 2, 1), "MIN"), ((3, 1, 1), "MAX"), ((1, 1, 1, 1), "MAX"), ((4, 2), "MIN")]


def to_move(state):
    return state[1]


def actions(state):
    heaps, _ = state
    return [(heap, count) for heap, size in enumerate(heaps) for count in range(1, size + 1)]


def result(state, move):
    heaps, player = state
    heap, count = move
    left = heaps[:heap] + (heaps[heap] - count,) + heaps[heap + 1:]
    return left, "MIN" if player == "MAX" else "MAX"


def is_terminal(state):
    return not any(state[0])


def utility(state, player):
    """+1 for the player who took the last object (the one not to move now), -1 for the other."""
    return -1 if to_move(state) == player else +1


def render(state):
    heaps, player = state
    rows = [f"heap {i}: {'I ' * size if size else '(empty)'}".rstrip() for i, size in enumerate(heaps)]
    return "\n".join(rows)
