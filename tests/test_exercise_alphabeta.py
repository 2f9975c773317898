"""alphabeta: the reference, the fixtures and every sample's verdict, pruning checks included.

The pruning checks are the point of this exercise: a search that gets the value right but
looks at too much (under-pruning) or too little (over-pruning, typically pruning on equal
values) must fail exactly the matching check, and the message must name the nodes.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from samples import assert_as_recorded, assert_full_score, grader_of, on_disk, pinned, recorded

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "alphabeta"
TREES = ROOT / "fixtures" / "trees" / "alphabeta"
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)


@pytest.fixture(scope="module")
def alphabeta():
    from grader.judging import exercise

    return exercise.load("alphabeta")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "alphabeta")


def _evaluated_paths(alphabeta, tree, max_depth, player_a_moves):
    hooks = alphabeta.hooks
    hooks.reference({"tree": tree, "max_depth": max_depth, "player_a_moves": player_a_moves}, alphabeta.reference)
    case_input = {"tree": tree, "max_depth": max_depth, "player_a_moves": player_a_moves}
    indices = hooks.reference_evaluated(case_input, alphabeta.reference)
    paths = hooks._trees.node_paths(tree)
    return sorted(paths[i] for i in indices)


def test_reference_matches_every_fixture_value_and_evaluated_set(alphabeta):
    files = sorted(TREES.glob("*.json"))
    assert len(files) >= 8
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        for call in data["calls"]:
            value = alphabeta.hooks.reference({**call, "tree": data["tree"]}, alphabeta.reference)
            assert value == call["expected"], (path.name, call)
            assert _evaluated_paths(alphabeta, data["tree"], call["max_depth"], call["player_a_moves"]) == sorted(call["evaluated"])


def test_textbook_tree_prunes_the_two_leaves_the_book_prunes(alphabeta):
    data = json.loads((TREES / "textbook.json").read_text(encoding="utf-8"))
    seen = _evaluated_paths(alphabeta, data["tree"], 2, True)
    assert "/A/C/c2" not in seen and "/A/C/c3" not in seen
    assert len(seen) == 7


def test_equal_values_do_not_prune(alphabeta):
    data = json.loads((TREES / "ties-at-alpha.json").read_text(encoding="utf-8"))
    assert "/R/C/c2" in _evaluated_paths(alphabeta, data["tree"], 2, True)


def test_reference_value_equals_minimax_on_random_trees(alphabeta):
    from grader.judging import bank as banks
    from grader.judging import exercise

    minimax = exercise.load("ctp-26").reference
    cases = banks.random_inputs(alphabeta.hooks.strategy(), seed=7, count=150)
    for case_input in cases:
        expected = minimax.minimax(case_input["tree"], case_input["max_depth"], case_input["player_a_moves"],
                                   alphabeta.hooks.PlainTree)
        assert alphabeta.hooks.reference(case_input, alphabeta.reference) == expected


def test_every_sample_is_pinned():
    assert on_disk(SAMPLES) == set(EXPECTED)
    assert len(CORRECT) >= 4 and len(BUGGY) >= 8
    assert len({EXPECTED[k]["mistake"] for k in BUGGY}) >= 8


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_gets_full_score(graded, relative):
    assert_full_score(graded(relative))


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_fails_exactly_the_pinned_checks(graded, relative):
    result = graded(relative)
    assert result.error is None
    assert result.status == "failed"
    failed = sorted(c.name for c in result.checks if c.status == "failed")
    assert failed == sorted(EXPECTED[relative]["fails"]), [(c.name, c.message) for c in result.checks]
    for check in result.checks:
        if check.status == "failed":
            assert check.counterexample is not None and check.counterexample.call.startswith("alphabeta(root, ")
    assert EXPECTED[relative]["mistake"] in [m.code for m in result.mistakes]


def test_over_and_under_pruning_name_the_nodes(graded):
    over = next(c for c in graded("buggy/prunes_on_equality.py").checks if c.name == "no-over-pruning")
    under = next(c for c in graded("buggy/no_pruning.py").checks if c.name == "no-under-pruning")
    assert "over-pruning" in over.message and "never evaluated /" in over.message
    assert "under-pruning" in under.message and "evaluated /" in under.message
    # Shrunk to a small tree: the counterexample is readable.
    assert len(over.counterexample.picture.splitlines()) <= 8
    assert len(under.counterexample.picture.splitlines()) <= 8


def test_value_checks_pass_for_pruning_mistakes(graded):
    """Pruning on equality still gives the right value: only the pruning check may fail."""
    result = graded("buggy/prunes_on_equality.py")
    assert {c.name: c.status for c in result.checks}["random-trees"] == "passed"
    assert math.isclose(result.score, 8.5)


@pytest.mark.parametrize("relative", sorted(recorded("alphabeta")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "alphabeta", relative)
