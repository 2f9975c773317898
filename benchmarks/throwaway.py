"""Folders a benchmark makes for itself (a private cache, a class of samples), removed when it ends.

Each benchmark used ``tempfile.mkdtemp`` and left the folder behind: hundreds of them piled up in /tmp over a few
days of measuring. Only the process that made a folder removes it (a process forked from it inherits the handler).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def folder(prefix: str) -> str:
    """A new private folder, removed at exit."""
    made = tempfile.mkdtemp(prefix=prefix)
    made_by = os.getpid()
    atexit.register(lambda: os.getpid() == made_by and shutil.rmtree(made, ignore_errors=True))
    return made


def private_cache(prefix: str = "minimax-bench-cache-") -> None:
    """Point the grader at a cache of this run's own (unless the caller named one), removed at exit."""
    if "MINIMAX_GRADER_CACHE" not in os.environ:
        os.environ["MINIMAX_GRADER_CACHE"] = folder(prefix)
