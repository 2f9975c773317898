"""Reference rules and minimax for the 3x2 mini-isolation game (aima-isolation).

Runs only in the grader's process, after the student's code has answered. A state is plain,
immutable data: the set of used cells, each player's cell (None before their first move) and
whose turn it is; moves are (x, y) pairs, x to the right and y downwards from the top-left.
The searching player is the one to move at the root: a game that ends on a MAX level (the
searching player cannot move) is worth -1, one that ends on a MIN level is worth +1.
"""

from functools import cache
from typing import NamedTuple

WIDTH, HEIGHT = 3, 2
BLOCKED = (2, 1)
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
CELLS = [(x, y) for x in range(WIDTH) for y in range(HEIGHT)]


class State(NamedTuple):
    used: frozenset = frozenset({BLOCKED})
    locations: tuple = (None, None)
    to_move: int = 0  # index into locations: 0 for the first player, 1 for the second


def on_board(cell):
    return 0 <= cell[0] < WIDTH and 0 <= cell[1] < HEIGHT


@cache  # states are immutable: each is worked out once, however many paths reach it
def legal_moves(state):
    here = state.locations[state.to_move]
    if here is None:
        return tuple(cell for cell in CELLS if cell not in state.used)
    moves = []
    for dx, dy in DIRECTIONS:
        x, y = here[0] + dx, here[1] + dy
        while on_board((x, y)) and (x, y) not in state.used:
            moves.append((x, y))
            x, y = x + dx, y + dy
    return tuple(moves)


def result(state, move):
    locations = list(state.locations)
    locations[state.to_move] = move
    return State(state.used | {move}, tuple(locations), 1 - state.to_move)


def play(moves):
    state = State()
    for move in moves:
        move = tuple(move)
        if move not in legal_moves(state):
            raise ValueError(f"{move} is not a legal move")
        state = result(state, move)
    return state


def terminal_test(state):
    return not legal_moves(state)


@cache
def min_value(state):
    if terminal_test(state):
        return 1
    return min(max_value(result(state, move)) for move in legal_moves(state))


@cache
def max_value(state):
    if terminal_test(state):
        return -1
    return max(min_value(result(state, move)) for move in legal_moves(state))


def best_moves(state):
    """Every move of the player to move whose value is the best available (ties are all right)."""
    values = {move: min_value(result(state, move)) for move in legal_moves(state)}
    best = max(values.values())
    return [move for move, value in values.items() if value == best]


def reachable():
    """Every state reachable from the empty board, each with one move sequence that reaches it."""
    seen = {State(): []}
    frontier = [State()]
    while frontier:
        state = frontier.pop()
        for move in legal_moves(state):
            child = result(state, move)
            if child not in seen:
                seen[child] = seen[state] + [move]
                frontier.append(child)
    return seen
