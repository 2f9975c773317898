"""The child's own modules as compiled bytecode beside their sources, for a sandbox to read, and a way to run a
script through the import system so that its bytecode is read too.

A child runs ``python -I -S -B``: it reads bytecode caches but writes none, under bubblewrap it sees only the
files bound into its world (never their ``__pycache__`` folders), and a script named on the command line is
always compiled from source. So every cold child compiled the harness and its siblings (some 4,800 lines) before
its first case: about 30 ms of a ``check``. Here the grader makes sure each has a fresh bytecode file beside it
(written where the folder is writable, as ``pip install`` or any import would write it) and hands the sandbox
those files to read. The child's import system checks each against its source as it checks any cache (the
source's size and modification time, recorded in the file) and compiles from source where one is missing or
stale: nothing here decides what code runs.

Written by hand, in a few lines: ``py_compile`` writes the files; what is ours is which files and the check that
one is fresh (the same fields the interpreter compares), so that a stale one is neither handed over nor kept.

May import: nothing of the grader's.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import lru_cache


def beside(sources, writable=()) -> list[str]:
    """The fresh bytecode file of each of ``sources`` (paths of .py files); sources without one are left out. One is
    written first, where missing or stale, only for a source under one of the folders ``writable`` (the grader's
    own: an instructor's exercise folder or a student's never gets a ``__pycache__`` of the grader's making);
    elsewhere only a fresh one already there is handed over."""
    found = []
    writable = tuple(os.path.join(os.path.abspath(folder), "") for folder in writable)
    for source in sources:
        try:
            status = os.stat(source)
        except OSError:
            continue
        may_write = os.path.abspath(source).startswith(writable) if writable else False
        cached = _fresh(str(source), status.st_mtime, status.st_size, may_write)
        if cached is not None:
            found.append(cached)
    return found


def run_as_main(script) -> list[str]:
    """Interpreter arguments that run ``script`` as ``__main__`` through the import system, which reads its bytecode
    file (``beside``) where a script named on the command line would be compiled from source: ``-c`` and a line
    of code, after which the script's own arguments follow as they would (``sys.argv[0]`` is ``-c``)."""
    return ["-c", "import importlib.util as u, sys; s = u.spec_from_file_location('__main__', %r); "
                  "m = u.module_from_spec(s); sys.modules['__main__'] = m; s.loader.exec_module(m)" % str(script)]


@lru_cache(maxsize=256)
def _fresh(source: str, mtime: float, size: int, may_write: bool) -> str | None:
    tag = sys.implementation.cache_tag
    if tag is None or not source.endswith(".py"):
        return None
    folder, name = os.path.split(source)
    cached = os.path.join(folder, "__pycache__", f"{name[:-3]}.{tag}.pyc")
    if _matches(cached, mtime, size):
        return cached
    if not may_write:
        return None
    import py_compile  # only where one is written: most runs find every file fresh

    try:
        py_compile.compile(source, cfile=cached, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    except (OSError, py_compile.PyCompileError, ValueError):
        return None
    return cached if _matches(cached, mtime, size) else None


def _matches(cached: str, mtime: float, size: int) -> bool:
    """Whether ``cached`` is this interpreter's bytecode of a source of this size and modification time, checked
    by them (the fields ``importlib`` compares: a hash-checked file is written again as a timestamped one)."""
    try:
        with open(cached, "rb") as handle:
            head = handle.read(16)
    except OSError:
        return False
    return (len(head) == 16 and head[:4] == importlib.util.MAGIC_NUMBER and head[4:8] == b"\0\0\0\0"
            and int.from_bytes(head[8:12], "little") == int(mtime) & 0xFFFFFFFF
            and int.from_bytes(head[12:16], "little") == size & 0xFFFFFFFF)
