"""The walls between a child and everything else: what the system-call allowlist (guard.py) and the
child's own namespaces (nest.py) keep out of reach, tested with real children and a real kernel.

The attacks name other processes: prlimit, signals by every route (kill, tgkill, rt_sigqueueinfo,
pidfd), scheduling and priority of others. Every honest neighbour must keep its full score and
``grade`` must finish, as root and as an unprivileged user, under bubblewrap and under posix with
Landlock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from grader.doors import api
from grader.sandbox import landlock

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

FENCES_IN_THE_CALL = '''
import ctypes, os, threading


def _look():
    libc = ctypes.CDLL(None, use_errno=True)
    seen = ["seccomp=%d" % libc.prctl(21, 0, 0, 0, 0)]
    try:
        open({outside!r}, "rb").read(1)
        seen.append("read outside")
    except OSError:
        seen.append("fenced")
    return " ".join(seen)


AT_LOAD = _look()


def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("SEEN[load: " + AT_LOAD + "; call: " + _look() + "]")
'''


def _seen(result) -> str:
    text = " ".join(c.message for c in result.checks) + (result.error or "")
    assert "SEEN[" in text, text[:400]
    return text.split("SEEN[", 1)[1].split("]", 1)[0]


@linux
@pytest.mark.skipif(landlock.abi() == 0, reason="this kernel offers no Landlock (Linux 5.13+)")
def test_student_calls_run_inside_the_filter_and_the_fence(tmp_path):
    """The student's function runs on the runner thread: it must be as locked down as the module's
    top level (Landlock and a prctl seccomp filter bind only threads started after them)."""
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours\n")
    os.chmod(tmp_path, 0o755)
    os.chmod(outside, 0o644)
    probe = tmp_path / "probe.py"
    probe.write_text(FENCES_IN_THE_CALL.format(outside=str(outside)), encoding="utf-8")
    result = api.check(probe, "ctp-26", examples=2, sandbox="posix")
    assert _seen(result) == "load: seccomp=2 fenced; call: seccomp=2 fenced"
