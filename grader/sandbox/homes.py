"""The fork servers' homes: a folder each in shared memory, and the sweep of those whose grader is gone.

A fork server's home (``/dev/shm/minimax-grader-zygote-*``) holds its log and every session's scratch: copies of
the submission, its captured output, what it wrote. ``ForkServer.close`` removes it; a grader killed first (the
out-of-memory killer, ``kill -9``, a machine's session ending) cannot, and shared memory is the machine's memory:
the test suite alone left one or two a run. So the process that makes a home holds a lock on the folder itself for
as long as it uses it (``flock`` on its descriptor: the kernel lets go of it when the process dies, however it
dies), and each new home made sweeps first every home of this user whose lock nobody holds.

The folder itself, not a file in it: under bubblewrap the home is the fork server's writable folder, and a child
running as the grader's user could replace a lock file there with one nobody holds (the hundredth helper's find);
the folder is a mount point inside the sandbox, which no child can rename or replace. A home is swept only once it
is a minute old, so the moment between making the folder and locking it is never taken for a dead grader's.
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
YOUNG = 60.0  # seconds: an unlocked home younger than this may be one being made, and is left alone


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
    fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return home, fd


def release(home: Path, fd: int) -> None:
    """The home removed, then its lock let go of (a sweep never sees it unlocked with its contents still there).
    Once per ``make``: the caller forgets ``fd`` (a second close could close a descriptor reused since)."""
    _remove(str(home))
    try:
        os.close(fd)
    except OSError:
        pass


def sweep(parent: str | None, now: float | None = None) -> list[str]:
    """Remove the homes in ``parent`` (the temporary folder where None) that this user made and nobody uses: the
    names removed. Never follows a link, never touches another user's folder, and leaves a home alone whenever it
    cannot tell (a folder it cannot open, a lock held)."""
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
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid() or now - found.st_mtime < YOUNG:
            continue
        if _unlocked(home):
            _remove(home)
            removed.append(name)
    return removed


def _unlocked(home: str) -> bool:
    try:
        fd = os.open(home, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC)
    except OSError:
        return False  # replaced by a link meanwhile, or no right to open it: not ours to judge
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # held: its grader is alive
    finally:
        os.close(fd)  # the lock taken for the look goes with it
    return True


def _remove(home: str) -> None:
    """``rmtree`` that never raises: a tree deep enough makes 3.11's recursive walk raise RecursionError, which
    ``ignore_errors`` does not cover, and a home that cannot be removed must not cost the grader its start."""
    try:
        shutil.rmtree(home, ignore_errors=True)
    except Exception:  # noqa: BLE001 - RecursionError, and whatever else a left-behind tree holds
        pass
