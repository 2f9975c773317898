"""Choosing the sandbox: whether bubblewrap works is found out by starting it, and that probe runs in
the background while a check loads its exercise and bank, with the same answer as when it is waited for."""

from __future__ import annotations

import sys

import pytest

from grader.sandbox import bwrap, launch

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


@pytest.fixture
def fresh_probe(monkeypatch):
    """A process that has not probed yet, with a stand-in for bwrap's probe command."""
    bwrap.problem.cache_clear()
    monkeypatch.setattr(bwrap, "_probe", None)
    monkeypatch.setattr(bwrap.shutil, "which", lambda name: "/usr/bin/" + name)
    yield
    bwrap.problem.cache_clear()


def _probe_says(monkeypatch, code: str) -> list:
    started = []

    def argv(caps=True):
        started.append(True)
        return [sys.executable, "-c", code]

    monkeypatch.setattr(bwrap, "_probe_argv", argv)
    return started


@pytest.mark.parametrize("early", [True, False])
def test_a_working_probe_says_so_started_early_or_not(fresh_probe, monkeypatch, early):
    started = _probe_says(monkeypatch, "pass")
    if early:
        bwrap.start_probe()
        assert started and bwrap._probe is not None
    assert bwrap.problem() is None
    assert len(started) == 1 and bwrap._probe is None  # one probe, collected


@pytest.mark.parametrize("early", [True, False])
def test_a_refusing_probe_gives_its_last_line_started_early_or_not(fresh_probe, monkeypatch, early):
    _probe_says(monkeypatch, "import sys; sys.stderr.write('setting up uid map: Permission denied\\n'); sys.exit(1)")
    if early:
        bwrap.start_probe()
    assert bwrap.problem() == "bwrap cannot start a sandbox here: setting up uid map: Permission denied"


def test_no_probe_is_started_where_bwrap_is_not_asked_for(fresh_probe, monkeypatch):
    started = _probe_says(monkeypatch, "pass")
    launch.start_choosing("posix")
    launch.start_choosing("spawn")
    assert not started
    launch.start_choosing("auto")
    assert started == [True]
    bwrap.problem()  # collect it


def test_a_missing_bwrap_starts_nothing(fresh_probe, monkeypatch):
    started = _probe_says(monkeypatch, "pass")
    monkeypatch.setattr(bwrap.shutil, "which", lambda name: None)
    bwrap.start_probe()
    assert not started and bwrap.problem().startswith("bwrap is not installed")


def test_a_check_starts_the_probe_before_it_loads_the_exercise(fresh_probe, monkeypatch):
    """The probe (a sandboxed Python of its own) overlaps the loading of the exercise and its bank."""
    from grader.doors import api
    from grader.judging import exercise as exercises

    started = _probe_says(monkeypatch, "import sys; sys.exit('no user namespaces here')")  # graded by posix: anywhere
    seen_at_load = []
    real_load = exercises.load
    monkeypatch.setattr(exercises, "load", lambda *a, **k: seen_at_load.append(bool(started)) or real_load(*a, **k))
    result = api.check(ROOT / "fixtures" / "submissions" / "nim" / "correct" / sorted(
        p.name for p in (ROOT / "fixtures" / "submissions" / "nim" / "correct").glob("*.py"))[0], "nim", sandbox="auto")
    assert seen_at_load == [True]
    assert result.status == "passed"


@pytest.mark.parametrize("command, heavy", [("check", "grader.judging.judge"), ("grade", "grader.bulk.batch")])
def test_the_command_line_starts_the_probe_before_it_imports_the_rest(command, heavy, tmp_path):
    """``minimax-grader check`` spends its first tenth of a second importing the grader: the probe runs meanwhile
    (and ``grade``'s, before its workers start probing for themselves)."""
    import subprocess

    sample = sorted((ROOT / "fixtures" / "submissions" / "nim" / "correct").glob("*.py"))[0]
    args = [command, str(sample), "--exercise", "nim"] + (["-f", "json"] if command == "check" else
                                                          ["--out", str(tmp_path / "out"), "--jobs", "1",
                                                           "--unconfined-ok"])  # also where nothing confines
    script = (
        "import sys\n"
        "from grader.sandbox import launch\n"
        "seen, real = [], launch.start_choosing\n"
        f"launch.start_choosing = lambda s=None: (seen.append({heavy!r} in sys.modules), real(s))[1]\n"
        "from grader.doors.cli import main\n"
        f"sys.argv = ['minimax-grader'] + {args!r}\n"
        "try:\n    main()\nexcept SystemExit as done:\n    print('SEEN', seen[:1], done.code, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert "SEEN [False] 0" in done.stderr, done.stderr[-2000:]


def test_a_pool_worker_starts_the_probe_before_it_loads_the_exercise(fresh_probe, monkeypatch):
    from grader.bulk import worker
    from grader.judging import exercise as exercises

    started = _probe_says(monkeypatch, "pass")
    seen_at_load = []
    real_load = exercises.load
    monkeypatch.setattr(exercises, "load", lambda *a, **k: seen_at_load.append(bool(started)) or real_load(*a, **k))
    job = {"exercise": "nim", "seed": 26, "sandbox": "auto"}
    exercise, bank, launcher = worker._load(job, worker._prepare(job))
    assert seen_at_load == [True] and exercise.id == "nim" and launcher.name == "bwrap"  # the stand-in probe worked


def test_the_fallback_warning_says_when_the_standard_library_is_out_of_the_child_s_reach(monkeypatch):
    """As root, the child drops to a throw-away uid: where other users cannot read this Python (a pyenv under a
    private /root), it imports only the standard modules loaded for it first, and the warning says so (a student's
    ``import logging`` then fails on this machine, not in their code)."""
    from grader.sandbox import bwrap, identity

    monkeypatch.setattr(identity, "is_root", lambda: True)
    monkeypatch.setattr(identity, "python_readable_by_others", lambda: False)
    private = bwrap.fallback_warning("it was switched off")
    monkeypatch.setattr(identity, "python_readable_by_others", lambda: True)
    readable = bwrap.fallback_warning("it was switched off")
    assert "other users cannot read this Python" in private and "identity.PRELOAD" in private
    assert readable.endswith("a throw-away uid and a system-call allowlist")


def test_a_session_the_diagnosis_opens_uses_the_sandbox_the_submission_was_given():
    """``check --sandbox posix`` (or a grade's fork server over bwrap): the diagnosis's second session (the asking
    driver, ``asked_again``) started whatever the machine's default was (the 128th helper's review)."""
    from grader.sandbox import launch
    from grader.sandbox.launcher import Launcher

    assert launch.choose_like(Launcher("posix", isolated=True)).name == "posix"
    assert launch.choose_like(Launcher("spawn", isolated=False)).name == "spawn"
    over_bwrap = launch.choose_like(Launcher("bwrap+fork-server", isolated=True))
    assert over_bwrap.name == launch.choose("bwrap").name  # bwrap where it runs, else its own fallback
    assert launch.choose_like(None).name == launch.choose().name
