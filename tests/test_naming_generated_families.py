"""Mistake families generated from what students write, not listed one sample at a time (issue 22).

- A start value may be any number: the numbers a submission's wrong answers keep returning, that no position
  is worth, are tried as start values (for MAX, for MIN, or as a pair of sentinels), not only 0, 1, 10, 100.
- One of the two parts (the maximising one, say) with no test for the end of the game and a default for the
  best of no moves (``max(..., default=0)``) is a missing terminal check for that part.
- A crash that says the code does not fit what it was given (an attribute the grader's own state does not have)
  is no wrong search's crash: it never names a family whose search crashes on a finished game.
"""

from __future__ import annotations

import textwrap

from conftest import SUBMISSIONS
from grader.doors import api

MIN_STARTS_BELOW_EVERY_VALUE = '''
def minimax(state, depth):
    if game_over(state) or depth == 0:
        return evaluate(state)
    if player(state) == 0:
        best = float("-inf")
        for m in moves(state):
            best = max(best, minimax(play(state, m), depth - 1))
        return best
    best = -1000
    for m in moves(state):
        best = min(best, minimax(play(state, m), depth - 1))
    return best
'''

MAX_STARTS_ABOVE_EVERY_VALUE = MIN_STARTS_BELOW_EVERY_VALUE.replace("best = -1000", 'best = float("inf")').replace(
    'best = float("-inf")', "best = 500")

MAX_PART_DEFAULTS_TO_ZERO = '''
def minimax(state, depth):
    if depth == 0:
        return evaluate(state)
    if player(state) == 0:
        return max((minimax(play(state, m), depth - 1) for m in moves(state)), default=0)
    if game_over(state):
        return evaluate(state)
    return min(minimax(play(state, m), depth - 1) for m in moves(state))
'''


def codes(tmp_path, source: str, exercise_id: str) -> list[str]:
    path = tmp_path / "student.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    result = api.check(path, exercise_id)
    assert result.status == "failed", (result.status, result.error)
    return [m.code for m in result.mistakes]


def test_a_start_value_read_from_the_wrong_answers_is_a_bad_initial_bound(tmp_path):
    assert codes(tmp_path, MIN_STARTS_BELOW_EVERY_VALUE, "twin-heaps")[0] == "bad-initial-bound"
    assert codes(tmp_path, MAX_STARTS_ABOVE_EVERY_VALUE, "twin-heaps")[0] == "bad-initial-bound"


def test_one_part_defaulting_to_zero_over_no_moves_is_a_missing_terminal_check(tmp_path):
    assert codes(tmp_path, MAX_PART_DEFAULTS_TO_ZERO, "twin-heaps")[0] == "missing-terminal-check"


def test_a_crash_on_an_attribute_the_state_lacks_is_not_a_search_that_met_a_finished_game(tmp_path):
    """min_value reads a private attribute of its own GameState; the helpers part is asked with the grader's
    state, which has another: every value question raises AttributeError. Before, that was named
    missing-terminal-check (whose search raises on a finished game), with "all 897 cases" as evidence."""
    source = (SUBMISSIONS / "aima-isolation" / "correct" / "one_file_textbook.py").read_text(encoding="utf-8")
    by_parity = "        return 1 if gameState._parity == 0 else -1\n"
    changed = source.replace("        return 1\n", by_parity, 1).replace("        return -1\n", by_parity, 1)
    assert changed.count(by_parity) == 2
    named = codes(tmp_path, changed, "aima-isolation")
    assert "missing-terminal-check" not in named, named


CTP_SEARCH = '''
import math


def search(node, depth, a_turn):
    moves = get_next_valid_moves(node)
    if not moves:
        return get_value(node)
    if depth == 0:
        return HORIZON
    values = [search(child, depth - 1, not a_turn) for child in moves]
    return max(values) if a_turn else min(values)


def minimax(node, max_depth, player_a_moves):
    return ANSWER
'''


def test_a_whole_number_made_anywhere_is_truncates_values_and_a_horizon_at_a_start_value_is_not_evaluated(tmp_path):
    """ctp-26's families are generated over the ways and places a value is made whole (int, floor, ceil, round;
    the leaves, each kept value, the answer) and over the start values a horizon may be given (0, the worst or
    the best for the player to move, an infinity), not listed one sample at a time."""
    rounded = CTP_SEARCH.replace("HORIZON", "get_value(node)").replace(
        "ANSWER", "math.ceil(search(node, max_depth, player_a_moves))")
    assert codes(tmp_path, rounded, "ctp-26")[0] == "truncates-values"
    hopeful = CTP_SEARCH.replace("HORIZON", "math.inf if a_turn else -math.inf").replace(
        "ANSWER", "search(node, max_depth, player_a_moves)")
    assert codes(tmp_path, hopeful, "ctp-26")[0] == "horizon-not-evaluated"


def test_full_moves_counted_from_whoever_starts_are_depth_counts_full_moves(tmp_path):
    """A round that ends after the reply to the player who moved first at the root (not after player B's move)."""
    rounds = '''
def search(node, rounds_left, a_turn, started_with_a):
    children = get_next_valid_moves(node)
    if rounds_left == 0 or not children:
        return get_value(node)
    reply = a_turn != started_with_a
    values = [search(child, rounds_left - (1 if reply else 0), not a_turn, started_with_a) for child in children]
    return max(values) if a_turn else min(values)


def minimax(node, max_depth, player_a_moves):
    return search(node, max_depth, player_a_moves, player_a_moves)
'''
    assert codes(tmp_path, rounds, "ctp-26")[0] == "depth-counts-full-moves"
