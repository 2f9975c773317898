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


def open_regular(path):
    """``(the file opened for reading, its status)`` where ``path`` is a regular file, else None: never through a
    link, and never waiting, as a plain open of a FIFO put in a file's place in the cache would until a writer came
    (the grader hung: the hundred-and-eighth helper). The caller closes the file."""
    try:
        return opened_regular(path, follow_links=False)
    except OSError:
        return None


def opened_regular(path, follow_links: bool):
    """``open_regular``'s work, its refusals as ``OSError`` (ENODEV: "not a regular file"), for a caller that says
    why in a line of its own; ``follow_links``: a link to a regular file is read (a student's own folder may hold
    one), where ``open_regular`` refuses every link."""
    import errno
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise OSError(errno.ENODEV, "not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return open(fd, "rb", buffering=0), status


def private_folder(prefix: str) -> str:
    """A new private temporary folder, removed when the process that made it ends (not by a process forked from it
    later, which inherits the exit handler but not the folder's use)."""
    import atexit
    import shutil
    import tempfile

    made, made_by = tempfile.mkdtemp(prefix=prefix), os.getpid()
    atexit.register(lambda: os.getpid() == made_by and shutil.rmtree(made, ignore_errors=True))
    return made
