"""Naming where the evidence hides in ties, in parts and in numbers a student writes (issue 22, second round).

- A move answer whose wrong moves are found only among tied moves (a start value of 0 clamps the values, so
  two moves look as good): the student's code breaks the tie its own way (the first tied move for
  ``max(moves, key=...)`` or a strict loop, the last for a loop keeping a move as good). A family that chooses
  exactly the student's move everywhere, ties broken that way, is named when no other code does so and the
  student does not simply return the first (last) move; a student returning the first move always is named
  nothing.
- One part (the maximising one) starting at 0 below the root, the root's own loop right, is a move family.
- A start value inside the values' range (-0.25 where values run from -1 to 1), if no position asked is worth
  it, is tried as a start value; a search with no end-of-game test whose finished positions keep such a start
  value is a missing terminal check; both parts starting at the wrong infinity is a bad initial bound.
- aima-isolation: a negamax written as both helpers (min_value's value comes back with the sign turned) is a
  sign flip; a decision returned as a best move inside a list is a wrong return type.
"""

from __future__ import annotations

import textwrap

from grader.doors import api


def codes(tmp_path, source: str, exercise_id: str, name: str = "student.py") -> list[str]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    result = api.check(path if name == "student.py" else tmp_path, exercise_id)
    assert result.status == "failed", (result.status, result.error)
    return [m.code for m in result.mistakes] or ["no-known-mistake"]


# coin-row: best_move(state) -> "left" or "right"; one scoring function for both players starting at 0, and a
# root loop that keeps the first (strict) or the last (as good) of the tied moves.
SCORE_FROM_ZERO = '''
def score(state):
    if game_over(state):
        return final_lead(state)
    top = player(state) == "MAX"
    kept = 0
    for move in moves(state):
        here = score(play(state, move))
        if (top and here > kept) or (not top and here < kept):
            kept = here
    return kept


def best_move(state):
    top = player(state) == "MAX"
    pick, kept = None, None
    for move in moves(state):
        here = score(play(state, move))
        if kept is None or (top and here COMPARE kept) or (not top and here REVERSE kept):
            pick, kept = move, here
    return pick
'''

MAX_PART_FROM_ZERO = '''
def high(state):
    if game_over(state):
        return final_lead(state)
    found = 0
    for move in moves(state):
        found = max(found, low(play(state, move)))
    return found


def low(state):
    if game_over(state):
        return final_lead(state)
    return min(high(play(state, move)) for move in moves(state))


def best_move(state):
    if player(state) == "MAX":
        return max(moves(state), key=lambda move: low(play(state, move)))
    return min(moves(state), key=lambda move: high(play(state, move)))
'''


def test_a_start_value_seen_only_through_ties_is_named_by_the_students_own_tie_break(tmp_path):
    first = SCORE_FROM_ZERO.replace("COMPARE", ">").replace("REVERSE", "<")
    assert codes(tmp_path, first, "coin-row")[0] == "bad-initial-bound"
    last = SCORE_FROM_ZERO.replace("COMPARE", ">=").replace("REVERSE", "<=")
    assert codes(tmp_path, last, "coin-row")[0] == "bad-initial-bound"


def test_one_part_starting_at_zero_below_the_root_is_a_bad_initial_bound(tmp_path):
    assert codes(tmp_path, MAX_PART_FROM_ZERO, "coin-row")[0] == "bad-initial-bound"


def test_always_the_first_move_is_named_nothing(tmp_path):
    """Every family that finds all moves as good agrees with it, ties broken the first way: no evidence."""
    assert codes(tmp_path, "def best_move(state):\n    return moves(state)[0]\n", "coin-row") == ["no-known-mistake"]


# twin-heaps: minimax(state, depth) -> player 0's value; evaluate runs inside (-1, 1), a finished game is +-1.
SEARCH = '''
def minimax(state, depth):
    if TEST:
        return evaluate(state)
    if player(state) == 0:
        best = MAX_START
        for m in moves(state):
            best = max(best, minimax(play(state, m), depth - 1))
        return best
    best = MIN_START
    for m in moves(state):
        best = min(best, minimax(play(state, m), depth - 1))
    return best
'''


def search(test="depth == 0 or game_over(state)", max_start='float("-inf")', min_start='float("inf")') -> str:
    return SEARCH.replace("TEST", test).replace("MAX_START", max_start).replace("MIN_START", min_start)


def test_a_start_value_inside_the_values_range_is_a_bad_initial_bound(tmp_path):
    assert codes(tmp_path, search(max_start="-0.25", min_start="0.25"), "twin-heaps")[0] == "bad-initial-bound"


def test_both_parts_starting_at_the_wrong_infinity_is_a_bad_initial_bound(tmp_path):
    swapped = search(max_start='float("inf")', min_start='float("-inf")')
    assert codes(tmp_path, swapped, "twin-heaps")[0] == "bad-initial-bound"


def test_finished_positions_keeping_a_written_sentinel_are_a_missing_terminal_check(tmp_path):
    no_test = search(test="depth == 0", max_start="-3", min_start="3")
    assert codes(tmp_path, no_test, "twin-heaps")[0] == "missing-terminal-check"


NEGAMAX_HELPERS = '''
from gamestate import *


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def for_the_mover(gameState):
    moves = gameState.get_legal_moves()
    if not moves:
        return -1
    best = -2
    for m in moves:
        best = max(best, -for_the_mover(gameState.forecast_move(m)))
    return best


def min_value(gameState):
    return for_the_mover(gameState)


def max_value(gameState):
    return for_the_mover(gameState)
'''

DECISION_IN_A_TUPLE = '''
from minimax_helpers import *


def minimax_decision(gameState):
    kept = None
    for move in gameState.get_legal_moves():
        value = min_value(gameState.forecast_move(move))
        if kept is None or value > kept[1]:
            kept = (move, value)
    return kept
'''


def test_a_negamax_written_as_both_helpers_is_a_sign_flip(tmp_path):
    assert codes(tmp_path, NEGAMAX_HELPERS, "aima-isolation", "minimax_helpers.py")[0] == "sign-flip"


def test_a_decision_returned_with_its_value_is_a_wrong_return_type(tmp_path):
    named = codes(tmp_path, DECISION_IN_A_TUPLE, "aima-isolation", "minimax.py")
    assert named[0] == "wrong-return-type", named


# nim: minimax(state, maximizing) -> (value, move), values +1 / -1 from MAX's side. The helper valuing the moves
# swaps the players; the root chooses right. In a game won or lost, a search whose players never alternate gives
# the same values, but not the same moves.
NIM_SWAPPED_BELOW_ROOT = '''
def value_of(state, maximizing):
    if game_over(state):
        return winner(state)
    found = [value_of(play(state, m), not maximizing) for m in moves(state)]
    return min(found) if maximizing else max(found)


def minimax(state, maximizing):
    if game_over(state):
        return winner(state), None
    choose = max if maximizing else min
    move = choose(moves(state), key=lambda m: value_of(play(state, m), not maximizing))
    return value_of(play(state, move), not maximizing), move
'''


def test_families_giving_the_same_values_are_told_apart_by_the_moves(tmp_path):
    assert codes(tmp_path, NIM_SWAPPED_BELOW_ROOT, "nim")[0] == "min-max-swapped"
