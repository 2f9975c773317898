"""The sandbox's fences, one at a time: what the child sees, who it is, and what it cannot do.

Each test grades a tiny probe submission that reports what it found (on its captured
stdout, or in the message of the exception it raises) and checks the report.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from conftest import ROOT

LIMITS = {"MINIMAX_GRADER_LOAD_TIMEOUT": "5", "MINIMAX_GRADER_SUBMISSION_TIMEOUT": "10"}


def _bwrap_problem():
    if not sys.platform.startswith("linux"):
        return "bubblewrap is Linux-only"
    from grader.sandbox import bwrap

    return bwrap.problem()


def _launchers():
    """bwrap where it works; posix always (it is what the grader falls back to)."""
    found = [pytest.param("posix", id="posix")]
    found.append(pytest.param("bwrap", id="bwrap", marks=pytest.mark.skipif(
        _bwrap_problem() is not None, reason=f"bubblewrap unusable here: {_bwrap_problem()}")))
    return found


@pytest.fixture(autouse=True)
def limits(monkeypatch):
    for key, value in LIMITS.items():
        monkeypatch.setenv(key, value)


def grade(tmp_path: Path, source: str, sandbox: str, name: str = "probe.py"):
    from grader.doors import api

    path = tmp_path / name
    path.write_text(source)
    return api.check(path, "ctp-26", examples=0, sandbox=sandbox, shrink=False)


def first_message(result) -> str:
    return result.error or next(c.message for c in result.checks if c.status != "passed")


FORK_COUNTER = '''"""Forks sleeping children until the process limit says no."""
import os, time

def minimax(node, max_depth, player_a_moves):
    count = 0
    try:
        for _ in range(500):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            count += 1
    except OSError:
        pass
    raise RuntimeError(f"forked={count}")
'''


@pytest.mark.parametrize("sandbox", _launchers())
def test_process_limit_stops_a_fork_bomb_even_as_root(tmp_path, sandbox):
    from grader.sandbox import launch

    message = first_message(grade(tmp_path, FORK_COUNTER, sandbox))
    forked = int(message.split("forked=")[1].split()[0].rstrip(")"))
    assert forked < launch.NPROC, message


IDENTITY = '''"""Says who it is."""
import os

def minimax(node, max_depth, player_a_moves):
    raise RuntimeError(f"uid={os.getuid()} gid={os.getgid()} groups={os.getgroups()}")
'''


@pytest.mark.parametrize("sandbox", _launchers())
def test_child_never_runs_as_root_and_each_session_has_its_own_uid(tmp_path, sandbox):
    if os.geteuid() != 0:
        pytest.skip("the uid drop happens only when the grader runs as root")
    first = first_message(grade(tmp_path, IDENTITY, sandbox))
    second = first_message(grade(tmp_path, IDENTITY, sandbox, name="probe2.py"))
    uid = int(first.split("uid=")[1].split()[0])
    other = int(second.split("uid=")[1].split()[0])
    assert uid != 0 and "groups=[]" in first, first
    assert uid != other or uid == 65534, (first, second)  # 65534 only where the uid map is small


def escaper(marker: str) -> str:
    return f'''"""Leaves a grandchild behind in a session of its own, which a process-group kill misses."""
import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sh", ["sh", "-c", "sleep 60; : {marker}"])
    os._exit(0)
os.waitpid(pid, 0)

def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("left a grandchild behind")
'''


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("sandbox", _launchers())
def test_nothing_the_child_started_outlives_the_session(tmp_path, sandbox):
    if sandbox == "posix" and os.geteuid() != 0:
        pytest.skip("without root or bwrap a setsid() grandchild cannot be found again (a documented limit)")
    marker = f"minimax-escaper-{uuid.uuid4().hex}"
    result = grade(tmp_path, escaper(marker), sandbox)
    assert result.status != "passed"
    deadline = time.monotonic() + 30  # event-driven: ends as soon as they are gone; slack for a busy machine
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with(marker) == []


VIEW = '''"""Reports what it can see and write."""
import json, os, sys

def can_write(folder):
    try:
        with open(os.path.join(folder, "probe-file"), "w") as handle:
            handle.write("x")
        return True
    except OSError:
        return False

report = {
    "reference": os.path.exists(REFERENCE),
    "grader": os.path.exists(GRADER),
    "site_packages": [p for p in SITE if os.path.isdir(p) and os.listdir(p)],
    "home_writable": can_write(os.environ["HOME"]),
    "submission_writable": can_write(os.path.dirname(os.path.abspath(__file__))),
    "tmp": sorted(os.listdir("/tmp")),
    "proc": sorted(p for p in os.listdir("/proc") if p.isdigit()),
}
print("VIEW" + json.dumps(report))

def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("done")
'''


@pytest.mark.skipif(_bwrap_problem() is not None, reason=f"bubblewrap unusable here: {_bwrap_problem()}")
def test_bwrap_world_holds_no_reference_no_grader_no_packages(tmp_path):
    import site

    source = VIEW.replace("REFERENCE", repr(str(ROOT / "reference" / "ctp_26.py"))).replace(
        "GRADER", repr(str(ROOT / "grader" / "judging" / "judge.py"))).replace("SITE", repr(site.getsitepackages()))
    result = grade(tmp_path, source, "bwrap")
    line = next(l for l in result.output["stdout"].splitlines() if l.startswith("VIEW"))
    view = json.loads(line[4:])
    assert view["reference"] is False and view["grader"] is False
    assert view["site_packages"] == []
    assert view["home_writable"] is True and view["submission_writable"] is False
    assert len(view["proc"]) <= 3, view["proc"]  # bwrap's init, the harness, maybe a helper
    # Under /tmp only the grader's own folders, plus the checkout's top folder when the checkout
    # itself lives in /tmp (its harness and driver are bound read-only at their usual paths;
    # that the reference and the grader stay invisible there is asserted above).
    checkout = {ROOT.resolve().relative_to("/tmp").parts[0]} if ROOT.resolve().is_relative_to("/tmp") else set()
    assert all(name.startswith(("minimax-grader-", "minimax-grader-test-cache-")) or "cache" in name or name in checkout
               for name in view["tmp"]), view["tmp"]


def test_seccomp_filter_refuses_sockets_and_signals_to_others():
    code = (
        "import os, socket, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'grader' / 'sandbox')!r})\n"
        "import guard\n"
        "assert guard.install_filter(os.getpid())\n"
        "out = []\n"
        "try:\n    socket.socket()\n    out.append('socket')\nexcept PermissionError:\n    pass\n"
        "try:\n    os.kill(os.getppid(), 0)\n    out.append('kill parent')\nexcept PermissionError:\n    pass\n"
        "os.kill(os.getpid(), 0)\n"
        "print(out)\n"
    )
    if not sys.platform.startswith("linux") or os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip("the filter is written for Linux on x86_64 and aarch64")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_seccomp_filter_refuses_chmod_chown_utime_and_xattrs(tmp_path):
    """Landlock does not cover a file's mode, owner, times or extended attributes: the filter does.
    The probe owns the file, so without the filter every call would succeed."""
    target = tmp_path / "mine.txt"
    target.write_text("x")
    code = (
        "import os, stat, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'grader' / 'sandbox')!r})\n"
        "import guard\n"
        f"path = {str(target)!r}\n"
        "st = os.stat(path)\n"
        "attempts = {\n"
        "    'chmod': lambda: os.chmod(path, 0),\n"
        "    'chmod-nofollow': lambda: os.chmod(path, 0, follow_symlinks=False),\n"
        "    'fchmod': lambda: os.fchmod(fd, 0),\n"
        "    'chown': lambda: os.chown(path, st.st_uid, st.st_gid),\n"
        "    'lchown': lambda: os.lchown(path, st.st_uid, st.st_gid),\n"
        "    'fchown': lambda: os.fchown(fd, st.st_uid, st.st_gid),\n"
        "    'utime': lambda: os.utime(path, (0, 0)),\n"
        "    'futime': lambda: os.utime(fd, (0, 0)),\n"
        "    'setxattr': lambda: os.setxattr(path, 'user.probe', b'1'),\n"
        "    'removexattr': lambda: os.removexattr(path, 'user.probe'),\n"
        "}\n"
        "fd = os.open(path, os.O_RDONLY)\n"
        "assert guard.install_filter(os.getpid())\n"
        "let_through = []\n"
        "for name, attempt in attempts.items():\n"
        "    try:\n        attempt()\n        let_through.append(name)\n"
        "    except PermissionError:\n        pass\n"
        "    except OSError as exc:\n        let_through.append(f'{name} ({exc.strerror})')\n"
        "print(let_through)\n"
    )
    if not sys.platform.startswith("linux") or os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip("the filter is written for Linux on x86_64 and aarch64")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    assert stat.S_IMODE(target.stat().st_mode) != 0 and target.stat().st_mtime > 0


def test_filter_program_only_jumps_forward_on_every_architecture():
    sys.path.insert(0, str(ROOT / "grader" / "sandbox"))
    try:
        import guard
    finally:
        sys.path.pop(0)
    for machine in guard.allowlist().ARCHES:
        code = guard.filter_program(4242, machine)
        assert code and len(code) % 8 == 0 and len(code) // 8 < 4096  # BPF_MAXINSNS


def test_missing_or_broken_bwrap_falls_back_to_posix_loudly_once(tmp_path, monkeypatch, capsys):
    from grader.sandbox import bwrap, launch

    fake = tmp_path / "bin"
    fake.mkdir()
    script = fake / "bwrap"
    script.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ.get('PATH', '')}")
    bwrap.problem.cache_clear()
    launch._warned.clear()
    try:
        broken = [launch.choose("auto"), launch.choose("auto")]
        monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
        bwrap.problem.cache_clear()
        missing = launch.choose("auto")
    finally:
        bwrap.problem.cache_clear()
    assert [l.name for l in broken] == ["posix", "posix"]
    assert "No permissions to create new namespace" in broken[0].warning
    assert missing.name == "posix" and "not installed" in missing.warning
    err = capsys.readouterr().err
    assert err.count("No permissions to create new namespace") == 1 and err.count("not installed") == 1
