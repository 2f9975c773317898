"""The child's only third-party library folder: a copy of anytree and nothing else.

The child runs with ``-I -S`` (no site-packages), so the grader, the references and every
other installed package are off its import path; it gets a private folder holding only the
libraries the exercises' drivers need. Built once per library version, in the user's cache,
and built again when the copy found there is no longer whole and readable (a file missing, a
mode changed by hand or by a past vandal): a broken copy would fail every later student.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import stat
import tempfile
from functools import cache
from pathlib import Path

from grader import paths

CHILD_LIBRARIES = ("anytree",)


@cache
def child_sys_path() -> list[str]:
    versions = "-".join(f"{name}{importlib.metadata.version(name)}" for name in CHILD_LIBRARIES)
    target = paths.cache_dir() / f"childlib-{versions}"
    if target.exists() and not usable(target):
        _discard(target)
    if not target.is_dir():
        staging = Path(tempfile.mkdtemp(prefix="childlib-", dir=paths.cache_dir()))
        for name in CHILD_LIBRARIES:
            shutil.copytree(_source(name), staging / name, ignore=shutil.ignore_patterns("__pycache__"))
        # mkdtemp made it private (0700): the child runs as a throw-away uid where the grader is root, and read
        # only the modules it had imported before that (anytree.exporter and .importer failed to import)
        os.chmod(staging, 0o755)
        try:
            os.replace(staging, target)
        except OSError:  # another grader process won the race: use theirs
            shutil.rmtree(staging, ignore_errors=True)
    return [str(target)]


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


def usable(target: Path) -> bool:
    """Every file of the installed libraries is in the copy, readable, and every folder searchable."""
    if not os.access(target, os.R_OK | os.X_OK) or stat.S_IMODE(target.stat().st_mode) & 0o555 != 0o555:
        return False  # modes too, not only access(): root reads a folder of mode 000 (or 0700), its dropped child does not
    for name in CHILD_LIBRARIES:
        source = _source(name)
        for original in [source, *source.rglob("*")]:
            if "__pycache__" in original.parts:
                continue
            copy = target / name / original.relative_to(source)
            wanted = os.R_OK | os.X_OK if original.is_dir() else os.R_OK
            if not copy.exists() or copy.is_dir() != original.is_dir() or not os.access(copy, wanted):
                return False
            readable = stat.S_IMODE(original.stat().st_mode) & 0o555  # whoever could read the original
            if stat.S_IMODE(copy.stat().st_mode) & readable != readable:
                return False
    return True


def _discard(target: Path) -> None:
    """Move a broken copy aside (atomically, so no grader starts a child on half of it) and delete it."""
    aside = Path(tempfile.mkdtemp(prefix="childlib-broken-", dir=paths.cache_dir()))
    try:
        os.replace(target, aside / "copy")
    except OSError:
        shutil.rmtree(aside, ignore_errors=True)
        return  # another grader process moved it first, or it cannot be moved: the check below rebuilds or fails
    for folder, dirs, _files in os.walk(aside):
        for name in dirs:
            try:
                os.chmod(os.path.join(folder, name), 0o700)
            except OSError:
                pass
    os.chmod(aside, 0o700)
    for folder, dirs, files in os.walk(aside):
        for name in files:
            try:
                os.chmod(os.path.join(folder, name), 0o600)
            except OSError:
                pass
    shutil.rmtree(aside, ignore_errors=True)
