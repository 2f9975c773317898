"""Folders a benchmark makes for itself (a private cache, a class of samples), removed when it ends.

Each benchmark used ``tempfile.mkdtemp`` and left the folder behind: hundreds of them piled up in /tmp over a few
days of measuring. ``folder`` is the grader's own ``paths.private_folder``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's grader, as every benchmark runs
from grader.paths import private_folder as folder  # noqa: E402 - a new private folder, removed at exit


def private_cache(prefix: str = "minimax-bench-cache-") -> None:
    """Point the grader at a cache of this run's own (unless the caller named one), removed at exit."""
    if "MINIMAX_GRADER_CACHE" not in os.environ:
        os.environ["MINIMAX_GRADER_CACHE"] = folder(prefix)
