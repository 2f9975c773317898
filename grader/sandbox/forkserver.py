"""The grader's side of the warm fork server (``zygote.py``), behind the ordinary launcher seam.

Starting ``python -s -P -S -B`` with the harness costs tens of milliseconds of interpreter start,
imports and tree building per submission, far more than grading a correct one. A
``ZygoteLauncher`` keeps one warm zygote per (exercise, bank) and asks it to fork a child
for each submission. To the ``Session`` the child looks like any other: it gets a
``Popen``-like object with a pid (the leader of its own process group), a request pipe, a
reply pipe, the same capture files and the same resource limits (the harness applies them
when it loads the submission). Only the channel gets one economy (``ForkSession``): a bank
case whose tree the zygote has prebuilt is sent by id, not as a whole tree.

Exit statuses come from the zygote, which reaps its children; ``kill`` and the timeouts
work through the process group exactly as for a spawned child.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.sandbox import bytecode, homes, launch
from grader.sandbox.childlib import child_sys_path
from grader.sandbox.session import Session, package_bytecode

ZYGOTE = Path(__file__).with_name("zygote.py")
HEADER = struct.Struct("!I")
READY_TIMEOUT = 60.0


class ZygoteError(Exception):
    """The fork server itself failed (never the student's fault): grade without it."""


def available() -> bool:
    return os.name == "posix" and hasattr(os, "fork") and hasattr(socket, "send_fds")


def answers_while_loading(exercise) -> bool:
    """Whether the grading process answers the file's questions while it loads (a kit exercise whose
    evaluations are evidence, the object route): those answers are logged nowhere, since no case runs yet. A
    fork server then holds none of the bank: a child forked from one with the cases prebuilt found them (gc)
    as its file loaded, asked every inner position's value then, unlogged, and asked only alpha-beta's
    positions while the cases ran (the thirty-fourth red team: 10 against 7, warm). The cases then come with
    the run request, after the load, as they do to a child started cold."""
    make = exercise.hook("loading_oracle") if hasattr(exercise, "hook") else None
    return make is not None and make() is not None


def _nesting(launcher) -> bool | str:
    """What namespaces each child enters (``guard.nest``): user and pid ones where the launcher's children do
    (posix, an ordinary user); a pid namespace alone under an ordinary user's bubblewrap, whose sandbox refuses
    new user namespaces but keeps its children the capability for a pid one ("pid"). As root, bwrap's children
    each drop to a uid of their own, and the zygote's sweep kills a uid's leftovers at once. A bwrap that refuses
    that capability (a setuid one) gets no fork server: its children could mount no scratch, and the home is
    read-only to them (said at once, not after a zygote that cannot start)."""
    if not getattr(launcher, "wants_view", False):
        return bool(getattr(launcher, "nests", False))
    from grader.sandbox import bwrap, identity

    if identity.is_root() or not sys.platform.startswith("linux"):
        return False
    if not bwrap.children_get_caps():
        raise ZygoteError("this bwrap gives an ordinary user no capability for the children's scratch")
    return "pid"


class ForkServer:
    """One zygote process, its control socket, and what it has said about its children."""

    def __init__(self, exercise, bank, launcher: launch.Launcher, copies: int = 2):
        """The zygote started and, given ``bank``, made ready (``setup``); with ``bank`` None only started: its
        Python starts and imports the harness while the grader still draws the bank (a pool worker's start-up)."""
        self.lock = threading.Lock()
        self.buffer = b""
        self.forked: dict[int, dict] = {}
        self.exits: dict[int, int] = {}
        self.swept: set[int] = set()  # children whose leftovers the zygote has already killed
        self.dead = False
        self.tokens = 0
        self.nests = _nesting(launcher)
        self.home, self._home_lock = homes.make()  # locked while this process uses it; left-behind ones swept first
        try:
            os.chmod(self.home, 0o711)  # each session's scratch below it is handed to the child's uid
            self.scratch_parent = str(self.home)
            self.exercise, self.inputs = exercise, {}
            ours, theirs = socket.socketpair()
            self.sock = ours
            env = launch.child_env(self.home, self.home)
            self.log = open(self.home / "zygote.log", "wb")
            argv = launcher.python_argv() + bytecode.run_as_main(ZYGOTE) + [str(theirs.fileno())]
            if getattr(launcher, "wants_view", False):
                argv = self._inside_bwrap(exercise, argv)
            try:
                self.process = subprocess.Popen(
                    argv, pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=self.log, cwd=str(self.home), env=env, start_new_session=True,
                )
            finally:
                theirs.close()
            if bank is not None:
                self.setup(bank, copies)
        except BaseException:  # no fork server after all: its home goes now, not when a later grader sweeps it
            if getattr(self, "process", None) is None:
                self._release_home()
            raise

    def setup(self, bank, copies: int = 2) -> None:
        """The bank's cases to the zygote, which builds them before it forks anything; back once it is ready."""
        from grader.sandbox import identity

        exercise = self.exercise
        staged = () if answers_while_loading(exercise) else bank.cases
        self.inputs = {case.id: case.input for case in staged}
        try:
            self._send({"op": "setup", "driver": str(exercise.driver_path), "sys_path": child_sys_path(),
                        "cases": [_for_child(exercise, case.to_request()) for case in staged], "copies": copies,
                        "nest": self.nests, "preload": [*identity.PRELOAD, *identity.preload()]})
        except ZygoteError:
            self.close()
            raise
        reply = self._wait(lambda: self._ready, READY_TIMEOUT)
        if reply is None or reply.get("op") != "ready":
            self.close()
            detail = reply.get("error") if reply else "it did not answer"
            raise ZygoteError(f"the fork server could not start: {detail}")

    _ready: dict | None = None

    def _inside_bwrap(self, exercise, argv: list[str]) -> list[str]:
        """The whole zygote runs in one bubblewrap sandbox: its children inherit that world.

        They see the read-only system, the harness, the driver and the child library, and this
        server's home, read-only too, under which the grading process makes every session's scratch
        (one session at a time per server). Each child mounts a capped tmpfs of its own over its
        work folder (scratch.enter): the only place it can write. No network, no grader package,
        no references, no output folder.
        """
        from grader.sandbox import bwrap

        readonly = [str(ZYGOTE), str(Path(__file__).with_name("harness.py")), str(exercise.driver_path)]
        for helper in ("guard.py", "landlock.py", "allowlist.py", "seal.py", "runner.py", "scratch.py"):
            if Path(__file__).with_name(helper).is_file():
                readonly.append(str(Path(__file__).with_name(helper)))
        readonly += [str(p) for p in getattr(exercise, "driver_files", [])]
        readonly += package_bytecode(readonly)
        readonly += [p for p in child_sys_path() if os.path.isdir(p)]
        # The home read-only too: a child writes only the capped tmpfs it mounts over its own work folder
        # (scratch.enter). Bound writable, a child of an ordinary user's grader (the grader's own uid outside)
        # wrote in the home and in its session's folder, uncapped, in /dev/shm.
        view = launch.View(readonly=list(dict.fromkeys(readonly + [str(self.home)])))
        # Each child mounts its capped scratch in a mount namespace of its own, then gives the capability up
        # before any thread starts (scratch.enter); as root bwrap leaves them every capability anyway.
        return bwrap.command(view, argv, str(self.home), caps=("CAP_SYS_ADMIN",))

    scratch_parent: str | None = None

    # -- control channel -----------------------------------------------------------------

    def _send(self, message: dict, fds: list[int] | None = None) -> None:
        payload = json.dumps(message).encode("utf-8")
        data = HEADER.pack(len(payload)) + payload
        try:
            if fds:
                sent = socket.send_fds(self.sock, [data], fds)
                if sent < len(data):
                    self.sock.sendall(data[sent:])
            else:
                self.sock.sendall(data)
        except OSError as exc:
            self.dead = True
            raise ZygoteError(f"the fork server is gone ({exc})") from None

    def _pump(self, timeout: float) -> None:
        """Read whatever the zygote has said (waiting up to ``timeout``) and file it. Caller holds the lock."""
        if timeout > 0:
            self.sock.settimeout(timeout)
        else:
            self.sock.setblocking(False)
        try:
            data = self.sock.recv(1 << 16)
        except (BlockingIOError, socket.timeout, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.dead = True
            return
        self.buffer += data
        while len(self.buffer) >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer)
            end = HEADER.size + length
            if len(self.buffer) < end:
                break
            message = json.loads(self.buffer[HEADER.size:end].decode("utf-8"))
            self.buffer = self.buffer[end:]
            op = message.get("op")
            if op in ("ready", "failed"):
                self._ready = message
            elif op == "forked":
                self.forked[message["token"]] = message
                # A pid the namespace hands out again: what was said about its earlier owner is void.
                self.exits.pop(message.get("pid"), None)
                self.swept.discard(message.get("pid"))
            elif op == "exited":
                self.exits[message["pid"]] = message["code"]
                if message.get("swept") is True:
                    self.swept.add(message["pid"])

    def _wait(self, condition, timeout: float | None):
        """Pump until ``condition()`` gives something other than None, the zygote dies or time runs out."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.lock:
            while True:
                value = condition()
                if value is not None or self.dead:
                    return value
                remaining = 3600.0 if deadline is None else deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._pump(min(remaining, 1.0))

    # -- children ------------------------------------------------------------------------

    def fork(self, fds: list[int], env: dict, cwd: str, cpu: int | None = None) -> int:
        """A child on ``fds``; ``cpu``: the one CPU it is to run on (the grading thread's, launch.pin_to_this_cpu)."""
        if self.dead:
            raise ZygoteError("the fork server is gone")
        with self.lock:
            self.tokens += 1
            token = self.tokens
            message = {"op": "fork", "token": token, "env": env, "cwd": cwd}
            if cpu is not None:
                message["cpu"] = cpu
            self._send(message, fds)
        reply = self._wait(lambda: self.forked.pop(token, None), READY_TIMEOUT)
        if reply is None or not reply.get("pid"):
            detail = (reply or {}).get("error") or ("it is gone" if self.dead else "it did not answer")
            raise ZygoteError(f"the fork server could not fork: {detail}")
        return reply["pid"]

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        code = self._wait(lambda: self.exits.get(pid), timeout)
        if code is None and self.dead:
            return -9  # the zygote died and took its children with it
        return code

    def kill(self, pid: int) -> None:
        """Kill a child's process group through the zygote (its pids may be a namespace's own)."""
        with self.lock:
            if not self.dead:
                try:
                    self._send({"op": "kill", "pid": pid})
                except ZygoteError:
                    pass

    def close(self) -> None:
        self.dead = True
        try:
            self.sock.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            launch.Launcher.kill(self.process)
        self.log.close()
        self._release_home()

    def _release_home(self) -> None:
        """The home removed and its lock let go of, once: ``close`` may be called again (a worker whose fallback
        failed too), and a second close of the lock's number would close whatever has that number since (another
        fork server's lock, in a Dask worker's threads: the hundredth helper's find)."""
        lock, self._home_lock = self._home_lock, None
        if lock is not None:
            homes.release(self.home, lock)


def _for_child(exercise, case: dict) -> dict:
    """A bank case as the zygote may hold it: without what only the grader's helpers may tell."""
    hide = exercise.hook("child_input") if hasattr(exercise, "hook") else None
    return {**case, "input": hide(case["input"])} if hide is not None else case


class ForkedChild:
    """What a Session needs from ``subprocess.Popen``, for a child the zygote forked."""

    def __init__(self, pid: int, server: ForkServer, stdin, stdout):
        self.pid = pid
        self.server = server
        self.stdin = stdin
        self.stdout = stdout
        self.returncode: int | None = None
        self.args = ["zygote-child", str(pid)]

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.exit_code(self.pid, 0.0)
        return self.returncode

    def ended(self) -> bool:
        """Whether the zygote has told that this child exited. Never guessed from a zygote that is gone (``poll`` then
        says -9, but under the posix fork server a child outlives its zygote and may still answer)."""
        if self.returncode is not None:
            return True
        if self.server.dead:
            return False
        code = self.server.exit_code(self.pid, 0.0)
        if code is None or self.server.dead:
            return False
        self.returncode = code
        return True

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.server.exit_code(self.pid, timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def kill(self) -> None:
        self.server.kill(self.pid)


def _bound_cpu() -> int | None:
    """The one CPU the calling thread is bound to (a session serving its child, launch.pin_to_this_cpu), or None:
    a forked child does not inherit the grading thread's binding, the fork server's is its own."""
    try:
        allowed = os.sched_getaffinity(0)
    except (AttributeError, OSError):
        return None
    return next(iter(allowed)) if len(allowed) == 1 else None


@dataclass
class ZygoteLauncher(launch.Launcher):
    """A launcher whose children are forked by a warm zygote; isolation as the launcher it wraps."""

    server: ForkServer | None = None
    inner: launch.Launcher | None = None
    session_class: type = field(default=None)

    @classmethod
    def wrap(cls, inner: launch.Launcher, exercise, bank) -> "ZygoteLauncher":
        return cls.around(cls.start_server(inner, exercise), inner, bank)

    @staticmethod
    def start_server(inner: launch.Launcher, exercise) -> ForkServer:
        """The fork server's process only, started before the case bank exists (``around`` makes it ready)."""
        if not available() or not inner.isolated or inner.name not in ("posix", "bwrap"):
            raise ZygoteError("no fork server on this platform or with this sandbox")
        return ForkServer(exercise, None, inner)

    @classmethod
    def around(cls, server: ForkServer, inner: launch.Launcher, bank) -> "ZygoteLauncher":
        """A launcher over ``server`` (from ``start_server``), once it has the bank's cases."""
        server.setup(bank)
        return cls(name=f"{inner.name}+fork-server", isolated=True, warning=inner.warning, server=server, inner=inner,
                   session_class=ForkSession, landlock=inner.landlock, nests=inner.nests)

    def rlimits(self, limits) -> dict:
        return self.inner.rlimits(limits)

    def scratch_plan(self, dirs) -> dict:
        """Under bwrap the children's scratch is a folder of the host's bound read-only into the zygote's
        sandbox, so unlike a bwrap child's it is no tmpfs of bwrap's: each child mounts its own, with the
        capability the zygote's sandbox keeps for it (``_inside_bwrap``), and the parent measures the folders
        too. That mount is the child's only writable place there, so the knob that forces the parent's
        measuring alone (``scratch.ENV``, for tests) does not switch it off under this launcher."""
        if self.inner.name.startswith("bwrap"):
            from grader.sandbox import scratch

            spec = scratch.plan(mount=True, watch=True, dirs=dirs)
            spec["mount"] = sys.platform.startswith("linux")
            return spec
        return self.inner.scratch_plan(dirs)

    def python_argv(self) -> list[str]:
        return self.inner.python_argv()

    def terminate(self, process, fields: dict | None = None) -> None:
        """Kill the child's group through the zygote, wait for its status, then anything left under its uid
        (unless the zygote, a subreaper, has swept it already: no look through every process then)."""
        process.kill()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if fields and process.pid not in self.server.swept:  # else the zygote has already killed what was left
            from grader.sandbox import identity

            identity.reap(fields)

    def start(self, argv: list[str], *, cwd: str, env: dict, stderr, view=None) -> ForkedChild:
        """``argv`` is the harness command line; its last argument is the stdout capture file."""
        out_fd = os.open(argv[-1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        try:
            pid = self.server.fork([req_r, res_w, out_fd, stderr.fileno()], env, cwd, _bound_cpu())
        except ZygoteError:
            for fd in (req_w, res_r):
                os.close(fd)
            raise
        finally:
            for fd in (req_r, res_w, out_fd):
                os.close(fd)
        return ForkedChild(pid, self.server, os.fdopen(req_w, "wb"), os.fdopen(res_r, "rb", buffering=0))

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


class ForkSession(Session):
    """A Session that names prebuilt bank cases by id instead of sending their trees again.

    Its scratch is made inside the server's home: the one folder a sandboxed zygote can see,
    and a RAM-backed one where the system has it.
    """

    def __init__(self, submission, exercise, launcher: ZygoteLauncher, **kwargs):
        saved = tempfile.tempdir
        tempfile.tempdir = launcher.server.scratch_parent  # only while Session makes its scratch
        try:
            super().__init__(submission, exercise, launcher, **kwargs)
        except FileNotFoundError as exc:
            # The home was removed under a live server (by another process of the grader's user: a hand clearing
            # /dev/shm, logind's RemoveIPC at logout): the server's fault, not the student's nor the grader's.
            # ZygoteError has the worker grade this one cold and start a fork server with a home of its own.
            if os.path.isdir(launcher.server.scratch_parent or ""):
                raise
            raise ZygoteError(f"the fork server's home {launcher.server.scratch_parent} is gone") from exc
        finally:
            tempfile.tempdir = saved

    def _for_child(self, case: dict) -> dict:
        """A bank case is named by its id (the child has it prebuilt); any other goes as a Session sends it."""
        if self.launcher.server.inputs.get(case["id"]) is case.get("input"):
            return {"id": case["id"]}
        return super()._for_child(case)
