"""Files the kit writes for the sandbox (a configured driver), kept in the user's cache by content.

The harness loads a driver from a file, and a declared exercise's driver is text generated from
its declaration, so it is written once per content and found again by its digest. A file already
there is used only when it still holds exactly that text: a cache another process (or a student's
code in an unconfined run) wrote into is never trusted, the file is written again.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path


def cached_file(folder: str, exercise_id: str, text: str, name: str | None = None) -> Path:
    """``<cache>/<folder>/<exercise_id>-<digest>.py`` (or ``.../<exercise_id>-<digest>/<name>``) holding ``text``."""
    from grader import paths

    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    base = paths.cache_dir() / folder
    path = base / f"{exercise_id}-{digest}" / name if name else base / f"{exercise_id}-{digest}.py"
    try:
        if path.read_text(encoding="utf-8") == text:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
    return path
