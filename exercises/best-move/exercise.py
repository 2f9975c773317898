"""Grader side of best-move: the cases to ask about, and how a case is judged and shown.

A case is a position of the game in ``game.py`` in its plain form (a game tree or a tic-tac-toe
board, and the player to move). The reference, the trees, the judging of a move and the naming
of mistakes are the kit's; what is left here is the bank's two groups and the pictures' words.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from grader.kit import move_answer, trees
from grader.kit.game import Game
from grader.kit.search import Searcher

PLAYER_1, PLAYER_2 = 1, 2
MARKS = {0: ".", PLAYER_1: "O", PLAYER_2: "X"}
TICTACTOE_CASES = 60
GAME = Game.from_file(Path(__file__).with_name("game.py"), "_minimax_grader_best_move_game")
_next = GAME.module.other


@cache
def searcher() -> Searcher:
    """The kit's searches over the game, memoised per position (the rules are pure)."""
    return Searcher(GAME)


# What the student is handed and how they are called, for one-line API mismatch reports
# (grader/judging/api_mismatch.py): a state is opaque, read only through the helpers.
API_PROVIDES = ["generate_valid_moves(player, state)", "apply(state, move)", "is_terminal(state)",
                "evaluate(state)", "next_player(player)"]
API_OBJECTS = {"State": "state"}


# -- the bank --------------------------------------------------------------------------------------

def fixture_cases(folder: Path):
    """Hand-made games from the fixture files, then an even sample of reachable tic-tac-toe positions."""
    cases = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data["games"]:
            if "tree" in item:
                case_input = {"game": "tree", "tree": item["tree"], "player": item["player"]}
            else:
                board = [[{".": 0, "O": PLAYER_1, "X": PLAYER_2}[ch] for ch in row] for row in item["board"]]
                case_input = {"game": "tictactoe", "board": board, "player": item["player"]}
            known = {"value": item["value"], "best moves": item["best"]}
            cases.append({"id": f"{path.stem}/{item['name']}", "group": "fixtures", "input": case_input,
                          "known": known, "title": item["title"]})
    # Unfinished tic-tac-toe positions with two to five free cells, reached by legal play, either player starting.
    positions = sorted(((board, player) for kind, board, player in GAME.reachable(20_000)
                        if 2 <= len(GAME.actions((kind, board, player))) <= 5), key=lambda s: (json.dumps(s[0]), s[1]))
    step = max(1, len(positions) // TICTACTOE_CASES)
    for board, player in positions[::step][:TICTACTOE_CASES]:
        rows = "/".join("".join(MARKS[v] for v in row) for row in board)
        cases.append({"id": f"tictactoe/{rows}/player-{player}", "group": "tictactoe",
                      "input": {"game": "tictactoe", "board": [list(row) for row in board], "player": player}})
    return cases


def strategy():
    """Random game trees (the kit's: int or named moves, ties on purpose), either player first."""
    from hypothesis import strategies as st

    return st.tuples(trees.strategy(), st.sampled_from([PLAYER_1, PLAYER_2])).map(
        lambda drawn: {"game": "tree", "tree": drawn[0], "player": drawn[1]})


def reference(case_input, module=None):
    """The game's value and every move keeping it, by the kit's minimax (``module``: the core's, unused)."""
    state, search = GAME.decode(case_input), searcher()
    scored = [(GAME.move_data(move), search.value(GAME.result(state, move), None)) for move in GAME.actions(state)]
    value = search.value(state, None)
    return {"value": value, "best moves": [m for m, v in scored if v == value], "move values": [list(p) for p in scored]}


# -- judging ---------------------------------------------------------------------------------------

def _legal_moves(case_input):
    return GAME.actions(GAME.decode(case_input))


def _legal_problem(case_input, answer):
    return move_answer.legal_problem(_legal_moves(case_input), answer, "generate_valid_moves")


def verify(case_input, expected, answer):
    player = case_input["player"]
    wants = f"player {player} wants the {'lowest' if player == PLAYER_1 else 'highest'} value"
    return _legal_problem(case_input, answer) or move_answer.best_problem(answer, expected, wants, "best moves")


def check_legal(outcome, spec):
    problem = outcome.did_not_answer(0.0) if not outcome.raw.get("timed_out") else "timed out"
    if problem:
        return problem
    return _legal_problem(outcome.case.input, outcome.answer)


def check_state_unchanged(outcome, spec):
    if outcome.raw.get("answer") is None:
        return None
    if outcome.raw.get("mutated"):
        change = outcome.raw.get("change")  # where, in words, as the child saw it (driver.change_of)
        where = f" ({change})" if change else " (its board or whose turn it is changed)"
        return f"the state was different after the call{where}: use apply, which returns a new state"
    return None


def show_answer(answer):
    return answer.describe()


def show_expected(case_input, expected):
    """The best moves as the game's helpers give them (tic-tac-toe moves are ``(row, col)`` tuples,
    never the lists the plain-data record holds): "(1, 1)", "1 or 3"."""
    return move_answer.moves_text(expected["best moves"])


# -- showing a case --------------------------------------------------------------------------------

def size(case_input):
    if case_input["game"] == "tree":
        return trees.size(case_input["tree"])
    return 3 * sum(v == 0 for row in case_input["board"] for v in row)


def call_text(case_input):
    return f"best_move({case_input['player']}, state)"


def _role(player):
    return f"player {player} to move ({'wants the value low' if player == PLAYER_1 else 'wants the value high'})"


def _mover(player):
    return lambda level: f"player {player if level % 2 == 0 else _next(player)} to move"


def picture(case_input):
    if case_input["game"] == "tictactoe":
        return _board_picture(case_input)
    return trees.text(case_input["tree"], f"root: {_role(case_input['player'])}", _mover(case_input["player"]))


def drawing(case_input):
    """The game tree or the board as plain data for the HTML report's picture."""
    if case_input["game"] == "tictactoe":
        rows = [[MARKS.get(v, "?") for v in row] for row in case_input["board"]]
        return {"kind": "board", "rows": rows, "caption": f"player {case_input['player']} to move (X = 2, O = 1)"}
    return trees.drawing(case_input["tree"], _mover(case_input["player"]))


def drawing_marks(case_input, answer, expected):
    """On a board: the student's move (when it is a cell) and the best moves."""
    value = answer.plain()
    if case_input["game"] != "tictactoe":  # the root's children, by the ids drawing() gives them
        return trees.root_marks(value, expected["best moves"])
    yours = list(value) if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value) else None
    return {"yours": yours, "best": [list(m) for m in expected["best moves"]]}


def _board_picture(case_input):
    board = case_input["board"]
    lines = ["     0   1   2"]
    for r, row in enumerate(board):
        lines.append(f"{r}    " + " | ".join(MARKS.get(v, "?") for v in row))
        if r < 2:
            lines.append("    ---+---+---")
    lines.append(f"X = player 2 (wants +1), O = player 1 (wants -1); {_role(case_input['player']).split(' (')[0]}; "
                 f"moves are (row, col) tuples")
    return "\n".join(lines)


def shrink_candidates(case_input):
    """Simpler games that may still fail: fewer branches, shallower trees, a position one move on."""
    if case_input["game"] == "tictactoe":
        state = GAME.decode(case_input)
        return [GAME.encode(nxt) for nxt in (GAME.result(state, m) for m in GAME.actions(state)) if GAME.actions(nxt)]
    return [{**case_input, "tree": tree} for tree in trees.simpler(case_input["tree"])]
