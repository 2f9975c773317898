"""Grader side of aima-isolation: every reachable position, asked about every part.

Each of the 155 positions reachable from the empty board is a case per question (the legal moves,
no mutation by forecast_move, terminal_test, min_value, max_value and, where a move exists, the
decision). A position travels as the moves that reach it, so any GameState can replay it. The
answers come from the game's rules (isolation.py) and the kit's minimax over them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from grader.kit import answer_shapes as shapes
from grader.kit import move_paths

KINDS = ("rules", "forecast", "terminal", "min", "max", "decision")
QUESTION = {"rules": "get_legal_moves()", "forecast": "forecast_move(m) for every legal m", "terminal":
            "terminal_test(state)", "min": "min_value(state)", "max": "max_value(state)", "decision":
            "minimax_decision(state)", "published": "min_value(GameState())"}

# How the grader calls each part, for one-line API mismatch reports (grader/judging/api_mismatch.py).
API_PROVIDES = ["GameState() with only state.forecast_move(move) and state.get_legal_moves()"]
API_CALLS = ["terminal_test(gameState)", "min_value(gameState)", "max_value(gameState)", "minimax_decision(gameState)"]
API_OBJECTS = {"GameState": "gameState"}


@cache
def game():
    """The game's rules (isolation.py beside this file) and the kit's searches over them."""
    from grader.kit.game import Game
    from grader.kit.search import Searcher

    rules = Game.from_file(Path(__file__).with_name("isolation.py"), "_minimax_grader_isolation_game")
    return rules, Searcher(rules)


def position(moves):
    return _after(tuple(map(tuple, moves)))


@cache  # the same few hundred positions are asked about again and again
def _after(moves):
    return move_paths.after(game()[0], moves)


def as_level(state, level):
    """The position with MAX (player 0) as the searcher: min_value is asked where MIN is to move, max_value
    where MAX is; the rules are the same for both players, so they may swap places."""
    if (state.to_move == 0) == (level == "max"):
        return state
    return state._replace(locations=state.locations[::-1], to_move=1 - state.to_move)


@cache
def reachable():
    return move_paths.reachable(game()[0])


def _id(moves):
    return "-".join(f"{x}{y}" for x, y in moves) or "empty"


def fixture_cases(folder: Path):
    """The published question, then every reachable position, fewest moves first."""
    known = json.loads((folder / "known.json").read_text(encoding="utf-8"))
    cases = [{"id": "published/min-value-empty-board", "group": "published",
              "input": {"kind": "published", "moves": []}, "known": known["min_value_empty_board"],
              "title": "min_value(GameState()) on the empty board"}]
    for state, moves in sorted(reachable(), key=lambda item: (len(item[1]), item[1])):
        moves = [list(m) for m in moves]
        cases += [{"id": f"{kind}/{_id(moves)}", "group": kind, "input": {"kind": kind, "moves": moves}}
                  for kind in KINDS if kind != "decision" or not game()[0].is_terminal(state)]
    return cases


def strategy():
    """Random cases are not needed (every position is graded); this draws them for ``--examples``."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries({"kind": st.sampled_from(["rules", "terminal", "min", "max"]),
                                  "moves": st.sampled_from([[list(m) for m in moves] for _, moves in reachable()])})


def reference(case_input, module=None):
    rules, searcher = game()
    kind, state = case_input["kind"], position(case_input["moves"])
    if kind == "rules":
        return sorted(rules.actions(state))
    if kind == "terminal":
        return rules.is_terminal(state)
    if kind == "decision":
        return sorted(searcher.best_moves(as_level(state, "max"), None))
    if kind == "forecast":
        return None  # the driver reports what it saw
    return searcher.value(as_level(state, "min" if kind == "published" else kind), None)


def verify(case_input, expected, answer):
    kind = case_input["kind"]
    if kind == "rules":
        return shapes.moves_problem(answer, expected, "get_legal_moves")
    if kind == "forecast":  # the driver's report: what forecast_move changed, if anything
        if answer.kind != "list" or not all(item.kind == "str" for item in answer.items):
            return f"could not be checked ({answer.describe()})"
        return answer.items[0].value if answer.items else None
    if kind == "terminal":
        return shapes.bool_problem(answer, expected, "terminal_test")
    if kind == "decision":
        return shapes.best_move_problem(answer, expected, "minimax_decision")
    return shapes.number_problem(answer, expected)


def check_list_of_moves(outcome, spec):
    """get_legal_moves returns exactly a list (the mini-project's tests demand it), of tuples."""
    return shapes.exact_list_problem(outcome.answer, "get_legal_moves")


def size(case_input):
    return len(case_input["moves"])


def call_text(case_input):
    moves = case_input["moves"]
    if case_input["kind"] == "published":
        return QUESTION["published"]
    played = "".join(f".forecast_move({tuple(m)})" for m in moves)
    return f"state = GameState(){played}; {QUESTION[case_input['kind']]}"


def picture(case_input):
    """The board as the game draws it, and who is to move."""
    state = position(case_input["moves"])
    empty = "" if case_input["moves"] else " (the empty board)"
    return f"{game()[0].render(state)}\nplayer {state.to_move + 1} to move{empty}"


def drawing(case_input):
    """The board as plain data for the HTML report's picture (the same marks as the text picture)."""
    rows = [line.split() for line in picture(case_input).splitlines()[1:-1]]
    return {"kind": "board", "rows": [row[1:] for row in rows], "row_labels": [row[0] for row in rows],
            "col_labels": [f"x={x}" for x in range(len(rows[0]) - 1)] if rows else [],
            "caption": picture(case_input).splitlines()[-1]}


def show_answer(answer):
    """Moves and lists of moves as Python shows them; anything else with its type."""
    return answer.describe()
