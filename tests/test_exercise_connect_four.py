"""The connect-four exercise, declared on the kit: value, column and the exact positions alpha-beta scores."""

from __future__ import annotations

import pytest
from kit_samples import assert_pinned, table
from samples import assert_as_recorded, grader_of, on_disk, recorded

SAMPLES, EXPECTED = table("connect-four")


@pytest.fixture(scope="module")
def c4():
    from grader.judging import exercise

    return exercise.load("connect-four")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "connect-four")


def test_every_sample_on_disk_is_pinned_and_the_families_are_many():
    assert on_disk(SAMPLES) == set(EXPECTED)
    assert len({v["mistake"] for k, v in EXPECTED.items() if k.startswith("buggy/")}) >= 8


def test_hand_made_positions_have_the_stated_values(c4):
    from grader.judging import bank

    fixtures = bank.build(c4, use_cache=False).group("fixtures")
    assert len(fixtures) == 4
    for case in fixtures:
        assert c4.hook("reference")(case.input)["value"] == case.known, case.id


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict_score_and_mistake(graded, name):
    assert_pinned(graded(name), EXPECTED[name])


def test_pruning_mistakes_keep_the_value_points_and_lose_the_evaluation_points(graded):
    for name in ("buggy/over_pruning.py", "buggy/plain_minimax.py", "buggy/bounds_not_passed.py"):
        checks = {c.name: c for c in graded(name).checks}
        assert checks["values"].status == "passed" and checks["evaluated-positions"].status == "failed", name


def test_counterexample_is_drawn_as_a_board(graded):
    result = graded("buggy/sign_flip.py")
    example = next(c.counterexample for c in result.checks if c.status == "failed")
    rows = [line for line in example.picture.splitlines() if line.startswith("| ")]
    assert len(rows) == 4 and all(len(line) == len("| . . . . . |") for line in rows)


@pytest.mark.parametrize("name, code", [("buggy/bad_initial_bound.py", "bad-initial-bound"),
                                        ("buggy/first_child_only.py", "first-child-only")])
def test_mistakes_are_named_on_another_seed_too(name, code):
    """The families are simulated inside alpha-beta (a wrong bound changes what is cut off), whatever the cases."""
    from grader.doors import api

    result = api.check(SAMPLES / name, "connect-four", seed=1234)
    assert code in [m.code for m in result.mistakes]


def test_the_html_report_draws_the_board_as_svg(graded):
    from grader import report

    html = report.render(graded("buggy/sign_flip.py").to_dict(), "html")
    assert "<svg" in html and "<circle" in html and "| . . . . . |" not in html.split("<svg", 1)[0]
    text = report.render(graded("buggy/sign_flip.py").to_dict(), "text")
    assert "<svg" not in text and "| " in text


@pytest.mark.parametrize("relative", sorted(recorded("connect-four")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "connect-four", relative)


def test_the_expected_answer_is_shown_as_the_student_returns_it(graded):
    """Issue 15: ``[column, score]`` as declared (``[2, 1] or [3, 1]``), never the reference's record."""
    import re

    from grader import report

    result = graded("buggy/sign_flip.py")
    example = next(c.counterexample for c in result.checks if c.status == "failed" and c.name == "values")
    assert re.fullmatch(r"\[(\d|None), -?\d+\]( or \[\d, -?\d+\])*", example.expected), example.expected
    text = report.render(result, "text")
    assert f"expected: {example.expected}" in text and "'value'" not in text and "'moves'" not in text
