"""The bubblewrap launcher: the child sees only what it needs, and nothing it can break.

Inside, the child finds a read-only system (``/usr`` and its symlinks, a few files of
``/etc``, the Python installation with every site-packages folder emptied), read-only copies
of its inputs at their usual paths (harness, driver, the child's library folder, the staged
submission) and a small private tmpfs as its scratch, the only writable place besides its
two capture files: the sandbox's own root and ``/dev`` (tmpfs bwrap makes, which as an
ordinary user belong to the child's uid) are made read-only last. Everything else is absent:
the checkout with ``reference/`` and the grader package, other submissions, the output
folder, the gradebook, ``$HOME``. It also gets no network, its own pid namespace (its /proc
shows only itself; an ordinary user's child, its own init and itself: guard.nest), a new
session, and dies with the grader. Paths keep their host names, so requests need no
translation.

As root, bwrap runs without a user namespace and lets the harness keep only CAP_SETUID and
CAP_SETGID, which it uses to drop to the session's own uid (see identity.py): limits such as
RLIMIT_NPROC bind again. As an ordinary user, bwrap maps the child to ``nobody`` in a user
namespace of its own, which also gives it a process count of its own.

Whether bwrap works is found out once per process by starting it for real (containers
without user namespaces refuse); where it does not, the grader falls back to the posix
launcher and says so.
"""

from __future__ import annotations

import atexit
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import threading
from functools import cache
from pathlib import Path

from grader.sandbox import identity, launcher, scratch

SCRATCH_BYTES = scratch.BYTES  # the scratch cap: bwrap's tmpfs has this size
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime", "/etc/alternatives")


def executable() -> str:
    """The real interpreter (a venv's python is a symlink plus a pyvenv.cfg we do not bind)."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


@cache
def python_roots() -> tuple[str, ...]:
    """Host folders the interpreter needs: its installation and its standard library."""
    paths = sysconfig.get_paths()
    roots = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix),
             os.path.realpath(paths["stdlib"]), os.path.realpath(paths["platstdlib"]),
             os.path.dirname(executable())}
    roots = sorted(r for r in roots if r and os.path.isdir(r))
    return tuple(r for r in roots if not any(r.startswith(other.rstrip("/") + "/") for other in roots))


@cache
def hidden_paths() -> tuple[str, ...]:
    """Folders inside the bound system that must look empty: installed packages, the grader."""
    from grader import paths

    candidates = set()
    try:
        candidates.update(site.getsitepackages())
    except AttributeError:
        pass
    candidates.add(site.getusersitepackages() if hasattr(site, "getusersitepackages") else "")
    candidates.update(sysconfig.get_paths().get(k, "") for k in ("purelib", "platlib"))
    candidates.update([str(paths.PACKAGE_DIR), str(paths.data_root() / "reference")])
    for root in python_roots() + ("/usr",):
        for pattern in ("lib*/python3*/site-packages", "lib*/python3*/dist-packages", "lib/python3/dist-packages",
                        "local/lib/python3*/dist-packages", "local/lib/python3*/site-packages"):
            candidates.update(str(p) for p in Path(root).glob(pattern))
    bound = python_roots() + SYSTEM_DIRS
    found = set()
    for candidate in candidates:
        if not candidate or not os.path.isdir(candidate):
            continue
        real = os.path.realpath(candidate)
        if any(real == b or real.startswith(b.rstrip("/") + "/") for b in bound):
            found.add(real)
    return tuple(sorted(found))


def _system_args() -> list[str]:
    args = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in ETC_FILES:
        args += ["--ro-bind-try", path, path]
    for root in python_roots():
        if not any(root == d or root.startswith(d + "/") for d in SYSTEM_DIRS if not os.path.islink(d)):
            args += ["--ro-bind", root, root]
    for path in hidden_paths():
        args += ["--tmpfs", path]  # made read-only at the very end, after binds that may land inside
    return args


def _namespace_args() -> list[str]:
    common = ["--die-with-parent", "--new-session", "--proc", "/proc", "--dev", "/dev"]
    if identity.is_root():
        # No user namespace: the harness (still root, with only these two capabilities) drops
        # to the session's uid itself, which is what makes RLIMIT_NPROC count.
        return ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"] + common
    return ["--unshare-all", "--unshare-user", "--uid", str(identity.NOBODY), "--gid", str(identity.NOBODY), "--disable-userns"] + common


def _parent_dirs(destinations: list[str]) -> list[str]:
    """Folders bwrap would create on its own, copying the host's mode (a 0700 /root, say)."""
    skip = [d for d in SYSTEM_DIRS if not os.path.islink(d)]
    found = set()
    for path in destinations:
        for parent in Path(path).parents:
            text = str(parent)
            if text != "/" and not any(text == d or text.startswith(d + "/") for d in skip):
                found.add(text)
    return sorted(found, key=lambda p: (p.count("/"), p))


def command(view: launcher.View, argv: list[str], cwd: str, caps: tuple[str, ...] = ()) -> list[str]:
    """``caps``: capabilities the sandboxed process keeps as an ordinary user (in its user namespace): the fork
    server's zygote and an ordinary user's cold child ask for CAP_SYS_ADMIN, which the children use for a pid
    namespace, a /proc and (the zygote's) a scratch of their own, and drop (guard.nest, scratch.enter)."""
    destinations = list(python_roots()) + view.readonly + view.outputs + ([view.scratch_root] if view.scratch_root else [])
    args = ["bwrap"] + _namespace_args()
    for cap in caps if not identity.is_root() else ():
        args += ["--cap-add", cap]
    for folder in _parent_dirs(destinations):
        if not (view.scratch_root and (folder + "/").startswith(view.scratch_root.rstrip("/") + "/")):
            args += ["--perms", "0755", "--dir", folder]
    args += _system_args()
    if view.scratch_root:
        args += ["--size", str(SCRATCH_BYTES), "--perms", "0711", "--tmpfs", view.scratch_root]
    for path in view.readonly:
        args += ["--ro-bind", path, path]
    for path in view.outputs:
        args += ["--bind", path, path]
    for path in view.scratch_dirs:
        args += ["--perms", "01777", "--dir", path]
    for path in hidden_paths():
        args += ["--remount-ro", path]
    # The root and /dev are tmpfs bwrap makes, owned by the sandbox's user and uncapped: left writable, a child
    # of an ordinary user's grader could fill the machine's memory there, or (under a fork server, whose sandbox
    # outlives each child) leave files for the next student's child to read. Read-only, like everything else
    # but the bound outputs and the capped scratch (separate mounts, which keep their own flags).
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", cwd, "--"]
    return args + argv


class BwrapLauncher(launcher.Launcher):
    wants_view = True           # the session describes the child's world; bwrap builds it
    signal_in_exit_code = True  # a child killed by signal N comes back as exit code 128 + N

    def __init__(self):
        super().__init__("bwrap", isolated=True)

    def prepare(self, scratch) -> dict:
        # The scratch the child writes is bwrap's tmpfs, so there is nothing on the host to hand over.
        return identity.prepare(scratch, chown=False) if identity.is_root() else {}

    def python_argv(self) -> list[str]:
        return launcher.python_argv(executable())

    def scratch_plan(self, dirs) -> dict:
        return scratch.plan(mount=False, watch=False, dirs=dirs)  # the scratch is bwrap's own capped tmpfs

    def terminate(self, process, fields=None) -> None:
        self.kill(process)  # the pid namespace dies with its first process: nothing can linger

    def start(self, argv, *, cwd, env, stderr, view=None):
        view = view or launcher.View()
        caps = ()
        if sys.platform.startswith("linux") and children_get_caps():
            # Inside, bwrap's own pid 1 is the grader's uid and dumpable: the harness moves into a pid namespace
            # of its own with a /proc that does not show it (guard.nest), then gives the capability up.
            argv = argv[:-1] + [launcher.PID_NEST_FLAG, argv[-1]]
            caps = ("CAP_SYS_ADMIN",)
        return subprocess.Popen(
            command(view, argv, cwd, caps=caps), cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, close_fds=True, start_new_session=True,
        )


_probe: subprocess.Popen | None = None  # started early by ``start_probe``, read by ``problem``
_probe_lock = threading.Lock()  # a Dask worker loads its jobs in several threads
_reaper_registered = False


_children_keep_caps = [True]  # False where this bwrap refuses ``--cap-add`` (a setuid bwrap): see ``_answer``


def children_get_caps() -> bool:
    """May a child of an ordinary user's bwrap be given CAP_SYS_ADMIN for its own pid namespace (``BwrapLauncher.start``)?
    Known once ``problem`` has answered."""
    return _children_keep_caps[0] and not identity.is_root()


def _probe_argv(caps: bool = True) -> list[str]:
    here = Path(__file__).resolve().parent
    harness = str(here / "harness.py")
    # The same kinds of mounts a session makes (files bound inside the emptied folders, too), and the capability an
    # ordinary user's children are given (``BwrapLauncher.start``).
    view = launcher.View(readonly=[harness, str(here / "guard.py")])
    argv = [executable(), "-I", "-S", "-B", "-c", f"import json, sys; open({harness!r}).close()"]
    return command(view, argv, "/", caps=("CAP_SYS_ADMIN",) if caps else ())


def _start() -> subprocess.Popen:
    return subprocess.Popen(_probe_argv(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def start_probe() -> None:
    """Start finding out whether bwrap works, in the background: the probe is a sandboxed Python of its
    own (some 35 ms), and a check has the grader, its exercise and case bank to load meanwhile."""
    global _probe, _reaper_registered
    with _probe_lock:
        if _probe is not None or problem.cache_info().currsize or shutil.which("bwrap") is None:
            return
        try:
            _probe = _start()
        except OSError:
            _probe = None  # ``problem`` starts it again and says why it cannot
            return
        if not _reaper_registered:
            _reaper_registered = True
            atexit.register(_reap)  # a command that stops before choosing (an unknown exercise) leaves nothing


def _reap() -> None:
    global _probe
    with _probe_lock:
        left, _probe = _probe, None
    if left is not None:
        left.kill()
        left.communicate()


@cache
def problem() -> str | None:
    """None if bwrap can start a sandboxed Python here, else why not (checked once per process)."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed (Debian/Ubuntu package: bubblewrap)"
    with _probe_lock:  # the probe started early, or one started now; either way collected here
        return _answer()


def _answer() -> str | None:
    global _probe
    started, _probe = _probe, None
    try:
        if started is None:
            started = _start()
        _, stderr = started.communicate(timeout=20)
    except subprocess.TimeoutExpired as exc:
        started.kill()
        started.communicate()
        return f"bwrap could not be started ({exc})"
    except OSError as exc:
        return f"bwrap could not be started ({exc})"
    if started.returncode != 0:
        if not identity.is_root() and _works_without_caps():
            # A setuid bwrap gives an ordinary user no capability in the sandbox: bwrap still, each child without a
            # pid namespace and a /proc of its own (and no fork server: its children mount their scratch with it)
            _children_keep_caps[0] = False
            return None
        last = (stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
        return f"bwrap cannot start a sandbox here: {last[:200]}"
    _children_keep_caps[0] = True
    return None


def _works_without_caps() -> bool:
    try:
        return subprocess.run(_probe_argv(caps=False), stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def fallback_warning(problem_text: str, nests: bool = False) -> str:
    start = f"not using the bubblewrap sandbox: {problem_text}. Student code runs as a plain child process with "
    if nests:
        return start + ("resource limits, a system-call allowlist, and pid and user namespaces of its own, so it can "
                        "name none of the grader's other processes")
    from grader.sandbox import identity

    if identity.is_root():
        if not identity.python_readable_by_others():
            return start + ("resource limits, a throw-away uid and a system-call allowlist; other users cannot read this "
                            "Python (it sits under a private folder such as /root), so student files can import only "
                            "the standard modules loaded for them first (math, random, functools, collections and the "
                            "rest of identity.PRELOAD): install Python where others can read it, or use bubblewrap")
        return start + "resource limits, a throw-away uid and a system-call allowlist"
    return start + ("resource limits and a system-call allowlist; this system refuses it pid and user namespaces of "
                    "its own, so that allowlist alone keeps it from signalling, prlimiting or renicing the grader's "
                    "other processes")
