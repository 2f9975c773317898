"""aima-isolation: the reference against hand-checked facts, and every sample's verdict.

Samples are single files and folders of the mini-project's modules; the folders hand in some
parts only, so these tests also pin which parts were graded and which the grader supplied,
and that checks of a supplied part cost nothing and earn nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from samples import assert_as_recorded, grader_of, on_disk, pinned, recorded

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "aima-isolation"
KNOWN = json.loads((ROOT / "fixtures" / "isolation" / "known.json").read_text(encoding="utf-8"))
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)
PARTS = ["gamestate", "minimax_helpers", "minimax"]


@pytest.fixture(scope="module")
def isolation():
    from grader.judging import exercise

    return exercise.load("aima-isolation")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "aima-isolation")


def test_reference_agrees_with_the_hand_checked_facts(isolation):
    """The game's rules (isolation.py) and the kit's minimax over them, against the facts checked by hand."""
    hooks = isolation.hooks
    rules = hooks.game()[0]
    assert len(hooks.reachable()) == KNOWN["reachable_positions"]
    assert hooks.reference({"kind": "published", "moves": []}) == KNOWN["min_value_empty_board"]
    assert hooks.reference({"kind": "decision", "moves": []}) == [tuple(m) for m in KNOWN["winning_first_moves"]]
    for position in KNOWN["positions"]:
        state = hooks.position(position["moves"])
        assert sorted(rules.actions(state)) == [tuple(m) for m in position["legal"]], position
        assert state.to_move + 1 == position["to_move"]


def test_the_bank_asks_every_part_about_every_reachable_position(isolation):
    from grader.judging import bank

    cases = bank.build(isolation, use_cache=False).cases
    by_group = {}
    for case in cases:
        by_group.setdefault(case.group, []).append(case)
    for group in ("rules", "forecast", "terminal", "min", "max"):
        assert len(by_group[group]) == 155
    assert len(by_group["decision"]) == 121  # the non-terminal positions
    assert len(by_group["published"]) == 1
    assert len({c.id for c in cases}) == len(cases)


def test_the_first_legal_move_is_right_on_the_empty_board_only_by_luck(isolation):
    """Why the decision is graded everywhere: the stand-in's first move from the empty board wins."""
    hooks = isolation.hooks
    assert hooks.game()[0].actions(hooks.position([]))[0] in hooks.reference({"kind": "decision", "moves": []})


def test_picture_draws_a_board(isolation):
    text = isolation.hook("picture")({"kind": "rules", "moves": [[0, 0], [1, 1]]})
    assert text.splitlines()[1:3] == ["y=0   1    .    . ", "y=1   .    2    # "]
    assert "player 1 to move" in text


def test_every_sample_is_pinned():
    assert on_disk(SAMPLES, folders_too=True) == set(EXPECTED)
    assert len(CORRECT) >= 4 and len(BUGGY) >= 8
    assert len({EXPECTED[k]["mistake"] for k in BUGGY}) >= 8  # a multi-file sample may repeat a mistake


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_sample_gets_full_score(graded, relative):
    result = graded(relative)
    assert result.error is None
    assert result.status == "passed", [(c.name, c.status, c.message) for c in result.checks]
    supplied = EXPECTED[relative].get("supplied", [])
    assert result.parts == {"graded": [p for p in PARTS if p not in supplied], "supplied": supplied}
    assert result.score == result.max_score == (10.0 if not supplied else result.max_score)
    assert result.max_score <= 10.0


@pytest.mark.parametrize("relative", BUGGY)
def test_buggy_sample_fails_exactly_the_pinned_checks(graded, relative):
    result = graded(relative)
    expected = EXPECTED[relative]
    assert result.status == expected["status"]
    if expected["status"] == "error":
        assert expected["error"] in result.error
        return
    assert result.error is None
    failed = sorted(c.name for c in result.checks if c.status == "failed")
    assert failed == sorted(expected["fails"]), [(c.name, c.message) for c in result.checks]
    assert result.parts["supplied"] == expected.get("supplied", [])
    codes = [m.code for m in result.mistakes]
    assert codes == [expected["mistake"]]  # named, and nothing it does not do


def test_first_legal_move_fails_with_a_board_and_the_best_moves(graded):
    check = next(c for c in graded("buggy/first_legal_move.py").checks if c.name == "best-decision")
    assert check.status == "failed" and "not a best move" in check.message
    picture = check.counterexample.picture
    assert "y=0" in picture and "y=1" in picture and "#" in picture
    assert check.counterexample.noun == "position"


def test_supplied_parts_are_skipped_and_leave_the_maximum(graded):
    result = graded("correct/helpers_only")
    by_name = {c.name: c for c in result.checks}
    for name in ("legal-moves", "moves-are-a-list", "forecast-is-pure", "best-decision"):
        assert by_name[name].status == "skipped" and by_name[name].max_score == 0
        assert "supplied" in by_name[name].message
    assert result.max_score == 4.0 == result.score


def test_single_file_and_three_files_grade_alike(graded):
    one = graded("correct/one_file_textbook.py")
    three = graded("correct/three_files")
    assert [(c.name, c.status, c.score) for c in one.checks] == [(c.name, c.status, c.score) for c in three.checks]


def test_report_and_json_say_which_parts_were_supplied(tmp_path):
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(SAMPLES / "correct" / "only_gamestate")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "parts graded: gamestate; supplied by the grader (not graded): minimax_helpers, minimax" in done.stdout
    done = subprocess.run([sys.executable, "-m", "grader", "check", "-f", "json", "-e", "aima-isolation",
                           str(SAMPLES / "correct" / "only_gamestate")], capture_output=True, text=True, timeout=120)
    data = json.loads(done.stdout)
    assert data["parts"] == {"graded": ["gamestate"], "supplied": ["minimax_helpers", "minimax"]}


def test_exercises_lists_all_five():
    done = subprocess.run([sys.executable, "-m", "grader", "exercises"], capture_output=True, text=True, timeout=60)
    ids = {line.split()[0] for line in done.stdout.splitlines()}
    assert {"ctp-26", "aima-isolation", "tictactoe", "best-move", "alphabeta"} <= ids


def test_a_folder_with_no_part_is_an_error(tmp_path):
    from grader.doors import api

    (tmp_path / "notes.py").write_text("x = 1\n", encoding="utf-8")
    result = api.check(tmp_path, "aima-isolation")
    assert result.status == "error" and "none of the parts" in result.error


@pytest.mark.parametrize("relative", sorted(recorded("aima-isolation")))
def test_sample_verdict_and_score_as_recorded_before_the_kit(graded, relative):
    """Rebuilding the exercises on the kit moved no sample's status or score (the table predates it)."""
    assert_as_recorded(graded(relative), "aima-isolation", relative)


TEXTBOOK = (SAMPLES / "correct" / "one_file_textbook.py").read_text(encoding="utf-8")
FEWEST_REPLIES = ("def minimax_decision(gameState):\n    return min(gameState.get_legal_moves(),\n"
                  "               key=lambda m: len(gameState.forecast_move(m).get_legal_moves()))\n")


@pytest.mark.parametrize("changes, code, failing", [
    # A piece not placed yet stands on (1, 0) and moves from there (a parameter: the cell).
    ([("        loc = self._player_locations[self._parity]\n",
       "        loc = self._player_locations[self._parity] or (1, 0)\n")], "no-free-first-move", "legal-moves"),
    # Only the game's first move is free: the second player, not placed yet, has no move.
    ([("            return self._get_blank_spaces()\n",
       "            return self._get_blank_spaces() if self._player_locations == [None, None] else []\n")],
     "no-free-first-move", "legal-moves"),
    # The right moves, in a set.
    ([("            return self._get_blank_spaces()\n", "            return set(self._get_blank_spaces())\n"),
      ("        return moves\n", "        return set(moves)\n")], "wrong-return-type", "legal-moves"),
    # The move that leaves the opponent the fewest replies, not the best one.
    ([(TEXTBOOK[TEXTBOOK.index("def minimax_decision"):], FEWEST_REPLIES)], "suboptimal-move", "best-decision"),
])
def test_rules_and_decisions_wrong_in_another_way_are_named(tmp_path, changes, code, failing):
    from grader.doors import api

    source = TEXTBOOK
    for old, new in changes:
        assert source.count(old) == 1
        source = source.replace(old, new)
    sample = tmp_path / "variant.py"
    sample.write_text(source, encoding="utf-8")
    result = api.check(sample, "aima-isolation")
    assert failing in {c.name for c in result.checks if c.status == "failed"}
    assert [m.code for m in result.mistakes] == [code], [(m.code, m.evidence) for m in result.mistakes]
