"""The pytest plugin, exercised the way a student meets it: a real ``pytest`` in a real repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORRECT = ROOT / "fixtures/submissions/ctp-26/correct/published_style.py"
BUGGY = ROOT / "fixtures/submissions/ctp-26/buggy/always_max.py"
CHECKS = ["published-cases", "fixture-trees", "random-trees", "evaluation-discipline", "tree-unchanged",
          "consistent-answers", "returns-a-number"]

TABLE = '[project]\nname = "homework"\nversion = "0"\n\n[tool.minimax-grader]\nexercise = "ctp-26"\nsubmission = "solution.py"\n'


def student_repo(tmp_path: Path, solution: Path, pyproject: str = TABLE, name: str = "solution.py") -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    shutil.copy(solution, repo / name)
    return repo


def run_pytest(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GITHUB_"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_correct_solution_is_green_with_one_item_per_check(tmp_path):
    repo = student_repo(tmp_path, CORRECT)
    run = run_pytest(repo, "--junitxml", "report.xml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "7 passed" in run.stdout
    assert "minimax-grader: grading" in run.stdout  # the header says what is being graded
    cases = list(ET.parse(repo / "report.xml").getroot().iter("testcase"))
    assert [c.get("name") for c in cases] == CHECKS
    # Each item's points by the names and in the form `check --format junit` gives each case (the 120th helper)
    said = [{p.get("name"): p.get("value") for p in c.find("properties")} for c in cases]
    assert all(s["score"] == s["max_score"] == f"{float(s['score']):g}" and float(s["score"]) > 0 for s in said), said


def test_a_buggy_solution_is_red_and_the_failure_shows_the_counterexample(tmp_path):
    repo = student_repo(tmp_path, BUGGY)
    run = run_pytest(repo, "--junitxml", "report.xml")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "3 failed, 4 skipped" in run.stdout
    assert "FAILED solution.py::published-cases" in run.stdout
    # The grader's feedback is the failure text: the call, the smallest tree, expected vs yours.
    # The failing published case is shown as itself: the exercise's tree, not a shrunk one.
    assert "A tree on which it goes wrong, \"the exercise's tree (values by name: X 2, Y 7, Z 5, W 10, V 8)\", " \
           "minimax(root, 2, True)" in run.stdout  # the hand-made tree's title from its fixture file
    assert "├── Move W [value 10, A to move]" in run.stdout
    assert "expected: 7    yours: 10" in run.stdout
    # A check whose prerequisites failed is a pytest skip, with the grader's reason.
    assert "SKIPPED" in run.stdout and "counts only once published-cases, fixture-trees pass" in run.stdout
    skipped = [line for line in run.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("solution.py" in line and "pytest_plugin.py" not in line and "skipped: " not in line
                           for line in skipped), skipped  # said once, at the student's file (the 120th helper)
    root = ET.parse(repo / "report.xml").getroot()
    failures = {c.get("name"): c.find("failure") for c in root.iter("testcase")}
    assert failures["published-cases"] is not None and "yours: 1" in failures["published-cases"].get("message", "") + (failures["published-cases"].text or "")
    assert failures["tree-unchanged"] is None


def test_k_and_x_and_q_behave_as_usual(tmp_path):
    repo = student_repo(tmp_path, BUGGY)
    picked = run_pytest(repo, "-k", "random", "-q")
    assert picked.returncode == 1
    assert "1 failed, 6 deselected" in picked.stdout
    assert "FAILED solution.py::random-trees" in picked.stdout
    first = run_pytest(repo, "-x")
    assert first.returncode == 1
    assert "1 failed" in first.stdout and "stopping after 1 failures" in first.stdout


def test_command_line_options_override_the_table(tmp_path):
    repo = student_repo(tmp_path, CORRECT)
    shutil.copy(BUGGY, repo / "other.py")
    run = run_pytest(repo, "--minimax-submission", "other.py", "--minimax-examples", "20")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAILED other.py::published-cases" in run.stdout
    unknown = run_pytest(repo, "--minimax-exercise", "no-such-exercise")
    assert unknown.returncode == 4  # a usage error, not a test failure
    assert "no-such-exercise" in unknown.stdout + unknown.stderr


def test_without_a_table_or_option_the_plugin_is_inert(tmp_path):
    repo = tmp_path / "plain"
    repo.mkdir()
    (repo / "pyproject.toml").write_text('[project]\nname = "plain"\nversion = "0"\n', encoding="utf-8")
    shutil.copy(BUGGY, repo / "solution.py")
    (repo / "test_plain.py").write_text(
        "import sys\n\n"
        "def test_no_grader_was_loaded():\n"
        "    loaded = sorted(m for m in sys.modules if m.startswith('grader.') and m not in ('grader.doors', 'grader.doors.pytest_plugin', 'grader.version'))\n"
        "    assert loaded == []\n", encoding="utf-8")
    run = run_pytest(repo)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "minimax-grader-" in run.stdout  # registered through the pytest11 entry point...
    assert "1 passed" in run.stdout  # ...but it collected nothing and imported nothing of the grader


def test_the_student_file_is_never_imported_by_pytest(tmp_path):
    # Named like a test module and named on the command line: pytest's own collector would
    # import it; the plugin must keep it out, so that student code only runs in the sandbox.
    hostile = tmp_path / "test_solution.py"
    hostile.write_text("import sys\nif '_pytest' in sys.modules:\n    raise SystemExit('imported inside pytest')\n"
                       + CORRECT.read_text(encoding="utf-8"), encoding="utf-8")
    repo = student_repo(tmp_path, hostile, TABLE.replace('"solution.py"', '"test_solution.py"'), name="test_solution.py")
    run = run_pytest(repo, "test_solution.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "7 passed" in run.stdout


def test_the_submission_is_collected_even_when_testpaths_point_elsewhere(tmp_path):
    repo = student_repo(tmp_path, CORRECT, TABLE + '\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    (repo / "tests").mkdir()
    (repo / "tests/test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    run = run_pytest(repo)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "8 passed" in run.stdout
    only_mine = run_pytest(repo, "tests/test_mine.py")
    assert "1 passed" in only_mine.stdout  # naming tests explicitly runs just those


@pytest.mark.parametrize("missing", ["ghost.py"])
def test_a_missing_submission_is_a_usage_error(tmp_path, missing):
    repo = student_repo(tmp_path, CORRECT, TABLE.replace("solution.py", missing))
    run = run_pytest(repo)
    assert run.returncode == 4
    assert "ghost.py does not exist" in run.stderr


@pytest.mark.parametrize("table, said", [
    ('sandbox = "bogus"', "sandbox should be one of auto, bwrap, posix, spawn, not 'bogus'"),
    ("typo_key = 1", "unknown key(s) typo_key"),
    ('examples = "many"', "examples should be a whole number, not 'many'"),
])
def test_a_table_that_says_something_impossible_is_one_usage_error(tmp_path, table, said):
    """The 120th helper: ``sandbox = "bogus"`` failed every item with 23,055 lines of one traceback, a typo'd key was
    silently no setting, and "examples should be a int". One usage line each (exit 4), before anything is graded."""
    repo = student_repo(tmp_path, CORRECT, TABLE + table + "\n")
    run = run_pytest(repo)
    assert run.returncode == 4, run.stdout[-2000:]
    assert said in run.stderr and "Traceback" not in run.stderr + run.stdout
    assert len(run.stdout.splitlines()) < 5


def test_the_table_spelled_with_an_underscore_is_said_and_bwrap_can_be_asked_for(tmp_path):
    repo = student_repo(tmp_path, CORRECT, TABLE.replace("tool.minimax-grader", "tool.minimax_grader"))
    run = run_pytest(repo)
    assert run.returncode == 4 and "the table is [tool.minimax-grader], with a hyphen" in run.stderr
    help_text = run_pytest(repo.parent, "--help").stdout
    assert "{auto,bwrap,posix,spawn}" in help_text


def test_a_folder_s_items_hang_off_the_file_the_judge_grades(tmp_path):
    """The 122nd helper: the items hung off ``load``'s pick by file name (``main.py``) while the judge grades the
    file that defines the function (``search.py``)."""
    repo = tmp_path / "repo"
    (repo / "hw").mkdir(parents=True)
    (repo / "pyproject.toml").write_text(TABLE.replace('submission = "solution.py"', 'submission = "hw"'),
                                         encoding="utf-8")
    (repo / "hw" / "main.py").write_text("print('my experiments')\n", encoding="utf-8")
    shutil.copy(CORRECT, repo / "hw" / "search.py")
    run = run_pytest(repo)
    assert run.returncode == 0, run.stdout[-3000:]
    assert "PASSED hw/search.py::published-cases" in run.stdout


def test_without_a_submission_the_repository_is_graded_as_check_grades_it(tmp_path):
    """The 125th helper: with only ``exercise`` in the table the plugin said "which file should be graded?", where
    ``check`` and init-ci's workflow grade the repository's folder. The plugin reads it by the same rule now: here
    the code in ``src/`` (never ``tests/``), the file that holds the exercise's function."""
    repo = student_repo(tmp_path, CORRECT, TABLE.replace('submission = "solution.py"\n', ""), name="README.md")
    (repo / "src").mkdir()
    shutil.copy(CORRECT, repo / "src" / "homework.py")
    (repo / "src" / "helpers.py").write_text("def unused():\n    return 1\n", encoding="utf-8")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    run = run_pytest(repo)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert "8 passed" in run.stdout and "the folder of" in run.stdout
    assert "PASSED src/homework.py::published-cases" in run.stdout
    (tmp_path / "b").mkdir()
    broken = student_repo(tmp_path / "b", BUGGY, TABLE.replace('submission = "solution.py"\n', ""), name="mine.py")
    assert run_pytest(broken).returncode == 1


def test_a_folder_with_nothing_to_grade_is_a_usage_error_and_a_parent_project_is_not_the_student_s(tmp_path):
    """The 126th helper: with only ``exercise`` in the table and no code the grader can read, nothing was collected
    and nothing said (a student's own tests made the run green); with ``--minimax-exercise`` and no table, the folder
    of an unrelated ``pyproject.toml`` above was graded. One usage line; the folder pytest runs in."""
    empty = tmp_path / "empty"
    (empty / "tests").mkdir(parents=True)
    (empty / "pyproject.toml").write_text(TABLE.replace('submission = "solution.py"\n', ""), encoding="utf-8")
    (empty / "tests" / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    run = run_pytest(empty)
    assert run.returncode == 4 and "nothing to grade in" in run.stderr, run.stdout[-2000:] + run.stderr
    above = tmp_path / "above"
    (above / "sub").mkdir(parents=True)
    (above / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "0"\n', encoding="utf-8")
    shutil.copy(BUGGY, above / "not_mine.py")
    shutil.copy(CORRECT, above / "sub" / "solution.py")
    run = run_pytest(above / "sub", "--minimax-exercise", "ctp-26")
    assert run.returncode == 0 and "the folder pytest runs in" in run.stdout, run.stdout[-2000:]
    assert "not_mine.py" not in run.stdout and "7 passed" in run.stdout
