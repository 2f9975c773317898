"""aind-isolation through the doors a student and an instructor use: `check`, `grade` and the pytest plugin
(Gradescope: tests/test_gradescope_bundle.py). Same verdicts as the pinned ones of the API."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from kit_samples import table
from test_pytest_plugin import run_pytest, student_repo

SAMPLES, EXPECTED = table("aind-isolation")
CORRECT, BUGGY = "correct/textbook.py", "buggy/scores_from_active_player.py"


def grader(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def test_check_passes_a_correct_agent_and_fails_a_buggy_one_with_its_mistake():
    good = grader("check", SAMPLES / CORRECT, "--exercise", "aind-isolation", "-f", "json")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["score"] == EXPECTED[CORRECT]["score"]
    bad = grader("check", SAMPLES / BUGGY, "--exercise", "aind-isolation")
    assert bad.returncode == 1 and "scores-from-active-player" in bad.stdout
    assert "player 1 to move" in bad.stdout or "player 2 to move" in bad.stdout  # the board drawn, not an array


def test_grade_a_class_of_agents(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    names = {"ada": CORRECT, "bob": BUGGY, "cy": "buggy/returns_interrupted_depth_move.py"}
    for student, sample in names.items():
        shutil.copy(SAMPLES / sample, folder / f"{student}.py")
    done = grader("grade", folder, "--exercise", "aind-isolation", "--out", tmp_path / "out", "--seed", 26, "-j", 2)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {Path(r["id"]).stem: r for r in csv.DictReader((tmp_path / "out" / "grades.csv").open(encoding="utf-8-sig"))}
    for student, sample in names.items():
        assert float(rows[student]["score"]) == EXPECTED[sample]["score"], (student, rows[student])


def test_the_pytest_plugin_grades_game_agent_py(tmp_path):
    table_text = ('[project]\nname = "isolation"\nversion = "0"\n\n[tool.minimax-grader]\n'
                  'exercise = "aind-isolation"\nsubmission = "game_agent.py"\n')
    (tmp_path / "green").mkdir()
    (tmp_path / "red").mkdir()
    green = student_repo(tmp_path / "green", SAMPLES / CORRECT, table_text, "game_agent.py")
    run = run_pytest(green, "--junitxml", "report.xml")
    assert run.returncode == 0, run.stdout + run.stderr
    names = [c.get("name") for c in ET.parse(green / "report.xml").getroot().iter("testcase")]
    assert "iterative-deepening" in names and "alphabeta-scored" in names and len(names) == 19
    red = student_repo(tmp_path / "red", SAMPLES / BUGGY, table_text, "game_agent.py")
    run = run_pytest(red)
    assert run.returncode == 1 and "FAILED game_agent.py::minimax-scored" in run.stdout, run.stdout
