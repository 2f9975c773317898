"""Where the grader's data and caches live.

The exercises, references and fixtures are top-level folders in the checkout, and ship as
``grader/_data/...`` in a wheel. Every lookup goes through here so both layouts work.

May import: nothing
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


@cache
def data_root() -> Path:
    installed = PACKAGE_DIR / "_data"
    if installed.is_dir():
        return installed
    return PACKAGE_DIR.parent


def exercises_dir() -> Path:
    return data_root() / "exercises"


def reference_dir() -> Path:
    return data_root() / "reference"


def fixtures_dir() -> Path:
    return data_root() / "fixtures"


def cache_dir() -> Path:
    """A per-user cache (never the user's working folder), overridable for tests and CI."""
    override = os.environ.get("MINIMAX_GRADER_CACHE")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_cache_dir

        path = Path(user_cache_dir("minimax-grader", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
