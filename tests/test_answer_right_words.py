"""The line under a counterexample whose answer is not what went wrong, in every format.

The 125th helper: "returned (1, 2) once the time was up: raise SearchTimeout instead", then "your answer here,
(1, 2), is a right answer on its own" under it (aind-isolation's timeout and iterative-deepening checks). Where the
check's message quotes the answer as what is wrong, the line says the message is about it; elsewhere (a trace or a
mutation went wrong, the value is right) it keeps saying the answer is right on its own. One function
(``feedback.answer_right_words``) for the text, Markdown and HTML reports and every machine format."""

from __future__ import annotations

import pytest

from conftest import ROOT
from grader import report
from grader.doors import api
from grader.report.feedback import check_text

ABOUT = "is the answer the message above is about"
RIGHT = "is a right answer on its own"


@pytest.fixture(scope="module")
def graded():
    return {
        "quoted": (api.check(ROOT / "fixtures/submissions/aind-isolation/buggy/returns_interrupted_depth_move.py",
                             "aind-isolation"), "iterative-deepening"),
        "right": (api.check(ROOT / "fixtures/submissions/ctp-26/buggy/evaluates_internal_nodes.py", "ctp-26"),
                  "evaluation-discipline"),
    }


@pytest.mark.parametrize("which, said, not_said", [("quoted", ABOUT, RIGHT), ("right", RIGHT, ABOUT)])
def test_every_format_says_the_same_of_the_answer(graded, which, said, not_said):
    result, name = graded[which]
    check = next(c for c in result.checks if c.name == name)
    assert check.counterexample is not None and check.counterexample.answer_right, check
    texts = [check_text(result, check), check_text(result, check, markdown=True)]
    texts += [report.render(result, fmt) for fmt in ("text", "md", "html")]
    for text in texts:
        assert said in text and not_said not in text, text[:3000]


HISTORY = "this answer came after other questions, which your code remembers"


@pytest.mark.parametrize("sample, has", [("buggy/state_across_calls.py", True), ("buggy/shared_default_list.py", True),
                                         ("buggy/always_max.py", False)])
def test_a_remembering_search_s_counterexamples_say_they_came_after_other_questions(sample, has):
    """The 125th helper: a one-node tree drawn with "expected: 4  yours: 2" (a memo of earlier trees answered) sent
    the student looking for a mistake the tree cannot show. Where the likely mistake is state-across-calls, every
    counterexample says its answer came after other questions; elsewhere nothing is said."""
    result = api.check(ROOT / "fixtures/submissions/ctp-26" / sample, "ctp-26")
    shown = [c for c in result.checks if c.counterexample is not None]
    assert shown and (("state-across-calls" in {m.code for m in result.mistakes}) == has)
    texts = [check_text(result, c) for c in shown] + [report.render(result, fmt).lower() for fmt in ("text", "md")]
    texts.append(report.render(result, "html").lower())
    for text in texts:
        assert (HISTORY in text.lower()) == has, text[:2000]
    assert report.render(result, "text").count(HISTORY) == (len(shown) if has else 0)
    for check in shown if has else ():  # in Markdown (Gradescope) a paragraph of its own (the 126th helper)
        assert "\n\n" + HISTORY in check_text(result, check, markdown=True)
