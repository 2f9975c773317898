"""Cases a pass never ran (two calls before them ran out of time) are said to be not run, never shown as wrong.

An endless loop's report said "fails on 200 of 200 random trees" of trees it was never asked, and drew a one-node tree
"on which it goes wrong", marked "not run" (the hundred and thirteenth helper): shrinking had started from a case never
run and adopted smaller ones its own runs left unrun.
"""

from __future__ import annotations

from grader.judging import checks as kinds
from grader.judging import judge
from grader.judging.checks import Outcome
from grader.sandbox.session import TIMED_OUT_BEFORE


def _outcomes(exercise, bank, group, run: int):
    """The group's cases: the first ``run`` answered right, the next two cut off, the rest never run."""
    reference_of = exercise.hook("reference")
    outcomes = []
    for number, case in enumerate(c for c in bank.cases if c.group == group):
        expected = reference_of(case.input, exercise.reference)
        if number < run:
            encoded = {"t": "int", "v": expected} if type(expected) is int else {"t": "float", "v": float(expected).hex()}
            raw = {"id": case.id, "answer": encoded, "raised": None, "timed_out": False,
                   "trace": {"evaluated": [], "expanded": []}, "mutated": False}
        elif number < run + 2:
            raw = {"id": case.id, "answer": None, "raised": None, "timed_out": True,
                   "trace": {"evaluated": [], "expanded": []}, "mutated": False}
        else:
            raw = {"id": case.id, "skipped": TIMED_OUT_BEFORE}
        outcomes.append(Outcome(case, raw, expected))
    return outcomes


def _answers_check(exercise, name):
    spec = next(s for s in exercise.checks if s.name == name)
    return spec, kinds.predicate_for(spec, exercise)


def test_a_check_whose_failures_were_never_run_says_so_and_draws_nothing(ctp26, ctp26_bank):
    spec, predicate = _answers_check(ctp26, "random-trees")
    outcomes = [o for o in _outcomes(ctp26, ctp26_bank, "random", run=0)]
    for outcome in outcomes:
        outcome.raw = {"id": outcome.case.id, "skipped": TIMED_OUT_BEFORE}  # every one of them never run
    result, failures = kinds.per_case_check(spec, ctp26, outcomes, predicate, frozenset())
    assert result.status == "failed" and result.counterexample is None
    assert result.message.endswith(f"(fails on {len(outcomes)} of {len(outcomes)} random trees, none of them run)")
    assert judge._shrink_counterexample(None, ctp26, ctp26_bank, result, predicate, failures, 5.0) is None


def test_a_check_with_calls_cut_off_and_cases_never_run_counts_both(ctp26, ctp26_bank):
    spec, predicate = _answers_check(ctp26, "random-trees")
    outcomes = _outcomes(ctp26, ctp26_bank, "random", run=5)
    result, _ = kinds.per_case_check(spec, ctp26, outcomes, predicate, frozenset())
    unrun = len(outcomes) - 7
    assert result.counterexample is not None and "timed out" in result.message
    assert result.message.endswith(f"(fails on {len(outcomes) - 5} of {len(outcomes)} random trees, {unrun} of them "
                                   "not run)")
