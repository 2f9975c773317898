"""A run nobody reads the traces of (the consistency pass) asks nothing; the first pass asks everything.

``Session.run(cases, evidence=False)`` hands the child what its helpers would answer (a tree's values)
with each case, so the child asks the grading process nothing and nothing is logged: the answers alone
are judged there. Evidence rests on the first pass only, which the child answers before it holds any
value. Real children, through the sandbox the machine has.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import SUBMISSIONS
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging.submissions import load
from grader.sandbox import launch
from grader.sandbox import session as sessions


class Counting(sessions.Session):
    """A session that counts the child's questions (not its notes)."""

    questions = 0
    notes = 0

    def _serve(self, kind, number, message, *question):
        if kind == sessions.QUESTION:
            self.questions += 1
        else:
            self.notes += 1
        return super()._serve(kind, number, message, *question)


@pytest.fixture(scope="module")
def ctp26():
    exercise = exercises.load("ctp-26")
    return exercise, [c.to_request() for c in banks.build(exercise, seed=26, examples=10).cases]


def test_a_run_without_evidence_asks_nothing_and_answers_the_same(ctp26):
    exercise, cases = ctp26
    with Counting(load(str(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py")), exercise, launch.choose()) as session:
        assert session.open()["ok"]
        loaded = session.notes
        first = session.run(cases)
        asked, told = session.questions, session.notes
        again = session.run(cases, evidence=False)
        assert session.questions == asked  # not one question in the second run
        assert session.notes == told  # and no case boundaries: nothing is attributed to its cases
        assert session.violation is None
    assert told - loaded == len(cases)  # the first pass: each case begun, in order
    assert asked >= len(cases)
    assert all(r["trace"]["evaluated"] for r in first)  # the first pass's evidence: the grader's log
    assert not any("trace" in r for r in again)  # nothing logged, so nothing there to be read as evidence
    assert [r["answer"] for r in again] == [r["answer"] for r in first]


def test_a_thread_left_asking_during_a_run_without_evidence_is_no_tampering(ctp26, tmp_path):
    """A thread an earlier call left running keeps asking with its helper: in the run whose helpers answer
    from the values it is told no call is running (its get_value raises there), never tampering."""
    exercise, cases = ctp26
    source = tmp_path / "lingering.py"
    source.write_text(textwrap.dedent('''
        import threading, time

        def _keep_asking(node):
            for _ in range(2000):
                try:
                    get_value(node)
                except Exception:
                    pass
                time.sleep(0.0005)

        def minimax(node, max_depth, player_a_moves):
            kids = get_next_valid_moves(node)
            if max_depth == 0 or not kids:
                if not getattr(minimax, "started", False):
                    minimax.started = True
                    threading.Thread(target=_keep_asking, args=(node,), daemon=True).start()
                return get_value(node)
            values = [minimax(k, max_depth - 1, not player_a_moves) for k in kids]
            return max(values) if player_a_moves else min(values)
    '''))
    with Counting(load(str(source)), exercise, launch.choose()) as session:
        assert session.open()["ok"]
        session.run(cases)
        again = session.run(cases, evidence=False)
        assert session.violation is None and session.failure is None
    assert len(again) == len(cases)


@pytest.fixture(scope="module")
def connect_four():
    exercise = exercises.load("connect-four")
    return exercise, [c.to_request() for c in banks.build(exercise, seed=26, examples=6).cases]


def test_a_run_without_evidence_is_handed_what_the_case_asked_before(connect_four):
    """Where the exercise hands the child no values (a kit game: its evaluations are asked by position), a case
    run again without evidence gets the questions it asked in the evidence run and the grader's answers then:
    a search that asks the same asks nothing again; an evidence run after it asks everything again."""
    exercise, cases = connect_four
    sample = cases[::3]
    path = SUBMISSIONS / "connect-four" / "correct" / "textbook.py"
    with Counting(load(str(path)), exercise, launch.choose()) as session:
        assert session.open()["ok"]
        first = session.run(cases)
        asked = session.questions
        again = session.run(sample, evidence=False)
        assert session.questions == asked  # every question of the sample was asked in the first run
        third = session.run(sample)
        assert session.violation is None
    assert asked > len(cases)
    by_id = {r["id"]: r for r in first}
    assert [r["answer"] for r in again] == [by_id[c["id"]]["answer"] for c in sample]
    # the evidence run after it asked all over again, and its log is what it asked
    assert session.questions - asked == sum(len(by_id[c["id"]]["trace"]["evaluated"]) for c in sample)
    assert [r["trace"] for r in third] == [by_id[c["id"]]["trace"] for c in sample]


ASKS_MORE_THE_SECOND_TIME = '''
import math

seen = {}


def search(state, depth, player):
    if depth == 0 or game_over(state):
        return score(state)
    values = [search(drop(state, column), depth - 1, -player) for column in valid_moves(state)]
    return max(values) if player == MAX else min(values)


def alphabeta(state, depth, alpha, beta, player):
    key = repr(state) + repr(depth)
    seen[key] = seen.get(key, 0) + 1
    if seen[key] > 1 and not (depth == 0 or game_over(state)):
        extra = score(state)  # a position this case never evaluated before: asked, and answered
        if not isinstance(extra, (int, float)):
            raise TypeError(extra)
    return [None, search(state, depth, player)]
'''


def test_a_question_not_asked_before_is_answered_in_a_run_without_evidence(connect_four, tmp_path):
    exercise, cases = connect_four
    source = tmp_path / "asks_more.py"
    source.write_text(ASKS_MORE_THE_SECOND_TIME, encoding="utf-8")
    with Counting(load(str(source)), exercise, launch.choose()) as session:
        assert session.open()["ok"]
        first = session.run(cases)
        asked = session.questions
        again = session.run(cases, evidence=False)
        assert session.violation is None and session.failure is None
    inner = [r for r in first if r["trace"]["evaluated"] != [[]]]  # not a finished game or depth 0 at the root
    assert inner and session.questions - asked == len(inner)  # one new question per such case, nothing else again
    assert not any("raised" in r for r in again)
    assert [r["answer"] for r in again] == [r["answer"] for r in first]
