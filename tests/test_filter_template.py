"""The system-call filter from a template: a fork server assembles the allowlist once and each child writes its own
pid into a copy (``allowlist.prepare``, ``program_for``), which must be the very program ``program`` assembles, for
the descriptors the children really guard."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT
from grader.sandbox import guard

SANDBOX = ROOT / "grader" / "sandbox"
PIDS = (1, 2, 77, 4242, 65535, 4194303, (1 << 31) - 1)


@pytest.fixture
def allowlist(monkeypatch):
    """The allowlist module with no template made yet (and none left behind for other tests)."""
    module = guard.allowlist()
    monkeypatch.setattr(module, "_TEMPLATES", {})
    monkeypatch.setattr(module, "_NO_THREADS", {})
    return module


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_a_template_gives_the_assembled_program_byte_for_byte(allowlist, machine):
    assert allowlist.prepare(machine, guard.CHILD_CHANNEL) is True
    for pid in PIDS:
        for channel in (guard.CHILD_CHANNEL, tuple(reversed(guard.CHILD_CHANNEL))):
            assert allowlist.program_for(pid, machine, channel) == allowlist.program(pid, machine, channel), pid
    # Only the pid's constants are written: as many as the child's pid appears, negated for kill's process group
    code, slots = allowlist._TEMPLATES[(machine, tuple(sorted(guard.CHILD_CHANNEL)))]
    assert slots and any(negated for _, negated in slots) and all(offset % 8 == 4 for offset, _ in slots)


def test_without_a_template_or_for_other_descriptors_the_program_is_assembled(allowlist, monkeypatch):
    machine = "x86_64"
    allowlist.prepare(machine, guard.CHILD_CHANNEL)
    assembled = []
    real = allowlist.program
    monkeypatch.setattr(allowlist, "program", lambda *args: assembled.append(args) or real(*args))
    assert allowlist.program_for(4242, machine, (3, 4)) == real(4242, machine, (3, 4))
    assert allowlist.program_for(0, machine, guard.CHILD_CHANNEL) == real(0, machine, guard.CHILD_CHANNEL)
    assert len(assembled) == 2
    allowlist.program_for(4242, machine, guard.CHILD_CHANNEL)
    assert len(assembled) == 2  # from the template: nothing assembled


def test_no_template_where_more_than_the_pid_differs(allowlist, monkeypatch):
    """Were the program's shape to depend on the pid (a jump that moves), patching constants would be wrong: no
    template then, and every child assembles its own."""
    real = allowlist.program

    def shifting(pid, machine, channel=()):
        code = real(pid, machine, channel)
        return code + code[:8] * (pid % 3)

    monkeypatch.setattr(allowlist, "program", shifting)
    assert allowlist.prepare("x86_64", guard.CHILD_CHANNEL) is False
    assert allowlist._TEMPLATES == {}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the filter is Linux's")
@pytest.mark.parametrize("sandbox", ["bwrap", "posix"])
def test_a_fork_server_child_guards_the_descriptors_its_template_is_made_for(sandbox):
    """``grade`` (fork server): the descriptors a child may not duplicate are ``guard.CHILD_CHANNEL``, and the child
    holds the template the fork server made for them, so it patches that rather than assemble its own."""
    if sandbox == "bwrap":
        from grader.sandbox import bwrap

        if bwrap.problem():
            pytest.skip(f"bubblewrap unusable here: {bwrap.problem()}")
    work = Path(tempfile.mkdtemp(prefix="minimax-template-"))
    try:
        klass = work / "class"
        klass.mkdir()
        shutil.copyfile(ROOT / "fixtures" / "probes" / "guarded_descriptors.py", klass / "probe.py")
        env = {**os.environ, "MINIMAX_GRADER_CACHE": str(work / "cache")}
        done = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out",
                               str(work / "out"), "--sandbox", sandbox, "--examples", "2", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
        assert done.returncode == 0, done.stderr[-1500:]
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (entry,) = document["submissions"]
    assert entry["sandbox"]["mode"] == f"{sandbox}+fork-server"
    text = " ".join(c["message"] for c in entry["checks"])
    seen = text.split("SEEN[", 1)[1].split("]", 1)[0]
    assert tuple(int(number) for number in seen.split()) == guard.CHILD_CHANNEL
    made = text.split("TEMPLATES[", 1)[1].split("]", 1)[0]
    # made by the fork server, before the fork, and the child's own filter patched from it
    assert made == " ".join(map(str, guard.CHILD_CHANNEL)) + " used 1"
