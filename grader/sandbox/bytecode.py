"""The grader's own child-side modules as compiled bytecode beside their sources, for a sandbox to read, and a way
to run a script through the import system so that its bytecode is read too.

A child runs ``python -s -P -S -B``: it reads bytecode caches but writes none, under bubblewrap it sees only the
files bound into its world (never their ``__pycache__`` folders), and a script named on the command line is
always compiled from source. So every cold child compiled the harness and its siblings (some 4,800 lines) before
its first case: about 30 ms of a ``check``. Here the grader hands the sandbox a fresh bytecode file beside each
of those modules (writing one where missing or stale, as ``pip install`` or an import would, where the user lets
Python write bytecode and the folder is writable). The child's import system checks each against its source as it
checks any cache (a timestamped file by the source's size and modification time, a hash-checked one by the
source's hash) and compiles from source where one is missing or stale.

Only the grader's package: a file there is exactly as trusted as the source beside it (same owner, same folder).
Never the grader's cache folder, which the kit trusts for nothing (``kit/generated.py`` checks every driver it
wrote there against the text it should hold, each run) and which a child of an unconfined run (posix without
Landlock, the grader's own uid) can write: a bytecode file planted there would pass any header check and run in
every later child, bubblewrap's too (the hundred-and-seventh helper scored an ``always_max`` 10/10 so).

Written by hand, in a few lines: ``py_compile`` writes the files; what is ours is which files, and the check that
one is fresh (the fields the interpreter compares), so that a stale one is neither handed over nor kept.

May import: nothing of the grader's.
"""

from __future__ import annotations

import importlib.util
import os
import sys

_REFUSED: set[str] = set()  # sources this process could not write bytecode for: not tried again


def beside(sources, ours=(), write: bool = True) -> list[str]:
    """The fresh bytecode file of each of ``sources`` (paths of .py files) that lies under one of the folders
    ``ours`` (the grader's package); others are left out, as are sources without a fresh one. Where ``write``, one
    missing or stale is written first, where its folder is writable."""
    found = []
    ours = tuple(os.path.join(os.path.abspath(folder), "") for folder in ours)
    for source in sources:
        source = os.path.abspath(str(source))
        if not source.startswith(ours):  # (``ours`` empty: nothing starts with it)
            continue
        cached = _fresh(source, write)
        if cached is not None:
            found.append(cached)
    return found


def run_as_main(script) -> list[str]:
    """Interpreter arguments that run ``script`` as ``__main__`` through the import system, which reads its bytecode
    file (``beside``) where a script named on the command line would be compiled from source: ``-c`` and a line
    of code, after which the script's own arguments follow as they would (``sys.argv[0]`` is ``-c``)."""
    return ["-c", "import importlib.util as u, sys; s = u.spec_from_file_location('__main__', %r); "
                  "m = u.module_from_spec(s); sys.modules['__main__'] = m; s.loader.exec_module(m)" % str(script)]


def _fresh(source: str, write: bool) -> str | None:
    """Looked at every time (a file removed since would make bubblewrap's bind fail): one stat, one small read."""
    tag = sys.implementation.cache_tag
    if tag is None or not source.endswith(".py"):
        return None
    folder, name = os.path.split(source)
    cached = os.path.join(folder, "__pycache__", f"{name[:-3]}.{tag}.pyc")
    if _matches(cached, source):
        return cached
    if not write or source in _REFUSED:
        return None
    if not _writable(os.path.dirname(cached)):
        _REFUSED.add(source)
        return None
    import py_compile  # only where one is written: most runs find every file fresh

    try:
        py_compile.compile(source, cfile=cached, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)
    except (OSError, py_compile.PyCompileError, ValueError):
        _REFUSED.add(source)
        return None
    return cached if _matches(cached, source) else None


def _writable(folder: str) -> bool:
    """Whether a bytecode file could be written in ``folder`` (or in the folder that would hold it): asked before
    compiling, so that a read-only install costs no compilation that cannot be kept."""
    target = folder if os.path.isdir(folder) else os.path.dirname(folder)
    return os.access(target, os.W_OK | os.X_OK)


def _matches(cached: str, source: str) -> bool:
    """Whether ``cached`` is this interpreter's bytecode of ``source`` as it is now, by the fields ``importlib``
    compares: its size and modification time, or for a hash-checked file its hash. An unchecked-hash file (which
    the interpreter never compares with its source) is not handed over."""
    try:
        with open(cached, "rb") as handle:
            head = handle.read(16)
        status = os.stat(source)
    except OSError:
        return False
    if len(head) != 16 or head[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(head[4:8], "little")
    if flags == 0:
        return (int.from_bytes(head[8:12], "little") == int(status.st_mtime) & 0xFFFFFFFF
                and int.from_bytes(head[12:16], "little") == status.st_size & 0xFFFFFFFF)
    if flags == 0b11:  # hash-based, checked against the source
        try:
            with open(source, "rb") as handle:
                return head[8:16] == importlib.util.source_hash(handle.read())
        except OSError:
            return False
    return False
