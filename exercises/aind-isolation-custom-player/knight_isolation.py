"""7x7 isolation with knight's moves: the rules as plain functions over plain data (written for
minimax-grader; the method names the course uses live in the kit's board object, see exercise.toml).

A position is ``(blocked, locations, to_move)``: ``blocked`` a sorted tuple of the cells already
visited (every cell a player has stood on stays blocked), ``locations`` each player's cell (None
before their first move), ``to_move`` the seat (0 or 1) of the player to move. A move is a cell
``(row, col)``. A player's first move goes to any blank cell; after that, a knight's jump to a
blank cell. A player with no legal move on their turn loses. Standard library only: the sandbox
loads this file next to the student's code.
"""

WIDTH = 7
HEIGHT = 7
NO_MOVE = (-1, -1)
JUMPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
INF = float("inf")


def start_positions():
    return [((), (None, None), 0)]


def to_move(state):
    return state[2]


def blank_cells(state):
    blocked = set(state[0])
    return [(r, c) for c in range(WIDTH) for r in range(HEIGHT) if (r, c) not in blocked]


def moves_for(state, seat):
    """The legal moves of ``seat`` here (whoever is to move), in a fixed order."""
    here = state[1][seat]
    if here is None:
        return blank_cells(state)
    blocked = set(state[0])
    r, c = here
    return [(r + dr, c + dc) for dr, dc in JUMPS
            if 0 <= r + dr < HEIGHT and 0 <= c + dc < WIDTH and (r + dr, c + dc) not in blocked]


def result(state, move):
    blocked, locations, seat = state
    move = (int(move[0]), int(move[1]))
    moved = tuple(move if i == seat else loc for i, loc in enumerate(locations))
    return tuple(sorted(blocked + (move,))), moved, 1 - seat


def move_count(state):
    return len(state[0])


def location(state, seat):
    return state[1][seat] if state[1][seat] is not None else NO_MOVE


def encode(state):
    blocked, locations, seat = state
    return {"blocked": [list(c) for c in blocked], "locations": [None if l is None else list(l) for l in locations],
            "to_move": seat}


def decode(data):
    return (tuple(sorted(tuple(c) for c in data["blocked"])),
            tuple(None if l is None else tuple(l) for l in data["locations"]), int(data["to_move"]))


def is_over(state):
    return not moves_for(state, to_move(state))


def utility(state, seat):
    """+inf for a win, -inf for a loss, 0 while the game goes on."""
    if not is_over(state):
        return 0.0
    return -INF if to_move(state) == seat else INF


# Score functions the grader hands to a player's constructor (asked, and recorded, in the grading process).
def improved_score(state, seat):
    if is_over(state):
        return utility(state, seat)
    return float(len(moves_for(state, seat)) - len(moves_for(state, 1 - seat)))


def open_score(state, seat):
    if is_over(state):
        return utility(state, seat)
    return float(len(moves_for(state, seat)))


def center_gap_score(state, seat):
    """The opponent's squared distance from the centre minus the player's, and half the difference of their moves:
    rarely ties, so a search's best move is one move. The course's ``sample_players.center_gap_score`` is the same
    function over a board, so a student replays every case a report shows at home (it is not the course's
    ``center_score``, the player's own distance alone, which ties on every pair of mirrored cells)."""
    if is_over(state):
        return utility(state, seat)
    def far(s):
        loc = state[1][s]
        return 0.0 if loc is None else float((loc[0] - HEIGHT // 2) ** 2 + (loc[1] - WIDTH // 2) ** 2)
    return far(1 - seat) - far(seat) + 0.5 * (len(moves_for(state, seat)) - len(moves_for(state, 1 - seat)))


SCORES = {"improved": improved_score, "open": open_score, "center_gap": center_gap_score}


def cells(state):
    """Rows of marks for drawing: "1"/"2" the players, "#" a blocked cell, "" a blank one."""
    rows = [["" for _ in range(WIDTH)] for _ in range(HEIGHT)]
    for r, c in state[0]:
        rows[r][c] = "#"
    for seat, loc in enumerate(state[1]):
        if loc is not None:
            rows[loc[0]][loc[1]] = str(seat + 1)
    return rows


def render(state):
    head = "     " + " ".join(str(c) for c in range(WIDTH))
    lines = [head]
    for r, row in enumerate(cells(state)):
        lines.append(f"  {r}  " + " ".join(mark or "." for mark in row))
    lines.append(f"player {to_move(state) + 1} to move; 1, 2 = the players, # = a visited cell")
    return "\n".join(lines)
