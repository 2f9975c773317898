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
