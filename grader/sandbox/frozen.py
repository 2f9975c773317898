"""A class frozen before any student code runs: every submission read once, hashed, copied read-only.

Bulk grading used to read each submission from the class folder when its turn came, after
other students' code had already run; a submission that reached the class folder could then
change what a neighbour was graded on. Now ``batch.grade`` freezes the whole class first:
the bytes that were hashed are the bytes written to a private folder (mode 0700, files 0444)
that no child is ever shown (bwrap and Landlock show a child only its own staged copy; a
child dropped to a throw-away uid cannot enter a folder of root's with mode 0700). Workers
grade the frozen copy and check its hash again; a copy that no longer matches is graded as
an error, never as somebody else's work.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import staging

CHANGED = "the submission's frozen copy changed while the class was being graded (another submission tampered with it?)"


@dataclass
class FrozenClass:
    """The private folder holding every frozen submission; ``close`` removes it."""

    root: Path

    def freeze(self, submission, number: int) -> Path | None:
        try:
            return self._freeze(submission, number)
        except OSError:
            return None

    def _freeze(self, submission, number: int) -> Path | None:
        """Copy ``submission``'s graded files into the folder; the path to grade, or None if it changed on disk
        since it was hashed (then it is graded from the class folder as before and its hash check decides)."""
        target = self.root / str(number)
        target.mkdir(mode=0o700)
        folder = target / submission.path.name if submission.path.is_dir() else target
        folder.mkdir(mode=0o700, exist_ok=True)
        digest = hashlib.sha256()
        files = list(submission.files)
        for path in files:
            data = path.read_bytes()
            if len(files) > 1:
                digest.update(path.name.encode() + b"\0" + str(len(data)).encode() + b"\0")
            digest.update(data)
            copy = folder / path.name
            copy.write_bytes(data)
            os.chmod(copy, 0o444)
        if digest.hexdigest() != submission.sha256:
            return None
        os.chmod(folder, 0o555)
        if folder != target:
            os.chmod(target, 0o555)
        return folder if submission.path.is_dir() else folder / files[0].name

    def close(self) -> None:
        staging.make_removable(self.root)  # read-only files and folders, as the sessions' staged copies
        shutil.rmtree(self.root, ignore_errors=True)


def open_class(parent: Path | None = None) -> FrozenClass:
    """A fresh private folder under ``parent`` (batch gives a temporary folder outside ``--out``; the
    Dask executor ships each frozen copy's bytes, so no worker needs to see this folder)."""
    if parent is not None:
        Path(parent).mkdir(parents=True, exist_ok=True)
    return FrozenClass(Path(tempfile.mkdtemp(prefix="frozen-", dir=parent)))

