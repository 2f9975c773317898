"""The child's only third-party library folder: a copy of anytree and nothing else.

The child runs with ``-I -S`` (no site-packages), so the grader, the references and every
other installed package are off its import path; it gets a private folder holding only the
libraries the exercises' drivers need. Built once per library version, in the user's cache.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path

from grader import paths

CHILD_LIBRARIES = ("anytree",)


@cache
def child_sys_path() -> list[str]:
    versions = "-".join(f"{name}{importlib.metadata.version(name)}" for name in CHILD_LIBRARIES)
    target = paths.cache_dir() / f"childlib-{versions}"
    if not target.is_dir():
        staging = Path(tempfile.mkdtemp(prefix="childlib-", dir=paths.cache_dir()))
        for name in CHILD_LIBRARIES:
            module = __import__(name)
            shutil.copytree(Path(module.__file__).parent, staging / name, ignore=shutil.ignore_patterns("__pycache__"))
        try:
            os.replace(staging, target)
        except OSError:  # another grader process won the race: use theirs
            shutil.rmtree(staging, ignore_errors=True)
    return [str(target)]
