"""The fallback for a Python without ctypes: no runner thread, so the files load and the calls run on the
harness's own thread (weaker: docs/security.md says what it leaves open). ``MINIMAX_GRADER_RUNNER=off`` forces
it here, so that it keeps grading: the same verdicts on correct and buggy samples, a loop still timed out."""

from __future__ import annotations

import pytest

from conftest import SUBMISSIONS
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import launch


@pytest.fixture
def without_runner(monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_RUNNER", "off")
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.5")
    exercise = exercises.load("ctp-26")
    return exercise, banks.build(exercise, seed=11, examples=10)


@pytest.mark.parametrize("sample, full", [("correct/class_based.py", True), ("correct/alpha_beta.py", True),
                                          ("buggy/mutates_tree.py", False), ("buggy/always_max.py", False)])
def test_the_fallback_grades_as_the_runner_does(sample, full, without_runner, monkeypatch):
    exercise, bank = without_runner
    path = SUBMISSIONS / "ctp-26" / sample
    fallback = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    monkeypatch.delenv("MINIMAX_GRADER_RUNNER")
    threaded = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    assert fallback.error is None and threaded.error is None, (fallback.error, threaded.error)
    assert (fallback.score == fallback.max_score) is full
    assert [(c.name, c.score) for c in fallback.checks] == [(c.name, c.score) for c in threaded.checks]


def test_the_fallback_still_times_a_loop_out(without_runner, tmp_path):
    exercise, bank = without_runner
    looping = tmp_path / "loops.py"
    looping.write_text("def minimax(node, max_depth, player_a_moves):\n    while True:\n        pass\n")
    result = judge.grade(submissions.load(looping), exercise, bank, launch.choose("posix"))
    assert "tamper" not in (result.error or "")
    assert any("timed out" in (c.message or "") for c in result.checks) or "timed out" in (result.error or ""), \
        (result.error, [c.message for c in result.checks][:2])


def test_the_switch_really_takes_the_runner_away(without_runner, tmp_path, monkeypatch):
    """So that the tests above test the fallback: a call there runs on the main thread, and says so."""
    exercise, bank = without_runner
    telling = tmp_path / "tells_its_thread.py"
    telling.write_text("import threading\n\ndef minimax(node, max_depth, player_a_moves):\n"
                       "    if threading.current_thread() is threading.main_thread():\n"
                       "        raise ValueError('called on the main thread')\n    return 0\n")
    fallback = judge.grade(submissions.load(telling), exercise, bank, launch.choose("posix"))
    monkeypatch.delenv("MINIMAX_GRADER_RUNNER")
    threaded = judge.grade(submissions.load(telling), exercise, bank, launch.choose("posix"))
    assert any("called on the main thread" in (c.message or "") for c in fallback.checks)
    assert not any("called on the main thread" in (c.message or "") for c in threaded.checks)
