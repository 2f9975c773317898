"""What the child gets to see: copies of the submission's files and the exercise's provided parts.

The child never reads the student's original folder (it could hold anything: other
students' work, a results file) nor the exercise folder (the hooks and the reference's
neighbours). Only the files that make up the submission are copied into a private scratch
folder, and, for exercises made of parts, the grader's own files that stand in for the parts
a student did not hand in. The copies keep their names, because a student's modules import
each other by name (``from gamestate import *``).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Staged:
    entry: Path                 # the copy of the file the harness treats as the main one
    files: list[Path] = field(default_factory=list)  # copies of every submitted file
    provided: Path | None = None  # copies of the exercise's stand-in parts, or None


def stage(submission, exercise, scratch: Path) -> Staged:
    """Copy ``submission`` (a Submission, or the path of one file) into ``scratch/submission``."""
    target = scratch / "submission"
    target.mkdir()
    files = list(getattr(submission, "files", None) or [Path(submission)])
    entry = Path(getattr(submission, "entry_file", None) or files[0])
    copies = []
    for path in files:
        copy = target / path.name
        shutil.copyfile(path, copy)
        copies.append(copy)
    staged = Staged(entry=target / entry.name, files=copies)
    provided = getattr(exercise, "provided_dir", None)
    if provided is not None:
        staged.provided = scratch / "provided"
        staged.provided.mkdir()
        for path in sorted(Path(provided).glob("*.py")):
            shutil.copyfile(path, staged.provided / path.name)
    for folder in (target, staged.provided):
        if folder is not None:
            _read_only(folder)
    return staged


def _read_only(folder: Path) -> None:
    """Files 0444 in a 0555 folder: a second fence after Landlock (which grants only reading here)."""
    for path in folder.iterdir():
        os.chmod(path, 0o444)
    os.chmod(folder, 0o555)


def unlock(scratch: Path) -> None:
    """Make the read-only staged folders and their files removable again (the grader throws the
    scratch away)."""
    for name in ("submission", "provided"):
        make_removable(scratch / name)


def make_removable(root: Path) -> None:
    """Folders 0700 and files 0600 under ``root`` (itself included), so that it can be deleted. The
    files too: on Windows a read-only file cannot be deleted, and ``shutil.rmtree(...,
    ignore_errors=True)`` would quietly leave every read-only copy behind."""
    try:
        os.chmod(root, 0o700)
    except OSError:
        return
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            _chmod(os.path.join(folder, name), 0o700)
        for name in files:
            _chmod(os.path.join(folder, name), 0o600)


def _chmod(path: str, mode: int) -> None:
    try:
        os.chmod(path, mode)
    except OSError:
        pass


def init_fields(staged: Staged, exercise) -> dict:
    """The part of the harness's init request that says what to load."""
    return {
        "submission": str(staged.entry),
        "submission_files": [str(p) for p in staged.files],
        "provided": str(staged.provided) if staged.provided else None,
        "parts": list(getattr(exercise, "parts", None) or []),
    }
