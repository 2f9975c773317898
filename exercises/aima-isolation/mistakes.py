"""Grader side of aima-isolation: the mistakes students make, as wrong rules and wrong searches.

Values (min_value, max_value, the published call) are numbers, so the usual models apply: a
wrong search that gives the student's number on every position names the mistake. Legal
moves and decisions are moves, so they are matched here by rules instead: each wrong version
of the game's rules (no diagonals, passing through used cells, ...) is replayed on every
position the student was asked about, and it names the mistake when it predicts every
answer, wrong ones included. Nothing here shows code; each text ends with a question.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from grader.diagnose import Finding, Model, best_per_code, clear_winners, fit_hypothesis

CODES = {
    "sign-flip": (
        "The utilities of finished games are the wrong way round: a game that ends on a MIN level "
        "is a win for the player who searched (+1), one that ends on a MAX level a loss (-1).",
        "When the player to move at a MIN level has no move left, who has won?"),
    "no-alternation": (
        "Below a MAX level your search goes on with MAX again: the opponent is assumed to choose the "
        "moves that are best for you.",
        "After you have moved, whose choice is the next move, and what does that player want?"),
    "missing-terminal-check": (
        "A position where the player to move has no move is never recognised as the end of the game, "
        "so the search takes the best of no moves at all.",
        "What is a position worth when the player to move is stuck?"),
    "suboptimal-move": (
        "minimax_decision does not pick a move with the best min_value: in many positions it returns "
        "the first legal move, which is right on the empty board only by luck.",
        "In a position where the first move loses, does your decision look at the others?"),
    "always-min": (
        "Your max_value keeps the smallest value, as min_value does: at a MAX level the searcher is "
        "assumed to pick its worst move.",
        "At a MAX level, which of the values does the player to move want?"),
    "decision-skips-min-level": (
        "minimax_decision scores each move with max_value, but after your move it is the opponent's "
        "turn: the position it leads to is a MIN level.",
        "Who chooses the next move in the position your move leads to?"),
    "moves-through-used-cells": (
        "Your legal moves jump over cells that are used: a queen move stops at the first cell that is "
        "blocked or visited.",
        "Can a piece reach a cell when a visited cell lies between them on the line?"),
    "missing-diagonal-moves": (
        "Your legal moves follow rows and columns only: a piece also moves along diagonals.",
        "From (0, 0), which cells lie on a diagonal?"),
    "no-free-first-move": (
        "A player who has not moved yet gets no moves (or only some): the first move may go to any "
        "open cell.",
        "Where may a player put their piece when it is not on the board yet?"),
    "corner-not-blocked": (
        "The cell (2, 1) is open on your board; it is blocked from the start.",
        "Which cells can be used at all on a new board?"),
    "turn-not-passed": (
        "After a move it is still the same player's turn: forecast_move does not hand the move to "
        "the other player.",
        "After player 1 moves, whose legal moves should get_legal_moves return?"),
    "mutates-state": (
        "forecast_move changes the state it is called on (or returns it) instead of building a new one, "
        "so trying a move changes the position you are searching from.",
        "After forecasting a move, is the original state still the position you started from?"),
    "wrong-return-type": (
        "get_legal_moves must return a list of (x, y) tuples; yours returns another kind of collection "
        "or moves of another type.",
        "What type does the mini-project's test ask get_legal_moves to return, and what is a move?"),
}

CHECK_CODES = {
    "moves-are-a-list": {"code": "wrong-return-type", "even_if_skipped": False},
    # Not looked for when skipped: with wrong rules, forecasting the right moves proves little.
    "forecast-is-pure": {"code": "mutates-state", "even_if_skipped": False},
}

# -- the rules, with one thing optionally wrong ----------------------------------------------

WIDTH, HEIGHT, BLOCKED = 3, 2, (2, 1)
QUEEN = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def _legal(moves, variant=""):
    """The legal moves after ``moves``, under the true rules or one wrong version of them."""
    used = set() if variant == "corner-not-blocked" else {BLOCKED}
    at = [None, None]
    turn = 0
    for move in moves:
        move = tuple(move)
        used.add(move)
        at[turn] = move
        if variant != "turn-not-passed":
            turn = 1 - turn
    here = at[turn]
    cells = [(x, y) for x in range(WIDTH) for y in range(HEIGHT)]
    if here is None:
        return [] if variant == "no-free-first-move" else [c for c in cells if c not in used]
    found = []
    steps = {"missing-diagonal-moves": ROOK, **{f"missing-diagonal-moves/{name}": [d for d in QUEEN if d not in gone]
                                                 for name, gone in ONE_DIAGONAL.items()}}.get(variant, QUEEN)
    for dx, dy in steps:
        x, y = here[0] + dx, here[1] + dy
        while 0 <= x < WIDTH and 0 <= y < HEIGHT:
            if (x, y) in used:
                if variant == "moves-through-used-cells":
                    x, y = x + dx, y + dy
                    continue
                break
            found.append((x, y))
            x, y = x + dx, y + dy
    return found


# One of the two diagonals left out (its two directions): a parameter of missing-diagonal-moves.
ONE_DIAGONAL = {"rising": [(1, 1), (-1, -1)], "falling": [(1, -1), (-1, 1)]}
RULE_VARIANTS = ["moves-through-used-cells", "missing-diagonal-moves", "no-free-first-move",
                 "corner-not-blocked", "turn-not-passed"] + [f"missing-diagonal-moves/{name}" for name in ONE_DIAGONAL]


# -- value models over the true rules ---------------------------------------------------------

def _values(moves, level, terminal_value, next_level, max_keeps=max):
    """min_value (level "min") or max_value ("max") with the terminal value, the alternation and
    what a MAX level keeps (``max_keeps``: ``min`` for a max_value copied from min_value) given."""
    legal = _legal(moves)
    if not legal:
        return terminal_value(level)
    children = [_values(list(moves) + [m], next_level(level), terminal_value, next_level, max_keeps) for m in legal]
    return min(children) if level == "min" else max_keeps(children)


def _right_terminal(level):
    return 1 if level == "min" else -1


def _flipped_terminal(level):
    return -1 if level == "min" else 1


def _alternate(level):
    return "max" if level == "min" else "min"


def _no_terminal(moves, level):
    legal = _legal(moves)
    children = [_no_terminal(list(moves) + [m], _alternate(level)) for m in legal]
    if level == "min":
        return min(children, default=float("inf"))
    return max(children, default=float("-inf"))


def _no_terminal_raising(moves, level):
    """No terminal test, and min()/max() over a list: a stuck player's level raises on the empty list."""
    legal = _legal(moves)
    if not legal:
        raise ValueError("min() or max() of an empty sequence")
    children = [_no_terminal_raising(list(moves) + [m], _alternate(level)) for m in legal]
    return min(children) if level == "min" else max(children)


def _value_model(solve):
    """A model answering the numeric questions; the others are the rules' business (None)."""
    def answer(case_input):
        kind = case_input["kind"]
        if kind == "published":
            return solve([], "min")
        if kind in ("min", "max"):
            return solve(case_input["moves"], kind)
        return None

    return answer


def _model(code, solve, explanation=""):
    text, question = CODES[code]
    return Model(code, _value_model(solve), explanation or text, question)


MODELS = [
    _model("sign-flip", lambda moves, level: _values(moves, level, _flipped_terminal, _alternate)),
    _model("no-alternation", lambda moves, level: _values(moves, level, _right_terminal,
                                                          lambda lv: "max")),
    _model("missing-terminal-check", _no_terminal),
    _model("missing-terminal-check", _no_terminal_raising),
    _model("always-min", lambda moves, level: _values(moves, level, _right_terminal, _alternate, min)),
    # One level's rule wrong only (a function copied from the other and half edited): the sign of a
    # finished game wrong at one level, the player kept at each level, the end not tested at one level.
    _model("sign-flip", lambda moves, level: _values(moves, level, lambda lv: 1, _alternate),
           "A finished game counts +1 at every level: right where MIN is stuck, but where MAX has no move left "
           "it is a loss (-1), not a win."),
    _model("sign-flip", lambda moves, level: _values(moves, level, lambda lv: -1, _alternate),
           "A finished game counts -1 at every level: right where MAX is stuck, but where MIN has no move left "
           "it is a win (+1), not a loss."),
    _model("no-alternation", lambda moves, level: _values(moves, level, _right_terminal, lambda lv: lv),
           "Each level calls itself for the next move instead of the other player's function: min_value goes on "
           "with MIN and max_value with MAX."),
    _model("missing-terminal-check", lambda moves, level: _values(
        moves, level, lambda lv: float("inf") if lv == "min" else -1, _alternate),
           "min_value does not test whether the game is over, so a stuck MIN takes the least of no moves "
           "(max_value tests it)."),
    _model("missing-terminal-check", lambda moves, level: _values(
        moves, level, lambda lv: 1 if lv == "min" else float("-inf"), _alternate),
           "max_value does not test whether the game is over, so a stuck MAX takes the most of no moves "
           "(min_value tests it)."),
]


# -- rules over moves: legal-move lists and decisions -----------------------------------------

def _moves_of(answer):
    """The (x, y) moves an answer lists, or None when it is not a list of pairs of ints."""
    if answer is None or answer.kind not in ("list", "tuple"):
        return None
    moves = []
    for item in answer.items:
        if item.kind not in ("list", "tuple") or not item.is_sequence_of(("int",), length=2):
            return None
        moves.append(tuple(i.value for i in item.items))
    return moves


def _move_of(answer):
    if answer is None or answer.kind not in ("list", "tuple") or not answer.is_sequence_of(("int",), length=2):
        return None
    return tuple(i.value for i in answer.items)


@cache
def _stand_in():
    """The grader's own GameState (the one the decision questions were asked with), for its move order."""
    path = Path(__file__).resolve().parent / "provided" / "gamestate.py"
    spec = importlib.util.spec_from_file_location("_minimax_grader_isolation_stand_in", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stand_in_moves(moves):
    state = _stand_in().GameState()
    for move in moves:
        state = state.forecast_move(tuple(move))
    return state, state.get_legal_moves()


def _first_legal(moves):
    return _stand_in_moves(moves)[1][0]


def _best_by_max_value(moves):
    _, legal = _stand_in_moves(moves)
    scores = [_values(list(moves) + [m], "max", _right_terminal, _alternate) for m in legal]
    return legal[scores.index(max(scores))]


DECISION_VARIANTS = [("suboptimal-move", _first_legal), ("decision-skips-min-level", _best_by_max_value)]


def _matching(facts, code, kind, predict, read):
    """How far ``predict`` gives the answers of this kind (a ``Fit``, wrong answers first), or None."""
    asked = [o for o in facts.outcomes if o.case.input.get("kind") == kind
             and facts.reply(o) is not None and facts.reply(o)[0] != "raised"]
    asked.sort(key=lambda o: (not facts.is_wrong(o), facts.size(o)))

    def agrees(outcome):
        seen = read(outcome.answer)
        return seen is not None and seen == predict(outcome.case.input["moves"])

    return fit_hypothesis(code, asked, agrees, facts.is_wrong)


def _finding(code, facts, fit, check):
    text, question = CODES[code]
    shown = f"for example {facts.call(fit.example)}: {_shown(fit.example)}"
    if fit.complete:
        evidence = (f"this mistake gives exactly your answers on all {fit.compared} positions it was compared on, "
                    f"including the {fit.explained} where they are wrong ({shown})")
    else:
        evidence = (f"this mistake fits {fit.agreed} of the {fit.compared} positions it was compared on and "
                    f"{fit.explained} of your {fit.wrong} wrong answers ({shown}); it differs at {facts.call(fit.missed)}")
    return Finding(code, evidence, text, question, (check,))


def _shown(outcome):
    answer = outcome.answer
    return f"returned {answer.text}" if answer is not None else "gave no answer"


def rules(facts):
    found = []
    fits = [_matching(facts, code.split("/")[0], "rules", lambda moves, code=code: sorted(_legal(moves, code)),
                      lambda answer: sorted(_moves_of(answer)) if _moves_of(answer) is not None else None)
            for code in RULE_VARIANTS]
    # The rules' part and the decision's part are judged apart: a mistake is named in the part it is in.
    found.extend(_finding(fit.model.code, facts, fit, "legal-moves")
                 for fit in clear_winners(best_per_code([f for f in fits if f is not None])))
    fits = [_matching(facts, code, "decision", predict, _move_of) for code, predict in DECISION_VARIANTS]
    found.extend(_finding(fit.model.code, facts, fit, "best-decision")
                 for fit in clear_winners([f for f in fits if f is not None]))
    # The no-mutation answers are the driver's report: a wrong one is the mutation itself. A crash is
    # not (forecasting along rules the submission's own get_legal_moves rejects is the rules' part).
    changed = [o for o in facts.outcomes if o.case.input.get("kind") == "forecast" and facts.is_wrong(o)
               and (facts.reply(o) or ("",))[0] != "raised"]
    if changed:
        example = min(changed, key=facts.size)
        text, question = CODES["mutates-state"]
        found.append(Finding("mutates-state", f"{facts.call(example)}: {_shown(example)} "
                             f"(in {len(changed)} positions)", text, question, ("forecast-is-pure",)))
    return found
