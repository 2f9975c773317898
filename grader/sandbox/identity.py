"""Who the child is: a throw-away uid when the grader runs as root, so limits bite.

Root ignores RLIMIT_NPROC and may signal, trace or read anything, so a child started by root
drops to a uid of its own before any student code runs. The uid is picked at random from a
large unused range for every session: a fork bomb then counts only its own processes, and two
children can neither signal nor trace each other. Because the uid is the session's alone,
whatever survives the process-group kill (a grandchild that called ``setsid``) can be found
and killed by uid afterwards. Without root nothing can be dropped; the child then counts its
process limit on top of what the grader's user already runs.
"""

from __future__ import annotations

import os
import secrets
import sys
from functools import cache
from pathlib import Path

NOBODY = 65534
UID_BASE = 3_000_000
UID_SPAN = 1 << 20

# Standard-library modules a child loads before it drops its uid, used only when the Python
# installation is not readable by others (a pyenv under a private /root): after the drop
# these stay importable, anything else from the standard library does not.
PRELOAD = (
    "math", "cmath", "random", "functools", "itertools", "collections", "collections.abc", "operator",
    "heapq", "bisect", "copy", "typing", "dataclasses", "enum", "abc", "re", "json", "string", "statistics",
    "fractions", "decimal", "numbers", "contextlib", "weakref", "types", "array", "struct", "textwrap",
    "pprint", "warnings", "signal", "socket", "subprocess", "glob", "shutil", "pathlib", "tempfile",
    "inspect", "gc", "ctypes", "time", "threading", "traceback", "io", "encodings.idna", "encodings.ascii",
    "encodings.latin_1", "stringprep", "unicodedata", "pwd", "resource", "selectors", "select",
)


def is_root() -> bool:
    return os.name == "posix" and os.geteuid() == 0


@cache
def _full_uid_map() -> bool:
    """Whether uids far above 65535 exist here (not so in many user-namespaced containers)."""
    try:
        for line in Path("/proc/self/uid_map").read_text().splitlines():
            inside, _outside, count = (int(x) for x in line.split())
            if inside <= UID_BASE and inside + count >= UID_BASE + UID_SPAN:
                return True
    except (OSError, ValueError):
        pass
    return False


def pick_uid() -> int:
    if _full_uid_map():
        return UID_BASE + secrets.randbelow(UID_SPAN)
    return NOBODY


@cache
def python_readable_by_others() -> bool:
    """Can a stranger uid read the standard library (every folder above it traversable)?"""
    import sysconfig

    return readable_by_others(sysconfig.get_paths()["stdlib"])


@cache
def readable_by_others(where) -> bool:
    """Can a stranger uid read this folder (every folder above it traversable)?"""
    path = Path(where).resolve()
    for folder in [path, *path.parents]:
        try:
            if not folder.stat().st_mode & 0o001:
                return False
        except OSError:
            return False
    return bool(path.stat().st_mode & 0o004)


def preload() -> list[str]:
    """What a child imports before it drops its uid: the standard modules of ``PRELOAD`` where the standard
    library is not readable by others, and every module of the child's libraries where their folder is not (a
    grader running as root keeps its cache under a private /root: ``anytree.exporter`` failed to import)."""
    from grader.sandbox import childlib

    names = [] if python_readable_by_others() else list(PRELOAD)
    if not all(readable_by_others(folder) for folder in childlib.child_sys_path()):
        names += childlib.module_names()
    return names


def prepare(scratch: Path, *, chown: bool = True) -> dict:
    """Fields of the init request that say whom the child becomes; hands it its scratch."""
    if os.name != "posix":
        return {}
    if not is_root():
        protect_grader()
        return {"nproc_shared": True}
    uid = pick_uid()
    fields = {"identity": {"uid": uid, "gid": uid}}
    if chown:
        _hand_over(Path(scratch), uid)
        names = preload()
        if names:
            fields["preload"] = names
    return fields


@cache
def protect_grader() -> bool:
    """Same uid as the child: close this process's memory to it (/proc/PID/mem, ptrace).

    An undumpable process can be read or traced only with CAP_SYS_PTRACE; the grader keeps
    full access to itself. Needed only when nothing else separates the two (no root to drop
    the child's uid, no bwrap): without it a child could read the grader's memory, where a
    bulk-grading worker keeps the reference's answers.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(4, 0, 0, 0, 0) == 0  # PR_SET_DUMPABLE
    except (OSError, AttributeError):
        return False


def _hand_over(scratch: Path, uid: int) -> None:
    """Scratch for the child's uid alone: its own work and home, its submission read-only."""
    os.chmod(scratch, 0o711)
    for name in ("work", "home"):
        folder = scratch / name
        if folder.is_dir():
            os.chown(folder, uid, uid)
            os.chmod(folder, 0o700)
    for name in ("submission", "provided"):
        folder = scratch / name
        if not folder.is_dir():
            continue
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, 0, uid, follow_symlinks=False)
            os.chmod(path, 0o750 if path.is_dir() else 0o640)


def reap(fields: dict) -> None:
    """Kill every process still running under the session's uid (posix as root only).

    Done from a helper process started as that uid (``kill(-1)`` reaches exactly the
    processes a uid may signal: its own), and only when /proc shows something left over.
    """
    ident = fields.get("identity")
    if not ident or not is_root() or ident.get("uid") in (None, 0, NOBODY):
        return
    uid, gid = int(ident["uid"]), int(ident["gid"])
    if not _has_processes(uid):
        return
    import subprocess

    try:
        # /bin/sh, not this Python: the interpreter may live where the throw-away uid cannot look.
        subprocess.run(["/bin/sh", "-c", "kill -9 -1"],
                       user=uid, group=gid, extra_groups=[], cwd="/", env={}, timeout=10,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        pass


def _has_processes(uid: int) -> bool:
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True  # cannot tell: reap to be safe
    wanted = str(uid).encode()
    for entry in entries:
        if entry.isdigit():  # not the owner of /proc/PID: a process that changed uid is not dumpable, root owns it
            try:
                with open(f"/proc/{entry}/status", "rb") as handle:
                    for line in handle:
                        if line.startswith(b"Uid:"):
                            if wanted in line.split()[1:]:
                                return True
                            break
            except OSError:
                continue
    return False


if __name__ == "__main__":  # pragma: no cover - a quick look at what this machine allows
    print({"root": is_root(), "full_uid_map": _full_uid_map(), "python_readable": python_readable_by_others()},
          file=sys.stderr)
