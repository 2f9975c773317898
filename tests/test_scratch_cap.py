"""The child's scratch is capped under every launcher: a filler fails alone, its neighbours never notice.

``fill_scratch.py`` writes 1 MiB files (under the per-file limit) until 256 MiB, swallowing every
error. Under ``check`` and under ``grade``'s fork server, with bubblewrap and with posix (+ Landlock),
as root and as an unprivileged user, it must get "exceeded the scratch space limit of 64 MiB"
while honest submissions graded beside it keep full marks; and a child may not make itself a
namespace with a tmpfs of its own (which no cap would cover).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, SUBMISSIONS
from grader.sandbox import scratch

FILLER = SUBMISSIONS / "hostile" / "fill_scratch.py"
HONEST = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[:2]
LIMIT = "exceeded the scratch space limit of 64 MiB"
EXAMPLES = "10"

# Reports what its working folder is (a tmpfs of the cap's size, or the host's file system) and the
# capabilities its call runs with (the zygote's children under bwrap are given CAP_SYS_ADMIN to mount).
PROBE = (
    "import os\n"
    "def minimax(node, max_depth, player_a_moves):\n"
    "    s = os.statvfs('.')\n"
    "    try:\n"
    "        caps = [l.split()[1] for l in open('/proc/thread-self/status') if l.startswith(('CapEff', 'CapPrm'))]\n"
    "    except PermissionError:\n"
    "        caps = 'fenced'\n"
    "    raise RuntimeError(f'scratch of {s.f_blocks * s.f_frsize >> 20} MiB, capabilities {caps}')\n")
NO_CAPABILITIES = "capabilities ['0000000000000000', '0000000000000000']"
# Under posix + Landlock a call cannot open /proc at all (its thread is fenced since the runner starts after
# the lock-down), so its capabilities cannot be read there; the allowlist refuses mounts and namespaces anyway.
FENCED = "capabilities fenced"

# From a call (the runner thread): a process of its own, a user and mount namespace, an unbounded tmpfs.
OWN_TMPFS = (
    "import ctypes, os\n"
    "def minimax(node, max_depth, player_a_moves):\n"
    "    r, w = os.pipe()\n"
    "    pid = os.fork()\n"
    "    if pid == 0:\n"
    "        libc = ctypes.CDLL(None, use_errno=True)\n"
    "        libc.prctl(4, 1, 0, 0, 0)\n"
    "        uid, gid = os.getuid(), os.getgid()\n"
    "        if libc.unshare(0x10000000 | 0x00020000) != 0:\n"
    "            os.write(w, b'no namespace: errno %d' % ctypes.get_errno()); os._exit(0)\n"
    "        try:\n"
    "            open('/proc/self/setgroups', 'w').write('deny')\n"
    "            open('/proc/self/uid_map', 'w').write(f'{uid} {uid} 1')\n"
    "            open('/proc/self/gid_map', 'w').write(f'{gid} {gid} 1')\n"
    "        except OSError:\n"
    "            pass\n"
    "        os.makedirs('big', exist_ok=True)\n"
    "        ok = libc.mount(b'tmpfs', b'big', b'tmpfs', 0, b'size=1g') == 0\n"
    "        os.write(w, b'MOUNTED a tmpfs of its own' if ok else b'no mount: errno %d' % ctypes.get_errno())\n"
    "        os._exit(0)\n"
    "    os.close(w)\n"
    "    os.waitpid(pid, 0)\n"
    "    message = os.read(r, 200).decode()\n"
    "    os.close(r)\n"
    "    raise RuntimeError(message)\n")


def _bwrap_problem():
    from grader.sandbox import bwrap

    return bwrap.problem() if sys.platform.startswith("linux") else "Linux only"


SANDBOXES = [pytest.param("bwrap", marks=pytest.mark.skipif(_bwrap_problem() is not None, reason="no bubblewrap")),
             pytest.param("posix", marks=pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux")),
             pytest.param("posix-watch", id="posix-forced-fallback")]


@pytest.fixture
def sandbox(request, monkeypatch):
    """``posix-watch``: posix with the child's tmpfs switched off, so the parent's measuring caps it."""
    name = request.param
    if name == "posix-watch":
        monkeypatch.setenv(scratch.ENV, "watch")
        return "posix"
    monkeypatch.delenv(scratch.ENV, raising=False)
    return name


def _user_namespaces(uid: int | None = None) -> bool:
    """Can ``uid`` (this process's own when None) make a user and mount namespace here?"""
    command = ["unshare", "-Urm", "true"]
    if uid is not None and os.geteuid() == 0 and shutil.which("setpriv"):
        command = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"] + command
    return shutil.which("unshare") is not None and subprocess.run(command, capture_output=True).returncode == 0


def _message(result) -> str:
    return result.error or " | ".join(c.message for c in result.checks if c.status != "passed")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- check ---------------------------------------------------------------------------------

@pytest.mark.parametrize("sandbox", SANDBOXES, indirect=True)
def test_check_a_filler_fails_alone(sandbox):
    from grader.doors import api

    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        filler = pool.submit(api.check, FILLER, "ctp-26", examples=int(EXAMPLES), sandbox=sandbox)
        honest = [pool.submit(api.check, path, "ctp-26", examples=int(EXAMPLES), sandbox=sandbox) for path in HONEST]
        result = filler.result(timeout=120)
        assert (result.status, result.score, result.error) == ("error", 0.0, LIMIT)
        for future in honest:
            done = future.result(timeout=120)
            assert (done.status, done.score) == ("passed", done.max_score), done.error


@pytest.mark.parametrize("sandbox", SANDBOXES, indirect=True)
def test_the_scratch_is_what_the_plan_says(tmp_path, sandbox):
    """bwrap: its own 64 MiB tmpfs; posix on Linux: the child's own 64 MiB tmpfs (root, or a user
    namespace of its own); forced fallback: the host's file system, measured by the parent."""
    from grader.doors import api

    text = _message(api.check(_write(tmp_path, "probe.py", PROBE), "ctp-26", examples=0, sandbox=sandbox))
    if os.environ.get(scratch.ENV) == "watch":
        expected = False
    elif sandbox == "bwrap" or os.geteuid() == 0:
        expected = True
    else:  # an ordinary user: a user namespace of its own, where the kernel allows one
        expected = os.geteuid() != scratch._overflow_uid() and _user_namespaces()
    assert ("scratch of 64 MiB" in text) == expected, text
    assert NO_CAPABILITIES in text or (sandbox != "bwrap" and FENCED in text), text


@pytest.mark.parametrize("sandbox", SANDBOXES[:2], indirect=True)
def test_no_tmpfs_of_its_own(tmp_path, sandbox):
    """A user namespace made by student code (forked from a call) could mount a tmpfs of any size."""
    from grader.doors import api

    text = _message(api.check(_write(tmp_path, "own_tmpfs.py", OWN_TMPFS), "ctp-26", examples=0, sandbox=sandbox))
    assert "no namespace: errno 1" in text, text


# -- grade (the fork server) -----------------------------------------------------------------

def _class(folder: Path) -> Path:
    klass = folder / "class"
    klass.mkdir()
    shutil.copyfile(FILLER, klass / "filler.py")
    for path in HONEST:
        shutil.copyfile(path, klass / f"honest_{path.name}")
    _write(klass, "probe.py", PROBE)
    return klass


def _own_tmpfs(sandbox: str, uid: int, forced: bool) -> bool:
    """Does a child of this sandbox, graded by ``uid``, get a tmpfs of its own (not the fallback)?"""
    if forced:
        return False
    if uid == 0 or sandbox == "bwrap":  # root may mount; the zygote's bwrap keeps CAP_SYS_ADMIN for it
        return True
    return uid != scratch._overflow_uid() and _user_namespaces(uid)


def _check_class(out: Path, own_tmpfs: bool | None = None, sandbox: str = "bwrap") -> None:
    students = {e["student"]: e for e in json.loads((out / "results.json").read_text())["submissions"]}
    if own_tmpfs is not None:
        text = " | ".join(c["message"] for c in students.pop("probe")["checks"])
        assert ("scratch of 64 MiB" in text) == own_tmpfs, text
        assert NO_CAPABILITIES in text or (sandbox != "bwrap" and FENCED in text), text
    filler = students["filler"]
    assert (filler["status"], filler["score"], filler["error"]) == ("error", 0.0, LIMIT)
    for path in HONEST:
        data = students[f"honest_{path.stem}"]
        assert (data["status"], data["score"]) == ("passed", data["max_score"]), data["error"]
    modes = {e["sandbox"]["mode"] for e in students.values()}
    assert all(mode.endswith("+fork-server") for mode in modes), modes


@pytest.mark.parametrize("sandbox", SANDBOXES, indirect=True)
def test_grade_a_filler_fails_alone(tmp_path, sandbox):
    klass = _class(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "-e", "ctp-26",
                           "--out", str(tmp_path / "out"), "--sandbox", sandbox, "--examples", EXAMPLES, "-j", "2"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    _check_class(tmp_path / "out", _own_tmpfs(sandbox, os.geteuid(), os.environ.get(scratch.ENV) == "watch"), sandbox)


# -- as an unprivileged user -----------------------------------------------------------------

def _as_user(uid: int, sandbox: str, command: str, fallback: bool = False) -> tuple[Path, subprocess.CompletedProcess]:
    """``grade`` of the class, or ``check`` of the filler, run by the CLI as ``uid``."""
    import test_hostile

    if os.geteuid() != 0:
        uid = os.geteuid()
    work = Path(tempfile.mkdtemp(prefix="minimax-scratch-user-"))
    os.chmod(work, 0o755)
    klass = _class(work)
    (work / "cache").mkdir()
    for path in [work, *work.rglob("*")]:
        if os.geteuid() == 0:
            os.chown(path, uid, uid)
    saved = test_hostile.NOBODY
    test_hostile.NOBODY = uid
    try:
        prefix, env = test_hostile._unprivileged_python(work)
    finally:
        test_hostile.NOBODY = saved
    if fallback:
        env[scratch.ENV] = "watch"
    if command == "grade":
        args = ["grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"), "--sandbox", sandbox, "-j", "2"]
    elif command == "probe":
        probe = _write(work, "probe.py", PROBE)
        if os.geteuid() == 0:
            os.chown(probe, uid, uid)
        args = ["check", str(probe), "-e", "ctp-26", "--sandbox", sandbox, "-f", "json"]
    else:
        args = ["check", str(klass / "filler.py"), "-e", "ctp-26", "--sandbox", sandbox, "-f", "json"]
    done = subprocess.run(prefix + ["-m", "grader", *args, "--examples", EXAMPLES], capture_output=True, text=True,
                          env=env, cwd=work, timeout=300)
    return work, done


UNPRIVILEGED = [pytest.param(65534, "bwrap", id="nobody-bwrap",
                             marks=pytest.mark.skipif(_bwrap_problem() is not None, reason="no bubblewrap")),
                pytest.param(65534, "posix", id="nobody-posix"),
                pytest.param(4321, "posix", id="user-posix")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux")
@pytest.mark.parametrize("uid, sandbox", UNPRIVILEGED)
def test_unprivileged_grade_and_check(uid, sandbox):
    work, done = _as_user(uid, sandbox, "grade")
    try:
        assert done.returncode == 0, done.stderr[-2000:]
        _check_class(work / "out", _own_tmpfs(sandbox, uid if os.geteuid() == 0 else os.geteuid(), False), sandbox)
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    work, done = _as_user(uid, sandbox, "check")
    try:
        data = json.loads(done.stdout)
        assert (data["status"], data["error"]) == ("error", LIMIT), done.stderr[-2000:]
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    if sandbox == "posix" and uid != scratch._overflow_uid() and _user_namespaces(uid):
        work, done = _as_user(uid, sandbox, "probe")  # the user namespace's own tmpfs, not the fallback
        try:
            text = " | ".join(c["message"] for c in json.loads(done.stdout)["checks"])
            assert "scratch of 64 MiB" in text, (text, done.stderr[-1000:])
        finally:
            subprocess.run(["rm", "-rf", str(work)], check=False)


# -- the parts -----------------------------------------------------------------------------------

def test_the_watch_counts_bytes_files_and_hidden_folders(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    watch = scratch.Watch([work], lambda: None, lambda: True, limit=1 << 20, files=50)
    assert not watch.exceeded()
    (work / "a").write_bytes(b"x" * (600 << 10))
    assert not watch.exceeded()
    (work / "deep").mkdir()
    (work / "deep" / "b").write_bytes(b"x" * (600 << 10))
    assert watch.exceeded()  # bytes, all folders together
    shutil.rmtree(work / "deep")
    for number in range(60):
        (work / f"empty-{number}").touch()
    assert watch.exceeded()  # files
    for number in range(60):
        (work / f"empty-{number}").unlink()
    hidden = work / "hidden"
    hidden.mkdir()
    if os.geteuid() != 0:
        os.chmod(hidden, 0o300)  # may be written, not listed
        try:
            assert watch.exceeded()
        finally:
            os.chmod(hidden, 0o700)


def test_the_plan_of_each_launcher(monkeypatch):
    from grader.sandbox import launch

    monkeypatch.delenv(scratch.ENV, raising=False)
    linux = sys.platform.startswith("linux")
    posix = launch.Launcher("posix", isolated=True).scratch_plan(["/w", "/h"])
    assert (posix["mount"], posix["watch"], posix["fence"]) == (linux, True, linux)
    spawn = launch.Launcher("spawn", isolated=False).scratch_plan(["/w"])
    assert (spawn["mount"], spawn["watch"], spawn["fence"]) == (False, True, False)
    monkeypatch.setenv(scratch.ENV, "watch")
    forced = launch.Launcher("posix", isolated=True).scratch_plan(["/w"])
    assert (forced["mount"], forced["watch"]) == (False, True)
    assert scratch.fence_program("x86_64") and scratch.fence_program("aarch64")
    assert len(scratch.fence_program("x86_64")) % 8 == 0


def test_the_fork_servers_bwrap_children_always_mount_their_scratch(monkeypatch):
    """Under the fork server's bubblewrap the home is read-only: the child's own tmpfs is its one writable
    place, so even the knob that forces the parent's measuring leaves that mount on (the parent measures too)."""
    from grader.sandbox import bwrap, forkserver

    zygote = forkserver.ZygoteLauncher(name="bwrap+fork-server", isolated=True, server=None,
                                       inner=bwrap.BwrapLauncher())
    for forced in (False, True):
        if forced:
            monkeypatch.setenv(scratch.ENV, "watch")
        else:
            monkeypatch.delenv(scratch.ENV, raising=False)
        spec = zygote.scratch_plan(["/w", "/h"])
        assert (spec["mount"], spec["watch"]) == (sys.platform.startswith("linux"), True), forced
