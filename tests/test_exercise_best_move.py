"""The best-move exercise: one set of helpers over game trees and tic-tac-toe, and every sample's verdict.

Samples are graded once each through ``grader.doors.api.check``; any best move is right (ties
accepted), a move must come back exactly as the helpers gave it, and a tic-tac-toe
counterexample is drawn as a 3x3 board.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from samples import assert_as_recorded, assert_full_score, grader_of, on_disk, pinned, recorded

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "best-move"
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)


@pytest.fixture(scope="module")
def best_move():
    from grader.judging import exercise

    return exercise.load("best-move")


@pytest.fixture(scope="module")
def bm_bank(best_move):
    from grader.judging import bank

    return bank.build(best_move)


@pytest.fixture(scope="module")
def driver(best_move):
    spec = importlib.util.spec_from_file_location("_test_best_move_driver", best_move.driver_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "best-move")


def is_board_picture(picture: str) -> bool:
    lines = picture.splitlines()
    return sum(line.count(" | ") == 2 for line in lines) == 3 and sum("---+---+---" in line for line in lines) == 2


# -- reference, bank, helpers -----------------------------------------------------------------

def test_reference_agrees_with_every_hand_made_game(best_move, bm_bank):
    fixtures = bm_bank.group("fixtures")
    assert {c.input["game"] for c in fixtures} == {"tree", "tictactoe"}
    for case in fixtures:
        expected = best_move.hook("reference")(case.input, best_move.reference)
        assert {"value": expected["value"], "best moves": expected["best moves"]} == case.known, case.id


def test_bank_has_random_trees_and_tictactoe_positions(best_move, bm_bank):
    trees, positions = bm_bank.group("random"), bm_bank.group("tictactoe")
    assert len(trees) == best_move.random_examples and len(positions) == 60
    for case in trees:
        assert case.input["game"] == "tree" and case.input["tree"]["moves"], "the root always has a move"
        labels = [label for label, _ in case.input["tree"]["moves"]]
        assert len(set(map(repr, labels))) == len(labels)
    assert any(isinstance(c.input["tree"]["moves"][0][0], str) for c in trees)
    assert any(isinstance(c.input["tree"]["moves"][0][0], int) for c in trees)
    for case in positions:
        free = sum(v == 0 for row in case.input["board"] for v in row)
        assert 2 <= free <= 5 and case.input["player"] in (1, 2)


def test_one_set_of_helpers_for_both_games(driver):
    tree = {"value": 0, "moves": [["a", {"value": 3, "moves": []}], [4, {"value": -1, "moves": []}]]}
    for case, move in (({"game": "tree", "tree": tree, "player": 2}, "a"),
                       ({"game": "tictactoe", "board": [[2, 2, 0], [1, 1, 0], [0, 0, 0]], "player": 2}, (0, 2))):
        built = driver.build(case)
        h = driver.helpers(built, {"evaluated": [], "expanded": []})
        before = driver.snapshot(built)
        assert move in h["generate_valid_moves"](2, built.root)
        after = h["apply"](built.root, move)
        assert after is not built.root and driver.snapshot(built) == before, "apply leaves the state alone"
        assert h["is_terminal"](after) and h["evaluate"](after) in (3, 1)
        assert h["next_player"](2) == 1 and h["next_player"](1) == 2
        with pytest.raises(ValueError, match="turn"):
            h["generate_valid_moves"](1, built.root)
        with pytest.raises(ValueError, match="not a legal move"):
            h["apply"](built.root, "nowhere")
    built = driver.build({"game": "tictactoe", "board": [[0] * 3] * 3, "player": 1})
    h = driver.helpers(built, {"evaluated": [], "expanded": []})
    with pytest.raises(ValueError, match="not a legal move"):
        h["apply"](built.root, [0, 0])  # a list is not the tuple move


def test_shrinking_makes_games_smaller(best_move, bm_bank):
    size, candidates_of = best_move.hook("size"), best_move.hook("shrink_candidates")
    for case in bm_bank.group("random")[:20] + bm_bank.group("tictactoe")[:5]:
        for candidate in candidates_of(case.input):
            assert size(candidate) <= size(case.input)


# -- the samples ------------------------------------------------------------------------------

def test_every_sample_is_pinned():
    assert on_disk(SAMPLES) == set(EXPECTED)
    assert len(CORRECT) >= 4 and len(BUGGY) >= 8
    assert len({EXPECTED[k]["mistake"] for k in BUGGY}) == len(BUGGY), "each buggy sample is a different mistake"


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_gets_full_score(graded, relative):
    assert_full_score(graded(relative))


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_fails_with_a_counterexample(graded, best_move, relative):
    data = graded(relative).to_dict()
    assert data["status"] == "failed" and data["error"] is None
    first = next(c for c in data["checks"] if c["status"] == "failed")
    counterexample = first["counterexample"]
    assert counterexample is not None and counterexample["call"].startswith("best_move(")
    assert first["message"].startswith(counterexample["call"] + ": ")
    assert counterexample["tree"] == best_move.hook("picture")(counterexample["input"])
    if counterexample["input"]["game"] == "tictactoe":
        assert is_board_picture(counterexample["tree"])
    else:
        assert counterexample["tree"].startswith("root: player ")


def test_tictactoe_counterexample_is_a_board(graded):
    checks = {c.name: c for c in graded("buggy/min_max_swapped.py").checks}
    shown = checks["tictactoe-positions"].counterexample
    assert shown is not None and is_board_picture(shown.picture)
    assert "[[" not in shown.picture


def test_mutating_the_state_is_caught_even_with_right_moves(graded):
    checks = {c.name: c for c in graded("buggy/advances_turn.py").checks}
    assert all(checks[n].status == "passed" for n in ("legal-move", "hand-made-games", "random-trees", "tictactoe-positions"))
    assert checks["state-unchanged"].status == "failed" and "use apply" in checks["state-unchanged"].message


def test_returning_the_value_instead_of_the_move_is_an_illegal_move(graded):
    legal = next(c for c in graded("buggy/returns_rank.py").checks if c.name == "legal-move")
    assert legal.status == "failed" and "not a legal move" in legal.message


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_is_diagnosed_with_its_mistake(graded, relative):
    codes = [m.code for m in graded(relative).mistakes]
    assert codes and codes[0] == EXPECTED[relative]["mistake"], codes
    assert "no-known-mistake" not in codes


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_has_no_mistake(graded, relative):
    assert graded(relative).mistakes == []


def test_a_random_tie_break_is_never_a_mistake(graded):
    """Any best move is right: a submission choosing among ties at random gets full marks."""
    result = graded("correct/random_tie_break.py")
    assert result.passed and result.mistakes == []


@pytest.mark.parametrize("relative", sorted(recorded("best-move")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "best-move", relative)
