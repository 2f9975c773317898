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


def test_examples_sets_the_random_cases_of_a_class_like_check(tmp_path):
    """`grade --examples N` asks each submission about N random trees, as `check --examples N` does."""
    import json

    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text(
        "def minimax(node, max_depth, player_a_moves):\n"
        "    kids = get_next_valid_moves(node)\n"
        "    if max_depth == 0 or not kids:\n"
        "        return get_value(node)\n"
        "    values = [minimax(c, max_depth - 1, not player_a_moves) for c in kids]\n"
        "    return max(values) if player_a_moves else min(values)\n")
    result = grade(tmp_path / "class", "--exercise", "ctp-26", "--out", tmp_path / "out", "--seed", "7",
                   "--examples", "12")
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    (alice,) = data["submissions"]
    assert alice["examples"] == 12 and alice["status"] == "passed"
    assert next(c for c in alice["checks"] if c["name"] == "random-trees")["total_cases"] == 12
