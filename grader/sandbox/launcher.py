"""What a launcher is: the ``View`` of one child's paths and the ``Launcher`` that starts it.

``launch`` chooses a launcher for this machine (``launch.choose``) and re-exports these names;
``bwrap`` builds its launcher on this one. Kept apart so that neither of those two needs the other
to know what a launcher is. Standard library only, but for ``identity`` and ``scratch``, asked lazily.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field


@dataclass
class View:
    """The paths one child needs: read-only inputs, capture files it writes, scratch folders."""

    readonly: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    scratch_root: str = ""
    scratch_dirs: list[str] = field(default_factory=list)


@dataclass
class Launcher:
    name: str
    isolated: bool  # does it apply resource limits and kill whole process groups?
    warning: str | None = None
    prefix: list[str] = field(default_factory=list)
    landlock: int = 0  # the Landlock ABI the child fences its files with (0: none)
    nests: bool = False  # does each child enter pid and user namespaces of its own (guard.nest)?

    @property
    def confined(self) -> bool:
        """Can the child reach nothing of the grader's, its neighbours' or the outputs'?

        True under bwrap (its own filesystem view), with Landlock, or as root (the child drops
        to a throw-away uid that owns nothing). False when the child keeps the grader's own uid
        and only file permissions stand in its way: it may then write what the grader writes.
        """
        from grader.sandbox import identity

        return self.name.startswith("bwrap") or self.landlock > 0 or (self.isolated and identity.is_root())

    def rlimits(self, limits) -> dict:
        if not self.isolated:
            return {}
        return {
            "RLIMIT_CPU": int(limits.cpu_seconds),
            "RLIMIT_AS": int(limits.memory_mib) << 20,
            "RLIMIT_FSIZE": int(limits.output_bytes) + (64 << 10),
            "RLIMIT_NOFILE": 64,
            "RLIMIT_CORE": 0,
            "RLIMIT_NPROC": NPROC,
        }

    def scratch_plan(self, dirs) -> dict:
        """How the child's scratch is capped (scratch.py): on Linux an isolated child mounts a tmpfs of
        the capped size over it; everywhere the parent also measures the folders (free where the tmpfs
        hides what is written, the cap itself where it could not be mounted)."""
        from grader.sandbox import scratch

        posix = self.isolated and os.name == "posix"
        return scratch.plan(mount=posix, watch=True, dirs=dirs, fence=posix)

    def prepare(self, scratch) -> dict:
        """Host-side set-up of one session's scratch; returns extra fields for the init request."""
        if not self.isolated:
            return {}
        from grader.sandbox import identity

        return identity.prepare(scratch)

    def python_argv(self) -> list[str]:
        return python_argv()

    def terminate(self, process: subprocess.Popen, fields: dict | None = None) -> None:
        """Kill the child, its process group and (posix as root) anything left under its uid."""
        self.kill(process)
        if self.isolated and fields:
            from grader.sandbox import identity

            identity.reap(fields)

    def start(self, argv: list[str], *, cwd: str, env: dict, stderr, view: View | None = None) -> subprocess.Popen:
        kwargs = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        elif hasattr(subprocess, "CREATE_NEW_PROCESS_GROUP"):
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
        if self.nests:  # the harness's last argument stays the capture file (the fork server relies on it)
            argv = argv[:-1] + [NEST_FLAG, argv[-1]]
        return subprocess.Popen(
            self.prefix + argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, close_fds=True, **kwargs,
        )

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """Kill the child and everything it started (its process group on POSIX)."""
        if process.poll() is None or os.name == "posix":
            try:
                if os.name == "posix":
                    os.killpg(process.pid, signal.SIGKILL)
                else:
                    process.kill()
            except (ProcessLookupError, PermissionError, OSError):
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


NPROC = 32  # tasks (processes and threads) the child's uid may have: a fork bomb stops here
NEST_FLAG = "--own-namespaces"
PID_NEST_FLAG = "--own-pid-namespace"  # the harness's: a pid namespace alone (an ordinary user's bwrap child)


# Every child hashes strings with this one seed: the order of a set of strings, and everything a submission
# computes from it, is the same in every child of every run (a regrade, a student's self-check and the class's
# grading agree; a tournament replays). Python reads the seed from the environment alone, so the child runs
# ``-s -P`` rather than ``-I`` (which is ``-E -s -P``: ignore every PYTHON* variable): the environment is the
# grader's own, written whole (``child_env``), and holds no PYTHON* variable but this one.
HASH_SEED = "0"
CHILD_FLAGS = ("-s", "-P", "-S", "-B")


def python_argv(executable: str | None = None) -> list[str]:
    """How a child's interpreter is started (``executable``: bwrap's, which may differ from the grader's)."""
    return [executable or sys.executable, *CHILD_FLAGS]


def child_env(home, temporary) -> dict:
    """The whole environment a child (or the fork server its children come from) starts with: nothing of the
    grader's own but ``PATH`` (and ``SYSTEMROOT`` on Windows, without which its sockets fail)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "TMPDIR": str(temporary),
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": HASH_SEED}
    if os.name == "nt":
        env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", "")
    return env
