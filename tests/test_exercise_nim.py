"""The nim exercise, declared on the game-search kit: its bank, and every sample's verdict, score and mistake."""

from __future__ import annotations

import pytest
from kit_samples import assert_pinned, table
from samples import assert_as_recorded, grader_of, on_disk, recorded

SAMPLES, EXPECTED = table("nim")


@pytest.fixture(scope="module")
def nim():
    from grader.judging import exercise

    return exercise.load("nim")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "nim")


def test_every_sample_on_disk_is_pinned_and_the_families_are_many():
    assert on_disk(SAMPLES) == set(EXPECTED)
    buggy = {v["mistake"] for k, v in EXPECTED.items() if k.startswith("buggy/")}
    assert len([k for k in EXPECTED if k.startswith("buggy/")]) >= 8 and len(buggy) >= 8


def test_bank_is_every_reachable_position_plus_the_hand_made_ones(nim):
    from grader.judging import bank

    cases = bank.build(nim, use_cache=False).cases
    assert len([c for c in cases if c.group == "reachable"]) == 96  # product of (heap + 1) over 5 starts, merged
    fixtures = [c for c in cases if c.group == "fixtures"]
    assert len(fixtures) == 5
    for case in fixtures:  # the instructor's stated values agree with the kit's reference
        assert nim.hook("reference")(case.input)["value"] == case.known, case.id


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict_score_and_mistake(graded, name):
    assert_pinned(graded(name), EXPECTED[name])


def test_counterexample_is_drawn_as_heaps(graded):
    result = graded("buggy/no_alternation.py")
    example = next(c.counterexample for c in result.checks if c.status == "failed")
    assert "heap 0:" in example.picture and "to move" in example.picture
    assert example.noun == "position"


def test_where_it_first_goes_wrong_is_shown_on_the_position(graded):
    """The kit asks the student about every position of the small counterexample (diagnose's localisation)."""
    result = graded("buggy/first_child_only.py")
    values = next(c for c in result.checks if c.name == "values")
    where = values.counterexample.localisation
    assert where is not None and "the moves are worth" in where["text"] and where["expected"]["value"] == 1


@pytest.mark.parametrize("relative", sorted(recorded("nim")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "nim", relative)
