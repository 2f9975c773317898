# --- Stand-ins for the helpers the grader provides, so that this file runs at home. -----------
# While grading, the grader's own evaluate, wins, game_over and empty_cells replace these before
# every call, so whatever you write above must use them only as the statement says.
MAX, MIN = +1, -1
_LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
_LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def wins(state, player):
    """Stand-in: True when `player` holds a whole row, column or diagonal."""
    return any(all(state[r][c] == player for r, c in line) for line in _LINES)


def evaluate(state):
    """Stand-in: +1 when MAX has won, -1 when MIN has, 0 otherwise."""
    return +1 if wins(state, MAX) else -1 if wins(state, MIN) else 0


def game_over(state):
    """Stand-in: True when either player has won."""
    return wins(state, MAX) or wins(state, MIN)


def empty_cells(state):
    """Stand-in: the free cells as [row, col] pairs, row by row."""
    return [[r, c] for r in range(3) for c in range(3) if state[r][c] == 0]


EXAMPLE = None  # the statement's example, written in when the starter is made


if __name__ == "__main__":
    board = [list(row) for row in EXAMPLE["board"]]
    print(minimax(board, len(empty_cells(board)), EXAMPLE["player"]))
