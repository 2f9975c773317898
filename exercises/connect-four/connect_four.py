"""Connect Four on a small board, the rules only: 5 columns, 4 rows, three in a line wins.

A position is ``(rows, player)``: four strings of five cells, the top row first ("." free,
"X" or "O"), and the player to move, "X" (MAX) or "O" (MIN). A move is a column number, 0 to 4;
the piece falls to the lowest free cell of that column.
"""

NAME = "connect-four"
PLAYERS = ("X", "O")
COLUMNS, ROWS, CONNECT = 5, 4, 3
WIN = 100
initial = (("." * COLUMNS,) * ROWS, "X")


def _lines():
    """Every window of three cells in a row, a column or a diagonal, as indices into the joined rows."""
    found = []
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(CONNECT)]
                if all(0 <= rr < ROWS and 0 <= cc < COLUMNS for rr, cc in cells):
                    found.append(tuple(rr * COLUMNS + cc for rr, cc in cells))
    return found


LINES = _lines()


def to_move(state):
    return state[1]


def actions(state):
    return [c for c in range(COLUMNS) if state[0][0][c] == "."]


def result(state, column):
    rows, player = state
    row = max(r for r in range(ROWS) if rows[r][column] == ".")
    changed = rows[row][:column] + player + rows[row][column + 1:]
    return rows[:row] + (changed,) + rows[row + 1:], "O" if player == "X" else "X"


def _has_line(rows, mark):
    cells = "".join(rows)
    return any(cells[a] == cells[b] == cells[c] == mark for a, b, c in LINES)


def is_terminal(state):
    rows = state[0]
    return _has_line(rows, "X") or _has_line(rows, "O") or not actions(state)


def utility(state, player):
    rows, other = state[0], "O" if player == "X" else "X"
    return WIN if _has_line(rows, player) else -WIN if _has_line(rows, other) else 0


def evaluate(state, player):
    """A finished game's utility; otherwise open twos: lines with two of one mark and a free cell."""
    if is_terminal(state):
        return utility(state, player)
    other = "O" if player == "X" else "X"
    cells, score = "".join(state[0]), 0
    for a, b, c in LINES:
        marks = cells[a] + cells[b] + cells[c]
        if marks.count(".") == 1:
            score += (marks.count(player) == 2) - (marks.count(other) == 2)
    return score


def render(state):
    rows = state[0]
    return "\n".join(["| " + " ".join(row) + " |" for row in rows] + ["  " + " ".join(map(str, range(COLUMNS)))])
