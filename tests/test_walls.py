"""The walls between a child and everything else: what the system-call allowlist (guard.py) and the
child's own namespaces (nest.py) keep out of reach, tested with real children and a real kernel.

The attacks name other processes: prlimit, signals by every route (kill, tgkill, rt_sigqueueinfo,
pidfd), scheduling and priority of others. Every honest neighbour must keep its full score and
``grade`` must finish, as root and as an unprivileged user, under bubblewrap and under posix with
Landlock.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT
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


# -- processes: an attacker graded in a class with honest neighbours ---------------------------

ATTACKER = "reach_other_processes.py"


def _as(user: str, workdir: Path) -> tuple[list[str], dict]:
    """The command prefix and environment that run this Python as root or as uid 65534."""
    from test_hostile import LIMITS, _unprivileged_python

    if user == "nobody":
        if os.geteuid() != 0:
            pytest.skip("running as another user needs root (setpriv)")
        return _unprivileged_python(workdir)
    if os.geteuid() != 0:
        pytest.skip("needs root")
    return [sys.executable], {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir),
                              "LANG": "C.UTF-8", "MINIMAX_GRADER_CACHE": str(workdir / "cache"),
                              "PYTHONPATH": str(ROOT), **LIMITS}


def _usable(sandbox: str, landlock_on: bool) -> None:
    from test_hostile import _bwrap_problem

    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    if sandbox == "bwrap" and _bwrap_problem() is not None:
        pytest.skip(f"bubblewrap unusable here: {_bwrap_problem()}")
    if sandbox == "posix" and landlock_on and landlock.abi() == 0:
        pytest.skip("this kernel offers no Landlock (Linux 5.13+)")


def _class_folder(workdir: Path) -> Path:
    from test_hostile import HONEST, HOSTILE

    klass = workdir / "class"
    klass.mkdir(parents=True)
    (workdir / "cache").mkdir()
    # The attacker first, so every honest submission is graded after it (by the same fork server).
    shutil.copyfile(HOSTILE / ATTACKER, klass / ("a_" + ATTACKER))
    for path in HONEST[:3]:
        shutil.copyfile(path, klass / f"honest_{path.name}")
    hand_over(workdir)
    return klass


def hand_over(workdir: Path) -> None:
    """Everything under ``workdir`` readable by all and, as root, owned by uid 65534 (who may grade it)."""
    from test_hostile import NOBODY

    for path in [workdir, *workdir.rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
        if os.geteuid() == 0:
            os.chown(path, NOBODY, NOBODY)


@pytest.mark.parametrize("sandbox,user,namespaces", [
    ("bwrap", "root", "on"), ("bwrap", "nobody", "on"), ("posix", "root", "on"), ("posix", "nobody", "on"),
    ("posix", "nobody", "off"),  # the allowlist alone, as where the kernel refuses user namespaces
])
def test_an_attack_on_other_processes_harms_no_neighbour(sandbox, user, namespaces):
    """``grade`` of a class (fork server, one worker so the attacker's server grades the rest): the
    attacker prlimits, signals, renices and pins every pid it can name, at import and in its call;
    every honest neighbour keeps full marks, ``grade`` finishes and exits 0, and the gradebook holds
    exactly those results. Then ``check`` of the attacker alone returns normally with its verdict."""
    from test_hostile import assert_attack_lost, verdict_text

    _usable(sandbox, landlock_on=True)
    work = Path(tempfile.mkdtemp(prefix="minimax-walls-"))
    try:
        os.chmod(work, 0o755)
        klass = _class_folder(work)
        command, env = _as(user, work)
        env["MINIMAX_GRADER_NAMESPACES"] = namespaces
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                         "--sandbox", sandbox, "--examples", "5", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=240)
        assert done.returncode == 0, done.stderr[-1500:]
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
        with sqlite3.connect(work / "out" / "gradebook.sqlite") as db:
            stored = [json.loads(row[0]) for row in db.execute("SELECT result FROM results")]
        alone = subprocess.run(command + ["-m", "grader", "check", str(klass / ("a_" + ATTACKER)), "-e", "ctp-26",
                                          "-f", "json", "--examples", "5", "--sandbox", sandbox],
                               capture_output=True, text=True, env=env, cwd=work, timeout=120)
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    students = {entry["student"]: entry for entry in document["submissions"]}
    assert len(students) == 4, sorted(students)
    modes = {entry["sandbox"]["mode"] for entry in document["submissions"] if entry.get("sandbox")}
    assert modes == {f"{sandbox}+fork-server"}, modes
    # The neighbours first: what the fences are for (the attacker's own verdict comes last).
    for student, data in students.items():
        if student.startswith("honest_"):
            assert (data["status"], data["score"]) == ("passed", data["max_score"]), (student, data["error"], data["checks"][:1])
    assert sorted((r["status"], r["score"]) for r in stored) == sorted((d["status"], d["score"]) for d in students.values())
    assert alone.returncode in (0, 1), alone.stderr[-800:]  # 1: the check failed, as it should
    data = students["a_" + ATTACKER[:-3]]
    messages = [c["message"] for c in data["checks"] if c["status"] != "passed"]
    assert_attack_lost(ATTACKER, data["status"], data["score"], verdict_text(data["status"], data["error"], messages))
    verdict = json.loads(alone.stdout)
    messages = [c["message"] for c in verdict["checks"] if c["status"] != "passed"]
    assert_attack_lost(ATTACKER, verdict["status"], verdict["score"], verdict_text(verdict["status"], verdict["error"], messages))


@pytest.mark.parametrize("sandbox,user", [("bwrap", "root"), ("bwrap", "nobody")])
def test_nothing_a_child_leaves_running_reaches_the_next_student(sandbox, user):
    """``grade`` with one worker: a child that leaves a chain of processes regrowing faster than one kill at a time
    (``fixtures/probes/leaves_a_chain_running.py``), then three that list /proc. None of the three may see it (an
    ordinary user's bwrap children were one uid in one pid namespace: fifteen survivors reached every later child),
    and each is the first the kernel ends when memory runs out (as an ordinary user that write used to be refused)."""
    _usable(sandbox, landlock_on=True)
    work = Path(tempfile.mkdtemp(prefix="minimax-walls-leftovers-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        klass.mkdir()
        (work / "cache").mkdir()
        shutil.copyfile(ROOT / "fixtures" / "probes" / "leaves_a_chain_running.py", klass / "a_leaves.py")
        for number in range(3):
            shutil.copyfile(ROOT / "fixtures" / "probes" / "looks_for_leftovers.py", klass / f"b_looks_{number}.py")
        hand_over(work)
        command, env = _as(user, work)
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                         "--sandbox", sandbox, "--examples", "5", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=240)
        assert done.returncode == 0, done.stderr[-1500:]
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    students = {entry["student"]: entry for entry in document["submissions"]}
    assert {entry["sandbox"]["mode"] for entry in students.values()} == {f"{sandbox}+fork-server"}
    if os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip("the chain's clone is written for x86_64 and aarch64")
    left = " ".join(c["message"] for c in students["a_leaves"]["checks"])
    grown = re.search(r"left a chain of (\d+) processes running", left)
    assert grown and int(grown[1]) >= 4, left  # the chain did grow: what the children after it must not see
    for number in range(3):
        text = " ".join(c["message"] for c in students[f"b_looks_{number}"]["checks"])
        seen = text.split("SEEN[", 1)[1].split("]", 1)[0]
        assert "LEFT-BY-A-CHILD" not in seen and seen.endswith(" oom 1000"), seen


REFUSES_CAP_ADD = """#!/bin/sh
for argument in "$@"; do
    if [ "$argument" = "--cap-add" ]; then
        echo "bwrap: --cap-add in setuid mode can be used only by root" >&2
        exit 1
    fi
done
exec {real} "$@"
"""


def test_a_bwrap_that_refuses_capabilities_still_grades_as_an_ordinary_user():
    """A setuid bwrap (older distributions) refuses ``--cap-add`` to an ordinary user: the probe finds bwrap usable
    all the same, ``check``'s children go without a pid namespace of their own, and ``grade``'s fork server (whose
    children mount their scratch with that capability) falls back to a cold child each. Forced here with a bwrap
    that refuses the option first on the PATH."""
    from test_hostile import HONEST

    _usable("bwrap", landlock_on=False)
    work = Path(tempfile.mkdtemp(prefix="minimax-walls-setuid-bwrap-"))
    try:
        os.chmod(work, 0o755)
        (work / "bin").mkdir()
        fake = work / "bin" / "bwrap"
        fake.write_text(REFUSES_CAP_ADD.format(real=shutil.which("bwrap")), encoding="utf-8")
        klass = work / "class"
        klass.mkdir()
        (work / "cache").mkdir()
        for path in HONEST[:2]:
            shutil.copyfile(path, klass / path.name)
        shutil.copyfile(ROOT / "fixtures" / "probes" / "looks_for_leftovers.py", klass / "looks.py")
        hand_over(work)
        os.chmod(fake, 0o755)
        command, env = _as("nobody", work)
        env["PATH"] = f"{work / 'bin'}:{env['PATH']}"
        checked = subprocess.run(command + ["-m", "grader", "check", str(klass / HONEST[0].name), "-e", "ctp-26", "-f",
                                            "json", "--examples", "5", "--sandbox", "bwrap"],
                                 capture_output=True, text=True, env=env, cwd=work, timeout=120)
        graded = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                           "--sandbox", "bwrap", "--examples", "5", "-j", "1"],
                                capture_output=True, text=True, env=env, cwd=work, timeout=240)
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8")) if graded.returncode == 0 else None
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    verdict = json.loads(checked.stdout)
    assert (verdict["status"], verdict["sandbox"]["mode"]) == ("passed", "bwrap"), (verdict["error"], checked.stderr[-800:])
    assert graded.returncode == 0, graded.stderr[-1500:]
    students = {entry["student"]: entry for entry in document["submissions"]}
    assert {entry["sandbox"]["mode"] for entry in students.values()} == {"bwrap"}  # cold: the fork server could not start
    for path in HONEST[:2]:
        assert students[path.stem]["status"] == "passed", students[path.stem]["error"]
    seen = " ".join(c["message"] for c in students["looks"]["checks"]).split("SEEN[", 1)[1].split("]", 1)[0]
    assert seen.endswith(" oom 1000"), seen


def _namespaces_for(command: list[str], env: dict) -> bool:
    """May this user (as the grader runs) give a child pid and user namespaces of its own here?"""
    code = "import ctypes, sys; sys.exit(0 if ctypes.CDLL(None).unshare(0x30000000) == 0 else 1)"
    return subprocess.run(command + ["-I", "-S", "-c", code], env=env, capture_output=True, timeout=60).returncode == 0


def _check_as_nobody(submission: Path, landlock_switch: str, namespaces: str) -> tuple[dict, bool]:
    from test_hostile import NOBODY

    work = Path(tempfile.mkdtemp(prefix="minimax-walls-check-"))
    try:
        os.chmod(work, 0o755)
        (work / "cache").mkdir()
        shutil.copyfile(submission, work / submission.name)
        for path in [work, *work.rglob("*")]:
            if os.geteuid() == 0:
                os.chown(path, NOBODY, NOBODY)
        command, env = _as("nobody", work)
        env.update(MINIMAX_GRADER_LANDLOCK=landlock_switch, MINIMAX_GRADER_NAMESPACES=namespaces)
        nests = namespaces == "on" and _namespaces_for(command, env)
        done = subprocess.run(command + ["-m", "grader", "check", str(work / submission.name), "-e", "ctp-26", "-f",
                                         "json", "--examples", "5", "--sandbox", "posix"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=120)
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-800:])  # 1: the check failed, as it should
    verdict = json.loads(done.stdout)
    assert verdict["sandbox"]["mode"] == "posix"
    expected = "namespaces of its own, so it can name none" if nests else "allowlist alone keeps it"
    assert expected in verdict["sandbox"]["warning"], verdict["sandbox"]["warning"]
    return verdict, nests


@pytest.mark.parametrize("landlock_switch,namespaces", [("on", "on"), ("off", "on"), ("off", "off")])
def test_check_of_the_attacker_alone_as_an_ordinary_user_without_bwrap(landlock_switch, namespaces):
    """The case the attack was found in: uid 65534, posix, Landlock on or off, the child's own
    namespaces on or off (then the allowlist is the only fence). ``check`` is not killed, and the
    attack loses with its verdict."""
    from test_hostile import HOSTILE, assert_attack_lost, verdict_text

    _usable("posix", landlock_on=landlock_switch == "on")
    verdict, _nests = _check_as_nobody(HOSTILE / ATTACKER, landlock_switch, namespaces)
    messages = [c["message"] for c in verdict["checks"] if c["status"] != "passed"]
    assert_attack_lost(ATTACKER, verdict["status"], verdict["score"], verdict_text(verdict["status"], verdict["error"], messages))


WHERE_AM_I = '''
import os
try:
    os.kill(-1, 0)
    others = "some"
except OSError:
    others = "none"


def minimax(node, max_depth, player_a_moves):
    raise RuntimeError(f"SEEN[pid {os.getpid()} parent {os.getppid()} others {others}]")
'''


@pytest.mark.parametrize("namespaces", ["on", "off"])
def test_an_ordinary_users_child_lives_in_namespaces_of_its_own(tmp_path, namespaces):
    """Without root or bwrap the child is pid 2 of a pid namespace of its own (its init is pid 1), where
    ``kill(-1)`` finds nobody; switched off (or refused by the kernel), it is an ordinary process."""
    _usable("posix", landlock_on=False)
    probe = tmp_path / "where_am_i.py"
    probe.write_text(WHERE_AM_I, encoding="utf-8")
    verdict, nests = _check_as_nobody(probe, "off", namespaces)
    text = " ".join(c["message"] for c in verdict["checks"]) + (verdict["error"] or "")
    seen = text.split("SEEN[", 1)[1].split("]", 1)[0]
    if nests:
        assert seen == "pid 2 parent 1 others none", seen
    else:
        assert not seen.startswith("pid 2 "), seen


# -- the table itself ------------------------------------------------------------------------

SANDBOX = ROOT / "grader" / "sandbox"

REFUSED = '''
import ctypes, os, sys
sys.path.insert(0, {sandbox!r})
import guard
table = guard.allowlist()
numbers = table.ARCHES[os.uname().machine][2]
extra = {{"x86_64": dict(mount=165, umount2=166, unshare=272, setns=308, bpf=321, perf_event_open=298, keyctl=250,
                       add_key=248, request_key=249, userfaultfd=323, io_uring_setup=425, personality=135, ptrace=101,
                       execve=59, socket=41, socketpair=53, memfd_create=319, pidfd_send_signal=424, pidfd_getfd=438,
                       chroot=161, setuid=105, init_module=175, kexec_load=246, reboot=169, swapon=167),
         "aarch64": dict(mount=40, umount2=39, unshare=97, setns=268, bpf=280, perf_event_open=241, keyctl=219,
                        add_key=217, request_key=218, userfaultfd=282, io_uring_setup=425, personality=92, ptrace=117,
                        execve=221, socket=198, socketpair=199, memfd_create=279, pidfd_send_signal=424,
                        pidfd_getfd=438, chroot=51, setuid=146, init_module=105, kexec_load=104, reboot=142,
                        swapon=224)}}[os.uname().machine]
parent = os.getppid()
read, write = os.pipe()
guarded, guarded_write = os.pipe()  # as the harness's channel and hand-over pipes
assert guard.install_filter(os.getpid(), [guarded, guarded_write])
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def errno_of(number, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    return 0 if result >= 0 else ctypes.get_errno()
let_through = [name for name, number in extra.items() if errno_of(number, 0, 0, 0, 0) != 1]
checks = {{"kill(-1)": errno_of(numbers["kill"], -1, 0), "kill(parent)": errno_of(numbers["kill"], parent, 0),
          "prlimit(parent)": errno_of(numbers["prlimit64"], parent, 7, 0, 0),
          "rt_sigqueueinfo(parent)": errno_of(numbers["rt_sigqueueinfo"], parent, 0, 0),
          "tgkill(parent)": errno_of(numbers["tgkill"], parent, parent, 0),
          "setpriority(PRIO_USER, 0)": errno_of(numbers["setpriority"], 2, 0, 0),
          "clone(CLONE_NEWUSER)": errno_of(numbers["clone"], 0x10000000 | 17, 0, 0, 0, 0),
          "clone3": errno_of(numbers["clone3"], 0, 0), "prctl(PR_SET_DUMPABLE)": errno_of(numbers["prctl"], 4, 1, 0, 0, 0),
          "fcntl(F_SETOWN)": errno_of(numbers["fcntl"], read, 8, parent), "fcntl(F_SETSIG)": errno_of(numbers["fcntl"], read, 10, 9),
          "fcntl(F_SETOWN_EX)": errno_of(numbers["fcntl"], read, 15, 0), "ioctl(FIOASYNC)": errno_of(numbers["ioctl"], read, 0x5452, 0),
          "fcntl(channel, F_SETFL)": errno_of(numbers["fcntl"], guarded, 4, os.O_NONBLOCK),
          "fcntl(channel, F_DUPFD)": errno_of(numbers["fcntl"], guarded, 0, 0),
          "fcntl(channel, F_DUPFD_CLOEXEC)": errno_of(numbers["fcntl"], guarded_write, 1030, 0),
          "dup(channel)": errno_of(numbers["dup"] if "dup" in numbers else numbers["dup3"], guarded, 100, 0),
          "dup3(channel, x)": errno_of(numbers["dup3"], guarded_write, 101, 0),
          "ioctl(channel, FIONBIO)": errno_of(numbers["ioctl"], guarded, 0x5421, ctypes.addressof(ctypes.c_int(1)))}}
let_through += [name for name, errno in checks.items() if errno != (38 if name == "clone3" else 1)]
if os.uname().machine == "x86_64":
    let_through += ["x32 getpid"] if errno_of(0x40000000 | 39) != 1 else []
own = {{"kill(self, 0)": errno_of(numbers["kill"], os.getpid(), 0),
       "prlimit(0)": errno_of(numbers["prlimit64"], 0, 7, 0, 0), "fcntl(F_GETFL)": errno_of(numbers["fcntl"], read, 3),
       "fcntl(F_SETFL, O_NONBLOCK)": errno_of(numbers["fcntl"], read, 4, os.O_NONBLOCK),
       "fcntl(channel, F_GETFL)": errno_of(numbers["fcntl"], guarded, 3), "dup(other)": 0 if os.dup(read) > 0 else 1,
       "set_blocking(other)": os.set_blocking(read, False) or 0}}
print(let_through, [name for name, errno in own.items() if errno])
'''


# An undumpable process (as the harness is from its first line) with the guard loaded; ``Spy`` records the prctl calls
# made through the guard's libc once it is put in its place (``guard._LIBC[0] = (tools, Spy())``)
UNDUMPABLE = ("import ctypes, os, sys; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); sys.path.insert(0, {sandbox!r}); "
              "import guard; asked = []; tools, libc = guard._libc()\n"
              "class Spy:\n"
              "    def prctl(self, option, *rest): asked.append((option, *rest[:1])); return libc.prctl(option, *rest)\n"
              "def made_dumpable(since=0): return [o for o in asked[since:] if o == (4, 1)]\n")


def _undumpable_child(tmp_path, user: str, body: str, **run) -> list[str]:
    """``body`` run after ``UNDUMPABLE`` as ``user`` (root or nobody): the words it printed."""
    command, env = _as(user, tmp_path) if user == "nobody" else ([sys.executable], None)
    if user == "nobody":
        os.chmod(tmp_path, 0o755)
    done = subprocess.run(command + ["-I", "-S", "-c", UNDUMPABLE.format(sandbox=str(SANDBOX)) + body],
                          capture_output=True, text=True, timeout=60, env=env, **run)
    assert done.returncode == 0, done.stderr[-800:]
    return done.stdout.split()


@linux
@pytest.mark.parametrize("user", ["root", "nobody"])
def test_a_locked_down_child_is_the_first_the_kernel_ends_when_memory_runs_out(tmp_path, user):
    """The memory limit is per process and a child may fork: where memory runs short, the out-of-memory killer
    takes a child (and what it forked) first, not the grader or a neighbour (the forty-ninth red team). As an
    ordinary user too, in a process made undumpable first as the harness is (its /proc files are root's then)."""
    said = _undumpable_child(tmp_path, user, (
        "guard.lock_down({})\npid = os.fork()\nif pid == 0: os._exit(int(open('/proc/self/oom_score_adj').read()) != 1000)\n"
        "print(open('/proc/self/oom_score_adj').read().strip(), os.waitpid(pid, 0)[1], ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"))
    assert said == ["1000", "0", "0"], said  # and undumpable again


@linux
@pytest.mark.parametrize("user", ["root", "nobody"])
def test_a_child_whose_score_is_set_is_never_made_dumpable_again(tmp_path, user):
    """``first_to_go`` runs twice in a child: before the session, and in the lock-down, after the init request, with
    the reply key in memory. The second finds the score there and asks nothing: an ordinary user's undumpable
    child is never dumpable again (trying the write first made it so for a moment; the hundred-and-sixth helper
    read the key from another process of the uid in that window)."""
    said = _undumpable_child(tmp_path, user, (
        "guard.first_to_go(); guard._LIBC[0] = (tools, Spy()); guard.first_to_go(); guard.lock_down({})\n"
        "print(open('/proc/self/oom_score_adj').read().strip(), made_dumpable(), ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"))
    assert said == ["1000", "[]", "0"], said


@linux
def test_where_the_score_cannot_be_written_the_lock_down_does_not_try_again(tmp_path):
    """No /proc to write (a child whose /proc is the empty fallback): the first call tries, dumpable for that
    moment, before the session; the lock-down's call, with the session in memory, does not."""
    said = _undumpable_child(tmp_path, "nobody", (
        "guard.OOM_SCORE_ADJ = '/nonexistent/oom_score_adj'; guard._LIBC[0] = (tools, Spy())\n"
        "guard.first_to_go(); first = len(asked); guard.lock_down({})\n"
        "print(len(made_dumpable()) - len(made_dumpable(first)), len(made_dumpable(first)))"))
    assert said == ["1", "0"], said


@linux
def test_a_child_that_inherits_its_score_is_never_made_dumpable(tmp_path):
    """An ordinary user's undumpable child whose score is already 1000 when it starts (a grader run with its score
    raised, a process forked after the write) reads it and asks nothing more: never dumpable for a moment."""
    def raised():
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")

    said = _undumpable_child(tmp_path, "nobody", (
        "guard._LIBC[0] = (tools, Spy()); guard.first_to_go()\n"
        "print(open('/proc/self/oom_score_adj').read().strip(), made_dumpable())"), preexec_fn=raised)
    assert said == ["1000", "[]"], said


@linux
@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="tables for x86_64 and aarch64 only")
def test_the_allowlist_refuses_with_eperm_and_lets_the_child_reach_itself():
    """Namespaces, mounts, BPF, perf, keys, io_uring, ptrace, exec, sockets, calls aimed at the parent,
    x32 numbers: all refused with EPERM (clone3 with ENOSYS), nothing killed; the child's own pid works."""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", REFUSED.format(sandbox=str(SANDBOX))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip() == "[] []"


def test_the_tables_match_the_kernel_headers_where_installed():
    import re

    sys.path.insert(0, str(SANDBOX))
    try:
        import allowlist
    finally:
        sys.path.pop(0)
    headers = {"x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
               "aarch64": Path("/usr/include/asm-generic/unistd.h")}
    if not any(path.is_file() for path in headers.values()):
        pytest.skip("no kernel headers here")
    named = set(allowlist.ALLOWED) | {n for n, _ in allowlist.OWN} | {n for n, _ in allowlist.ARGUMENTS} | set(allowlist.ENOSYS)
    for machine, path in headers.items():
        if not path.is_file():
            continue
        found = {m.group(2): int(m.group(3)) for m in re.finditer(r"#define __NR(3264)?_(\w+) (\d+)", path.read_text())}
        found.setdefault("newfstatat", found.get("fstatat"))
        table = allowlist.ARCHES[machine][2]
        assert {n: v for n, v in table.items() if found.get(n) != v} == {}, machine
        assert sorted(n for n in named if n in found and n not in table) == [], machine


@linux
@pytest.mark.parametrize("own_user", [True, False])
def test_the_nested_harness_holds_no_descriptor_of_the_nest(own_user):
    """``guard.nest`` in a process with only 0-2 open (a cold harness): its status pipe took 3 and 4, and the init's
    ``keep=range(5)`` kept the read end for the harness, so a student's process could take the harness's exit status
    before its waiter did (the hundred-and-fifth helper's find). Pid namespaces need root here, or an ordinary user's
    user namespace."""
    if os.geteuid() != 0 and not own_user:
        pytest.skip("a pid namespace without a user namespace of its own needs CAP_SYS_ADMIN")
    code = ("import os, sys; sys.path.insert(0, {sandbox!r}); import guard\n"
            "if not guard.nest(own_user={own_user}): print('NO NAMESPACES'); sys.exit(0)\n"
            "found = sorted(int(f) for f in os.listdir('/proc/self/fd'))\n"
            "print([f for f in found if f > 2 and os.path.exists(f'/proc/self/fd/{{f}}') and "
            "os.readlink(f'/proc/self/fd/{{f}}').startswith('pipe:')])").format(sandbox=str(SANDBOX), own_user=own_user)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, close_fds=True)
    assert done.returncode == 0, done.stderr[-800:]
    if done.stdout.strip() == "NO NAMESPACES":
        pytest.skip("the kernel refuses these namespaces here")
    assert done.stdout.strip() == "[]", done.stdout


def test_the_grader_and_the_harness_name_the_nest_flags_alike():
    """The launchers add these flags to the harness's command line; a difference would have the harness open a capture
    file of that name and skip its namespaces without a word."""
    from grader.sandbox import launcher

    text = (SANDBOX / "harness.py").read_text(encoding="utf-8")
    assert f'NEST_FLAG = "{launcher.NEST_FLAG}"' in text
    assert f'PID_NEST_FLAG = "{launcher.PID_NEST_FLAG}"' in text
