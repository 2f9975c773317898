"""Submissions that cannot be graded normally get one clear line, and never crash the grader.

Each fixture under ``fixtures/submissions/bad/`` is one way a student's file goes wrong
before or while minimax runs. The ones that cannot be graded at all end as ``error`` with a
one-line reason; the ones that load but misbehave in every call end as ``failed`` with a
check message naming what happened. The loops are cut short by lowering the limits through
the ``MINIMAX_GRADER_<LIMIT>`` environment overrides, so the suite waits seconds, not minutes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader import report

BAD = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "bad"

# Limits for a busy machine: a correct load or call takes milliseconds, but a CI runner
# shared with other jobs (or two processes spinning on both cores) can stretch that a hundred
# times. Only the case that is *about* a limit gets a short one (LIMIT_CASES), so no other
# case can time out by accident; the long limits cost nothing when nothing loops.
FAST_LIMITS = {"MINIMAX_GRADER_LOAD_TIMEOUT": "30", "MINIMAX_GRADER_CALL_TIMEOUT": "10",
               "MINIMAX_GRADER_SUBMISSION_TIMEOUT": "120"}
LIMIT_CASES = {
    "loops_at_import.py": {"MINIMAX_GRADER_LOAD_TIMEOUT": "1.5"},
    "minimax_loops.py": {"MINIMAX_GRADER_CALL_TIMEOUT": "0.3", "MINIMAX_GRADER_SUBMISSION_TIMEOUT": "30"},
    "minimax_swallows_interrupt.py": {"MINIMAX_GRADER_CALL_TIMEOUT": "0.3", "MINIMAX_GRADER_SUBMISSION_TIMEOUT": "3"},
    # Its small trees (at most 13 nodes) answer in well under a millisecond, its big ones never: 0.5 s is
    # both, with room for a busy machine, and keeps the eight or so calls it sees cut short from costing 16 s.
    "slow_on_big_trees.py": {"MINIMAX_GRADER_CALL_TIMEOUT": "0.5"},
}

# file, status, words the one line must contain
CASES = [
    ("syntax_error.py", "error", ["syntax error", "line 4"]),
    ("no_minimax.py", "error", ["no function named minimax"]),
    ("wrong_parameters.py", "error", ["minimax(node, max_depth)", "3 arguments"]),
    ("empty.py", "error", ["empty.py is empty"]),
    ("not_utf8.py", "error", ["not valid UTF-8"]),
    ("raises_at_import.py", "error", ["raised KeyError", "line 4 of raises_at_import.py"]),
    ("loops_at_import.py", "error", ["timed out after 1.5 s"]),
    ("minimax_raises.py", "failed", ["raised IndexError", "expected"]),
    ("minimax_loops.py", "failed", ["timed out"]),  # "not run: earlier calls timed out": the smallest case alone ended the asking
    ("minimax_swallows_interrupt.py", "error", ["timed out after 3.0 s"]),
]
# Right where it answers, so it keeps some points: it has a test of its own below.
PARTLY_RIGHT = {"slow_on_big_trees.py"}


@pytest.fixture
def fast_limits(monkeypatch):
    """Sets the limits for one fixture file: ``fast_limits("name.py")``."""
    def apply(name: str | None = None):
        for key, value in {**FAST_LIMITS, **LIMIT_CASES.get(name, {})}.items():
            monkeypatch.setenv(key, value)
    apply()
    return apply


def _one_line(result) -> str:
    """The line that names the cause: the error, or the first failing check's message."""
    if result.status == "error":
        return result.error
    return next(c.message for c in result.checks if c.status in ("failed", "error"))


def test_a_busy_machine_never_changes_the_timeout_named(fast_limits, monkeypatch):
    """The limit that ran out is named, not the time measured: on a machine so busy that the clock has moved
    past the limit by the time the grader looks, the student still reads the limit they can look up."""
    import time
    import types

    from grader.doors import api
    from grader.sandbox import session

    fast_limits("loops_at_import.py")
    real, lag = time.monotonic, [0.0]

    def busy_clock():  # each look at the clock comes later than the last
        lag[0] += 0.05
        return real() + lag[0]

    monkeypatch.setattr(session, "time", types.SimpleNamespace(**{**vars(time), "monotonic": busy_clock}))
    result = api.check(BAD / "loops_at_import.py", "ctp-26", examples=20)
    assert result.status == "error"
    assert "timed out after 1.5 s" in result.error, result.error


def test_every_bad_fixture_is_covered():
    assert {p.name for p in BAD.iterdir()} == {name for name, _, _ in CASES} | PARTLY_RIGHT


@pytest.mark.parametrize(("name", "status", "words"), CASES, ids=[c[0] for c in CASES])
def test_bad_submission_gets_one_clear_line(fast_limits, name, status, words):
    from grader.doors import api

    fast_limits(name)
    result = api.check(BAD / name, "ctp-26", examples=20)
    line = _one_line(result)
    assert result.status == status, (result.status, result.error)
    assert result.score == 0.0 and not result.passed
    assert line and "\n" not in line and len(line) < 300
    for word in words:
        assert word in line
    assert "Traceback" not in line
    if name == "minimax_loops.py":  # the limit is named where a call ran into it (the first check has none run)
        assert "timed out after 0.3 s" in report.render(result, "text")
    if status == "error":
        assert result.checks == []
        assert result.to_dict()["error"] == line
    else:
        assert result.error is None


def test_folder_without_python_file(tmp_path):
    from grader.doors import api

    (tmp_path / "notes.txt").write_text("my minimax is in my head\n")
    result = api.check(tmp_path, "ctp-26")
    assert result.status == "error"
    assert result.error == f"the folder {tmp_path} contains no Python file"


def test_missing_path(tmp_path):
    from grader.doors import api

    missing = tmp_path / "nowhere" / "solution.py"
    result = api.check(missing, "ctp-26")
    assert result.status == "error"
    assert result.error == f"no such file or folder: {missing}"


def test_not_a_python_file(tmp_path):
    from grader.doors import api

    text = tmp_path / "solution.txt"
    text.write_text("def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    result = api.check(text, "ctp-26")
    assert result.status == "error" and "not a Python file" in result.error


def _cli(*args, env_extra=None, cwd=None):
    case = Path(str(args[0])).name if args else None
    env = {**os.environ, **FAST_LIMITS, **LIMIT_CASES.get(case, {}), **(env_extra or {})}
    # The exercise is named (other exercises exist, and an empty file says nothing about which it is for).
    return subprocess.run([sys.executable, "-m", "grader", "check", "--exercise", "ctp-26", *map(str, args)],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


@pytest.mark.parametrize(("target", "words"), [
    ("syntax_error.py", "syntax error"),
    ("not_utf8.py", "not valid UTF-8"),
    ("raises_at_import.py", "raised KeyError"),
    ("loops_at_import.py", "timed out"),
    ("minimax_raises.py", "raised IndexError"),
    ("<missing>", "no such file or folder"),
    ("<empty folder>", "contains no Python file"),
])
def test_cli_never_crashes_on_bad_input(tmp_path, target, words):
    if target == "<missing>":
        path = tmp_path / "missing.py"
    elif target == "<empty folder>":
        path = tmp_path / "empty-folder"
        path.mkdir()
    else:
        path = BAD / target
    run = _cli(path, "--examples", "20")
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    assert words in run.stdout
    assert ("FAILED" if target == "minimax_raises.py" else "ERROR") in run.stdout


def test_cli_json_for_bad_input_has_the_error_line():
    import json

    run = _cli(BAD / "empty.py", "--format", "json")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    data = json.loads(run.stdout)
    assert data["status"] == "error" and data["error"] == "empty.py is empty" and data["checks"] == []


def test_limits_come_from_the_exercise_unless_overridden(monkeypatch, ctp26):
    from grader.judging import exercise

    for name in FAST_LIMITS:
        monkeypatch.delenv(name, raising=False)
    assert exercise.load("ctp-26").limits.submission_timeout == 30.0
    monkeypatch.setenv("MINIMAX_GRADER_SUBMISSION_TIMEOUT", "2.5")
    monkeypatch.setenv("MINIMAX_GRADER_MEMORY_MIB", "256")
    limits = exercise.load("ctp-26").limits
    assert limits.submission_timeout == 2.5 and limits.memory_mib == 256 and type(limits.memory_mib) is int
    assert limits.call_timeout == ctp26.limits.call_timeout


@pytest.mark.parametrize("value", ["soon", "0", "-1"])
def test_a_bad_limit_override_is_a_usage_error(value):
    run = _cli(BAD / "empty.py", env_extra={"MINIMAX_GRADER_SUBMISSION_TIMEOUT": value})
    assert run.returncode == 2
    assert "MINIMAX_GRADER_SUBMISSION_TIMEOUT" in run.stderr and "Traceback" not in run.stderr


def test_calls_cut_short_are_not_answers_that_changed(fast_limits):
    """A slow search is not a search with memory: a call cut short the first time is not known to answer alike
    (the check fails on it, as every check needing a whole call does), never an answer that changed, and no mistake
    about memory is named from it."""
    from grader.doors import api

    fast_limits("slow_on_big_trees.py")
    result = api.check(BAD / "slow_on_big_trees.py", "ctp-26", examples=40)
    checks = {c.name: c for c in result.checks}
    assert checks["published-cases"].status == checks["fixture-trees"].status == "passed"
    consistent = checks["consistent-answers"].message or ""
    assert "not known to answer alike)" in consistent and "answers changed" not in consistent, consistent
    assert "state-across-calls" not in {m.code for m in result.mistakes}
    assert checks["random-trees"].status == "failed" and "timed out after 0.5 s" in checks["random-trees"].message
    shown = checks["random-trees"].counterexample
    assert shown is not None and "not run" not in str(shown.actual)  # the example shown was really asked


def test_input_inside_the_search_says_there_is_no_keyboard(tmp_path):
    """The 121st helper stepped through their search at home with ``input()`` in it: every call raised EOFError
    with no word of why, where the same input() as the file loads is explained (api_mismatch)."""
    from grader.doors import api

    path = tmp_path / "stepping.py"
    path.write_text("def minimax(node, max_depth, player_a_moves):\n    input('step? ')\n    return 0\n",
                    encoding="utf-8")
    result = api.check(path, "ctp-26", examples=5)
    message = next(c.message for c in result.checks if c.name == "published-cases")
    assert "raised EOFError" in message and "input() has no keyboard to read from while grading" in message
