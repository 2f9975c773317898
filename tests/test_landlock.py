"""The posix sandbox without bubblewrap: Landlock fences the child's files, and bulk grading refuses
to run a class unconfined unless told.

Landlock needs Linux 5.13+; ``MINIMAX_GRADER_LANDLOCK=off`` makes the grader act as if it were
missing, so the "no Landlock" policy is tested on machines that have it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT
from grader.doors import api
from grader.sandbox import landlock, launch

HAVE_LANDLOCK = landlock.abi() > 0
needs_landlock = pytest.mark.skipif(not HAVE_LANDLOCK, reason="this kernel offers no Landlock (Linux 5.13+)")

PROBE = '''
import os
TARGETS = {targets!r}
reached = []
for path in TARGETS:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        reached.append("read " + path)
    except OSError:
        pass
    try:
        if os.path.isdir(path):
            open(os.path.join(path, "planted.txt"), "w").write("x")
        else:
            open(path, "ab").write(b"x")
        reached.append("wrote " + path)
    except OSError:
        pass
try:
    open("mine.txt", "w").write("scratch is mine")
    reached.append("own scratch")
except OSError:
    pass
import random, json, decimal, fractions  # the standard library still loads


def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("REACHED[" + "; ".join(reached) + "]")
'''


def _probe(tmp_path: Path, targets: list[str]) -> Path:
    path = tmp_path / "submissions" / "probe.py"
    path.parent.mkdir(parents=True)
    path.write_text(PROBE.format(targets=targets), encoding="utf-8")
    return path


def _reached(result) -> str:
    text = " ".join(c.message for c in result.checks) + (result.error or "")
    assert "REACHED[" in text, text[:400]
    return text.split("REACHED[", 1)[1].split("]", 1)[0]


def _targets(tmp_path: Path) -> list[str]:
    neighbour = tmp_path / "submissions" / "neighbour.py"
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.sqlite").write_bytes(b"SQLite format 3\x00")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("x\n")
    import sysconfig

    return [str(tmp_path / "submissions"), str(neighbour), str(out), str(out / "gradebook.sqlite"), str(home),
            str(home / ".bashrc"), "/proc/self/status", f"/proc/{os.getpid()}/cmdline", str(ROOT / "reference"),
            sysconfig.get_paths()["purelib"], tempfile.gettempdir(), os.path.expanduser("~")]


def test_abi_can_be_switched_off(monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_LANDLOCK", "off")
    assert landlock.abi() == 0
    launch._warned.clear()
    chosen = launch.choose("posix")
    assert chosen.landlock == 0 and "Landlock is not available either" in chosen.warning


def test_rules_grant_python_but_not_installed_packages(tmp_path):
    import sysconfig

    rules = landlock.rules([str(tmp_path / "submission")], [str(tmp_path / "work")])
    assert rules["write"] == [str(tmp_path / "work")]
    assert str(tmp_path / "submission") in rules["read"]
    stdlib = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_exec_prefix})["stdlib"]
    assert any(p.startswith(stdlib) for p in rules["read"])
    assert not any(Path(p).name in ("site-packages", "dist-packages") for p in rules["read"])
    assert not any(p in rules["read"] for p in ("/", "/tmp", "/proc", "/home", "/root", str(ROOT)))


def test_library_folders_leave_out_a_pythons_installed_packages(tmp_path):
    """Fedora's ``/usr/lib64`` holds ``python3.X/site-packages``: the shared libraries and the
    standard library there are granted, the installed packages (the grader's own) are not."""
    fedora, debian = tmp_path / "usr-lib64", tmp_path / "usr-lib-multiarch"
    for path in (fedora / "libc.so.6", fedora / "python3.11" / "os.py", fedora / "python3.11" / "lib-dynload" / "x.so",
                 fedora / "python3.11" / "site-packages" / "grader" / "__init__.py", debian / "libz.so.1"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    granted = landlock.library_folders([str(fedora), str(debian), str(tmp_path / "missing")])
    assert str(debian) in granted
    assert {str(fedora / "libc.so.6"), str(fedora / "python3.11" / "os.py"), str(fedora / "python3.11" / "lib-dynload")} <= set(granted)
    site = fedora / "python3.11" / "site-packages"
    assert not [p for p in granted if site.is_relative_to(p) or Path(p).is_relative_to(site)], granted


@needs_landlock
def test_posix_child_reaches_only_its_own_scratch(tmp_path):
    (tmp_path / "submissions").mkdir()
    targets = _targets(tmp_path)
    (tmp_path / "submissions" / "neighbour.py").write_text("def minimax(n, d, p):\n    return 0\n")
    probe = tmp_path / "submissions" / "probe.py"
    probe.write_text(PROBE.format(targets=targets), encoding="utf-8")
    result = api.check(probe, "ctp-26", examples=3, sandbox="posix")
    assert result.sandbox["mode"] == "posix" and "Landlock (ABI" in result.sandbox["warning"]
    assert _reached(result) == "own scratch"
    assert (tmp_path / "submissions" / "neighbour.py").read_text() == "def minimax(n, d, p):\n    return 0\n"


def test_without_landlock_the_same_probe_reaches_more(tmp_path, monkeypatch):
    """The probe is not blind: with Landlock switched off it does see this user's files (as root it
    has dropped to a throw-away uid, so it may read but not write them)."""
    monkeypatch.setenv("MINIMAX_GRADER_LANDLOCK", "off")
    targets = ["/proc/self/status", str(ROOT / "reference")]
    probe = _probe(tmp_path, targets)
    result = api.check(probe, "ctp-26", examples=3, sandbox="posix")
    assert "read /proc/self/status" in _reached(result)


@needs_landlock
def test_fork_server_child_is_fenced_after_the_fork(tmp_path):
    """Each child the warm zygote forks fences itself with its own scratch: not the server's home,
    where every other session's scratch lives."""
    from grader.judging import bank as banks
    from grader.judging import exercise as exercises
    from grader.judging import judge, submissions
    from grader.sandbox import forkserver

    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=5, examples=3)
    warm = forkserver.ZygoteLauncher.wrap(launch.choose("posix"), exercise, bank)
    try:
        home = warm.server.scratch_parent
        sibling = Path(home) / "minimax-grader-sibling"
        sibling.mkdir()
        (sibling / "secret.txt").write_text("another session's file\n")
        probe = _probe(tmp_path, [home, str(sibling), str(sibling / "secret.txt"), str(Path(home) / "zygote.log")])
        first = judge.grade(submissions.load(probe), exercise, bank, warm)
        second = judge.grade(submissions.load(probe), exercise, bank, warm)
        assert (sibling / "secret.txt").read_text() == "another session's file\n"
    finally:
        warm.close()
    assert first.sandbox["mode"] == "posix+fork-server"
    assert _reached(first) == "own scratch" and _reached(second) == "own scratch"


def test_refusal_policy_names_the_way_out(monkeypatch):
    from grader.sandbox import identity

    monkeypatch.setattr(identity, "is_root", lambda: False)
    monkeypatch.delenv(launch.UNCONFINED_ENV, raising=False)
    bare = launch.Launcher("posix", isolated=True, landlock=0)
    refusal = launch.refuse_unconfined(bare)
    assert refusal and "--unconfined-ok" in refusal and "\n" not in refusal
    assert launch.refuse_unconfined(bare, allowed=True) is None
    assert launch.refuse_unconfined(launch.Launcher("spawn", isolated=False)) is not None
    assert launch.refuse_unconfined(launch.Launcher("posix", isolated=True, landlock=3)) is None
    monkeypatch.setenv(launch.UNCONFINED_ENV, "1")
    assert launch.refuse_unconfined(bare) is None


def test_grade_refuses_a_class_unconfined_as_an_ordinary_user(tmp_path):
    """As an unprivileged user with neither bwrap nor Landlock, ``grade`` stops with one clear line;
    ``--unconfined-ok`` grades anyway, and says loudly what is unprotected."""
    from test_hostile import NOBODY, _unprivileged_python

    work = Path(tempfile.mkdtemp(prefix="minimax-refusal-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        klass.mkdir()
        honest = (ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "published_style.py").read_bytes()
        (klass / "alice.py").write_bytes(honest)
        (work / "cache").mkdir()
        if os.geteuid() == 0:
            for path in [work, *work.rglob("*")]:
                os.chown(path, NOBODY, NOBODY)
        command, env = _unprivileged_python(work)
        env = {**env, "MINIMAX_GRADER_LANDLOCK": "off"}
        argv = command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                          "--sandbox", "posix", "--examples", "5", "-j", "1"]
        refused = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=work, timeout=300)
        assert refused.returncode == 2, refused.stderr[-600:]
        assert "refusing to grade" in refused.stderr and "--unconfined-ok" in refused.stderr
        assert not (work / "out" / "results.json").exists()
        allowed = subprocess.run(argv + ["--unconfined-ok"], capture_output=True, text=True, env=env, cwd=work,
                                 timeout=600)
        assert allowed.returncode == 0, allowed.stderr[-600:]
        assert "Landlock is not available either" in allowed.stderr
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
        assert [s["status"] for s in document["submissions"]] == ["passed"]
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
