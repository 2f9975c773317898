"""The tic-tac-toe exercise: its reference, its bank, and the verdict of every sample submission.

Samples are graded once each through ``grader.doors.api.check`` (the door every other door uses);
correct ones in many styles must get full marks, buggy ones must fail with a counterexample
drawn as a 3x3 board, not as nested lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import assert_as_recorded, assert_full_score, grader_of, on_disk, pinned, recorded

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "tictactoe"
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)


@pytest.fixture(scope="module")
def tictactoe():
    from grader.judging import exercise

    return exercise.load("tictactoe")


@pytest.fixture(scope="module")
def ttt_bank(tictactoe):
    from grader.judging import bank

    return bank.build(tictactoe)


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "tictactoe")


def is_board_picture(picture: str) -> bool:
    """Three rows of three cells separated by bars, with ruled lines between them."""
    lines = picture.splitlines()
    rows = [line for line in lines if line.count(" | ") == 2]
    return len(rows) == 3 and sum("---+---+---" in line for line in lines) == 2 and "[[" not in picture


# -- the reference and the bank -------------------------------------------------------------

def _input(board, player):
    return {"state": [board, player], "depth": sum(v == 0 for row in board for v in row)}


def test_reference_agrees_with_every_hand_made_position(tictactoe, ttt_bank):
    import json

    fixtures = ttt_bank.group("fixtures")
    assert len(fixtures) >= 10
    written = {f"hand-made/{item['name']}": item for item in json.loads(
        (tictactoe.folder / "positions" / "hand-made.json").read_text(encoding="utf-8"))["positions"]}
    assert set(written) == {case.id for case in fixtures}
    for case in fixtures:
        assert tictactoe.hook("reference")(case.input) == {"value": case.known, "moves": written[case.id]["moves"]}, case.id


def test_reference_knows_the_published_facts(tictactoe):
    hooks = tictactoe.hooks
    game, reference = hooks.game, hooks.reference
    empty = [[0] * 3] * 3
    assert reference(_input(empty, 1))["value"] == 0 and reference(_input(empty, -1))["value"] == 0  # perfect play draws
    # Legal play with X (here MAX) always starting reaches 5478 distinct boards, a well-known count.
    seen, frontier = set(), [game.decode([empty, 1])]
    while frontier:
        state = frontier.pop()
        if state[0] in seen:
            continue
        seen.add(state[0])
        if not game.is_terminal(state):
            frontier.extend(game.result(state, a) for a in game.actions(state))
    assert len(seen) == 5478
    win = _input([[1, 1, 0], [-1, -1, 0], [0, 0, 0]], 1)
    assert hooks.show_expected(win, reference(win)) == "[0, 2, 1]"
    over = _input([[1, 1, 1], [-1, -1, 0], [0, 0, 0]], -1)
    assert hooks.show_expected(over, reference(over)) == "[-1, -1, 1]"


def test_bank_covers_finished_and_endgame_positions_with_both_players(tictactoe, ttt_bank):
    finished, endgame, random_ = ttt_bank.group("finished"), ttt_bank.group("endgame"), ttt_bank.group("random")
    assert len(finished) == 479  # one in four of the 1916 finished positions
    assert len(endgame) == 1836  # every unfinished position with one or two free cells, each side to move
    assert {c.input["state"][1] for c in endgame} == {1, -1}
    assert len(random_) == tictactoe.random_examples
    game = tictactoe.hooks.game
    for case in endgame + random_:
        board, player = case.input["state"]
        marks = sum(v == 1 for row in board for v in row) - sum(v == -1 for row in board for v in row)
        assert marks in (-1, 0, 1) and (marks == 0 or player == -marks)
        assert case.input["depth"] == sum(v == 0 for row in board for v in row)  # the depth is the free cells
    assert all(game.is_terminal(game.decode(c.input["state"])) for c in finished)


def test_shrinking_moves_towards_fewer_free_cells(tictactoe):
    case = _input([[1, 0, 0], [0, -1, 0], [0, 0, 1]], -1)
    size = tictactoe.hook("size")
    candidates = tictactoe.hook("shrink_candidates")(case)
    assert len(candidates) == 6 and all(size(c) < size(case) for c in candidates)
    assert all(c["depth"] == 5 for c in candidates)  # one move on, one free cell fewer: never a depth cut short


def test_picture_is_a_board_with_whose_turn(tictactoe):
    picture = tictactoe.hook("picture")(_input([[1, -1, 0], [0, 1, 0], [0, 0, -1]], 1))
    assert is_board_picture(picture)
    assert "X | O | ." in picture and "X (MAX, +1) to move" in picture


# -- the samples ----------------------------------------------------------------------------

def test_every_sample_is_pinned():
    assert on_disk(SAMPLES) == set(EXPECTED)
    assert len(CORRECT) >= 4 and len(BUGGY) >= 8
    assert len({EXPECTED[k]["mistake"] for k in BUGGY}) == len(BUGGY), "each buggy sample is a different mistake"


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_gets_full_score(graded, relative):
    assert_full_score(graded(relative))


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_fails_with_a_board_as_counterexample(graded, tictactoe, relative):
    data = graded(relative).to_dict()
    assert data["status"] == "failed" and data["error"] is None
    first = next(c for c in data["checks"] if c["status"] == "failed")
    counterexample = first["counterexample"]
    assert counterexample is not None
    assert counterexample["call"].startswith("minimax(board, ")
    assert first["message"].startswith(counterexample["call"] + ": ")
    assert is_board_picture(counterexample["tree"]), counterexample["tree"]
    assert counterexample["tree"] == tictactoe.hook("picture")(counterexample["input"])


def test_ties_are_never_decided_for_the_student(graded):
    """Two samples with opposite tie-breaks (first and last best move) both pass."""
    assert graded("correct/published_style.py").passed and graded("correct/last_best_move.py").passed


def test_wrong_move_with_right_score_fails_only_the_move_checks(graded):
    checks = {c.name: c for c in graded("buggy/move_updated_always.py").checks}
    assert checks["scores"].status == "passed"
    assert checks["optimal-moves"].status == "failed"
    assert "not an optimal move" in checks["optimal-moves"].message or "already taken" in checks["optimal-moves"].message


def test_a_bare_score_on_a_finished_game_is_reported_as_such(graded):
    checks = {c.name: c for c in graded("buggy/returns_bare_score.py").checks}
    finished = checks["finished-games"]
    assert finished.status == "failed"
    assert "must return a list [row, col, score]" in finished.message or "raised" in finished.message


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_is_diagnosed_with_its_mistake(graded, relative):
    codes = [m.code for m in graded(relative).mistakes]
    assert codes and codes[0] == EXPECTED[relative]["mistake"], codes
    assert "no-known-mistake" not in codes


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_has_no_mistake(graded, relative):
    assert graded(relative).mistakes == []


def test_check_tells_tictactoe_from_ctp26_by_the_helpers_used(tmp_path):
    """Both entry points are called minimax with three parameters; the helpers a file calls decide."""
    from grader.doors.cli import guess_exercise

    board_style = tmp_path / "mine.py"
    board_style.write_text("def minimax(board, d, who):\n    return [-1, -1, evaluate(board)] if not empty_cells(board) else None\n")
    tree_style = tmp_path / "theirs.py"
    tree_style.write_text("def minimax(n, d, a):\n    return get_value(n)\n")
    assert guess_exercise(board_style, []) == "tictactoe"
    assert guess_exercise(tree_style, []) == "ctp-26"


@pytest.mark.parametrize("relative", sorted(recorded("tictactoe")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "tictactoe", relative)


def test_mistakes_are_explained_in_the_games_words(graded):
    """``[mistake_texts]`` in exercise.toml: the kit's families name the mistake, the exercise words it."""
    mistake = graded("buggy/min_max_swapped.py").mistakes[0]
    assert mistake.code == "min-max-swapped" and "the computer (+1)" in mistake.explanation
    assert "board" in graded("buggy/board_not_restored.py").mistakes[0].explanation
