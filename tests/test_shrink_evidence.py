"""Shrinking a check that judges answers alone asks the grading process nothing; a check that reads the
log of questions (evaluation discipline) is still shrunk on questions the grading process answered."""

from __future__ import annotations

import pytest

from grader.doors import api
from grader.judging import shrink
from grader.sandbox import session as sessions
from conftest import SUBMISSIONS


@pytest.fixture
def questions_while_shrinking(monkeypatch):
    """How many questions the grading process answered while a greedy shrink ran, and the evidence
    flag of every run made then."""
    seen = {"shrinking": False, "questions": 0, "runs": []}
    greedy, serve, run = shrink.greedy, sessions.Session._serve, sessions.Session.run

    def counting_greedy(*args, **kwargs):
        seen["shrinking"] = True
        try:
            return greedy(*args, **kwargs)
        finally:
            seen["shrinking"] = False

    def counting_serve(self, kind, number, message, question=None):
        if seen["shrinking"] and kind == sessions.QUESTION:
            seen["questions"] += 1
        return serve(self, kind, number, message, question)

    def noting_run(self, cases, evidence=True):
        if seen["shrinking"]:
            seen["runs"].append(evidence)
        return run(self, cases, evidence)

    monkeypatch.setattr(shrink, "greedy", counting_greedy)
    monkeypatch.setattr(sessions.Session, "_serve", counting_serve)
    monkeypatch.setattr(sessions.Session, "run", noting_run)
    return seen


def test_an_answers_check_is_shrunk_without_a_question(questions_while_shrinking):
    result = api.check(SUBMISSIONS / "ctp-26" / "buggy" / "always_max.py", "ctp-26")
    random_trees = next(c for c in result.checks if c.name == "random-trees")
    assert random_trees.status == "failed" and random_trees.counterexample.shrunk
    assert len(random_trees.counterexample.picture.splitlines()) <= 3  # shrunk as far as before
    assert questions_while_shrinking["runs"] and not any(questions_while_shrinking["runs"])
    assert questions_while_shrinking["questions"] == 0


def test_a_check_on_the_questions_asked_is_shrunk_on_evidence(questions_while_shrinking):
    result = api.check(SUBMISSIONS / "ctp-26" / "buggy" / "evaluates_internal_nodes.py", "ctp-26")
    discipline = next(c for c in result.checks if c.name == "evaluation-discipline")
    assert discipline.status == "failed"
    assert True in questions_while_shrinking["runs"] and questions_while_shrinking["questions"] > 0
