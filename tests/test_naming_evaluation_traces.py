"""Families whose moves agree, told apart by what the student's code evaluated (issue 22).

coin-row grades moves alone and lets the child evaluate positions itself (no log, no round trip per
evaluation). A search with no end-of-game test whose finished positions are worth 0 finds every move as good,
and so does a search whose start values are both the wrong infinity: each returns the first move everywhere,
so the moves alone fit both codes. Only when naming is left so does the diagnosis run a few failing cases again
in a second session with every evaluation asked of the grading process; the first search never asks the final
score of a finished position, the second asks it of every one, as the families predict from the reference's
variants (``grader.kit.evaluation_traces``). A correct submission and one the moves name alone never open that
second session.
"""

from __future__ import annotations

import textwrap

import pytest

from grader.doors import api
from grader.judging import asked_again
from grader.kit import evaluation_traces

NO_END_TEST = '''
def value(state):
    kids = [value(play(state, m)) for m in moves(state)]
    if not kids:
        return 0
    return max(kids) if player(state) == "MAX" else min(kids)


def best_move(state):
    options = moves(state)
    if player(state) == "MAX":
        return max(options, key=lambda m: value(play(state, m)))
    return min(options, key=lambda m: value(play(state, m)))
'''

WRONG_INFINITIES = '''
import math


def value(state):
    if game_over(state):
        return final_lead(state)
    maxing = player(state) == "MAX"
    best = math.inf if maxing else -math.inf
    for m in moves(state):
        v = value(play(state, m))
        if (maxing and v > best) or (not maxing and v < best):
            best = v
    return best


def best_move(state):
    maxing = player(state) == "MAX"
    pick, best = None, None
    for m in moves(state):
        v = value(play(state, m))
        if best is None or (maxing and v > best) or (not maxing and v < best):
            pick, best = m, v
    return pick
'''

CORRECT = '''
def value(state):
    if game_over(state):
        return final_lead(state)
    kids = [value(play(state, m)) for m in moves(state)]
    return max(kids) if player(state) == "MAX" else min(kids)


def best_move(state):
    options = moves(state)
    if player(state) == "MAX":
        return max(options, key=lambda m: value(play(state, m)))
    return min(options, key=lambda m: value(play(state, m)))
'''

FIRST_MOVE = "def best_move(state):\n    return moves(state)[0]\n"


@pytest.fixture
def second_sessions(monkeypatch):
    """Counts the second sessions the diagnosis opens (the real ones still run)."""
    opened = []
    real = asked_again.evaluation_runner

    def counting(exercise, session, deadline):
        run = real(exercise, session, deadline)
        if run is None:
            return None

        def counted(inputs):
            opened.append(len(list(inputs)))
            return run(inputs)

        counted.searches = run.searches
        return counted

    monkeypatch.setattr(asked_again, "evaluation_runner", counting)
    return opened


def check(tmp_path, source):
    path = tmp_path / "student.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return api.check(path, "coin-row")


def test_no_end_of_game_test_is_told_from_a_wrong_infinity_by_its_evaluations(tmp_path, second_sessions):
    result = check(tmp_path, NO_END_TEST)
    assert result.status == "failed"
    assert [m.code for m in result.mistakes][0] == "missing-terminal-check"
    assert "evaluation" in result.mistakes[0].evidence
    assert second_sessions, "the traces were read from a second run"


def test_a_wrong_infinity_is_told_from_a_missing_end_test_by_its_evaluations(tmp_path, second_sessions):
    result = check(tmp_path, WRONG_INFINITIES)
    assert result.status == "failed"
    assert [m.code for m in result.mistakes][0] == "bad-initial-bound"
    assert second_sessions


def test_without_the_second_run_both_stay_unnamed(tmp_path, monkeypatch):
    """What the mechanism adds: the moves alone name neither search."""
    monkeypatch.setattr(asked_again, "evaluation_runner", lambda exercise, session, deadline: None)
    for source in (NO_END_TEST, WRONG_INFINITIES):
        assert [m.code for m in check(tmp_path, source).mistakes] == ["no-known-mistake"]


def test_a_correct_submission_opens_no_second_session(tmp_path, second_sessions):
    assert check(tmp_path, CORRECT).status == "passed"
    assert second_sessions == []


def test_returning_the_first_move_is_still_named_nothing(tmp_path, second_sessions):
    """It asks no evaluation either, but it has no search: an empty log tells nothing about it."""
    assert [m.code for m in check(tmp_path, FIRST_MOVE).mistakes] == ["no-known-mistake"]


def test_a_family_is_refuted_by_positions_it_would_not_evaluate():
    class Fit:
        def __init__(self, name, code):
            self.name, self.model, self.complete, self.explained = name, type("M", (), {"code": code}), True, 1

    fits = [Fit("a", "x"), Fit("b", "y")]
    predictions = {"a": frozenset(), "b": frozenset({1, 2})}
    kept = evaluation_traces.told_apart(fits, [("s", None)], [frozenset({1, 2})], lambda n, s, d: predictions[n])
    assert [f.name for f in kept] == ["b"]
    assert evaluation_traces.told_apart(fits, [("s", None)], [None], lambda n, s, d: predictions[n]) == fits


def test_a_recursive_search_is_read_from_the_source_never_run(tmp_path):
    (tmp_path / "a.py").write_text(textwrap.dedent(NO_END_TEST))
    (tmp_path / "b.py").write_text(FIRST_MOVE)
    assert asked_again.searches([tmp_path / "a.py"]) is True
    assert asked_again.searches([tmp_path / "b.py"]) is False


def test_the_second_session_is_bounded_by_the_diagnosis_budget():
    """A slow search costs the second run at most what is left of the diagnosis, never another submission's time."""
    from grader.judging import exercise as exercises

    coin_row = exercises.load("coin-row")
    asking = asked_again._Asking(coin_row, 1.0)
    assert asking.limits.submission_timeout <= coin_row.limits.load_timeout + 1.0
    assert asking.limits.submission_timeout < coin_row.limits.submission_timeout
    assert asking.driver_path != coin_row.driver_path  # the asking driver: every evaluation goes to the grader


def test_a_source_nested_past_the_parser_is_read_as_no_search(tmp_path):
    """200,000 unary minuses make the parser raise MemoryError: the grader's failure on that student, every run,
    until ``searches`` read it as every other reader of sources does (no file it can read)."""
    from grader.judging import asked_again

    deep = tmp_path / "deep.py"
    deep.write_text("def f():\n    return f()\nx = " + "-" * 200_000 + "1\n")
    assert asked_again.searches([deep]) is False
