"""The child's last steps before student code runs: become nobody, and give up what is left.

Loaded by the harness (``__main__`` under ``python -s -P -S``) from its own folder, so it may
use only the standard library. In order: import the modules a stranger uid could no longer
read (only when the grader asks), drop to the session's uid (when started as root), forbid
regaining privileges, become undumpable (so another process of the same uid cannot read this
one's memory through /proc) and install the system-call allowlist (allowlist.py): only what
CPython needs, calls that name a process only for the child itself, no sockets, no namespaces,
no changes to a file's mode, owner, times or extended attributes (what Landlock leaves open).
The filter matters most where bubblewrap is missing: it is then the only thing between student
code and the network or the grader's other processes; under bubblewrap it is a second fence.
"""

import os
import sys

PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_SET_MODE_FILTER = 1
SECCOMP_FILTER_FLAG_TSYNC = 1
SECCOMP_SYSCALL = {"x86_64": 317, "aarch64": 277}


def lock_down(config):
    """Everything here must succeed or no student code runs: the uid drop (the child stops), Landlock
    when the grader asks for it, and the system-call filter on Linux (x86_64, aarch64); the reason one
    failed is returned (None when done). Becoming undumpable is best effort."""
    for name in config.get("preload") or ():
        try:
            __import__(name)
        except BaseException:
            pass
    allowlist()  # read now: after the drop and Landlock its folder may be out of reach
    first_to_go()
    identity = config.get("identity")
    if identity:
        drop(int(identity["uid"]), int(identity["gid"]))
    problem = None
    if config.get("landlock"):
        problem = landlock().restrict(config["landlock"])
    try:
        undumpable()  # first: the filter refuses PR_SET_DUMPABLE
    except BaseException:
        pass
    try:
        installed = install_filter(os.getpid(), config.get("channel_fds") or ())
    except BaseException as exc:
        installed = f"{type(exc).__name__}: {exc}"
    if installed is not True and filter_expected():
        problem = problem or f"the system-call filter could not be installed ({installed or 'refused'})"
    return problem


def first_to_go():
    """Ask the kernel to end this child (and every process it forks, which inherit it) first when the machine runs
    out of memory: the memory limit is per process, and a submission may fork (the forty-ninth red team held 2.3 GiB
    in twelve forks), so where memory runs short it is a student's process that dies, not the grader, a worker or a
    neighbour. Raising one's own score needs no privilege; best effort (no /proc, another platform).

    The harness made itself undumpable at its first line, and an undumpable process's /proc files belong to root:
    an ordinary user's child (under bubblewrap, or the posix sandbox) was refused the write and stayed at 0 (the
    hundred-and-first helper's find). It is dumpable for the write alone: no student code has run yet. A cold
    harness and a fork server's child write it first, before anything of the session is in them (so the
    window in which another process of the uid could open this one's memory holds nothing)."""
    # Asked once per process (a fork inherits the flag): the second call, in the lock-down, comes with the session's
    # reply key in memory, and an ordinary user's undumpable child must not be dumpable then (the hundred-and-sixth
    # helper read the key from another process of the uid in that window). Read first (a score inherited needs
    # nothing), then written where that is allowed (root, a dumpable process), with the os module's calls: ``open()``
    # copies pages of the io and codec machinery a fork server's child otherwise never writes to.
    if _scored[0]:
        return
    _scored[0] = True
    if _read_small(OOM_SCORE_ADJ).strip() == b"1000" or _write_small(OOM_SCORE_ADJ, b"1000"):
        return
    dumpable = None
    if sys.platform.startswith("linux"):
        try:
            _ctypes, libc = _libc()
            dumpable = libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)
            if dumpable == 0:
                libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
        except (OSError, AttributeError):
            dumpable = None
    try:
        _write_small(OOM_SCORE_ADJ, b"1000")
    finally:
        if dumpable == 0:
            libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


OOM_SCORE_ADJ = "/proc/self/oom_score_adj"
_scored = [False]  # whether this process (or the one it was forked from) has asked already


def _read_small(path):
    """The first bytes of a small file (b"" where it cannot be read): one open, one read."""
    try:
        descriptor = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(descriptor, 64)
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def _write_small(path, data):
    """Whether ``data`` went whole into the existing file ``path``: one open, one write."""
    try:
        descriptor = os.open(path, os.O_WRONLY)
    except OSError:
        return False
    try:
        return os.write(descriptor, data) == len(data)
    except OSError:
        return False
    finally:
        os.close(descriptor)


def filter_expected():
    return sys.platform.startswith("linux") and allowlist().program(0, os.uname().machine) is not None


CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
_nested = [False]


def nest(own_user: bool = True):
    """Move the rest of this child into pid and user namespaces of its own (Linux, no root needed; with
    ``own_user`` False a pid and mount namespace, with a capability: see below).

    ``own_user`` False: a pid namespace alone, made with the CAP_SYS_ADMIN the fork server's bubblewrap
    sandbox keeps for its children, before ``scratch.enter`` gives it up (bwrap's sandbox refuses new user
    namespaces). There every child of an ordinary user's grader is the same uid as the fork server, so
    nothing but a namespace of its own ends what it leaves running: a chain of processes that regrew
    faster than the zygote's sweep outlived its child and was seen by the next student's (the hundred-and-
    first helper's find). The harness keeps the capability for ``enter``; the other two drop it at once.
    There the harness also mounts a /proc of its pid namespace, in a mount namespace of its own, over the
    sandbox's: through that one, bwrap's own pid 1 (the grader's uid, dumpable, no filter, the grader's
    limits) was open to a child's ``/proc/1/mem``, which planted code in it that outlived the grader holding
    256 MiB, and ``/proc/1/fd/2``, a file later students' children read answers from (the hundred-and-
    second helper's finds). Where that mount is refused, an empty read-only tmpfs hides /proc instead.
    Where the kernel refuses the namespaces (an AppArmor profile that keeps bwrap's children from using
    the capability), the child goes on without them, as with a setuid bwrap (bwrap.children_get_caps).

    Called by a single-threaded process (unshare refuses a user namespace to a threaded one) before
    it becomes the harness. Where it works, nothing in the child can name a process of the grader,
    the fork server or a neighbour, even by a call the allowlist would miss: in its pid namespace
    there are only its own processes (``kill(-1)``, ``PRIO_USER``, ``prlimit`` and pidfds reach no
    further), and when the harness ends, the kernel kills whatever it left there. Three processes
    take part: this one (the grader's or fork server's child, which waits and then dies the way
    the harness died, so exit statuses mean what they always meant), the namespace's init (pid 1,
    which reaps orphans and reports the harness's status), and the harness (pid 2), the only one
    that returns from here, with True. Where the kernel refuses (user namespaces switched off,
    as in some containers and hardened distributions), nothing changes and False is returned: the
    allowlist is then the only fence. With ``own_user``, no uid map is written: the child's files are
    still made with its real uid; inside, ``getuid`` says 65534.
    """
    if not sys.platform.startswith("linux"):
        return False
    ctypes, libc = _libc()
    if libc.unshare((CLONE_NEWUSER if own_user else CLONE_NEWNS) | CLONE_NEWPID) != 0:
        return False
    if own_user:
        _drop_capabilities(ctypes, libc)  # all of them, in the new user namespace
    status_r, status_w = os.pipe()
    init = os.fork()
    if init:
        _drop_capabilities(ctypes, libc)
        _only_fd(status_r)
        _mirror(_wait_for(init, status_r))
    os.close(status_r)  # first: where the pipe took 3 (a cold harness) ``keep`` below would keep it for student code
    _only_fd(status_w, keep=range(5))
    harness = os.fork()
    if harness == 0:
        os.close(status_w)
        _nested[0] = own_user  # what the process limit's count means (harness.apply_limits): a user namespace's own
        if not own_user:
            # The uid's tasks the new /proc will not show (the waiter, the zygote, bwrap's pid 1; not this process
            # nor the namespace's init): the process limit counts them all (see harness.apply_limits)
            _outside[0] = max(0, tasks_of(os.getuid()) - 2)
            _own_proc(libc)
        return True
    _drop_capabilities(ctypes, libc)
    _only_fd(status_w)
    while True:  # pid 1: reap everything; when the harness is done, say how and end the namespace
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            os._exit(0)
        except InterruptedError:
            continue
        if pid == harness:
            os.write(status_w, status.to_bytes(4, "little"))
            os._exit(0)


def nested():
    return _nested[0]


_outside = [0]


def outside():
    """Tasks of this uid that a pid-only ``nest`` hid from /proc, which the process limit still counts."""
    return _outside[0]


MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18


def _own_proc(libc) -> bool:
    """/proc of this process's own pid namespace over the one it sees (in a mount namespace of its own, made by
    ``nest``), with its processes only (``subset=pid``, Linux 5.8+; before that, with ``/proc/sys`` and the other
    kernel files bound read-only as bwrap binds them); where refused, an empty read-only tmpfs. True when the fresh
    /proc is mounted. Not a plain procfs: its ``/proc/sys`` shows the IPC settings of bwrap's IPC namespace, which
    every child of a fork server shares, writable by the child's uid there (the hundred-and-third helper passed
    values from one student's child to the next through ``kernel/msgmax`` and its neighbours)."""
    if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False  # a mount now could reach the sandbox's own /proc (the zygote's): none, then
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    if libc.mount(b"proc", b"/proc", b"proc", flags, b"subset=pid") == 0:
        return True
    if libc.mount(b"proc", b"/proc", b"proc", flags, None) == 0:
        for name in (b"/proc/sys", b"/proc/sysrq-trigger", b"/proc/irq", b"/proc/bus"):
            if not os.path.exists(name):
                continue
            if libc.mount(name, name, None, MS_BIND | MS_REC, None) != 0 or \
                    libc.mount(None, name, None, MS_BIND | MS_REMOUNT | MS_RDONLY | flags, None) != 0:
                libc.umount2(b"/proc", 2)  # MNT_DETACH: not this /proc, then
                break
        else:
            return True
    libc.mount(b"tmpfs", b"/proc", b"tmpfs", flags | MS_RDONLY, b"size=4k,nr_inodes=1,mode=0555")
    return False


def _only_fd(fd, keep=()):
    """Close every descriptor but ``fd`` (and ``keep``): a waiter must not hold the channel open."""
    top = 1 << 16
    try:
        top = min(os.sysconf("SC_OPEN_MAX"), 1 << 20)
    except (OSError, ValueError):
        pass
    start = 0
    for kept in sorted({fd, *keep}):
        if kept > start:  # never an empty range: CPython 3.11 turns closerange(0, 0) into "close all"
            os.closerange(start, kept)
        start = kept + 1
    os.closerange(start, top)


def _wait_for(init, status_r):
    while True:
        try:
            _pid, status = os.waitpid(init, 0)
            break
        except InterruptedError:
            continue
    data = os.read(status_r, 4)
    return int.from_bytes(data, "little") if len(data) == 4 else status


def _mirror(status):
    """End this process as the harness ended: the same exit code, or death by the same signal."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            import resource
            import signal  # only here: importing it (and enum) would cost an ordinary exit 30 ms

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        except (ImportError, OSError, ValueError):
            pass
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 5)


def _drop_capabilities(ctypes, libc):
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    libc.capset(header, data)


def landlock():
    """landlock.py, loaded from this folder by path (the grader package is not importable here)."""
    return _sibling("landlock.py", "_minimax_grader_landlock")


def undumpable():
    """Another child of the same uid may not read this one's memory through /proc (no bwrap, no root)."""
    if sys.platform.startswith("linux"):
        _ctypes, libc = _libc()
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def drop(uid, gid):
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid or os.getgid() != gid:
        raise SystemExit("could not drop privileges")


_LIBC = []  # (ctypes, libc), made once per process (a fork server's children inherit it)


def _libc():
    if _LIBC:
        return _LIBC[0]
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    _LIBC.append((ctypes, libc))
    return ctypes, libc


def allowlist():
    """allowlist.py (the filter's table), loaded from this folder by path."""
    return _sibling("allowlist.py", "_minimax_grader_allowlist")


def _sibling(filename, name):
    """A module of this folder by path (the harness has the same loader: both are loaded by path into a
    child that cannot import the grader package, and neither can import the other)."""
    module = sys.modules.get(name)
    if module is None:
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module


def filter_program(pid, machine=None, channel=()):
    return allowlist().program_for(pid, machine or os.uname().machine, channel)


# The descriptors a fork server's child guards (``harness.Harness.prepare_child``): its channel, 3 and 4, and the
# runner's two pipes, which take the lowest numbers free after them
CHILD_CHANNEL = (3, 4, 5, 6, 7, 8)


def prepare_filters(channel=CHILD_CHANNEL):
    """In a fork server, before it forks: what every child's filters are made of, made once (the allowlist's
    template for these descriptors, libc, the ctypes type of a program), so that a child installs its filters
    without assembling or defining anything (about 1 ms less a child). A child whose descriptors differ still
    assembles its own."""
    if not sys.platform.startswith("linux"):
        return
    try:
        allowlist().prepare(os.uname().machine, channel)
        _program_type(_libc()[0])
    except Exception:  # noqa: BLE001 - whatever failed, each child assembles and installs its own, as it would
        pass


def install_filter(pid, channel=()):
    """The allowlist for every thread of this process (TSYNC), else for this thread and those it starts."""
    if not sys.platform.startswith("linux"):
        return False
    machine = os.uname().machine
    code = filter_program(pid, machine, channel)
    made = _sock_fprog(code) if code is not None else None
    if made is None:
        return False
    ctypes, libc, program, _buffer = made
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(ctypes.c_long(SECCOMP_SYSCALL[machine]), ctypes.c_long(SECCOMP_SET_MODE_FILTER),
                    ctypes.c_long(SECCOMP_FILTER_FLAG_TSYNC), ctypes.c_void_p(ctypes.addressof(program))) == 0:
        return True
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) == 0


def refuse_threads():
    """``allowlist.no_threads`` on the calling thread only (each of the harness's threads installs it on itself,
    before any student code runs: the allowlist refuses the seccomp call whose TSYNC would reach the others): True
    when installed, False where there is no such filter (another platform or architecture, a refusal)."""
    if not sys.platform.startswith("linux"):
        return False
    code = allowlist().no_threads(os.uname().machine)
    made = _sock_fprog(code) if code is not None else None
    if made is None:
        return False
    ctypes, libc, program, _buffer = made
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) == 0


def _sock_fprog(code):
    """A filter's BPF bytes as the kernel's ``sock_fprog``, after PR_SET_NO_NEW_PRIVS (which a filter needs without
    CAP_SYS_ADMIN): ``(ctypes, libc, program, buffer)``, the buffer returned so that it outlives the call that
    installs the program; None where NO_NEW_PRIVS is refused."""
    ctypes, libc = _libc()
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return None
    buffer = ctypes.create_string_buffer(code, len(code))
    return ctypes, libc, _program_type(ctypes)(len(code) // 8, ctypes.addressof(buffer)), buffer


_PROGRAM_TYPE = []  # the kernel's ``sock_fprog`` as a ctypes structure, defined once per process (0.2 ms each time)


def _program_type(ctypes):
    if not _PROGRAM_TYPE:
        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        _PROGRAM_TYPE.append(Program)
    return _PROGRAM_TYPE[0]


def tasks_of(uid):
    """How many processes and threads this uid runs now (RLIMIT_NPROC counts them all)."""
    total = 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as handle:
                status = handle.read()
        except OSError:
            continue
        owner = threads = None
        for line in status.splitlines():
            if line.startswith(b"Uid:"):
                owner = int(line.split()[1])
            elif line.startswith(b"Threads:"):
                threads = int(line.split()[1])
        if owner == uid:
            total += threads or 1
    return total
