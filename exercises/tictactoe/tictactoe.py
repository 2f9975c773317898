"""Tic-tac-toe, the rules only: three rows of three cells, X (the computer, MAX, +1) against O (MIN, -1).

A position is ``(board, player)``: three rows of three cells (0 free, +1 X, -1 O) and the player to
move. Either side may start, so the player is part of the position. A move is a free cell ``[row, col]``.
The student is handed the board as a fresh list of lists (``board``) and may change it while
searching, as long as every change is undone; the helpers below are handed to them as they are.
"""

NAME = "tictactoe"
PLAYERS = (+1, -1)  # MAX first: values are MAX's
MARKS = {+1: "X", -1: "O", 0: "."}
CELLS = [(r, c) for r in range(3) for c in range(3)]
LINES = ([[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
         + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]])


def start_positions():
    empty = ((0,) * 3,) * 3
    return [(empty, +1), (empty, -1)]


def decode(data):
    """Rows as ``"XO."`` text (fixture files) or as lists of ints."""
    board = tuple(tuple({"X": 1, "O": -1, ".": 0}[c] for c in row) if isinstance(row, str) else tuple(row)
                  for row in data[0])
    return board, {"X": 1, "O": -1}.get(data[1], data[1])


# -- the helpers the student is handed, on a board --------------------------------------------

def wins(state, player):
    """True when ``player`` holds a whole row, column or diagonal."""
    for (a, b), (c, d), (e, f) in LINES:
        if state[a][b] == player and state[c][d] == player and state[e][f] == player:
            return True
    return False


def evaluate_board(state):
    """+1 when MAX has a line, -1 when MIN has, 0 otherwise."""
    return +1 if wins(state, +1) else -1 if wins(state, -1) else 0


def game_over(state):
    """True when either player has won (a full board without a winner is caught by depth 0)."""
    return wins(state, +1) or wins(state, -1)


def empty_cells(state):
    """The free cells as [row, col] pairs, row by row."""
    return [[r, c] for r in range(3) for c in range(3) if state[r][c] == 0]


def board(state):
    """What the student is handed: the board as a fresh list of lists."""
    return [list(row) for row in state[0]]


# -- the game ---------------------------------------------------------------------------------

def to_move(state):
    return state[1]


def actions(state):
    """The free cells, even on a won board (a search that misses the end of the game plays on)."""
    rows = state[0]
    return [(r, c) for r, c in CELLS if rows[r][c] == 0]


def result(state, cell):
    (r, c), (rows, player) = cell, state
    return rows[:r] + (rows[r][:c] + (player,) + rows[r][c + 1:],) + rows[r + 1:], -player


def is_terminal(state):
    return game_over(state[0]) or all(v for row in state[0] for v in row)


def utility(state, player):
    return evaluate_board(state[0]) * (1 if player == +1 else -1)


def evaluate(state, player):
    return utility(state, player)


def moves_left(state):
    return len(empty_cells(state[0]))


def cells(state):
    return [[MARKS[v] for v in row] for row in state[0]]


def render(state):
    rows, player = state
    lines = ["     0   1   2"]
    for r, row in enumerate(rows):
        lines.append(f"{r}    " + " | ".join(MARKS[v] for v in row))
        if r < 2:
            lines.append("    ---+---+---")
    if is_terminal(state):
        over = "X has won" if wins(rows, 1) else "O has won" if wins(rows, -1) else "a full board, a draw"
        lines.append(f"X = MAX (+1), O = MIN (-1); the game is over: {over}")
    else:
        free = moves_left(state)
        lines.append(f"X = MAX (+1), O = MIN (-1); {'X (MAX, +1)' if player == 1 else 'O (MIN, -1)'} to move, "
                     f"{free} empty cell{'' if free == 1 else 's'}")
    return "\n".join(lines)


def with_mover(state, player):
    """The same board with ``player`` to move (for mistakes that play the wrong side's marks)."""
    return state[0], player
