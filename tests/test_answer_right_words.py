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
