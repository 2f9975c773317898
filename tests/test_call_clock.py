"""A call's limit counts the CPU time of the thread it runs on, with a wall-clock limit above it.

Time a call spends waiting, for the grader's answers or for a CPU on a busy machine, is no fault of
the student's: on wall-clock time alone a correct call on a one-node tree was once cut off after a
second while the test suite loaded the machine. The portable fallback (no per-thread CPU clock:
Windows, macOS) is wall-clock time, forced here with ``MINIMAX_GRADER_CALL_CLOCK=wall``.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest

from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.kit import tree_hooks
from grader.sandbox import launch

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "grader" / "sandbox" / "harness.py"
CORRECT = ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "class_based.py"


def _published(exercise, count=None):
    """The exercise's published and hand-made trees (the first ``count`` of them): no random ones."""
    public = banks.build(exercise)
    cases = public.group("published") + public.group("fixtures")
    return banks.Bank(public.exercise_id, public.seed, 0, cases[:count] if count else cases)


def _lost(result):
    """The checks graded on these cases that lost points (the random trees' checks are not graded)."""
    return [(c.name, c.message) for c in result.checks if c.score < c.max_score and not c.message.startswith(("not graded", "skipped"))]


def _timed_out(result):
    return [c.name for c in result.checks if "timed out" in (c.message or "")]


@pytest.fixture
def slow_grader(monkeypatch):
    """The grading process answers every value question 5 ms late, as a loaded machine may: a call on a
    deep hand-made tree then waits for the grader longer than the 50 ms limit, while its own thread
    computes for well under it."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.05")
    answer, answer_raw = tree_hooks.TreeOracle.ask, tree_hooks.TreeOracle.ask_raw

    def late(self, message):
        time.sleep(0.005)
        return answer(self, message)

    def late_raw(self, question):  # the common question's quick way (Session._serve) is just as late
        time.sleep(0.005)
        return answer_raw(self, question)

    monkeypatch.setattr(tree_hooks.TreeOracle, "ask", late)
    monkeypatch.setattr(tree_hooks.TreeOracle, "ask_raw", late_raw)
    exercise = exercises.load("ctp-26")
    assert exercise.limits.call_timeout == 0.05
    return exercise, _published(exercise)


def test_waiting_for_a_slow_grader_is_not_the_student_s_time(slow_grader):
    exercise, bank = slow_grader
    result = judge.grade(submissions.load(CORRECT), exercise, bank, launch.choose("posix"))
    assert result.error is None
    assert _timed_out(result) == [], [c.message for c in result.checks]
    assert _lost(result) == []


def test_the_wall_clock_fallback_counts_the_waiting(slow_grader, monkeypatch):
    """The same calls with the portable clock forced: their waits count, and they time out. (So the
    test above passes because of the CPU clock, not because the calls were quick.)"""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_CLOCK", "wall")
    exercise, bank = slow_grader
    result = judge.grade(submissions.load(CORRECT), exercise, bank, launch.choose("posix"))
    assert _timed_out(result), [c.message for c in result.checks]


def test_a_call_that_only_sleeps_meets_the_wall_clock_limit(tmp_path, monkeypatch):
    """A sleep uses no CPU: the wall-clock limit above the CPU limit (2 x 0.01 + 1 s here) ends it."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.01")
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import time\n\ndef minimax(node, max_depth, player_a_moves):\n"
                       "    for _ in range(300):\n        time.sleep(0.01)\n    return 0\n")
    exercise = exercises.load("ctp-26")
    started = time.monotonic()
    result = judge.grade(submissions.load(sleeper), exercise, _published(exercise, 1), launch.choose("posix"))
    assert _timed_out(result), [c.message for c in result.checks]
    assert "tamper" not in (result.error or "")
    assert time.monotonic() - started < 30


def test_a_spinning_call_meets_the_cpu_limit(tmp_path, monkeypatch):
    """A call that computes past its limit is timed out, and nothing else (the watchdog reads the thread's
    CPU clock from its own thread)."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.2")
    spinner = tmp_path / "spinner.py"
    spinner.write_text("import time\n\ndef minimax(node, max_depth, player_a_moves):\n"
                       "    start = time.thread_time()\n    while time.thread_time() - start < 30:\n        pass\n"
                       "    return 0\n")
    exercise = exercises.load("ctp-26")
    result = judge.grade(submissions.load(spinner), exercise, _published(exercise, 1), launch.choose("posix"))
    assert _timed_out(result), [c.message for c in result.checks]
    assert "tamper" not in (result.error or "")


@pytest.fixture
def harness():
    spec = importlib.util.spec_from_file_location("_test_call_clock_harness", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_thread_cpu_clock_the_call_clock_is_the_wall(harness, monkeypatch):
    import threading

    assert harness.call_clock(threading.get_ident()) is not None  # Linux has one
    monkeypatch.delattr(time, "pthread_getcpuclockid")
    assert harness.call_clock(threading.get_ident()) is None
    assert harness.call_clock(None) is None


def test_a_call_clock_other_than_cpu_or_wall_is_refused(monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CALL_CLOCK", "sundial")
    with pytest.raises(exercises.ExerciseError, match="CALL_CLOCK"):
        exercises.load("ctp-26")
