"""Building a class folder from the fixture submissions, for the bulk-grading tests and benchmark.

Each fixture file is handed in by several students (same bytes, different ids) unless
``unique`` is set, which appends a comment naming the student so every file has its own
content hash. ``malformed`` adds one of each input the grader must refuse without stopping:
a zip with a ``../`` path, a zip bomb, a binary file named ``.py``, an empty folder and a
link that leads out of the class folder.
"""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "ctp-26"
MALFORMED = ("zz-traversal", "zz-bomb", "zz-binary", "zz-empty", "zz-escape")


def samples(kind: str) -> list[Path]:
    return sorted((SAMPLES / kind).glob("*.py"))


def build_class(folder: Path, files: list[Path], *, copies: int = 1, unique: bool = False, malformed: bool = False) -> dict[str, Path]:
    """Write the class into ``folder``; returns student id -> what was written (a file, or a folder).

    The first copy of a sample is a file ``<id>.py``; further copies are per-student folders
    holding ``solution.py``, so identical folders share one content hash.
    """
    folder.mkdir(parents=True, exist_ok=True)
    students = {}
    for copy in range(copies):
        for source in files:
            student = f"{source.parent.name}-{source.stem}-{copy + 1}"
            data = source.read_bytes()
            if unique:
                data += f"\n# handed in by {student}\n".encode()
            if copy == 0:
                target = folder / f"{student}.py"
                target.write_bytes(data)
            else:
                target = folder / student
                target.mkdir()
                (target / "solution.py").write_bytes(data)
            students[student] = target
    if malformed:
        add_malformed(folder)
    return students


def add_malformed(folder: Path) -> None:
    with zipfile.ZipFile(folder / "zz-traversal.zip", "w") as zf:
        zf.writestr("solution.py", "def minimax(node, max_depth, player_a_moves):\n    return 0\n")
        zf.writestr("../../escaped.py", "print('outside')\n")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("solution.py", b"\0" * (40 << 20))  # 40 MiB of zeros in about 40 KiB
    (folder / "zz-bomb.zip").write_bytes(buffer.getvalue())
    (folder / "zz-binary.py").write_bytes(bytes(range(256)) * 8)
    (folder / "zz-empty").mkdir()
    outside = folder.parent / f"{folder.name}-outside.py"
    outside.write_text((SAMPLES / "correct" / "functional.py").read_text())
    os.symlink(outside, folder / "zz-escape.py")
