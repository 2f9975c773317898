"""The child's only third-party library folder: a copy of anytree and nothing else.

The child runs with ``-s -P -S`` (no site-packages), so the grader, the references and every
other installed package are off its import path; it gets a private folder holding only the
libraries the exercises' drivers need. Built once per library version and interpreter, in the
user's cache, with the installed libraries' own bytecode beside the sources (a child writes none,
``-B``, and compiling anytree is some 7 ms of every cold child's start), and built again when
the copy found there is not exactly what it was made from.

Exactly, byte for byte, checked once per grader process: the cache folder is trusted for nothing.
A child of an unconfined run (posix without Landlock, the grader's own uid) can write it, and a
source or a bytecode file it changed there ran in every later child, bubblewrap's included (the
hundred-and-seventh helper's find; ``tests/test_child_bytecode.py``). A copy that is no longer
whole and readable (a file missing, a mode changed by hand or by a past vandal) is built again too:
a broken copy would fail every later student.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import stat
import sys
import tempfile
from functools import cache
from pathlib import Path

from grader import paths
from grader.sandbox import bytecode

CHILD_LIBRARIES = ("anytree",)


class ChildLibraryError(RuntimeError):
    """The copy cannot be made, or one found altered cannot be replaced: one line saying which folder and why."""


@cache
def child_sys_path() -> list[str]:
    """The child's import path beyond the standard library: the copy's folder, named by the libraries' versions and
    a digest of what it holds, so that two installs whose bytecode differs (another venv of the same Python: each
    file's header names its own source's time) keep a copy each instead of discarding each other's."""
    versions = "-".join(f"{name}{importlib.metadata.version(name)}" for name in CHILD_LIBRARIES)
    target = paths.cache_dir() / f"childlib-{sys.implementation.cache_tag or 'python'}-{versions}-{_digest()}"
    try:
        for _attempt in range(3):
            # Checked after building too: a copy that another process put in its place when this one could not (the
            # race it lost) is used only if it too is exactly the installed library (the hundred-and-ninth helper's
            # unconfined child renamed its own copy into place while the grader built)
            if usable(target):
                return [str(target)]
            if target.exists() or target.is_symlink():
                _discard(target)
                if target.exists() or target.is_symlink():  # never used as found: it failed the check
                    raise ChildLibraryError(f"the copy of the sandbox's library at {target} was altered and cannot "
                                            "be replaced: remove that folder")
            _build(target)
    except OSError as exc:
        raise ChildLibraryError(f"cannot make the sandbox's library copy in {target.parent}: "
                                f"{exc.strerror or exc}") from None
    raise ChildLibraryError(f"the copy of the sandbox's library at {target} keeps being replaced by something else: "
                            "is another grader of another install writing there?")


def _digest() -> str:
    import hashlib

    digest = hashlib.sha256()
    for relative, (data, mode) in sorted(_installed().items()):
        digest.update(b"%s\0%o\0%d\0" % (relative.encode("utf-8", "surrogateescape"), mode, len(data)))
        digest.update(data)
    return digest.hexdigest()[:12]


def _build(target: Path) -> None:
    """The copy, made aside and moved into place whole (a grader process never sees half of it)."""
    staging = Path(tempfile.mkdtemp(prefix="childlib-", dir=paths.cache_dir()))
    try:
        for relative, (data, mode) in _installed().items():
            copy = staging / relative
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(data)
            copy.chmod(mode | 0o200)
        for folder, _dirs, _files in os.walk(staging):
            # mkdtemp made it private (0700): the child runs as a throw-away uid where the grader is root, and read
            # only the modules it had imported before that (anytree.exporter and .importer failed to import)
            os.chmod(folder, 0o755)
        for relative, source in _sources_by_copy().items():
            # the source's own times, which its bytecode's header names: a copy with the time of the copying would
            # make the child's import system find every bytecode file stale and compile anytree again
            status = os.stat(source)
            os.utime(staging / relative, ns=(status.st_atime_ns, status.st_mtime_ns))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    try:
        os.replace(staging, target)
    except OSError:  # another process put a copy there first: the caller checks it as it checks any
        shutil.rmtree(staging, ignore_errors=True)


def module_names() -> list[str]:
    """Every module of the child's libraries, by dotted name, packages before their modules (for a child that
    imports them all before it drops its uid: ``identity.preload``).

    Listed once per process and folder: every submission graded as root asked for them, some 0.5 ms of walking
    the same copy (another library version is copied under another name). A listing that misses a library's own
    package is not kept: another grader process may have found the copy broken and be copying it again under the
    same name (``_discard``), and the walk saw it half there."""
    folders = tuple(child_sys_path())
    names = _module_names(folders)
    if not set(CHILD_LIBRARIES) <= set(names):
        _module_names.cache_clear()
    return list(names)


@cache
def _module_names(folders: tuple[str, ...]) -> tuple[str, ...]:
    names = []
    for folder in folders:
        root = Path(folder)
        for name in CHILD_LIBRARIES:
            for path in sorted((root / name).rglob("*.py")):
                parts = path.relative_to(root).with_suffix("").parts
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return tuple(sorted(set(names), key=lambda dotted: (dotted.count("."), dotted)))


def _source(name: str) -> Path:
    return Path(__import__(name).__file__).parent


def _sources_by_copy() -> dict[str, str]:
    """Each installed source file by its place in the copy (``anytree/node/node.py``)."""
    found = {}
    for name in CHILD_LIBRARIES:
        source = _source(name)
        for folder, dirs, files in os.walk(source):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for file in files:
                path = os.path.join(folder, file)
                found[os.path.join(name, os.path.relpath(path, source))] = path
    return found


@cache
def _installed() -> dict[str, tuple[bytes, int]]:
    """What the copy must hold, file by file (its place in the copy: its bytes, its mode): every file of the installed
    libraries but their bytecode caches, and the fresh bytecode file of each of their modules where there is one
    (``bytecode.beside``: written first where missing or stale, as an import would, where the user lets Python
    write bytecode; the installed library's, exactly as trusted as its sources). Read once per process."""
    wanted = {}
    for relative, path in _sources_by_copy().items():
        with open(path, "rb") as handle:
            wanted[relative] = (handle.read(), _readable_mode(path))
        if path.endswith(".py"):
            for cached in bytecode.beside([path], [os.path.dirname(path)], write=not sys.dont_write_bytecode):
                place = os.path.join(os.path.dirname(relative), "__pycache__", os.path.basename(cached))
                with open(cached, "rb") as handle:
                    wanted[place] = (handle.read(), 0o444)
    return wanted


def _readable_mode(path: str) -> int:
    """What the copy's mode must allow: reading by all (a child of a dropped uid imports it), and running by whoever
    could run the original."""
    return stat.S_IMODE(os.stat(path).st_mode) & 0o555 | 0o444


def usable(target: Path) -> bool:
    """The copy holds exactly the files ``_installed`` lists, each a regular file of one name (not a link, nor a
    hard link whose other name could be written later), byte for byte the same and readable by all, and every
    folder searchable by all; nothing else."""
    if target.is_symlink() or not target.is_dir() or not os.access(target, os.R_OK | os.X_OK) \
            or stat.S_IMODE(target.stat().st_mode) & 0o555 != 0o555:
        return False  # modes too, not only access(): root reads a folder of mode 000 (or 0700), its dropped child does not
    wanted = _installed()
    seen = 0
    for folder, dirs, files in os.walk(target):
        for name in dirs:
            status = os.lstat(os.path.join(folder, name))
            if not stat.S_ISDIR(status.st_mode) or stat.S_IMODE(status.st_mode) & 0o555 != 0o555:
                return False  # a link to a folder elsewhere, or one a dropped child cannot search
        for name in files:
            path = os.path.join(folder, name)
            expected = wanted.get(os.path.relpath(path, target))
            if expected is None or os.path.islink(path):
                return False  # a file the copy was not made with (a module, a bytecode file planted), or a link
            data, mode = expected
            opened = paths.open_regular(path)  # (a FIFO in a file's place: refused, never waited on)
            if opened is None:
                return False
            handle, status = opened
            with handle:
                if status.st_nlink != 1 or status.st_size != len(data) or stat.S_IMODE(status.st_mode) & mode != mode \
                        or handle.readall() != data:
                    return False
            seen += 1
    return seen == len(wanted)


def _discard(target: Path) -> None:
    """Move a broken copy aside (atomically, so no grader starts a child on half of it) and delete it."""
    aside = Path(tempfile.mkdtemp(prefix="childlib-broken-", dir=paths.cache_dir()))
    try:
        if not target.is_symlink():
            os.chmod(target, 0o700)  # moving a folder to another parent needs its own write permission (Linux)
        os.replace(target, aside / "copy")
    except OSError:
        shutil.rmtree(aside, ignore_errors=True)
        return  # another grader process moved it first, or it cannot be moved: the check below rebuilds or fails
    for folder, dirs, _files in os.walk(aside):
        for name in dirs:
            _chmod_unless_link(os.path.join(folder, name), 0o700)
    os.chmod(aside, 0o700)
    for folder, dirs, files in os.walk(aside):
        for name in files:
            _chmod_unless_link(os.path.join(folder, name), 0o600)
    shutil.rmtree(aside, ignore_errors=True)


def _chmod_unless_link(path: str, mode: int) -> None:
    """A link in the copy is removed as it is: its target, wherever it is, is never made this mode (the
    hundred-and-ninth helper's link made the grader change a file outside the cache)."""
    try:
        if not os.path.islink(path):
            os.chmod(path, mode)
    except OSError:
        pass
