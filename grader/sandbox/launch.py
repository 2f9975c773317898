"""How the child process is started: the one seam for everything platform-specific.

``posix`` (Linux, macOS): a new session (so the whole process group can be killed) and
resource limits the child lowers on itself before loading student code. ``spawn``: the
portable fallback (Windows, or forced with ``MINIMAX_GRADER_SANDBOX=spawn``): a plain child
process, no resource limits, only the grader's wall-clock timeout. Everything else (channel,
capture, timeouts, verdicts) is the same for every launcher.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field


@dataclass
class Launcher:
    name: str
    isolated: bool  # does it apply resource limits and kill whole process groups?
    warning: str | None = None
    prefix: list[str] = field(default_factory=list)

    def rlimits(self, limits) -> dict:
        if not self.isolated:
            return {}
        return {
            "RLIMIT_CPU": int(limits.cpu_seconds),
            "RLIMIT_AS": int(limits.memory_mib) << 20,
            "RLIMIT_FSIZE": int(limits.output_bytes) + (64 << 10),
            "RLIMIT_NOFILE": 64,
            "RLIMIT_CORE": 0,
        }

    def start(self, argv: list[str], *, cwd: str, env: dict, stderr) -> subprocess.Popen:
        kwargs = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        elif hasattr(subprocess, "CREATE_NEW_PROCESS_GROUP"):
            kwargs["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP
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


SPAWN_WARNING = (
    "running student code in a plain child process: no resource limits, no filesystem isolation; "
    "only the wall-clock timeout protects this machine"
)


def choose(requested: str | None = None) -> Launcher:
    requested = requested or os.environ.get("MINIMAX_GRADER_SANDBOX") or "auto"
    if requested == "spawn" or (requested == "auto" and os.name != "posix"):
        return Launcher("spawn", isolated=False, warning=SPAWN_WARNING)
    if requested in ("auto", "posix"):
        return Launcher("posix", isolated=True)
    raise ValueError(f"unknown sandbox {requested!r} (choose auto, posix or spawn)")


def python_argv() -> list[str]:
    return [sys.executable, "-I", "-S", "-B"]
