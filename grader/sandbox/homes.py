"""The fork servers' homes: a folder each in shared memory, and the sweep of those whose grader is gone.

A fork server's home (``/dev/shm/minimax-grader-zygote-*``) holds its log and every session's scratch: copies of
the submission, its captured output, what it wrote. ``ForkServer.close`` removes it; a grader killed first (the
out-of-memory killer, ``kill -9``, a machine's session ending) cannot, and shared memory is the machine's memory:
the test suite alone left one or two a run. So the process that makes a home holds a lock on a file in it for as
long as it uses it (``flock``: the kernel lets go of it when the process dies, however it dies), and each new home
made sweeps first every home of this user whose lock nobody holds.

A home with no lock file at all is another grader's between making the folder and locking it, or one of a version
that did not lock: swept only once it is an hour old.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no fork server there (forkserver.available), so no home to lock
    fcntl = None

PREFIX = "minimax-grader-zygote-"
ALIVE = ".alive"  # the lock file: locked while the home's grader uses it
UNLOCKED_AGE = 3600.0  # seconds after which a home without a lock file is taken as left behind


def memory_folder() -> str | None:
    """A RAM-backed folder for the sessions' scratch (thousands of small files made and removed), if any."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


def make() -> tuple[Path, int]:
    """A new home, locked by this process: ``(the folder, the lock's descriptor)``, for ``release``. The homes left
    behind by graders that are gone are swept first."""
    parent = memory_folder()
    sweep(parent)
    home = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
    # Locked under another name, then put in place: a sweep never finds the lock file there and free (a sweep that
    # took the lock for its look between the file's making and its locking would take the new home for a dead one)
    making = home / (ALIVE + ".new")
    fd = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.rename(making, home / ALIVE)
    return home, fd


def release(home: Path, fd: int) -> None:
    """The home removed, then its lock let go of (a sweep never sees it unlocked with its contents still there)."""
    shutil.rmtree(home, ignore_errors=True)
    try:
        os.close(fd)
    except OSError:
        pass


def sweep(parent: str | None, now: float | None = None) -> list[str]:
    """Remove the homes in ``parent`` (the temporary folder where None) that this user made and nobody uses: the
    names removed. Never follows a link, never touches another user's folder, and leaves a home alone whenever it
    cannot tell (a lock file it cannot open, a lock held)."""
    parent = parent or tempfile.gettempdir()
    now = time.time() if now is None else now
    removed = []
    try:
        names = [name for name in os.listdir(parent) if name.startswith(PREFIX)]
    except OSError:
        return removed
    for name in names:
        home = os.path.join(parent, name)
        try:
            found = os.lstat(home)
        except OSError:
            continue
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
            continue
        if _left_behind(home, found, now):
            shutil.rmtree(home, ignore_errors=True)
            removed.append(name)
    return removed


def _left_behind(home: str, found: os.stat_result, now: float) -> bool:
    try:
        fd = os.open(os.path.join(home, ALIVE), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC)
    except FileNotFoundError:
        return now - found.st_mtime > UNLOCKED_AGE
    except OSError:
        return False  # a link where the lock file should be, or no right to read it: not ours to judge
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # held: its grader is alive
    finally:
        os.close(fd)  # the lock taken for the look goes with it
    return True
