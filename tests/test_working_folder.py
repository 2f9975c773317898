"""The folder the grader runs in is never on its import path: a student's file there never runs as the grader.

An instructor grades a class from inside the class's folder (``minimax-grader grade . ...``), a student checks a
file where it lies (``python -m grader check solution.py``), Gradescope runs its script wherever it runs it. Python
puts the working folder (``python -m``, ``python -c``) first on ``sys.path``, ahead of the standard library and the
grader's libraries: a submission named ``json.py`` (or ``anytree.py``, ``jinja2.py``, ...) was imported by every
worker of ``grade`` from there, ran as the grader outside any sandbox, and (raising) cost every other student of the
class their result. Real processes, started as a user starts them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SUBMISSIONS

# Modules the grader imports after it starts, by name: the standard library's and its own libraries'.
SHADOWED = ("json", "sqlite3", "anytree", "jinja2", "hypothesis", "click", "csv", "zipfile")

# Leaves a mark only where it runs in a process that has the grader loaded (not in a sandboxed child, where it is a
# submission like any other), then fails the import as a careless student's file would.
SHADOW = '''import os, sys
if any(name == "grader" or name.startswith("grader.") for name in list(sys.modules)):
    with open(os.path.join({marks!r}, "ran-%s-%d" % (__name__, os.getpid())), "w") as mark:
        mark.write("imported from the working folder")
raise ImportError("a student's file, not the library")
'''


def _class_folder(tmp_path: Path) -> tuple[Path, Path]:
    marks = tmp_path / "marks"
    marks.mkdir()
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py", folder / "alice.py")
    shutil.copy(SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py", folder / "bob.py")
    for name in SHADOWED:
        (folder / f"{name}.py").write_text(SHADOW.format(marks=str(marks)), encoding="utf-8")
    return folder, marks


def _console_script() -> str:
    found = shutil.which("minimax-grader", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("minimax-grader is not installed beside this Python (pip install -e '.[test]')")
    return found


@pytest.mark.parametrize("started", ["console script", "python -m grader"])
def test_grading_a_class_from_inside_its_folder_runs_none_of_its_files(tmp_path, started):
    folder, marks = _class_folder(tmp_path)
    out = tmp_path / "out"
    command = [_console_script()] if started == "console script" else [sys.executable, "-m", "grader"]
    done = subprocess.run([*command, "grade", ".", "--exercise", "ctp-26", "--out", str(out), "--jobs", "2",
                           "--unconfined-ok"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert sorted(os.listdir(marks)) == [], done.stderr[-2000:]
    assert "the grader itself failed" not in done.stderr
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {r["student"]: r for r in json.loads((out / "results.json").read_text())["submissions"]}
    assert rows["alice"]["status"] == "passed" and rows["alice"]["score"] == rows["alice"]["max_score"]
    assert rows["bob"]["status"] == "failed"  # graded, not lost


def test_checking_a_file_where_it_lies_with_python_m_runs_none_of_its_neighbours(tmp_path):
    folder, marks = _class_folder(tmp_path)
    done = subprocess.run([sys.executable, "-m", "grader", "check", "alice.py", "--exercise", "ctp-26", "--format",
                           "json"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert sorted(os.listdir(marks)) == [], done.stderr[-2000:]
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["status"] == "passed"


def test_a_worker_is_started_with_the_working_folder_off_its_path():
    """The command itself: ``-P``, and the package's own folder named (a checkout run in place still finds it)."""
    from grader.bulk import executor

    argv = executor.worker_argv()
    assert argv[:3] == [sys.executable, "-P", "-c"]
    assert Path(argv[-1], "grader", "bulk", "worker.py").is_file()


def test_a_worker_of_a_grader_run_in_place_finds_that_grader(tmp_path):
    """A source checkout run without installing it: ``-P`` takes the working folder off the path, so the worker puts
    the folder of the package the pool runs first itself (here a stand-in package, found nowhere else)."""
    from grader.bulk import executor

    package = tmp_path / "checkout" / "grader" / "bulk"
    package.mkdir(parents=True)
    for folder in (package.parent, package):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (package / "worker.py").write_text("def main():\n    print('stand-in worker from', __file__)\n    return 0\n",
                                       encoding="utf-8")
    argv = [*executor.worker_argv()[:-1], str(tmp_path / "checkout")]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"stand-in worker from {package / 'worker.py'}"


@pytest.mark.parametrize("started", ["console script", "python -m grader"])
def test_a_working_folder_removed_under_the_shell_is_one_line(tmp_path, started):
    """A shell still in a folder that was removed: every command printed a traceback (hypothesis, for one, reads the
    working folder as it is imported). One line and exit 2 now."""
    gone = tmp_path / "gone"
    gone.mkdir()
    command = [_console_script()] if started == "console script" else [sys.executable, "-m", "grader"]
    script = 'cd "$1" && rmdir "$1" && shift && exec "$@"'
    done = subprocess.run(["sh", "-c", script, "sh", str(gone), *command, "grade", str(SUBMISSIONS / "ctp-26" / "correct"),
                           "--exercise", "ctp-26", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr[-1500:]
    assert done.stderr.strip() == ("minimax-grader: the folder this runs in no longer exists; change to a folder and "
                                   "run it again")
