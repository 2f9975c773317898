"""Grader side of aima-isolation: every reachable position, asked about every part.

The game is small enough to grade exhaustively: the reference enumerates the 155 positions
reachable from the empty board, and each becomes a case per question (the legal moves, no
mutation by forecast_move, terminal_test, min_value, max_value and, where a move exists,
the decision). A position travels as the moves that reach it, so it is plain data and can be
replayed on any GameState. Pictures draw the board as a board.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

KINDS = ("rules", "forecast", "terminal", "min", "max", "decision")
QUESTION = {
    "rules": "get_legal_moves()", "forecast": "forecast_move(m) for every legal m",
    "terminal": "terminal_test(state)", "min": "min_value(state)", "max": "max_value(state)",
    "decision": "minimax_decision(state)", "published": "min_value(GameState())",
}


# How the grader calls each part, for one-line API mismatch reports (grader/api_mismatch.py).
API_PROVIDES = ["GameState() with only state.forecast_move(move) and state.get_legal_moves()"]
API_CALLS = ["terminal_test(gameState)", "min_value(gameState)", "max_value(gameState)", "minimax_decision(gameState)"]
API_OBJECTS = {"GameState": "gameState"}


@cache
def _reference():
    """The reference module, loaded by path: the case bank is built before the judge hands it over."""
    import importlib.util

    here = Path(__file__).resolve().parent
    for candidate in (here / "reference" / "aima_isolation.py", here.parent.parent / "reference" / "aima_isolation.py"):
        if candidate.is_file():
            spec = importlib.util.spec_from_file_location("_minimax_grader_isolation_reference", candidate)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    raise FileNotFoundError("aima_isolation.py reference not found")


def _id(moves):
    return "-".join(f"{x}{y}" for x, y in moves) or "empty"


def fixture_cases(folder: Path):
    """The published question, the hand-checked positions of the fixture file, then every reachable position."""
    known = json.loads((folder / "known.json").read_text(encoding="utf-8"))
    cases = [{"id": "published/min-value-empty-board", "group": "published",
              "input": {"kind": "published", "moves": []}, "known": known["min_value_empty_board"],
              "title": "min_value(GameState()) on the empty board"}]
    positions = sorted(_reference().reachable().items(), key=lambda item: (len(item[1]), item[1]))
    for state, moves in positions:
        moves = [list(m) for m in moves]
        for kind in KINDS:
            if kind == "decision" and not _reference().legal_moves(state):
                continue
            cases.append({"id": f"{kind}/{_id(moves)}", "group": kind, "input": {"kind": kind, "moves": moves}})
    return cases


def strategy():
    """Random cases are not needed (every position is graded); this draws them for ``--examples``."""
    from hypothesis import strategies as st

    positions = [[list(m) for m in moves] for moves in _reference().reachable().values()]
    return st.fixed_dictionaries({"kind": st.sampled_from(["rules", "terminal", "min", "max"]),
                                  "moves": st.sampled_from(positions)})


def reference(case_input, module):
    state = module.play(case_input["moves"])
    kind = case_input["kind"]
    if kind == "rules":
        return sorted(module.legal_moves(state))
    if kind == "terminal":
        return module.terminal_test(state)
    if kind == "min":
        return module.min_value(state)
    if kind == "max":
        return module.max_value(state)
    if kind == "decision":
        return sorted(module.best_moves(state))
    if kind == "published":
        return module.min_value(module.State())
    return None  # forecast: the driver reports what it saw


def _as_move(answer):
    """(x, y) from an answer that is a tuple or list of two ints, else None."""
    if answer.kind in ("tuple", "list") and answer.is_sequence_of(("int",), length=2):
        return tuple(item.value for item in answer.items)
    return None


def verify(case_input, expected, answer):
    kind = case_input["kind"]
    if kind == "rules":
        if answer.kind not in ("list", "tuple") or any(_as_move(item) is None for item in answer.items):
            return f"returned {answer.describe()}; get_legal_moves must return a list of (x, y) moves"
        moves = [_as_move(item) for item in answer.items]
        if len(set(moves)) != len(moves):
            return f"returned {answer.text}, which lists a move twice"
        if sorted(moves) != [tuple(m) for m in expected]:
            wrong = sorted(set(moves) - {tuple(m) for m in expected})
            missing = sorted({tuple(m) for m in expected} - set(moves))
            parts = []
            if wrong:
                parts.append(f"{', '.join(map(str, wrong))} {'is' if len(wrong) == 1 else 'are'} not legal")
            if missing:
                parts.append(f"{', '.join(map(str, missing))} {'is' if len(missing) == 1 else 'are'} missing")
            return f"returned {answer.text}: {'; '.join(parts)}"
        return None
    if kind == "forecast":
        if answer.kind != "list" or not all(item.kind == "str" for item in answer.items):
            return f"could not be checked ({answer.describe()})"
        return answer.items[0].value if answer.items else None
    if kind == "terminal":
        if answer.kind != "bool":
            return f"returned {answer.describe()}; terminal_test must return True or False"
        return None if answer.value is expected else f"returned {answer.text}, expected {expected}"
    if kind in ("min", "max", "published"):
        if answer.kind != "int" and not answer.is_number:
            return f"returned {answer.describe()}, expected {expected}"
        return None if answer.equals_number(expected) else f"returned {answer.text}, expected {expected}"
    if kind == "decision":
        move = _as_move(answer)
        if move is None:
            return f"returned {answer.describe()}; minimax_decision must return a move (x, y)"
        best = [tuple(m) for m in expected]
        if move not in best:
            shown = " or ".join(str(m) for m in best)
            return f"returned {move}, which is not a best move here (best: {shown})"
        return None
    return None


def check_list_of_moves(outcome, spec):
    """get_legal_moves returns exactly a list (the mini-project's tests demand it), of tuples."""
    answer = outcome.answer
    if answer is None:
        return None
    if answer.kind != "list":
        return f"get_legal_moves returned a {answer.type_name}; it must return a list"
    if any(item.kind != "tuple" for item in answer.items):
        return f"get_legal_moves returned {answer.text}; each move must be a tuple (x, y)"
    return None


def size(case_input):
    return len(case_input["moves"])


def call_text(case_input):
    moves = case_input["moves"]
    if case_input["kind"] == "published":
        return QUESTION["published"]
    played = "".join(f".forecast_move({tuple(m)})" for m in moves)
    return f"state = GameState(){played}; {QUESTION[case_input['kind']]}"


def picture(case_input):
    """The board as a board: 1 and 2 where the players stand, x on used cells, # the blocked corner."""
    reference = _reference()
    state = reference.play(case_input["moves"])
    lines = ["     " + "  ".join(f"x={x}" for x in range(reference.WIDTH))]
    for y in range(reference.HEIGHT):
        row = []
        for x in range(reference.WIDTH):
            cell = (x, y)
            if cell == state.locations[0]:
                mark = "1"
            elif cell == state.locations[1]:
                mark = "2"
            elif cell == reference.BLOCKED:
                mark = "#"
            elif cell in state.used:
                mark = "x"
            else:
                mark = "."
            row.append(f" {mark} ")
        lines.append(f"y={y}  " + "  ".join(row))
    mover = state.to_move + 1
    lines.append(f"player {mover} to move" + ("" if case_input["moves"] else " (the empty board)"))
    return "\n".join(lines)


def drawing(case_input):
    """The board as plain data for the HTML report's picture (the same marks as the text picture)."""
    rows = [line.split() for line in picture(case_input).splitlines()[1:-1]]
    return {"kind": "board", "rows": [row[1:] for row in rows], "row_labels": [row[0] for row in rows],
            "col_labels": [f"x={x}" for x in range(len(rows[0]) - 1)] if rows else [],
            "caption": picture(case_input).splitlines()[-1]}


def show_answer(answer):
    """Moves and lists of moves as Python shows them; anything else with its type."""
    return answer.describe()
