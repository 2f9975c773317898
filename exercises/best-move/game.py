"""best-move's games, the rules only, in the AIMA vocabulary: one game whose states carry their kind.

A state is ``("tree", node, player)``, ``node = {"value", "moves": [[label, child], ...]}`` (labels are
ints or names; a node without moves ends the game; a node with moves carries a guess that only a
wrong search reads), or ``("tictactoe", board, player)``, ``board`` three rows of 0 (free), 1 (O) or
2 (X), a move a ``(row, col)`` tuple. ``player`` is the one to move. Player 2 is MAX: values are his.
The plain form of a state is the case the grader asks about: ``{"game": "tree", "tree": node,
"player": p}`` or ``{"game": "tictactoe", "board": rows, "player": p}``. The grader uses these rules
for its references and the sandbox for the helpers it hands over (``driver.py``).
"""

NAME = "best-move"
PLAYERS = (2, 1)  # MAX first: player 2 wants the value high, player 1 low
LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def other(player):
    return 1 if player == 2 else 2


def winner(board):
    """The player with three in a row, else 0."""
    for line in LINES:
        a, b, c = (board[r][col] for r, col in line)
        if a in (1, 2) and a == b == c:
            return a
    return 0


def to_move(state):
    return state[2]


def actions(state):
    kind, position, _ = state
    if kind == "tree":
        return [label for label, _ in position["moves"]]
    if winner(position):
        return []
    return [(r, c) for r in range(3) for c in range(3) if position[r][c] == 0]


def result(state, move):
    kind, position, player = state
    if kind == "tree":
        return kind, next(child for label, child in position["moves"] if type(label) is type(move) and label == move), \
            other(player)
    rows = [list(row) for row in position]
    rows[move[0]][move[1]] = player
    return kind, tuple(tuple(row) for row in rows), other(player)


def is_terminal(state):
    return not actions(state)


def utility(state, player):
    kind, position, _ = state
    value = position["value"] if kind == "tree" else {2: 1, 1: -1, 0: 0}[winner(position)]
    return value if player == 2 else -value


def encode(state):
    kind, position, player = state
    if kind == "tree":
        return {"game": kind, "tree": position, "player": player}
    return {"game": kind, "board": [list(row) for row in position], "player": player}


def decode(data):
    if data["game"] == "tree":
        return "tree", data["tree"], data["player"]
    return "tictactoe", tuple(tuple(row) for row in data["board"]), data["player"]


def start_positions():
    """Tic-tac-toe's empty board, either player starting (game trees are drawn at random)."""
    return [("tictactoe", ((0,) * 3,) * 3, player) for player in (1, 2)]


evaluate = utility  # the helper evaluate() of a position that is not over: a tree node's guess, a board's 0
