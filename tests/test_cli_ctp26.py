"""The command line as a student and a script meet it, run as a real subprocess.

Exit codes, the JSON contract, reproducibility by seed, the report formats, colour only on
a terminal, ``python -m grader``, a clean working folder, and the portable sandbox fallback.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "ctp-26"
CORRECT = SAMPLES / "correct" / "negamax.py"
BUGGY = SAMPLES / "buggy" / "always_max.py"
EMPTY = ROOT / "fixtures" / "submissions" / "bad" / "empty.py"

CONTRACT_KEYS = ["submission", "exercise", "status", "score", "max_score", "checks", "mistakes", "error"]
CHECK_KEYS = ["name", "status", "score", "max_score", "message", "counterexample"]
ANSI = "\x1b["


def _script() -> str:
    beside = Path(sys.executable).with_name("minimax-grader")
    found = str(beside) if beside.exists() else shutil.which("minimax-grader")
    assert found, "the minimax-grader console script is not installed next to this Python"
    return found


def run(*args, env_extra=None, cwd=None, module=False):
    command = [sys.executable, "-m", "grader"] if module else [_script()]
    if args[:1] == ("check",):  # name the exercise (a later --exercise wins); guessing has its own test
        args = ("check", "--exercise", "ctp-26") + args[1:]
    # The default sandbox unless a test forces one: an outer MINIMAX_GRADER_SANDBOX must not leak in.
    env = {k: v for k, v in os.environ.items() if k != "MINIMAX_GRADER_SANDBOX"} | (env_extra or {})
    return subprocess.run(command + [str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=180)


def without_timing(text: str) -> str:
    stripped, count = re.subn(r',\n  "duration_seconds": [0-9.eE+-]+', "", text)
    assert count == 1, "duration_seconds should appear exactly once, as the last key"
    return stripped


# -- exit codes ----------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "code"), [
    ((CORRECT,), 0),
    ((BUGGY,), 1),
    ((EMPTY,), 1),
    ((CORRECT, "--exercise", "no-such-exercise"), 2),
    ((CORRECT, "--format", "xml"), 2),
    ((CORRECT, "--seed", "many"), 2),
    ((CORRECT, "--examples", "-1"), 2),
    ((CORRECT, "--no-such-option"), 2),
    ((), 2),
], ids=["full-score", "not-full", "error", "unknown-exercise", "bad-format", "bad-seed", "bad-examples",
        "unknown-option", "no-path"])
def test_exit_codes(args, code):
    result = run("check", *args)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    if code == 2:
        assert "Usage:" in result.stderr or "Error:" in result.stderr


# -- JSON ----------------------------------------------------------------------------------

def test_exercise_is_guessed_from_the_file():
    result = subprocess.run([_script(), "check", str(BUGGY), "--format", "json"], capture_output=True, text=True,
                            timeout=180)
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["exercise"] == "ctp-26"


def test_json_follows_the_contract():
    result = run("check", BUGGY, "--format", "json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert list(data)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert data["submission"] == str(BUGGY) and data["exercise"] == "ctp-26"
    assert data["status"] in ("passed", "failed", "error") and data["status"] == "failed"
    assert type(data["score"]) is float and type(data["max_score"]) is float and data["max_score"] == 10.0
    assert data["error"] is None
    assert isinstance(data["mistakes"], list)
    for mistake in data["mistakes"]:
        assert {"code", "explanation"} <= set(mistake)
    assert len(data["checks"]) == 7
    for check in data["checks"]:
        assert set(CHECK_KEYS) <= set(check)
        assert check["status"] in ("passed", "failed", "error", "skipped")
        assert check["counterexample"] is None or {"call", "tree", "expected", "actual"} <= set(check["counterexample"])
    assert sum(c["score"] for c in data["checks"]) == data["score"]
    assert sum(c["max_score"] for c in data["checks"]) == data["max_score"]


def test_same_seed_gives_byte_identical_json(tmp_path):
    """Two runs, each building its case bank with hypothesis from nothing, and a third from the cache."""
    outputs = []
    for name in ("first", "second", "second"):
        result = run("check", BUGGY, "--format", "json", "--seed", "7",
                     env_extra={"MINIMAX_GRADER_CACHE": str(tmp_path / name)})
        assert result.returncode == 1
        outputs.append(without_timing(result.stdout))
    assert outputs[0] == outputs[1] == outputs[2]


def test_different_seed_gives_different_random_cases(tmp_path):
    from grader.judging import bank, exercise

    ex = exercise.load("ctp-26")
    one, two = (bank.build(ex, seed=s, examples=30, use_cache=False) for s in (1, 2))
    assert [c.input for c in one.group("published")] == [c.input for c in two.group("published")]
    assert [c.input for c in one.group("fixtures")] == [c.input for c in two.group("fixtures")]
    key = lambda case: json.dumps(case.input, sort_keys=True)  # noqa: E731
    random_one, random_two = {key(c) for c in one.group("random")}, {key(c) for c in two.group("random")}
    assert len(random_one) == len(random_two) == 30
    assert len(random_one & random_two) < 5

    # ... and the grader sees them: the share of random trees always-max gets wrong changes.
    def random_check(seed):
        data = json.loads(run("check", BUGGY, "--format", "json", "--seed", seed).stdout)
        assert data["seed"] == int(seed)
        return next(c for c in data["checks"] if c["name"] == "random-trees")

    first, second = random_check("1"), random_check("2")
    assert first["total_cases"] == second["total_cases"] == 200
    assert first["failed_cases"] != second["failed_cases"]


def test_examples_zero():
    result = run("check", CORRECT, "--examples", "0", "--format", "json")
    assert result.returncode == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["examples"] == 0 and data["status"] == "passed"
    random_trees = next(c for c in data["checks"] if c["name"] == "random-trees")
    # Nothing was asked, so nothing is awarded: the check is not graded and leaves the maximum.
    assert random_trees["status"] == "skipped" and random_trees["score"] == random_trees["max_score"] == 0
    assert "not graded" in random_trees["message"]
    assert data["max_score"] == 7.0 and data["score"] == 7.0
    assert run("check", BUGGY, "--examples", "0").returncode == 1


def test_examples_sets_the_number_of_random_trees():
    data = json.loads(run("check", CORRECT, "--examples", "25", "--format", "json").stdout)
    assert next(c for c in data["checks"] if c["name"] == "random-trees")["total_cases"] == 25


# -- text, Markdown and HTML ---------------------------------------------------------------

def test_text_has_no_colour_when_not_a_terminal():
    result = run("check", BUGGY)
    assert result.returncode == 1
    assert ANSI not in result.stdout and ANSI not in result.stderr
    assert "FAILED" in result.stdout and "expected: " in result.stdout and "root: " in result.stdout


def _run_on_terminal(*args, env_extra=None) -> str:
    import pty

    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | (env_extra or {})
    process = subprocess.Popen([_script(), *map(str, args)], stdout=secondary, stderr=subprocess.PIPE, env=env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    process.stderr.close()
    os.close(primary)
    return b"".join(chunks).decode("utf-8", errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX only")
def test_text_has_colour_on_a_terminal_unless_no_color():
    assert ANSI in _run_on_terminal("check", CORRECT)
    assert ANSI not in _run_on_terminal("check", CORRECT, env_extra={"NO_COLOR": "1"})


def test_markdown_report():
    result = run("check", BUGGY, "--format", "md")
    assert result.returncode == 1
    text = result.stdout
    assert text.lstrip().startswith("#") and "| result | check |" in text
    assert "published-cases" in text and "minimax(root, " in text and ANSI not in text


def test_html_report_is_self_contained():
    result = run("check", BUGGY, "--format", "html")
    assert result.returncode == 1
    page = result.stdout
    assert page.lstrip().lower().startswith("<!doctype html") and page.rstrip().endswith("</html>")
    assert "<style" in page
    assert not re.search(r'<(link|script)[^>]*(href|src)=|src="https?:|url\(', page), "no outside resources"
    assert "published-cases" in page and "minimax(root, " in page and ANSI not in page


def test_output_option_writes_the_report_to_a_file(tmp_path):
    target = tmp_path / "report.md"
    result = run("check", CORRECT, "--format", "md", "--output", target)
    assert result.returncode == 0 and result.stdout == ""
    assert "score" in target.read_text(encoding="utf-8")


# -- other doors -----------------------------------------------------------------------------

def test_exercises_lists_ctp26_on_one_line():
    result = run("exercises")
    assert result.returncode == 0
    lines = [line for line in result.stdout.splitlines() if line.split()[:1] == ["ctp-26"]]
    assert len(lines) == 1
    assert "minimax" in lines[0]


def test_python_m_grader_is_the_same_command():
    assert run("exercises", module=True).stdout == run("exercises").stdout
    by_module = run("check", BUGGY, "--format", "json", module=True)
    by_script = run("check", BUGGY, "--format", "json")
    assert by_module.returncode == by_script.returncode == 1
    assert without_timing(by_module.stdout) == without_timing(by_script.stdout)
    assert run("--help", module=True).returncode == 0


def test_check_leaves_the_working_folder_empty(tmp_path):
    cwd = tmp_path / "student"
    cwd.mkdir()
    cache = tmp_path / "fresh-cache"
    result = run("check", CORRECT, "--seed", "12345", cwd=cwd, env_extra={"MINIMAX_GRADER_CACHE": str(cache)})
    assert result.returncode == 0, result.stdout
    assert list(cwd.iterdir()) == []
    # The bank really was built by hypothesis in this run, and went to the cache instead.
    assert list((cache / "banks").glob("ctp-26-*-s12345-n200.json"))


# -- the portable sandbox ------------------------------------------------------------------

def _verdicts(data: dict) -> list:
    return [data["status"], data["score"], data["error"]] + [
        (c["name"], c["status"], c["score"], c["message"]) for c in data["checks"]]


@pytest.mark.parametrize("sample", [CORRECT, BUGGY, SAMPLES / "buggy" / "mutates_tree.py"], ids=lambda p: p.stem)
def test_spawn_sandbox_gives_the_same_verdicts_with_a_warning(sample):
    default = run("check", sample, "--format", "json")
    spawn = run("check", sample, "--format", "json", env_extra={"MINIMAX_GRADER_SANDBOX": "spawn"})
    assert default.returncode == spawn.returncode
    default_data, spawn_data = json.loads(default.stdout), json.loads(spawn.stdout)
    assert _verdicts(spawn_data) == _verdicts(default_data)
    assert spawn_data["sandbox"]["mode"] == "spawn"
    warning = spawn_data["sandbox"]["warning"]
    assert warning and "\n" not in warning

    text = run("check", sample, env_extra={"MINIMAX_GRADER_SANDBOX": "spawn"}).stdout
    assert f"WARNING: {warning}" in text


@pytest.mark.parametrize("fmt", ["text", "json", "md"])
def test_an_unreadable_file_without_exercise_reports_its_own_problem(tmp_path, fmt):
    """No exercise can be guessed from a broken file, but the student must read what is broken."""
    broken = tmp_path / "solution.py"
    broken.write_text("def minimax(node, max_depth:\n", encoding="utf-8")
    command = [_script(), "check", str(broken), "--format", fmt]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "syntax error in solution.py, line 1" in result.stdout
    assert "cannot tell which exercise" not in result.stdout + result.stderr
    if fmt == "json":
        data = json.loads(result.stdout)
        assert data["status"] == "error" and data["score"] == 0


def test_a_file_saved_with_a_byte_order_mark_is_graded(tmp_path):
    """Editors on Windows save UTF-8 with a BOM; Python runs such files, so the grader does too."""
    solution = tmp_path / "solution.py"
    solution.write_bytes(b"\xef\xbb\xbf" + CORRECT.read_bytes())
    result = run("check", solution, "--format", "json")
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["status"] == "passed"


def test_output_into_a_missing_folder_is_a_usage_error(tmp_path):
    result = run("check", CORRECT, "--output", tmp_path / "no" / "such" / "report.txt")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "does not exist" in result.stderr


def test_a_misnamed_function_without_exercise_is_a_usage_error_that_says_so(tmp_path):
    """The 121st helper (a student from the docs alone): a function named ``mini_max`` was "the grader failed:
    UsageError", exit 3, as if the grader had crashed. It is the student's to fix: exit 2, one line that names what
    an exercise asks for."""
    misnamed = tmp_path / "solution.py"
    misnamed.write_text("def mini_max(node, max_depth, player_a_moves):\n    return 0\n", encoding="utf-8")
    result = subprocess.run([_script(), "check", str(misnamed)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "the grader failed" not in result.stderr and "Traceback" not in result.stderr
    error = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and "cannot tell which exercise solution.py is for" in error[0]
    assert "check your function's name" in error[0] and "minimax" in error[0] and "--exercise" in error[0]
