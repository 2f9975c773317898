"""The two games an instructor declared from the guide alone (issue 22): twin-heaps, where a move that
leaves the heaps equal gives the same player another move, and coin-row, a best-move game asked only
on unfinished positions. Every sample's verdict and score is pinned; mistake names only where they
are fair (fixtures/submissions/<id>/expected.toml says which are not yet)."""

from __future__ import annotations

import tomllib

import pytest

from conftest import SUBMISSIONS
from grader.doors import api

SAMPLES = [(exercise_id, path) for exercise_id in ("twin-heaps", "coin-row")
           for path in sorted((SUBMISSIONS / exercise_id).glob("*/*.py"))]


@pytest.mark.parametrize("exercise_id, path", SAMPLES, ids=[f"{e}/{p.parent.name}/{p.name}" for e, p in SAMPLES])
def test_sample_verdict_and_score(exercise_id, path):
    expected = tomllib.loads((SUBMISSIONS / exercise_id / "expected.toml").read_text(encoding="utf-8"))
    entry = expected[f"{path.parent.name}/{path.name}"]
    result = api.check(path, exercise_id)
    assert (result.status, result.score) == (entry["status"], entry["score"]), (result.error, result.mistakes)
    if path.parent.name == "correct":
        assert not result.mistakes


def test_a_failing_position_of_an_unfinished_only_group_is_localised_among_unfinished_positions():
    """coin-row asks only unfinished positions (and hand-made ones): the first wrong node is never a finished
    game, whatever the hand-made group would admit (nothing generated is asked in a hand-made group's name)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "grader", "check", str(SUBMISSIONS / "coin-row" / "buggy" / "min_max_swapped.py"),
                           "--exercise", "coin-row"], capture_output=True, text=True, timeout=120)
    text = done.stdout
    assert "where it first goes wrong: the root" in text, text
    assert "raised ValueError" not in text, text


DEPTH_IN_TURNS = '''
def minimax(state, depth):
    if game_over(state) or depth == 0:
        return evaluate(state)
    values = []
    for move in moves(state):
        child = play(state, move)
        values.append(minimax(child, depth if player(child) == player(state) else depth - 1))
    return max(values) if player(state) == 0 else min(values)
'''


def test_the_declarations_options_turned_the_other_way_are_mistake_families(tmp_path):
    """In a game with extra turns: the players taken to alternate (the sample) is assumes-alternation, and
    depth used up only when the player changes, where the exercise counts every move, is depth-counts-turns.
    Neither is a family of a game whose players always alternate (nim), where it would equal the rules."""
    from grader.judging import exercise

    named = {m.code for m in api.check(SUBMISSIONS / "twin-heaps" / "buggy" / "assumes_alternation.py", "twin-heaps").mistakes}
    assert named == {"assumes-alternation"}, named
    turns = tmp_path / "turns.py"
    turns.write_text(DEPTH_IN_TURNS, encoding="utf-8")
    result = api.check(turns, "twin-heaps")
    assert result.status == "failed"
    assert {m.code for m in result.mistakes} == {"depth-counts-turns"}, [m.code for m in result.mistakes]
    assert exercise.load("twin-heaps").hooks.extra_turns
    assert not exercise.load("nim").hooks.extra_turns
    nim_families = exercise.load("nim").hooks.mistakes.families()
    assert not {"assumes-alternation", "depth-counts-turns", "depth-counts-plies"} & set(nim_families)


def test_a_move_only_answer_is_explained_in_moves_never_read_as_a_value():
    """Found by an outsider: a best_move answer 2 was explained as "the position is worth the highest, 1;
    your code says 2" (a move read as a value). The first wrong node now lists each move's worth and the
    move chosen with its own worth."""
    from grader.report import render

    for name, chose in (("greedy_one_ply.py", "'right', worth -8"), ("min_max_swapped.py", "'left', worth 8")):
        result = api.check(SUBMISSIONS / "coin-row" / "buggy" / name, "coin-row")
        text = render(result, "text")
        line = next(line for line in text.splitlines() if "where it first goes wrong" in line)
        assert f"your code chose {chose}" in line, line
        assert "your code says" not in line and "so the position is worth" not in line, line


def test_a_bare_value_answer_is_said_once():
    """"returned 2: value 2, but ..." said the same thing twice when the answer is the value alone."""
    import re

    messages = [c.message for path in sorted((SUBMISSIONS / "twin-heaps" / "buggy").glob("*.py"))
                for c in api.check(path, "twin-heaps").checks
                if c.status == "failed" and "but the position is worth" in (c.message or "")]
    assert messages
    assert all(re.search(r"returned [^:]+, but the position is worth", m) and ": value " not in m for m in messages), messages


INVERTED_END = '''
import math


def minimax(state, depth, player):
    if depth == 0 or not game_over(state):
        return [-1, -1, evaluate(state)]
    best = [-1, -1, -math.inf if player == 1 else math.inf]
    for r, c in empty_cells(state):
        state[r][c] = player
        score = minimax(state, depth - 1, -player)[2]
        state[r][c] = 0
        if (player == 1 and score > best[2]) or (player == -1 and score < best[2]):
            best = [r, c, score]
    return best
'''

NIM_INVERTED_END = '''
def minimax(state, maximizing):
    if not game_over(state):
        return winner(state), None
    best_value, best_move = None, None
    for move in moves(state):
        value = minimax(play(state, move), not maximizing)[0]
        if best_value is None or (value > best_value if maximizing else value < best_value):
            best_value, best_move = value, move
    return best_value, best_move
'''

MAX_COPIED_FROM_MIN = '''
import math


def max_value(state, depth):
    if depth == 0 or game_over(state):
        return evaluate(state)
    v = math.inf
    for r, c in empty_cells(state):
        state[r][c] = 1
        v = min(v, max_value(state, depth - 1))
        state[r][c] = 0
    return v


def min_value(state, depth):
    if depth == 0 or game_over(state):
        return evaluate(state)
    v = math.inf
    for r, c in empty_cells(state):
        state[r][c] = -1
        v = min(v, max_value(state, depth - 1))
        state[r][c] = 0
    return v


def minimax(state, depth, player):
    if depth == 0 or game_over(state):
        return [-1, -1, evaluate(state)]
    best = None
    for r, c in empty_cells(state):
        state[r][c] = player
        v = min_value(state, depth - 1) if player == 1 else max_value(state, depth - 1)
        state[r][c] = 0
        if best is None or (v > best[2] if player == 1 else v < best[2]):
            best = [r, c, v]
    return best
'''


@pytest.mark.parametrize("exercise_id, source, code", [
    ("tictactoe", INVERTED_END, "terminal-test-inverted"),
    ("nim", NIM_INVERTED_END, "terminal-test-inverted"),
    ("tictactoe", MAX_COPIED_FROM_MIN, "copied-helper"),
], ids=["tictactoe-inverted-end", "nim-inverted-end", "tictactoe-max-copied-from-min"])
def test_a_rule_the_student_writes_turned_round_is_a_family(tmp_path, exercise_id, source, code):
    """Issue 22, point 11: the end-of-game test inverted (true exactly while the game goes on) and a max part
    copied from the min part (takes the min, calls itself) are named, not no-alternation or sign-flip."""
    path = tmp_path / "submission.py"
    path.write_text(source, encoding="utf-8")
    result = api.check(path, exercise_id)
    assert result.status == "failed"
    assert result.mistakes[0].code == code, [(m.code, m.evidence) for m in result.mistakes]


def test_a_copied_part_is_a_family_only_where_the_student_places_the_marks():
    """Where the game plays the moves of the side to move, a copied part chooses as always-max or always-min
    (families already): the copied-part families are offered only for a game with ``with_mover``."""
    from grader.judging import exercise

    assert any(f.startswith("copied-helper/") for f in exercise.load("tictactoe").hooks.mistakes.families())
    nim = exercise.load("nim").hooks.mistakes.families()
    assert not any(f.startswith("copied-helper/") for f in nim)
    assert "terminal-test-inverted" in nim


GREEDY_COIN = '''
def best_move(state):
    coins = state[0]
    if len(coins) == 1:
        return "left"
    return "left" if coins[0] >= coins[-1] else "right"
'''

SWAPPED_COIN = '''
import math


def value(state):
    if game_over(state):
        return final_lead(state)
    values = [value(play(state, m)) for m in moves(state)]
    return min(values) if player(state) == "MAX" else max(values)


def best_move(state):
    options = moves(state)
    pick = min if player(state) == "MAX" else max
    return pick(options, key=lambda m: value(play(state, m)))
'''


@pytest.mark.parametrize("source, code", [(GREEDY_COIN, "one-ply-search"), (SWAPPED_COIN, "min-max-swapped")],
                         ids=["greedy", "swapped"])
def test_a_move_only_answer_is_named_by_the_moves_chosen(tmp_path, source, code):
    """coin-row returns a move alone: the search families are compared by the moves they choose, and a crash on
    a finished position (which no check asks) is no evidence of a missing terminal test. Where several wrong
    searches choose the same moves, the look one move ahead is the account given."""
    path = tmp_path / "submission.py"
    path.write_text(source, encoding="utf-8")
    result = api.check(path, "coin-row")
    assert result.status == "failed"
    assert result.mistakes[0].code == code, [(m.code, m.evidence) for m in result.mistakes]
    assert "missing-terminal-check" not in {m.code for m in result.mistakes}


WIN_VALUE_START = '''
def minimax(state, depth):
    if depth == 0 or game_over(state):
        return evaluate(state)
    scores = [minimax(play(state, m), depth - 1) for m in moves(state)]
    if player(state) == 0:
        return max([1] + scores)
    return min([-1] + scores)
'''

MIN_WITHOUT_END_TEST = '''
def minimax(state, depth):
    if player(state) == 0:
        if game_over(state) or depth == 0:
            return evaluate(state)
        return max(minimax(play(state, m), depth - 1) for m in moves(state))
    if depth == 0:
        return evaluate(state)
    return min((minimax(play(state, m), depth - 1) for m in moves(state)), default=float("inf"))
'''

COIN_MIN_WITHOUT_END_TEST = '''
def lowest(state):
    best, kept = 99, None
    for m in moves(state):
        v = highest(play(state, m))[0]
        if v < best:
            best, kept = v, m
    return best, kept


def highest(state):
    if game_over(state):
        return final_lead(state), None
    best, kept = -99, None
    for m in moves(state):
        v = lowest(play(state, m))[0]
        if v > best:
            best, kept = v, m
    return best, kept


def best_move(state):
    return (highest if player(state) == "MAX" else lowest)(state)[1]
'''


COIN_SENTINEL_START = '''
def worth(state):
    if game_over(state):
        return final_lead(state)
    maximising = player(state) == "MAX"
    best = -10 if maximising else 10
    for m in moves(state):
        v = worth(play(state, m))
        best = max(best, v) if maximising else min(best, v)
    return best


def best_move(state):
    maximising = player(state) == "MAX"
    best, chosen = (-10 if maximising else 10), None
    for m in moves(state):
        v = worth(play(state, m))
        if (maximising and v > best) or (not maximising and v < best):
            best, chosen = v, m
    return chosen
'''


@pytest.mark.parametrize("exercise_id, source, code", [
    ("twin-heaps", WIN_VALUE_START, "bad-initial-bound"),
    ("coin-row", COIN_SENTINEL_START, "bad-initial-bound"),
    ("twin-heaps", MIN_WITHOUT_END_TEST, "missing-terminal-check"),
    ("coin-row", COIN_MIN_WITHOUT_END_TEST, "missing-terminal-check"),
], ids=["start-at-the-win", "coin-row-finite-sentinel", "min-without-end-test-keeps-depth-test",
        "coin-row-min-without-end-test"])
def test_start_values_and_end_tests_of_one_player(tmp_path, exercise_id, source, code):
    """A best value that starts at the win (no move beats it); a terminal test missing for MIN only, whose depth
    test still stops the search (a finished position at the limit is scored); in a move-only answer the same,
    with the root keeping only a move better than its start value (None where every move is worth it)."""
    path = tmp_path / "submission.py"
    path.write_text(source, encoding="utf-8")
    result = api.check(path, exercise_id)
    assert result.status == "failed"
    assert result.mistakes[0].code == code, [(m.code, m.evidence) for m in result.mistakes]


def test_an_inverted_terminal_test_in_the_helpers_part_is_named_as_such(tmp_path):
    """Issue 22, point 11, on the public mini-isolation parts: a terminal_test true exactly while moves remain
    was named no-alternation; it is terminal-test-inverted, in the exercise's own words."""
    from conftest import SUBMISSIONS as samples

    source = (samples / "aima-isolation" / "correct" / "one_file_textbook.py").read_text(encoding="utf-8")
    inverted = source.replace("return not bool(gameState.get_legal_moves())", "return bool(gameState.get_legal_moves())")
    assert inverted != source
    path = tmp_path / "inverted.py"
    path.write_text(inverted, encoding="utf-8")
    result = api.check(path, "aima-isolation")
    assert result.status == "failed"
    assert result.mistakes[0].code == "terminal-test-inverted", [(m.code, m.evidence) for m in result.mistakes]
    assert "terminal_test" in result.mistakes[0].explanation
