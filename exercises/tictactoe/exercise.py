"""Grader side of the tic-tac-toe exercise: positions to ask about, and how to judge an answer.

A case is a position, ``{"board": [[...] * 3], "player": +1 or -1}``, reached by legal play
from the empty board with either side starting. The bank holds the hand-made positions of
the fixture files, a quarter of the finished positions, every unfinished one with one or two empty
cells (both sides to move), and random positions drawn by hypothesis as sequences of legal moves. An answer is
right when it has the shape ``[row, col, score]``, the score is the position's value and
the move is one of the moves that keep that value; a finished game answers ``[-1, -1, score]``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

MAX, MIN = +1, -1
MARKS = {MAX: "X", MIN: "O", 0: "."}
_LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
_LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
ENDGAME_EMPTIES = 2
FINISHED_EVERY = 4  # one finished position in four (of 1916), chosen evenly


# What the student is handed and how they are called, for one-line API mismatch reports
# (grader/api_mismatch.py): the state is a plain 3x3 list of lists.
API_PROVIDES = ["evaluate(state)", "wins(state, player)", "game_over(state)", "empty_cells(state)"]
API_CALLS = ["minimax(state, depth, player) with state a 3x3 list of lists"]
API_OBJECTS = {"list": "state"}


# -- the rules, on plain boards (the grader's own copy: the hooks never import the driver) --------

def _wins(board, player):
    return any(all(board[r][c] == player for r, c in line) for line in _LINES)


def _empties(board):
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == 0]


def _finished(board):
    return _wins(board, MAX) or _wins(board, MIN) or not _empties(board)


def _play(board, cell, player):
    return [[player if (r, c) == tuple(cell) else board[r][c] for c in range(3)] for r in range(3)]


def _to_move(board):
    """Who can be to move after legal play, whoever started (both, when the marks are level)."""
    lead = sum(v == MAX for row in board for v in row) - sum(v == MIN for row in board for v in row)
    return {0: (MAX, MIN), 1: (MIN,), -1: (MAX,)}.get(lead, ())


@cache
def _reachable():
    """Every (board, player to move) reachable from the empty board, as JSON-ready lists."""
    empty = ((0,) * 3,) * 3
    seen = {}
    frontier = [(empty, MAX), (empty, MIN)]
    while frontier:
        board, player = frontier.pop()
        if (board, player) in seen:
            continue
        seen[(board, player)] = None
        if not _finished(board):
            for cell in _empties(board):
                nxt = tuple(tuple(row) for row in _play(board, cell, player))
                frontier.append((nxt, -player))
    return sorted(seen, key=lambda bp: (-len(_empties(bp[0])), bp))


def _case_input(board, player):
    return {"board": [list(row) for row in board], "player": player}


def _board_id(board, player):
    rows = "/".join("".join(MARKS[v] for v in row) for row in board)
    return f"{rows}/{MARKS[player]}-to-move"


# -- the bank -----------------------------------------------------------------------------------

def fixture_cases(folder: Path):
    """Hand-made positions from the fixture files, then every finished and every small endgame position."""
    cases = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data["positions"]:
            board = [[{"X": MAX, "O": MIN, ".": 0}[ch] for ch in row] for row in item["board"]]
            player = MAX if item["to_move"] == "X" else MIN
            known = {"score": item["score"], "moves": [list(m) for m in item["moves"]]}
            cases.append({"id": f"{path.stem}/{item['name']}", "group": "fixtures",
                          "input": _case_input(board, player), "known": known, "title": item["title"]})
    for index, (board, player) in enumerate(p for p in _reachable() if _finished(p[0])):
        if index % FINISHED_EVERY == 0:
            cases.append({"id": f"finished/{_board_id(board, player)}", "group": "finished",
                          "input": _case_input(board, player)})
    for board, player in _reachable():
        empties = len(_empties(board))
        if _finished(board):
            continue
        elif empties <= ENDGAME_EMPTIES:
            group = "endgame"
        else:
            continue
        cases.append({"id": f"{group}/{_board_id(board, player)}", "group": group, "input": _case_input(board, player)})
    return cases


def strategy():
    """Random reachable positions: a starting side, then four to six legal moves (indices into the free cells).

    Every choice is a small integer, so hypothesis shrinks towards the first free cells; the
    grader's own shrinker then plays moves forward to reach a position with fewer free cells.
    """
    from hypothesis import strategies as st

    @st.composite
    def positions(draw):
        player = draw(st.sampled_from([MAX, MIN]))
        board = [[0] * 3 for _ in range(3)]
        for _ in range(draw(st.integers(4, 6))):
            cells = _empties(board)
            if _finished(board):
                break
            board = _play(board, cells[draw(st.integers(0, len(cells) - 1))], player)
            player = -player
        return _case_input(board, player)

    return positions()


def reference(case_input, module):
    board, player = case_input["board"], case_input["player"]
    key = module.key(board)
    if module.game_over(key):
        return {"score": module.evaluate(key), "moves": []}
    return {"score": module.value(key, player), "moves": [list(m) for m in module.best_moves(key, player)]}


# -- judging --------------------------------------------------------------------------------------

def _shape_problem(answer):
    if answer.kind not in ("list", "tuple") or len(answer.items) != 3:
        return f"returned {answer.describe()}; minimax must return a list [row, col, score]"
    row, col, score = answer.items
    if row.kind != "int" or col.kind != "int":
        return f"returned {answer.describe()}; row and col must be ints (here {row.describe()} and {col.describe()})"
    if not score.is_number:
        return f"returned {answer.describe()}; the score must be a number, not {score.describe()}"
    return None


def _score_problem(answer, expected):
    score = answer.items[2]
    if not score.equals_number(expected["score"]):
        return f"returned {answer.describe()}: score {score.text}, but the position is worth {_worth(expected['score'])}"
    return None


def _move_problem(case_input, answer, expected):
    row, col = answer.items[0].value, answer.items[1].value
    best = expected["moves"]
    if not best:
        if (row, col) != (-1, -1):
            return f"returned {answer.describe()}, but the game is already over: the answer is [-1, -1, {expected['score']}]"
        return None
    if [row, col] in best:
        return None
    board = case_input["board"]
    if not (0 <= row < 3 and 0 <= col < 3):
        where = "[-1, -1] is only for a finished game" if (row, col) == (-1, -1) else "that is off the board"
        return f"returned {answer.describe()}: {where}; the best moves here are {_moves_text(best)}"
    if board[row][col] != 0:
        return f"returned {answer.describe()}: cell ({row}, {col}) is already taken; the best moves here are {_moves_text(best)}"
    return (f"returned {answer.describe()}: ({row}, {col}) is not an optimal move here; "
            f"{_moves_text(best)} {'keeps' if len(best) == 1 else 'keep'} a score of {expected['score']}")


def _worth(score):
    return {1: "+1 (MAX wins with best play)", -1: "-1 (MIN wins with best play)", 0: "0 (a draw with best play)"}[score]


def _moves_text(moves):
    shown = [f"({r}, {c})" for r, c in moves]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def verify(case_input, expected, answer):
    """The whole answer: shape, score, then the move."""
    return (_shape_problem(answer) or _score_problem(answer, expected)
            or _move_problem(case_input, answer, expected))


def _answered(outcome):
    return outcome.did_not_answer(0.0) if not outcome.raw.get("timed_out") else "timed out"


def check_score(outcome, spec):
    problem = _answered(outcome)
    if problem:
        return problem
    answer = outcome.answer
    return _shape_problem(answer) or _score_problem(answer, outcome.expected)


def check_move(outcome, spec):
    problem = _answered(outcome)
    if problem:
        return problem
    answer = outcome.answer
    return _shape_problem(answer) or _move_problem(outcome.case.input, answer, outcome.expected)


def check_shape(outcome, spec):
    if "answer" not in outcome.raw or outcome.raw.get("answer") is None:
        return None  # a crash or a timeout is judged by the other checks
    return _shape_problem(outcome.answer)


def check_board_restored(outcome, spec):
    if outcome.raw.get("answer") is None:
        return None  # a search cut short by an exception cannot be asked to tidy up
    if outcome.raw.get("mutated"):
        return "the board was different after the call: a move tried during the search was not undone"
    return None


def show_answer(answer):
    return answer.describe()


def show_expected(case_input, expected):
    """The right answer as the statement writes it, ``[row, col, score]``: ``[-1, -1, 0]`` for a
    finished game, else every optimal move with the score ("[0, 2, 1] or [2, 0, 1]")."""
    score = expected["score"]
    moves = expected["moves"] or [[-1, -1]]
    shown = [f"[{r}, {c}, {score}]" for r, c in moves]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


# -- showing a case -----------------------------------------------------------------------------

def size(case_input):
    """Free cells first (the size of the search), then marks on the board."""
    board = case_input["board"]
    return len(_empties(board)) * 10 + sum(v != 0 for row in board for v in row)


def call_text(case_input):
    depth = len(_empties(case_input["board"]))
    return f"minimax(board, {depth}, {'+1' if case_input['player'] == MAX else '-1'})"


def picture(case_input):
    """The board as a board, with row and column numbers, and whose turn it is."""
    board = case_input["board"]
    lines = ["     0   1   2"]
    for r, row in enumerate(board):
        lines.append(f"{r}    " + " | ".join(MARKS.get(v, "?") for v in row))
        if r < 2:
            lines.append("    ---+---+---")
    mover = "X (MAX, +1)" if case_input["player"] == MAX else "O (MIN, -1)"
    if _finished(board):
        state = "X has won" if _wins(board, MAX) else "O has won" if _wins(board, MIN) else "a full board, a draw"
        lines.append(f"X = MAX (+1), O = MIN (-1); the game is over: {state}")
    else:
        lines.append(f"X = MAX (+1), O = MIN (-1); {mover} to move, {_cells(len(_empties(board)))}")
    return "\n".join(lines)


def drawing(case_input):
    """The board as plain data for the HTML report's picture."""
    board = case_input["board"]
    mover = "X (MAX, +1)" if case_input["player"] == MAX else "O (MIN, -1)"
    caption = "the game is over" if _finished(board) else f"{mover} to move"
    return {"kind": "board", "rows": [[MARKS.get(v, "?") for v in row] for row in board], "caption": caption}


def drawing_marks(case_input, answer, expected):
    """The cells to mark on the board: the student's move (if it is a cell) and the best moves."""
    yours = None
    if answer.kind in ("list", "tuple") and len(answer.items) == 3 and all(i.kind == "int" for i in answer.items[:2]):
        row, col = answer.items[0].value, answer.items[1].value
        yours = [row, col] if 0 <= row < 3 and 0 <= col < 3 else None
    return {"yours": yours, "best": [list(m) for m in expected.get("moves") or []]}


def shrink_candidates(case_input):
    """Smaller searches only: the position one legal move on, for each free cell."""
    board, player = case_input["board"], case_input["player"]
    if _finished(board):
        return []
    return [_case_input(_play(board, cell, player), -player) for cell in _empties(board)]


def _cells(count):
    return f"{count} empty cell{'' if count == 1 else 's'}"
