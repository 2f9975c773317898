"""The grader's stand-in for gamestate.py, used when a submission does not include GameState.

It runs in the sandbox beside the student's code (so it is no secret, and it is not what the
grader judges against). The board is 3 columns by 2 rows, (x, y) from the top-left, with the
bottom-right cell (2, 1) blocked from the start.
"""

from copy import deepcopy

WIDTH, HEIGHT = 3, 2
STEPS = [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]


class GameState:
    def __init__(self):
        self._used = [[False] * HEIGHT for _ in range(WIDTH)]
        self._used[WIDTH - 1][HEIGHT - 1] = True
        self._at = [None, None]
        self._turn = 0

    def forecast_move(self, move):
        """A new state with the active player moved to ``move``; this one is left untouched."""
        following = deepcopy(self)
        x, y = move
        following._used[x][y] = True
        following._at[self._turn] = (x, y)
        following._turn = 1 - self._turn
        return following

    def get_legal_moves(self):
        """The cells the active player can reach: any open cell at first, then queen moves."""
        here = self._at[self._turn]
        if here is None:
            return [(x, y) for x in range(WIDTH) for y in range(HEIGHT) if not self._used[x][y]]
        moves = []
        for dx, dy in STEPS:
            x, y = here[0] + dx, here[1] + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT and not self._used[x][y]:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves
