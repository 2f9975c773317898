"""Grader side of aima-isolation: the mistakes students make, as wrong rules and wrong searches.

Values (min_value, max_value, the published call) are matched by the kit's mistake families over
the game's rules, and by levels that do not alternate; legal-move lists and decisions by wrong
versions of the rules and of the decision, replayed on every position asked (``kit/rule_fits``).
Nothing here shows code; each text ends with a question.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from grader.judging.diagnose import Finding, Model
from grader.kit.answer_shapes import as_move, lazy_collection, moves_of_a_set, sorted_moves
from grader.kit.game import load_module
from grader.kit.rule_fits import named, shown_answer, wrapped_best
from grader.kit.value_models import value_models

CODES = {
    "sign-flip": (
        "The utilities of finished games are the wrong way round: a game that ends on a MIN level "
        "is a win for the player who searched (+1), one that ends on a MAX level a loss (-1).",
        "When the player to move at a MIN level has no move left, who has won?"),
    "no-alternation": (
        "Below a MAX level your search goes on with MAX again: the opponent is assumed to choose the "
        "moves that are best for you.",
        "After you have moved, whose choice is the next move, and what does that player want?"),
    "terminal-test-inverted": (
        "terminal_test is the wrong way round: it is True while the player to move still has moves and False "
        "once they are stuck, so the search scores positions that go on as finished games and searches on "
        "where nobody can move.",
        "When is the game over: while the player to move has a move, or once they have none?"),
    "missing-terminal-check": (
        "A position where the player to move has no move is never recognised as the end of the game, "
        "so the search takes the best of no moves at all.",
        "What is a position worth when the player to move is stuck?"),
    "suboptimal-move": (
        "minimax_decision does not pick a move with the best min_value: in many positions it returns "
        "another legal move (the first one, say), which can be right on the empty board by luck.",
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
    "wrong-return-type/decision": (
        "minimax_decision must return the move itself, an (x, y) tuple; yours returns a best move inside a list "
        "(or together with its value).",
        "What does the caller of minimax_decision do with the answer?"),
}

CHECK_CODES = {
    "moves-are-a-list": {"code": "wrong-return-type", "even_if_skipped": False},
    # Not looked for when skipped: with wrong rules, forecasting the right moves proves little.
    "forecast-is-pure": {"code": "mutates-state", "even_if_skipped": False},
}

@cache
def _hooks():
    """The exercise's hooks (exercise.py beside this file): the game, its searcher and its positions."""
    return load_module(Path(__file__).with_name("exercise.py"), "_minimax_grader_isolation_hooks")


RULES = _hooks().game()[0].module
WIDTH, HEIGHT, BLOCKED, CELLS, QUEEN = RULES.WIDTH, RULES.HEIGHT, RULES.BLOCKED, RULES.CELLS, RULES.DIRECTIONS
STAND_IN_ORDER = [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]  # provided/gamestate.py's
LEVEL = {"published": "min", "min": "min", "max": "max"}  # the level each question about a value is asked at


# -- the rules, with one thing wrong: each a hypothesis over the legal moves the student lists -------


def _legal(moves, through=False, steps=QUEEN, free="any", start=None, corner=True, passes=True):
    """The legal moves after ``moves``: the true rules, or with used cells jumped over (``through``), other
    directions, a piece not yet placed that may not move (``free``: "none", or "first" for the game's first
    move only) or that stands on ``start``, no blocked corner, or the turn not passed."""
    used = {BLOCKED} if corner else set()
    at, turn = [None, None], 0
    for move in map(tuple, moves):
        used.add(move)
        at[turn], turn = move, (1 - turn if passes else turn)
    here = at[turn] or (None if free == "first" and not moves else start)
    if here is None:
        return [c for c in CELLS if c not in used] if free == "any" or free == "first" and not moves else []
    found = []
    for dx, dy in steps:
        x, y = here[0] + dx, here[1] + dy
        while 0 <= x < WIDTH and 0 <= y < HEIGHT and (through or (x, y) not in used):
            found += [] if (x, y) in used else [(x, y)]
            x, y = x + dx, y + dy
    return found


RULE_VARIANTS = {
    "moves-through-used-cells": {"through": True},
    "missing-diagonal-moves": {"steps": [(1, 0), (-1, 0), (0, 1), (0, -1)]},
    # One of the two diagonals left out (its two directions).
    "missing-diagonal-moves/rising": {"steps": [d for d in QUEEN if d not in ((1, 1), (-1, -1))]},
    "missing-diagonal-moves/falling": {"steps": [d for d in QUEEN if d not in ((1, -1), (-1, 1))]},
    # One diagonal direction left out (a list of directions with one missing).
    **{f"missing-diagonal-moves/without-{dx}-{dy}": {"steps": [d for d in QUEEN if d != (dx, dy)]}
       for dx, dy in QUEEN if dx and dy},
    "no-free-first-move": {"free": "none"},
    "no-free-first-move/second-player": {"free": "first"},
    **{f"no-free-first-move/starts-on-{x}{y}": {"start": (x, y)} for x, y in CELLS if (x, y) != BLOCKED},
    # The game's first move free, and the other player, not yet placed, taken to stand on a cell.
    **{f"no-free-first-move/second-starts-on-{x}{y}": {"free": "first", "start": (x, y)}
       for x, y in CELLS if (x, y) != BLOCKED},
    "corner-not-blocked": {"corner": False},
    "turn-not-passed": {"passes": False},
}


# -- values: the kit's mistake families over the game's rules, and levels that do not alternate ------

def _asked(case_input):
    """(the position with MAX as the searcher, no depth limit) for a question about a value, else None."""
    level = LEVEL.get(case_input["kind"])
    return level and (_hooks().as_level(_hooks().position(case_input["moves"]), level), None)


def _level_model(value, text):
    """Levels that never alternate score every finished game below by the level kept (-1 for MAX's, +1 for
    MIN's), so that is all a kept level is worth; ``value(level, stuck)`` says what comes back."""
    def answer(case_input):
        level = LEVEL.get(case_input["kind"])
        return level and value(level, _hooks().game()[0].is_terminal(_hooks().position(case_input["moves"])))

    return Model("no-alternation", answer, text, CODES["no-alternation"][1])


FAMILIES = ["sign-flip", "missing-terminal-check", "always-min", "sign-flip/leaves-max", "sign-flip/leaves-min",
            "missing-terminal-check/min", "missing-terminal-check/max", "missing-terminal-check/default-0"]
MODELS = value_models(_hooks().game()[1], _asked, FAMILIES, {code: CODES[code] for code in FAMILIES if code in CODES}) + [
    _level_model(lambda level, stuck: 1 if level == "min" and stuck else -1, CODES["no-alternation"][0]),
    _level_model(lambda level, stuck: 1 if level == "min" else -1, "Each level calls itself for the next move "
                 "instead of the other player's function: min_value goes on with MIN and max_value with MAX."),
    # One helper calls itself, the other is right: below a MIN level MIN moves forever (every finished game is
    # then MIN's, +1), or below a MAX level MAX does (-1); the right helper is worth what its calls return.
    _level_model(lambda level, stuck: 1 if level == "min" or not stuck else -1, "min_value calls itself for the "
                 "next move instead of max_value: after MIN has moved, MIN moves again (max_value is right)."),
    _level_model(lambda level, stuck: -1 if level == "max" or not stuck else 1, "max_value calls itself for the "
                 "next move instead of min_value: after MAX has moved, MAX moves again (min_value is right)."),
]
# The rules a student writes turned round (issue 22): terminal_test true exactly while moves remain. Last, so the
# models above keep their places (the shipped bank keys its predictions by place).
MODELS += value_models(_hooks().game()[1], _asked, ["terminal-test-inverted"],
                       {"terminal-test-inverted": CODES["terminal-test-inverted"]})
# One part with no test for the end of the game, its best of no moves defaulting to 0 (``max(..., default=0)``).
MODELS += value_models(_hooks().game()[1], _asked, ["missing-terminal-check/default-0-max",
                                                    "missing-terminal-check/default-0-min"],
                       {"missing-terminal-check": CODES["missing-terminal-check"]})
# A negamax written as both helpers: each returns the value for the player to move, so min_value's comes back with
# the sign turned round (max_value is right).
MODELS += value_models(_hooks().game()[1], _asked, ["sign-flip/not-turned-back"], {"sign-flip": CODES["sign-flip"]})


# -- rules over moves: legal-move lists and decisions -----------------------------------------

def _best(moves, score, better=max):
    """The first of the stand-in's legal moves (the decision is asked on its positions) with the best score."""
    legal = _legal(moves, steps=STAND_IN_ORDER)
    scores = [score(list(moves) + [m]) for m in legal]
    return legal[scores.index(better(scores))]


RULE_HYPOTHESES = {code: (lambda case_input, wrong=wrong: sorted(_legal(case_input["moves"], **wrong)))
                   for code, wrong in RULE_VARIANTS.items()}
DECISION_HYPOTHESES = {
    "suboptimal-move": lambda case_input: _legal(case_input["moves"], steps=STAND_IN_ORDER)[0],
    "suboptimal-move/fewest-replies": lambda case_input: _best(case_input["moves"], lambda m: len(_legal(m)), min),
    "decision-skips-min-level": lambda case_input: _best(
        case_input["moves"], lambda m: _hooks().reference({"kind": "max", "moves": m})),
}


def _asks(kind):
    return lambda case_input: case_input.get("kind") == kind


def _lazy_moves(facts) -> list[Finding]:
    """Every wrong list of legal moves handed back as a generator or an iterator: its moves cannot be read,
    but the type is the mistake (the right answers, if any, are the positions where that was fine)."""
    wrong = [o for o in facts.outcomes if _asks("rules")(o.case.input) and facts.is_wrong(o)]
    lazy = [o for o in wrong if lazy_collection(o.answer)]
    if not wrong or len(lazy) < len(wrong):
        return []
    example = min(lazy, key=facts.size)
    return [Finding("wrong-return-type", f"on {len(lazy)} positions get_legal_moves returned a "
                    f"{lazy_collection(example.answer)}, not a list (for example {facts.call(example)})",
                    *CODES["wrong-return-type"], ("legal-moves",))]


def rules(facts):
    # The rules' part and the decision's part are judged apart: a mistake is named in the part it is in.
    found = named(facts, RULE_HYPOTHESES, _asks("rules"), sorted_moves, CODES, "legal-moves")
    found += named(facts, {"wrong-return-type": lambda case_input: sorted(_legal(case_input["moves"]))},
                   _asks("rules"), moves_of_a_set, CODES, "legal-moves")  # the right moves, but in a set
    found += _lazy_moves(facts)
    # A legal decision that no wrong decision explains is a best move lost, when the rules are right (the
    # decision is asked with the grader's helpers, but on the submission's GameState).
    rules_right = not any(facts.is_wrong(o) for o in facts.outcomes
                          if o.case.input.get("kind") in ("rules", "forecast"))
    lost = ("suboptimal-move", lambda o: as_move(o.answer) in _legal(o.case.input["moves"])) if rules_right else None
    found += wrapped_best(facts, _asks("decision"), {"wrong-return-type": CODES["wrong-return-type/decision"]},
                           "best-decision") or named(
        facts, DECISION_HYPOTHESES, _asks("decision"), as_move, CODES, "best-decision", otherwise=lost)
    # The no-mutation answers are the driver's report: a wrong one is the mutation itself. A crash is
    # not (forecasting along rules the submission's own get_legal_moves rejects is the rules' part).
    changed = [o for o in facts.outcomes if o.case.input.get("kind") == "forecast" and facts.is_wrong(o)
               and (facts.reply(o) or ("",))[0] != "raised"]
    if changed:
        example = min(changed, key=facts.size)
        found.append(Finding("mutates-state", f"{facts.call(example)}: {shown_answer(example)} "
                             f"(in {len(changed)} positions)", *CODES["mutates-state"], ("forecast-is-pure",)))
    return found
