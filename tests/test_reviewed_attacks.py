"""The attacks a review of the evidence design found (fixtures/submissions/reviewed/README.md), each
held to its honest twin's score (or to an honest verdict), under bubblewrap and posix + Landlock."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ROOT, SUBMISSIONS
from grader.doors import api

REVIEWED = SUBMISSIONS / "reviewed"
SANDBOXES = ["posix", pytest.param("bwrap", marks=pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap is not installed"))]
TWINS = [("mitm_unchanged.py", "mitm_unchanged_honest.py"), ("trace_cap_flood.py", "trace_cap_flood_honest.py"),
         ("nodemixin_key.py", "nodemixin_key_honest.py")]


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("attack, twin", TWINS)
def test_an_attack_never_beats_its_honest_twin(attack, twin, sandbox, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_SUBMISSION_TIMEOUT", "10")
    honest = api.check(REVIEWED / twin, "ctp-26", sandbox=sandbox, examples=20)
    forged = api.check(REVIEWED / attack, "ctp-26", sandbox=sandbox, examples=20)
    assert honest.error is None and honest.score == 9.0, (honest.score, honest.error)
    assert forged.score <= honest.score, (forged.score, forged.error)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_answers_never_read_cannot_hang_the_grader(sandbox, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_SUBMISSION_TIMEOUT", "4")
    started = time.monotonic()
    result = api.check(REVIEWED / "hang_unread_answers.py", "ctp-26", sandbox=sandbox, examples=5)
    assert time.monotonic() - started < 30
    assert (result.status, result.score) == ("error", 0.0) and "timed out" in result.error, result.error


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_an_honest_search_on_threads_is_never_tampering(sandbox):
    result = api.check(REVIEWED / "honest_threads_fast.py", "ctp-26", sandbox=sandbox, examples=20)
    assert "tamper" not in (result.error or ""), result.error
    assert result.status in ("passed", "failed"), result.error


def test_a_kit_question_a_game_long_costs_the_grader_nothing():
    started = time.monotonic()
    result = api.check(REVIEWED / "kit_deep_path.py", "connect-four", sandbox="posix", examples=5)
    assert (result.status, result.score) == ("error", 0.0), result.error
    assert time.monotonic() - started < 20


def test_output_captures_are_never_read_through_a_link():
    """An ordinary user's child under bubblewrap with the fork server owns its session folder: the
    captures it replaces by links to the reference and a neighbour's file are not read back."""
    from test_walls import _as, _usable, hand_over

    _usable("bwrap", landlock_on=True)
    work = Path(tempfile.mkdtemp(prefix="minimax-links-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        klass.mkdir()
        (work / "cache").mkdir()
        shutil.copyfile(REVIEWED / "stdout_symlink.py", klass / "alice.py")
        shutil.copyfile(sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[0], klass / "bob.py")
        hand_over(work)
        command, env = _as("nobody", work)
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                         "--sandbox", "bwrap", "--examples", "5", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=300)
        assert done.returncode == 0, done.stderr[-1500:]
        everything = "".join(p.read_text(errors="replace") for p in (work / "out").rglob("*") if p.is_file()
                             and p.suffix in (".json", ".html", ".md", ".txt", ".csv"))
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    reference = (ROOT / "reference" / "ctp_26.py").read_text(encoding="utf-8")
    secret_line = next(line for line in reference.splitlines() if line.strip().startswith("def "))
    assert secret_line not in everything
