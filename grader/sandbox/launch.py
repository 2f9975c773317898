"""How the child process is started: the one seam for everything platform-specific.

``bwrap`` (Linux with bubblewrap that can start here): the child sees a read-only system, its
own scratch as the only writable place, no network and its own process ids; see bwrap.py.
``posix`` (Linux, macOS, or where bwrap is missing): a new session (so the whole process
group can be killed) and resource limits the child lowers on itself before loading student
code; as root the child also drops to a throw-away uid; on Linux 5.13+ it fences its own files
with Landlock (landlock.py: it reads Python, the harness and its submission, writes only its
scratch). Where none of bwrap, Landlock or root keeps a child from the grader's files,
``refuse_unconfined`` says why bulk grading should not start. ``spawn``: the portable fallback
(Windows, or forced with ``MINIMAX_GRADER_SANDBOX=spawn``): a plain child process, no
resource limits, only the grader's wall-clock timeout. Everything else (channel, capture,
timeouts, verdicts) is the same for every launcher.

A launcher sees the session through a ``View``: which host paths the child must read, which
capture files it writes and which folders are its scratch. Launchers that do not build a
filesystem view (posix, spawn, a fork server) simply ignore it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

# What a launcher is lives in launcher.py (bwrap.py builds on it too); it is part of this seam's names.
from grader.sandbox.launcher import NEST_FLAG, NPROC, Launcher, View, child_env, python_argv  # noqa: F401


SPAWN_WARNING = (
    "running student code in a plain child process: no resource limits, no filesystem isolation; "
    "only the wall-clock timeout protects this machine"
)


_warned: set[str] = set()


def warn_once(text: str) -> None:
    """Say it loudly on stderr, once per grader process (the JSON carries it on every result)."""
    if text not in _warned:
        _warned.add(text)
        print(f"minimax-grader: WARNING: {text}", file=sys.stderr, flush=True)


def _requested(requested: str | None) -> str:
    return requested or os.environ.get("MINIMAX_GRADER_SANDBOX") or "auto"


def _asks_bwrap(requested: str) -> bool:
    return requested in ("auto", "bwrap") and os.name == "posix" and sys.platform.startswith("linux")


def start_choosing(requested: str | None = None) -> None:
    """Start what ``choose`` will wait for (whether bwrap works), so a door can load its exercise and
    bank meanwhile; ``choose`` gives the same answer with or without it."""
    if _asks_bwrap(_requested(requested)):
        from grader.sandbox import bwrap

        bwrap.start_probe()


def choose(requested: str | None = None) -> Launcher:
    requested = _requested(requested)
    if requested == "spawn" or (requested == "auto" and os.name != "posix"):
        warn_once(SPAWN_WARNING)
        return Launcher("spawn", isolated=False, warning=SPAWN_WARNING)
    if requested not in ("auto", "bwrap", "posix"):
        raise ValueError(f"unknown sandbox {requested!r} (choose auto, bwrap, posix or spawn)")
    from grader.sandbox import bwrap

    if requested == "posix":
        problem = "it was switched off (sandbox 'posix' requested)"
    elif not sys.platform.startswith("linux"):
        problem = "bubblewrap runs on Linux only"
    else:
        problem = bwrap.problem()
        if problem is None:
            return bwrap.BwrapLauncher()
    from grader.sandbox import landlock

    version = landlock.abi()
    from grader.sandbox import identity

    nests = not identity.is_root() and own_namespaces()
    warning = bwrap.fallback_warning(problem, nests) + (landlock_note(version) if version else NO_LANDLOCK)
    warn_once(warning)
    return Launcher("posix", isolated=True, warning=warning, landlock=version, nests=nests)


def choose_like(launcher) -> Launcher:
    """A launcher of the same kind as ``launcher`` (its sandbox, without a fork server: a session started
    for the diagnosis runs beside the submission's own), or the default one where there is none."""
    kind = str(getattr(launcher, "name", "") or "").split("+")[0]
    return choose(kind if kind in ("bwrap", "posix", "spawn") else None)


_namespaces: list[bool] = []


def own_namespaces() -> bool:
    """Can a child of this user enter pid and user namespaces of its own here (guard.nest)?

    Asked once, of a throw-away child (unshare refuses a threaded process, and the grader may run
    threads). ``MINIMAX_GRADER_NAMESPACES=off`` answers no: the allowlist-only case is tested on
    machines that have them.
    """
    if os.environ.get("MINIMAX_GRADER_NAMESPACES", "").lower() in ("0", "off", "no", "false"):
        return False
    if not sys.platform.startswith("linux"):
        return False
    if not _namespaces:
        code = ("import ctypes, sys\n"
                "sys.exit(0 if ctypes.CDLL(None, use_errno=True).unshare(0x30000000) == 0 else 1)\n")
        try:
            done = subprocess.run([sys.executable, "-I", "-S", "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=30)
            _namespaces.append(done.returncode == 0)
        except (OSError, subprocess.SubprocessError):
            _namespaces.append(False)
    return _namespaces[0]


def landlock_note(version: int) -> str:
    return (f"; Landlock (ABI {version}) confines its files: it reads only Python, the harness and its own "
            "submission, and writes only its own scratch folder")


NO_LANDLOCK = ("; Landlock is not available either (Linux 5.13+ needed), so nothing but file permissions keeps "
               "it from writing or deleting what this user may write: other submissions, the output folder, "
               "the gradebook, the home folder")

UNCONFINED_ENV = "MINIMAX_GRADER_UNCONFINED_OK"


def refuse_unconfined(launcher: Launcher, allowed: bool = False) -> str | None:
    """Bulk grading's policy: one line saying why it will not start, or None to go ahead.

    Grading a whole class as the grader's own user with no filesystem fence would let one
    submission destroy another's file or the results; ``grade`` therefore stops unless told
    (``--unconfined-ok`` or ``MINIMAX_GRADER_UNCONFINED_OK=1``) that this is accepted.
    """
    if launcher.confined or allowed or os.environ.get(UNCONFINED_ENV, "").lower() in ("1", "yes", "true", "on"):
        return None
    return (f"refusing to grade: the '{launcher.name}' sandbox cannot keep one submission from writing or deleting "
            "another's files, the output folder or the gradebook here (no bubblewrap, no Landlock, not root); "
            f"install bubblewrap, use Linux 5.13+, or pass --unconfined-ok (or set {UNCONFINED_ENV}=1) to accept it")


# -- one CPU for a session's two processes ------------------------------------------------------------

def pin_to_this_cpu() -> tuple | None:
    """Bind the calling thread to the CPU it runs on now (Linux); returns what ``unpin`` needs to give it
    back its CPUs (the thread and the CPUs it could use), or None where nothing was done (another
    platform, one CPU, a refusal).

    A session is a conversation: every question the child asks wakes the grading process and every
    answer wakes the child, thousands of times per submission. Where the two run on different CPUs
    each wake-up crosses CPUs (an interrupt to the other one, dear on a virtual machine); on one
    CPU the woken process simply runs next. The child inherits the binding when it is started
    (a fork server's child is bound by the server, ``ZygoteLauncher``); ``Session.close`` undoes it,
    so a grading thread serves its next submission wherever the scheduler puts it then.
    """
    setter = getattr(os, "sched_setaffinity", None)
    if setter is None:
        return None
    try:
        allowed = frozenset(os.sched_getaffinity(0))
        cpu = current_cpu()
        if len(allowed) < 2 or cpu not in allowed:
            return None
        thread = threading.get_native_id()
        setter(thread, {cpu})
    except OSError:
        return None
    return thread, allowed


def unpin(pinned: tuple | None) -> None:
    """The CPUs of the thread ``pin_to_this_cpu`` bound, as they were (whichever thread closes the session)."""
    if pinned is not None:
        try:
            os.sched_setaffinity(*pinned)
        except OSError:
            pass  # that thread is gone


def current_cpu() -> int | None:
    """The CPU the calling thread runs on (Linux: /proc's ``processor`` field), None where unknown."""
    try:
        with open("/proc/thread-self/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        return None
