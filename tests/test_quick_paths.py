"""The judge's quick paths (taken for the usual reply) decide exactly what the full paths decide.

Bulk grading asks every predicate about hundreds of cases per submission, so the common
answer ("a right number", "an allowed trace") is read straight from plain data. These tests
put the quick and the full path side by side on the real case bank and on odd and forged
replies, so a quick path can never pass something the full one would fail.
"""

from __future__ import annotations

import random

import pytest

from grader.judging import checks
from grader.judging.bank import Case
from grader.judging.checks import Outcome

ODD_ANSWERS = [
    {"t": "int", "v": 3}, {"t": "int", "v": 4}, {"t": "int", "v": "3"}, {"t": "int", "v": True},
    {"t": "float", "v": (3.0).hex()}, {"t": "float", "v": (3.5).hex()}, {"t": "float", "v": "nan"},
    {"t": "float", "v": float("nan").hex()}, {"t": "float", "v": "not hex"}, {"t": "float", "v": 3.0},
    {"t": "bool", "v": True}, {"t": "str", "v": "3"}, {"t": "none"}, {"t": "other", "type": "X", "repr": "3"},
    {"t": "list", "v": [{"t": "int", "v": 3}]}, {"t": "int"}, {}, None,
]
ODD_EXPECTED = [3, 4, 3.0, 3.5, float("nan"), True, "3", None]


def _raws():
    for answer in ODD_ANSWERS:
        yield {"id": "c", "answer": answer}
        yield {"id": "c", "answer": answer, "raised": "ValueError: no"}
        yield {"id": "c", "answer": answer, "timed_out": True}
        yield {"id": "c", "answer": answer, "skipped": "not run"}


def _full_answers(exercise, outcome):
    """The answers predicate without its quick path (what it was before it had one)."""
    problem = outcome.did_not_answer(exercise.limits.call_timeout)
    if problem:
        return problem
    return checks.default_verify(outcome.case.input, outcome.expected, outcome.answer)


def test_answers_quick_path_agrees_with_the_full_one(ctp26):
    case = Case(id="c", group="random", input={"tree": {"name": "a", "value": 3, "children": []},
                                                "max_depth": 1, "player_a_moves": True})
    quick = checks.PREDICATES["answers"](ctp26, ctp26.limits.call_timeout)
    numeric = checks.PREDICATES["numeric"](ctp26, ctp26.limits.call_timeout)
    compared = 0
    for raw in _raws():
        for expected in ODD_EXPECTED:
            outcome = Outcome(case, raw, expected)
            assert (quick(outcome) is None) == (_full_answers(ctp26, outcome) is None), (raw, expected)
            answer = Outcome(case, raw, expected).answer
            full_numeric = None if answer is None or answer.is_number else "not a number"
            assert (numeric(outcome) is None) == (full_numeric is None), raw
            compared += 1
    assert compared == len(ODD_ANSWERS) * 4 * len(ODD_EXPECTED)


def test_trace_quick_path_agrees_with_the_full_one(ctp26, ctp26_bank):
    hooks = ctp26.hooks
    rng = random.Random(26)
    oddities = [-1, 10**6, True, 1.0, "0", None]
    compared = failing = 0
    for case in ctp26_bank.cases:
        count = hooks.size(case.input)
        for _ in range(6):
            evaluated = rng.sample(range(count), rng.randint(0, count))
            if rng.random() < 0.2:
                evaluated.append(rng.choice(oddities))
            trace = {"evaluated": evaluated, "expanded": []}
            quick, full = hooks.trace_violation(case.input, trace), hooks.first_trace_violation(case.input, trace)
            assert quick == full, (case.id, evaluated)
            compared += 1
            failing += full is not None
    assert failing and compared - failing, "both verdicts must occur for the comparison to mean anything"


@pytest.mark.parametrize("trace", [{}, {"evaluated": "0"}, {"evaluated": [0, 0, 0]}])
def test_trace_quick_path_on_shapes_the_harness_never_sends(ctp26, ctp26_bank, trace):
    case = ctp26_bank.cases[0]
    assert ctp26.hooks.trace_violation(case.input, trace) == ctp26.hooks.first_trace_violation(case.input, trace)


def test_diagnosis_reads_replies_the_same_either_way(ctp26):
    """The diagnosis' view of a reply (its kind and value, wrong or not) with and without the quick path."""
    from grader.judging import diagnose

    case = Case(id="c", group="random", input={"tree": {"name": "a", "value": 3, "children": []},
                                                "max_depth": 1, "player_a_moves": True})
    for raw in _raws():
        for expected in ODD_EXPECTED:
            outcome = Outcome(case, raw, expected)
            facts = diagnose.Facts(ctp26, [outcome], [])
            full_reply = diagnose._reply(outcome, ctp26)
            assert facts.reply(outcome) == full_reply or (  # NaN never equals itself: compare its text
                repr(facts.reply(outcome)) == repr(full_reply)), (raw, expected)
            full_wrong = full_reply is not None and (full_reply[0] == "raised" or checks.default_verify(
                case.input, expected, outcome.answer) is not None)
            assert diagnose.Facts(ctp26, [outcome], []).is_wrong(outcome) == full_wrong, (raw, expected)
