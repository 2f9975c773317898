"""Mini-isolation on a 3x2 board in the AIMA vocabulary, run only in the grader's process.

A state is immutable: the used cells, each player's cell (None until their first move), whose turn
it is. Moves are (x, y) from the top-left; (2, 1) is blocked from the start. A first move may go to
any open cell, later ones are queen moves that stop at the first used cell. Whoever is to move and
cannot, loses. Players are 0 (who moves first) and 1, under the same rules.
"""

from typing import NamedTuple

WIDTH, HEIGHT, BLOCKED = 3, 2, (2, 1)
CELLS = [(x, y) for x in range(WIDTH) for y in range(HEIGHT)]
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
PLAYERS = (0, 1)


class State(NamedTuple):
    used: frozenset = frozenset({BLOCKED})
    locations: tuple = (None, None)
    to_move: int = 0


initial = State()


def to_move(state):
    return state.to_move


def actions(state):
    here = state.locations[state.to_move]
    if here is None:
        return [cell for cell in CELLS if cell not in state.used]
    moves = []
    for dx, dy in DIRECTIONS:
        x, y = here[0] + dx, here[1] + dy
        while 0 <= x < WIDTH and 0 <= y < HEIGHT and (x, y) not in state.used:
            moves.append((x, y))
            x, y = x + dx, y + dy
    return moves


def result(state, move):
    locations = list(state.locations)
    locations[state.to_move] = move
    return State(state.used | {move}, tuple(locations), 1 - state.to_move)


def is_terminal(state):
    return not actions(state)


def utility(state, player):
    """A finished game: lost for the player who is to move and cannot."""
    return -1 if state.to_move == player else 1


def render(state):
    """1 and 2 where the players stand, x on used cells, # the blocked corner."""
    marks = {BLOCKED: "#", **{cell: "x" for cell in state.used if cell != BLOCKED},
             **{cell: str(n + 1) for n, cell in enumerate(state.locations) if cell is not None}}
    lines = ["     " + "  ".join(f"x={x}" for x in range(WIDTH))]
    lines += [f"y={y}  " + "  ".join(f" {marks.get((x, y), '.')} " for x in range(WIDTH)) for y in range(HEIGHT)]
    return "\n".join(lines)
