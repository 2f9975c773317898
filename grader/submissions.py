"""Turning a path on disk into a Submission, and saying in one line why it cannot be one.

Nothing here runs student code. The checks are the ones a parent can make safely from
bytes: the path exists, there is a Python file, it is not empty, not too large, valid UTF-8
and parses (the parse is a courtesy for a clear message; the sandbox would find it too).
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass
from pathlib import Path

MAX_SOURCE_BYTES = 1 << 20


@dataclass
class Submission:
    path: Path
    display: str
    entry_file: Path | None = None
    sha256: str = ""
    problem: str | None = None

    @property
    def id(self) -> str:
        return self.path.stem if self.path.suffix == ".py" else self.path.name


def _pick_entry(folder: Path) -> Path | None:
    files = sorted(p for p in folder.iterdir() if p.suffix == ".py" and p.is_file() and not p.name.startswith("test_"))
    if not files:
        return None
    for preferred in ("solution.py", "minimax.py", "submission.py", "main.py"):
        for path in files:
            if path.name == preferred:
                return path
    return files[0]


def load(path: str | Path) -> Submission:
    path = Path(path)
    submission = Submission(path=path, display=str(path))
    if not path.exists():
        submission.problem = f"no such file or folder: {path}"
        return submission
    if path.is_dir():
        entry = _pick_entry(path)
        if entry is None:
            submission.problem = f"the folder {path} contains no Python file"
            return submission
    elif path.suffix != ".py":
        submission.problem = f"{path.name} is not a Python file (.py)"
        return submission
    else:
        entry = path
    submission.entry_file = entry
    try:
        data = entry.read_bytes()
    except OSError as exc:
        submission.problem = f"cannot read {entry.name}: {exc.strerror or exc}"
        return submission
    submission.sha256 = hashlib.sha256(data).hexdigest()
    submission.problem = _source_problem(entry.name, data)
    return submission


def _source_problem(name: str, data: bytes) -> str | None:
    if len(data) > MAX_SOURCE_BYTES:
        return f"{name} is larger than {MAX_SOURCE_BYTES >> 10} KiB; is it really a solution?"
    if not data.strip():
        return f"{name} is empty"
    if b"\x00" in data:
        return f"{name} is not a text file (it contains NUL bytes)"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"{name} is not valid UTF-8 (byte {exc.start}); save it as UTF-8"
    try:
        ast.parse(text, filename=name)
    except SyntaxError as exc:
        return f"syntax error in {name}, line {exc.lineno}: {exc.msg}"
    except (RecursionError, MemoryError, ValueError):
        return f"{name} could not be parsed (nested too deeply)"
    return None
