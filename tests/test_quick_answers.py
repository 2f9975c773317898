"""The tree oracle's quick answer to its common question (``TreeOracle.ask_raw``, served by ``Session._serve``).

A ctp-26 submission asks ``get_value`` some 800 times, each a round trip the grading process serves: the common
question is answered from its bytes, with no parsing. It must answer and log exactly as ``ask`` does, take nothing
but the driver's exact bytes, and leave everything else to the careful way."""

from __future__ import annotations

import pytest

from conftest import SUBMISSIONS
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging.submissions import load
from grader.kit import tree_hooks
from grader.sandbox import launch
from grader.sandbox import session as sessions

TREE = {"name": "r", "value": None, "children": [
    {"name": "a", "value": 3, "children": []},
    {"name": "b", "value": -2.5, "children": [{"name": "c", "value": 7, "children": []}]},
]}


def test_the_common_question_is_answered_and_logged_as_ask_does():
    quick, careful = tree_hooks.TreeOracle({"tree": TREE}), tree_hooks.TreeOracle({"tree": TREE})
    for index in (1, 3, 1, 2):
        assert quick.ask_raw(b'["v", %d]' % index) == careful.ask(["v", index])
    assert quick.trace() == careful.trace() == {"evaluated": [1, 3, 1, 2], "expanded": []}


@pytest.mark.parametrize("question", [b'["v",1]', b'["v", 01]', b'["v", 1] ', b' ["v", 1]', b'["v", -1]',
                                      b'["v", 1.0]', b'["v", true]', b'["m", 1]', b'["v", 1, 2]', b'["v", "1"]',
                                      b'["v", 1]\n', b'["v", 4]', b'["v", 9999999999]'])
def test_anything_but_the_driver_s_exact_question_about_a_node_of_this_tree_is_left_to_ask(question):
    """Other spacing, other types, another kind of question, a node of another case's tree (which ``ask`` answers
    with an error and does not log): not answered here, nothing logged."""
    oracle = tree_hooks.TreeOracle({"tree": TREE})
    assert oracle.ask_raw(question) is NotImplemented
    assert oracle.trace() == {"evaluated": [], "expanded": []}


def test_past_the_trace_cap_the_quick_answer_says_truncated_as_ask_does(monkeypatch):
    monkeypatch.setattr(tree_hooks, "TRACE_CAP", 2)
    oracle = tree_hooks.TreeOracle({"tree": TREE})
    assert [oracle.ask_raw(b'["v", 1]') for _ in range(3)] == [3, 3, 3]
    assert oracle.trace() == {"evaluated": [1, 1], "expanded": [], "truncated": True}


@pytest.fixture(scope="module")
def ctp26():
    exercise = exercises.load("ctp-26")
    return exercise, [c.to_request() for c in banks.build(exercise, seed=26, examples=10).cases]


def _graded(exercise, cases, monkeypatch, quick: bool):
    """The cases' results, the questions the session served, and how many of them went to the careful ``ask``."""
    counted = {"careful": 0, "served": 0}
    ask, serve = tree_hooks.TreeOracle.ask, sessions.Session._serve

    def counting_ask(self, message):
        counted["careful"] += 1
        return ask(self, message)

    def counting_serve(self, kind, number, message, question=None):
        counted["served"] += kind == sessions.QUESTION
        return serve(self, kind, number, message, question)

    monkeypatch.setattr(tree_hooks.TreeOracle, "ask", counting_ask)
    monkeypatch.setattr(sessions.Session, "_serve", counting_serve)
    if not quick:
        monkeypatch.delattr(tree_hooks.TreeOracle, "ask_raw")
    submission = load(str(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py"))
    with sessions.Session(submission, exercise, launch.choose()) as session:
        assert session.open()["ok"]
        results = session.run(cases)
        assert session.violation is None
    monkeypatch.undo()
    return results, counted["served"], counted["careful"]


def test_a_session_answers_the_common_question_quickly_and_logs_the_same_evidence(ctp26, monkeypatch):
    """Graded with and without the quick answer: the same answers and the same traces (the grader's log), every
    question served either way; with it, not one of a plain alpha-beta's questions needs the careful way."""
    exercise, cases = ctp26
    quick_results, quick_served, quick_careful = _graded(exercise, cases, monkeypatch, quick=True)
    slow_results, slow_served, slow_careful = _graded(exercise, cases, monkeypatch, quick=False)
    assert quick_results == slow_results
    assert all(r["trace"]["evaluated"] for r in quick_results)
    assert quick_served == slow_served == slow_careful > len(cases)
    assert quick_careful == 0
