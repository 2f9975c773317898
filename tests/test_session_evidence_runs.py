"""A run nobody reads the traces of (the consistency pass) asks nothing; the first pass asks everything.

``Session.run(cases, evidence=False)`` hands the child what its helpers would answer (a tree's values)
with each case, so the child asks the grading process nothing and nothing is logged: the answers alone
are judged there. Evidence rests on the first pass only, which the child answers before it holds any
value. Real children, through the sandbox the machine has.
"""

from __future__ import annotations

import json
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


MOVES_ITS_FIRST_QUESTION = textwrap.dedent('''
    """Takes the harness's note "case N begins" out of the channel's notes not yet written, asks its first
    question, and puts the note back: that question would be logged as the last case's."""
    import gc
    FORGE = True
    channel = next(o for o in gc.get_objects() if type(o).__name__ == "Channel" and hasattr(o, "req_fd"))

    def minimax(node, max_depth, player_a_moves):
        note = channel.told if FORGE else b""
        if b'["case", 0]' in note or not note:
            note = None
        else:
            channel.told = b""
        first = [True]

        def value(n):
            v = get_value(n)
            if first[0] and note is not None:
                first[0] = False
                channel.told = note  # the case begins only now, after its first question went out
            return v

        def search(n, d, a):
            if d == 0 or not n.children:
                return value(n)
            vs = [search(m, d - 1, not a) for m in n.children]
            return max(vs) if a else min(vs)

        try:
            return search(node, max_depth, player_a_moves)
        finally:
            if first[0] and note is not None:
                channel.told = note
''')


def test_a_call_cannot_move_its_questions_to_another_case(ctp26, tmp_path):
    """Found by the twentieth red team: the note that a case begins waited in the channel's dict for the call's
    first question to take it along, and a call could hold it back. It is written out before the call starts now:
    every case's log is the log of the questions asked while it ran, as its honest twin's."""
    exercise, cases = ctp26
    forged, honest = tmp_path / "moves_its_question.py", tmp_path / "honest.py"
    forged.write_text(MOVES_ITS_FIRST_QUESTION)
    honest.write_text(MOVES_ITS_FIRST_QUESTION.replace("FORGE = True", "FORGE = False"))
    traces = []
    for path in (honest, forged):
        with sessions.Session(load(str(path)), exercise, launch.choose()) as session:
            assert session.open()["ok"]
            results = session.run(cases)
            assert session.violation is None
        traces.append([r["trace"]["evaluated"] for r in results])
    assert all(traces[0])
    assert traces[1] == traces[0]


LEAVES_A_THREAD_ASKING = textwrap.dedent('''
    """A correct search that, on its first call, leaves a thread running (as code on threads does when its call
    raises before it joins them): the thread asks about a deep node of that first tree while the next call runs."""
    import threading
    import time

    _calls = [0]

    def _search(node, depth, maximising):
        moves = get_next_valid_moves(node)
        if depth == 0 or not moves:
            return get_value(node)
        values = [_search(m, depth - 1, not maximising) for m in moves]
        return max(values) if maximising else min(values)

    def _deepest(node):
        while node.children:
            node = node.children[-1]
        return node

    def _late(value_of, node):
        time.sleep(0.3)  # the next call runs by now
        try:
            value_of(node)  # the helper of its own call (a search holds the one it looked up last)
        except Exception:
            pass

    def minimax(node, max_depth, player_a_moves):
        _calls[0] += 1
        if _calls[0] == 1:
            threading.Thread(target=_late, args=(get_value, _deepest(node)), daemon=True).start()
        if _calls[0] == 2:
            time.sleep(0.6)  # still running when the thread asks
        return _search(node, max_depth, player_a_moves)
''')


def test_a_thread_an_earlier_call_left_asking_is_no_tampering(ctp26, tmp_path, monkeypatch):
    """An honest search on threads whose call raised before it joined them (thread creation refused under the
    process limit, on a loaded machine) left threads asking about their own tree while the next case ran: a node
    number outside the running case's tree was taken for tampering. The thread is told no such node, and the
    submission is graded as it answered. (Where the calls run on a runner thread, threads are refused now; the
    fallback without one, forced here, and other platforms still let a call start them.)"""
    monkeypatch.setenv("MINIMAX_GRADER_RUNNER", "off")
    exercise, cases = ctp26
    sizes = [len(json.dumps(case["input"]["tree"])) for case in cases]
    big, small = max(range(len(cases)), key=sizes.__getitem__), min(range(len(cases)), key=sizes.__getitem__)
    path = tmp_path / "leaves_a_thread.py"
    path.write_text(LEAVES_A_THREAD_ASKING)
    with sessions.Session(load(str(path)), exercise, launch.choose()) as session:
        assert session.open()["ok"]
        results = session.run([cases[big], cases[small]])
        assert session.violation is None
        assert session.failure is None
    assert all("answer" in result for result in results), results
