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

    def noting_run(self, cases, evidence=True, **kwargs):
        if seen["shrinking"]:
            seen["runs"].append(evidence)
        return run(self, cases, evidence, **kwargs)

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


# Wrong on random trees (a value above 15 read as 15: no hand-made tree has one) and cutting off on a value
# equal to the bound: random-trees is shrunk first, without evidence; no-over-pruning, which reads the
# grading process's log, must never take that shrunk tree (no log at all) as its counterexample.
PRUNES_ON_EQUALITY = SUBMISSIONS / "alphabeta" / "buggy" / "prunes_on_equality.py"
CAPPED_AND_PRUNES_ON_EQUALITY = PRUNES_ON_EQUALITY.read_text().replace(
    "        return get_value(node)\n", "        return min(get_value(node), 15)\n")


def test_a_tree_shrunk_without_evidence_is_no_counterexample_of_a_check_on_the_log(tmp_path):
    from grader.judging import checks, submissions
    from grader.judging import exercise as exercises
    from grader.judging.checks import Outcome
    from grader.judging.bank import Case
    from grader.sandbox import launch

    assert "min(get_value(node), 15)" in CAPPED_AND_PRUNES_ON_EQUALITY  # the sample still reads as it did
    path = tmp_path / "capped_and_prunes_on_equality.py"
    path.write_text(CAPPED_AND_PRUNES_ON_EQUALITY)
    result = api.check(path, "alphabeta")
    random_trees = next(c for c in result.checks if c.name == "random-trees")
    over = next(c for c in result.checks if c.name == "no-over-pruning")
    assert random_trees.status == "failed" and random_trees.counterexample.shrunk
    assert over.status == "failed"
    shown = over.counterexample
    # The tree shown must fail the check on what the grading process logs when the student's code runs on it:
    # a tree whose run kept no log reads "never evaluated" every leaf, whatever the student evaluated.
    alphabeta = exercises.load("alphabeta")
    spec = next(s for s in alphabeta.checks if s.name == "no-over-pruning")
    session = sessions.Session(submissions.load(path), alphabeta, launch.choose())
    try:
        assert session.open().get("ok")
        raw = session.run([{"id": "again", "input": shown.input}])[0]
    finally:
        session.close()
    assert raw["trace"]["evaluated"], "the student's code evaluated nothing on the tree shown"
    outcome = Outcome(Case(id="again", group="random", input=shown.input), raw,
                      alphabeta.hook("reference")(shown.input, alphabeta.reference))
    assert checks.predicate_for(spec, alphabeta)(outcome), (
        f"no-over-pruning shows a tree it does not fail on: {shown.call}, {shown.note}")
