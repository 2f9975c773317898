"""Alpha-beta with the moves searched in another order is named by its order, not as both
under- and over-pruning (which is what the two failing pruning checks alone would say)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.doors import api

BUGGY = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "alphabeta" / "buggy"


@pytest.fixture(scope="module")
def graded():
    return {name: api.check(BUGGY / f"{name}.py", "alphabeta") for name in ("right_to_left", "middle_first")}


def test_right_to_left_is_named_as_such(graded):
    result = graded["right_to_left"]
    assert [m.code for m in result.mistakes] == ["wrong-child-order"]
    (mistake,) = result.mistakes
    assert "right to left" in mistake.explanation and "right to left" in mistake.evidence
    assert {"no-under-pruning", "no-over-pruning"} <= set(mistake.checks)


def test_another_order_is_named_without_claiming_right_to_left(graded):
    result = graded["middle_first"]
    codes = [m.code for m in result.mistakes]
    assert codes == ["wrong-child-order"]
    assert "right to left" not in result.mistakes[0].evidence
    assert "to the right before one to its left" in result.mistakes[0].evidence


@pytest.mark.parametrize("name", ["right_to_left", "middle_first"])
def test_the_pruning_checks_say_the_order_too(graded, name):
    failed = [c for c in graded[name].checks if c.status == "failed"]
    assert {c.name for c in failed} == {"no-under-pruning", "no-over-pruning"}
    assert all("another order than left to right" in c.message for c in failed), [c.message for c in failed]
    assert graded[name].score > 0  # the values are right: only the pruning checks are lost
