"""aind-isolation-custom-player: the older template as a second declaration over the same game; pinned verdicts."""

from __future__ import annotations

import pytest
from kit_samples import assert_pinned, table
from samples import grader_of, on_disk

SAMPLES, EXPECTED = table("aind-isolation-custom-player")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "aind-isolation-custom-player")


def test_every_sample_on_disk_is_pinned_and_every_code_has_one():
    assert on_disk(SAMPLES) == set(EXPECTED)
    codes = {v["mistake"] for k, v in EXPECTED.items() if k.startswith("buggy/")}
    assert len(codes) == 10


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict_score_and_mistake(graded, name):
    result = graded(name)
    assert_pinned(result, EXPECTED[name])
    if name.startswith("buggy/"):
        assert [m.code for m in result.mistakes] == [EXPECTED[name]["mistake"]]


def test_the_answer_is_read_as_score_and_move(graded):
    result = graded("buggy/wrong_return_type.py")
    check = next(c for c in result.checks if c.name == "minimax-interface")
    assert "returned (" in check.message and "the answer is a pair (value, move)" in check.message


def test_own_copy_of_the_rules():
    from grader.judging import exercise as exercises

    ours, theirs = exercises.load("aind-isolation-custom-player"), exercises.load("aind-isolation")
    assert ours.hooks.rules_path.parent == ours.folder and theirs.hooks.rules_path.parent == theirs.folder
    assert not any(theirs.folder in p.parents for p in ours.driver_files)
