"""`grade` refuses what is not a class, before touching the output folder."""

from __future__ import annotations

import subprocess
import sys


def grade(*args):
    return subprocess.run([sys.executable, "-m", "grader", "grade", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def test_a_folder_with_no_submission_is_a_usage_error(tmp_path):
    (tmp_path / "class").mkdir()
    result = grade(tmp_path / "class", "--exercise", "ctp-26", "--out", tmp_path / "out")
    assert result.returncode == 2 and "found no submissions" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_exercise_leaves_no_output_folder(tmp_path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    result = grade(tmp_path / "class", "--exercise", "nope", "--out", tmp_path / "out")
    assert result.returncode == 2 and "unknown exercise" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_seed_the_gradebook_cannot_hold_is_a_usage_error(tmp_path):
    result = grade(tmp_path, "--exercise", "ctp-26", "--out", tmp_path / "out", "--seed", str(2**70))
    assert result.returncode == 2 and "Traceback" not in result.stderr
