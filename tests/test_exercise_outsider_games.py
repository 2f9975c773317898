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
