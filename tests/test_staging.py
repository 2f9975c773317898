"""Staged copies are read-only while the child runs, and removable afterwards on every OS.

On Windows a read-only file cannot be deleted: ``unlock`` must make the files writable, not only
their folders, or ``shutil.rmtree(..., ignore_errors=True)`` leaves every staged copy behind.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from conftest import SUBMISSIONS
from grader.judging import exercise as exercises
from grader.sandbox import staging

HONEST = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[0]


def _writable(path: Path) -> bool:
    return bool(stat.S_IMODE(path.stat().st_mode) & stat.S_IWUSR)


def test_unlock_makes_the_staged_files_writable_and_close_removes_them(tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    staged = staging.stage(HONEST, exercises.load("ctp-26"), scratch)
    assert staged.files and not any(_writable(p) for p in staged.files)
    assert not _writable(staged.entry.parent)
    staging.unlock(scratch)
    assert all(_writable(p) for p in staged.files) and _writable(staged.entry.parent)
    shutil.rmtree(scratch, ignore_errors=True)
    assert not scratch.exists()


def test_a_closed_session_leaves_no_scratch_behind():
    from grader.judging import submissions
    from grader.sandbox import launch
    from grader.sandbox.session import Session

    session = Session(submissions.load(HONEST), exercises.load("ctp-26"), launch.choose("spawn" if os.name == "nt" else "posix"))
    with session:
        assert session.open().get("ok")
        assert list((session.scratch / "submission").iterdir())
    assert not session.scratch.exists()
