"""Holes a review found, each closed, each test failing where its fix is taken out.

1. Under the posix launcher a student's *call* is not fenced. The harness starts its runner thread
(runner.py: the student's calls run there) before the guard's lock-down, and Landlock
(landlock_restrict_self) and the guard's seccomp filter (prctl, no TSYNC) bind only the thread that
installs them and the threads it starts later. So code at import time (main thread) is fenced, but
code inside ``minimax`` (the runner thread) may write wherever the child's uid may (here: a
world-writable folder outside its scratch) and open sockets. Under root the uid drop (glibc changes
every thread) still holds; without root, Landlock was the only fence. Only scratch.fence (new
namespaces and mounts refused) reached every thread, with TSYNC. Closed: the runner and watchdog
threads start after ``lock_down`` (harness.start_threads), and the allowlist is installed with TSYNC.

2. A forged ``grader_fault``. Student code running at import can write a load reply of its own
(``{"ok": false, "grader_fault": ...}``, the nonce and descriptor are in its memory, the load is
request 1) and exit: the parent takes it for the grader's own failure, so ``grade`` stores nothing,
exits 3 and fails the same way on every run. Only a frame sent before any student code runs can
say "the grader failed". Closed: the harness tells the grader "student code starts" (a note) before
the submission's first line, and a ``grader_fault`` after that note is the submission's tampering.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

CALL = (
    "import socket\n"
    "def minimax(node, max_depth, player_a_moves):\n"
    "    done = []\n"
    "    try:\n"
    "        open({target!r}, 'w').write('x'); done.append('wrote outside')\n"
    "    except OSError:\n"
    "        pass\n"
    "    try:\n"
    "        socket.socket().close(); done.append('socket')\n"
    "    except OSError:\n"
    "        pass\n"
    "    raise RuntimeError('did: ' + ','.join(done))\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux")
def test_a_call_is_fenced_like_the_import(tmp_path):
    from grader.doors import api
    from grader.sandbox import landlock

    if landlock.abi() == 0:
        pytest.skip("no Landlock here")
    outside = Path(tempfile.mkdtemp(prefix="minimax-outside-"))
    os.chmod(outside, 0o1777)
    try:
        target = outside / "written-from-a-call.txt"
        path = tmp_path / "call.py"
        path.write_text(CALL.format(target=str(target)), encoding="utf-8")
        result = api.check(path, "ctp-26", examples=0, sandbox="posix")
        text = " | ".join(c.message for c in result.checks)
        assert "did: " in text, text
        assert not target.exists() and "wrote outside" not in text and "socket" not in text.split("did: ")[1], text
    finally:
        for child in outside.iterdir():
            child.unlink()
        outside.rmdir()


FORGED_FAULT = (
    "import gc, json, os\n"
    "for thing in gc.get_objects():\n"
    "    try:\n"
    "        if isinstance(getattr(thing, 'res_fd', None), int) and isinstance(getattr(thing, 'nonce', None), str):\n"
    "            fault = 'the sandbox could not be set up: forged'\n"
    "            payload = json.dumps({'ok': False, 'grader_fault': fault}).encode()\n"
    "            os.write(thing.res_fd, b'MMG1 %s 1 %d\\n' % (thing.nonce.encode(), len(payload)) + payload)\n"
    "            os._exit(0)\n"
    "    except Exception:\n"
    "        continue\n"
    "def minimax(node, max_depth, player_a_moves):\n"
    "    return 0\n")


def test_a_forged_grader_fault_is_the_forgers_error(tmp_path):
    from grader.bulk import batch

    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "forger.py").write_text(FORGED_FAULT, encoding="utf-8")
    outcome = batch.grade([klass], "ctp-26", tmp_path / "out", seed=26, jobs=1, examples=0)
    assert outcome.failures == [], outcome.failures
