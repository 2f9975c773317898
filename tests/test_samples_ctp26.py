"""Every sample submission for ctp-26 gets the verdict ``expected.toml`` pins for it.

Correct samples (in many styles) must get full marks; buggy ones (each a different real
mistake) must not, and the check that catches them must say what a student needs: the call,
what was expected against what came back, and the smallest tree it went wrong on. The
samples are graded once per module through the API, so the whole set costs seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import assert_as_recorded, assert_full_score, grader_of, on_disk, pinned, recorded

SAMPLES = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "ctp-26"
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)


@pytest.fixture(scope="module")
def graded():
    """Grades each sample the first time a test asks for it, then remembers the result."""
    return grader_of(SAMPLES, "ctp-26")


def test_every_sample_is_pinned():
    assert on_disk(SAMPLES) == set(EXPECTED), "every sample under correct/ and buggy/ needs an entry in expected.toml"
    assert len(CORRECT) >= 8 and len(BUGGY) >= 15
    assert all(k.startswith("correct/") for k in CORRECT) and all(k.startswith("buggy/") for k in BUGGY)


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_gets_full_score(graded, relative):
    result = graded(relative)
    assert_full_score(result)
    assert all(c.status == "passed" and c.score == c.max_score for c in result.checks)


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_fails_with_a_counterexample(graded, ctp26, relative):
    result = graded(relative)
    data = result.to_dict()
    assert data["status"] == EXPECTED[relative]["status"] == "failed"
    assert data["error"] is None
    assert data["score"] < data["max_score"]

    first = next(c for c in data["checks"] if c["status"] in ("failed", "error"))
    kind = next(s.kind for s in ctp26.checks if s.name == first["name"])
    message = first["message"]
    assert "\n" not in message
    counterexample = first["counterexample"]
    assert counterexample is not None, f"{first['name']} failed without a counterexample"
    call = counterexample["call"]
    assert call.startswith("minimax(root, ") and call == ctp26.hook("call_text")(counterexample["input"])
    assert message.startswith(call + ": "), "the message names the exact call"
    assert {"expected", "actual"} <= set(counterexample)
    if kind == "answers":
        assert "expected" in message and any(w in message for w in ("returned", "raised", "timed out"))
        assert counterexample["expected"] is not None
        assert repr(counterexample["expected"]) != repr(counterexample["actual"])
    picture = counterexample["tree"]
    assert picture.startswith("root: ") and "[value " in picture
    assert picture == ctp26.hook("picture")(counterexample["input"])
    assert picture.count("\n") + 1 == ctp26.hook("size")(counterexample["input"]), "one line per node"


@pytest.mark.parametrize("relative", ["buggy/always_max.py", "buggy/mutates_tree.py"])
def test_text_report_shows_the_counterexample(graded, relative):
    from grader import report

    result = graded(relative)
    text = report.render(result, "text")
    first = next(c for c in result.checks if c.status in ("failed", "error"))
    assert first.message in text
    assert first.counterexample.call in text
    for line in first.counterexample.picture.splitlines():
        assert line in text
    if first.counterexample.answer_right:  # the tree changed, the value was right: no "expected 0, yours 0"
        assert "is a right answer on its own: what goes wrong is how your code got it, said above" in text and "expected: " not in text
    else:
        assert "expected: " in text and "yours: " in text


def test_published_solution_file_gets_full_score(graded):
    result = graded("correct/published_style.py")
    assert result.status == "passed" and result.score == result.max_score
    # Its module-level prints ran in the sandbox and were captured, not mixed into the verdict.
    assert "OK: minimax(depth=0) = 7" in result.output["stdout"]
    assert "WRONG" not in result.output["stdout"]


def test_hardcoded_seven_gets_published_points_and_fails(graded):
    result = graded("buggy/hardcoded_answer.py")
    published = next(c for c in result.checks if c.name == "published-cases")
    assert published.status == "passed" and published.score == published.max_score == 2.0
    assert result.status == "failed"
    assert result.score < result.max_score
    # Points for good behaviour are only reachable through right answers.
    others = [c for c in result.checks if c.name != "published-cases"]
    assert any(c.status == "failed" for c in others)


@pytest.mark.parametrize("relative", sorted(recorded("ctp-26")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "ctp-26", relative)
