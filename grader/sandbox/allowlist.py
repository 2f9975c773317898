"""The child's system-call allowlist: a seccomp filter that lets through only what CPython needs.

Why an allowlist: a blocklist names the holes someone has already found. The one this replaces let
``prlimit64`` and ``rt_sigqueueinfo`` through (neither names a file, so Landlock does not cover
them), and a child of the grader's own uid used them to shrink the fork server's memory and kill
the grader. Here every system call is refused (``EPERM``, never a kill: the harness must still
answer) unless it is in the table below, which was taken from what the harness and the test
submissions really call (strace, CPython 3.11) plus the relatives glibc may pick instead (``open``
or ``openat``, ``stat`` or ``newfstatat`` or ``statx``).

Why by hand and not through libseccomp's Python binding: the child runs ``python -s -P -S`` with the
standard library only (site-packages are hidden from it), the binding is a system package
(python3-seccomp on Debian, nothing on PyPI) bound to the system's Python, and the program is small:
a list of numbers and a few argument checks, assembled below in forty lines. The numbers come
from ``asm/unistd_64.h`` (x86_64) and ``asm-generic/unistd.h`` (aarch64).

Calls that name another process are let through only for the child itself: their pid argument
(the low 32 bits, which is what the kernel reads from a ``pid_t``) must be 0 or the child's own
pid, as it was when the filter was installed; ``tgkill`` and the ``*sigqueueinfo`` calls must name
the child's own thread group (any of its threads). ``clone`` may not make namespaces, ``clone3``
(whose flags the filter cannot read) says ``ENOSYS`` so that glibc falls back to ``clone``, and
``prctl`` is limited to harmless options. Everything in ``OWN`` and ``ARGUMENTS`` below is checked
against the table on every call; plainly allowed calls are cached by the kernel (Linux 5.11+) and
cost nothing.

Loaded by path from guard.py inside the child (standard library only), and by the tests.
"""

import struct

# Allowed whatever their arguments: files (Landlock fences which), memory, threads, time, signals
# to oneself, waiting for one's own children. Names missing on an architecture are skipped.
ALLOWED = """
    read write readv writev pread64 pwrite64 preadv pwritev preadv2 pwritev2
    open openat openat2 creat lseek
    stat fstat lstat newfstatat statx statfs fstatfs access faccessat faccessat2
    readlink readlinkat getdents getdents64 getcwd chdir fchdir umask
    mkdir mkdirat rmdir unlink unlinkat rename renameat renameat2 link linkat symlink symlinkat
    truncate ftruncate fallocate fsync fdatasync flock fadvise64 readahead
    dup pipe pipe2 sendfile copy_file_range
    select pselect6 poll ppoll epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait epoll_pwait2
    eventfd eventfd2 timerfd_create timerfd_settime timerfd_gettime
    brk mmap munmap mprotect mremap madvise mincore
    fork vfork wait4 waitid exit exit_group set_tid_address set_robust_list rseq arch_prctl
    getpid getppid gettid getuid geteuid getgid getegid getgroups getresuid getresgid
    getpgid getpgrp getsid setsid
    uname sysinfo getrusage times getrlimit setrlimit getcpu
    sched_yield sched_get_priority_max sched_get_priority_min
    nanosleep clock_nanosleep clock_gettime clock_getres gettimeofday time getrandom futex futex_waitv
    rt_sigaction rt_sigprocmask rt_sigreturn sigaltstack rt_sigsuspend rt_sigpending rt_sigtimedwait
    restart_syscall alarm setitimer getitimer pause
    timer_create timer_settime timer_gettime timer_delete timer_getoverrun
""".split()

# Calls that name a process: (name, index of the pid argument). Allowed only for 0 and the child's
# own pid (kill also for its own process group, -pid).
OWN = (
    ("kill", 0), ("tkill", 0), ("tgkill", 0), ("rt_sigqueueinfo", 0), ("rt_tgsigqueueinfo", 0),
    ("pidfd_open", 0), ("prlimit64", 0), ("setpgid", 0), ("get_robust_list", 0),
    ("sched_setaffinity", 0), ("sched_getaffinity", 0), ("sched_setscheduler", 0), ("sched_getscheduler", 0),
    ("sched_setparam", 0), ("sched_getparam", 0), ("sched_setattr", 0), ("sched_getattr", 0),
    ("sched_rr_get_interval", 0), ("process_vm_readv", 0), ("process_vm_writev", 0),
    ("move_pages", 0), ("migrate_pages", 0), ("kcmp", 0), ("kcmp", 1),
)

CLONE_NAMESPACES = 0x7E020000  # CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
PR_OPTIONS = (3, 15, 16, 21, 22, 23, 38, 39, 0x53564D41)  # GET_DUMPABLE, SET/GET_NAME, GET/SET_SECCOMP,
# CAPBSET_READ, SET/GET_NO_NEW_PRIVS, SET_VMA (glibc names its mappings); never SET_DUMPABLE back to 1

# Other argument checks: (name, [(argument, "in", values), (argument, "notin", values) or (argument, "clear",
# mask)]), all must hold.
ARGUMENTS = (
    ("clone", [(0, "clear", CLONE_NAMESPACES)]),
    ("prctl", [(0, "in", PR_OPTIONS)]),
    ("getpriority", [(0, "in", (0,)), (1, "in", ("own",))]),  # PRIO_PROCESS only: PRIO_USER 0 is every
    ("setpriority", [(0, "in", (0,)), (1, "in", ("own",))]),  # process of this uid, the grader's too
    ("ioprio_get", [(0, "in", (1,)), (1, "in", ("own",))]),   # IOPRIO_WHO_PROCESS
    ("ioprio_set", [(0, "in", (1,)), (1, "in", ("own",))]),
    # A descriptor's owner is whom the kernel signals when it is ready (O_ASYNC), with the signal F_SETSIG names:
    # SIGKILL or SIGSTOP to any process of the same uid, which neither this filter's pid checks nor a kernel
    # without Landlock's signal scoping (before 6.12) stops (the forty-ninth red team stopped the grader and every
    # worker that way, as an ordinary user). Never F_SETOWN, F_SETSIG, F_SETOWN_EX; nor the ioctls that do the
    # same (FIOASYNC, and FIOSETOWN and SIOCSPGRP, which sockets take: refused anyway).
    ("fcntl", [(1, "notin", (8, 10, 15))]),
    ("ioctl", [(1, "notin", (0x5452, 0x8901, 0x8902))]),
)

# The channel's descriptors (the harness's requests and replies): no call may close them or put another
# file in their place (a pipe of the child's own, read by a thread that rewrites every reply), so what the
# harness writes is what the grader reads. Checked as "notin" against the numbers the harness gives.
CHANNEL = (("close", 0), ("dup2", 1), ("dup3", 1), ("dup", 0), ("dup2", 0), ("dup3", 0))
# Nor may a call change how they read: O_NONBLOCK set on the hand-over's "done" pipe made the harness's wait for it
# fail (EAGAIN, once a signal of the student's had cut the wait short), and the error was made on the harness's
# thread while the student's call had collection on: the collection ran their gc callback there, with the reply
# key up the stack (the sixty-fifth red team). So ``fcntl`` may not set their flags (F_SETFL) nor copy them
# (F_DUPFD, F_DUPFD_CLOEXEC: a copy shares the flags), nor ``ioctl`` set O_NONBLOCK (FIONBIO, the way CPython's
# ``os.set_blocking`` does it), nor may ``dup`` (above). (call, descriptor argument, command argument, commands)
CHANNEL_COMMANDS = (("fcntl", 0, 1, (0, 4, 1030)), ("ioctl", 0, 1, (0x5421,)))

ENOSYS = ("clone3", "close_range")  # glibc then uses clone, whose flags the filter can read; CPython then
# closes descriptors one by one, each checked

_X86_64 = dict(
    read=0, write=1, open=2, close=3, stat=4, fstat=5, lstat=6, poll=7, lseek=8, mmap=9, mprotect=10, munmap=11,
    brk=12, rt_sigaction=13, rt_sigprocmask=14, rt_sigreturn=15, ioctl=16, pread64=17, pwrite64=18, readv=19,
    writev=20, access=21, pipe=22, select=23, sched_yield=24, mremap=25, mincore=27, madvise=28, dup=32, dup2=33,
    pause=34, nanosleep=35, getitimer=36, alarm=37, setitimer=38, getpid=39, sendfile=40, clone=56, fork=57,
    vfork=58, exit=60, wait4=61, kill=62, uname=63, fcntl=72, flock=73, fsync=74, fdatasync=75, truncate=76,
    ftruncate=77, getdents=78, getcwd=79, chdir=80, fchdir=81, rename=82, mkdir=83, rmdir=84, creat=85, link=86,
    unlink=87, symlink=88, readlink=89, umask=95, gettimeofday=96, getrlimit=97, getrusage=98, sysinfo=99,
    times=100, getuid=102, getgid=104, geteuid=107, getegid=108, setpgid=109, getppid=110, getpgrp=111,
    setsid=112, getgroups=115, getresuid=118, getresgid=120, getpgid=121, getsid=124, rt_sigpending=127,
    rt_sigtimedwait=128, rt_sigqueueinfo=129, rt_sigsuspend=130, sigaltstack=131, statfs=137, fstatfs=138,
    getpriority=140, setpriority=141, sched_setparam=142, sched_getparam=143, sched_setscheduler=144,
    sched_getscheduler=145, sched_get_priority_max=146, sched_get_priority_min=147, sched_rr_get_interval=148,
    prctl=157, arch_prctl=158, setrlimit=160, gettid=186, readahead=187, time=201, futex=202,
    tkill=200, sched_setaffinity=203, sched_getaffinity=204, epoll_create=213, getdents64=217, set_tid_address=218,
    restart_syscall=219, fadvise64=221, timer_create=222, timer_settime=223, timer_gettime=224,
    timer_getoverrun=225, timer_delete=226, clock_gettime=228, clock_getres=229, clock_nanosleep=230,
    exit_group=231, epoll_wait=232, epoll_ctl=233, tgkill=234, waitid=247, ioprio_set=251, ioprio_get=252, migrate_pages=256,
    openat=257, mkdirat=258, newfstatat=262, unlinkat=263, renameat=264, linkat=265, symlinkat=266,
    readlinkat=267, faccessat=269, pselect6=270, ppoll=271, set_robust_list=273, get_robust_list=274,
    move_pages=279, epoll_pwait=281, timerfd_create=283, eventfd=284, fallocate=285, timerfd_settime=286,
    timerfd_gettime=287, eventfd2=290, epoll_create1=291, dup3=292, pipe2=293, preadv=295, pwritev=296,
    rt_tgsigqueueinfo=297, prlimit64=302, getcpu=309, process_vm_readv=310, process_vm_writev=311, kcmp=312,
    sched_setattr=314, sched_getattr=315, renameat2=316, getrandom=318, copy_file_range=326, preadv2=327,
    pwritev2=328, statx=332, rseq=334, pidfd_open=434, clone3=435, close_range=436, openat2=437,
    faccessat2=439, epoll_pwait2=441, futex_waitv=449,
)
_AARCH64 = dict(  # asm-generic: no legacy calls (open, stat, fork, ...), only their *at and newer forms
    getcwd=17, eventfd2=19, epoll_create1=20, epoll_ctl=21, epoll_pwait=22, dup=23, dup3=24, fcntl=25,
    ioctl=29, ioprio_set=30, ioprio_get=31, flock=32, mkdirat=34, unlinkat=35, symlinkat=36, linkat=37,
    renameat=38, statfs=43, fstatfs=44, truncate=45, ftruncate=46, fallocate=47, faccessat=48, chdir=49,
    fchdir=50, openat=56, close=57, pipe2=59, getdents64=61, lseek=62, read=63, write=64, readv=65, writev=66,
    pread64=67, pwrite64=68, preadv=69, pwritev=70, sendfile=71, pselect6=72, ppoll=73, readlinkat=78,
    newfstatat=79, fstat=80, fsync=82, fdatasync=83, timerfd_create=85, timerfd_settime=86, timerfd_gettime=87,
    exit=93, exit_group=94, waitid=95, set_tid_address=96, futex=98, set_robust_list=99, get_robust_list=100,
    nanosleep=101, getitimer=102, setitimer=103, timer_create=107, timer_gettime=108, timer_getoverrun=109,
    timer_settime=110, timer_delete=111, clock_gettime=113, clock_getres=114, clock_nanosleep=115,
    sched_setparam=118, sched_setscheduler=119, sched_getscheduler=120, sched_getparam=121,
    sched_setaffinity=122, sched_getaffinity=123, sched_yield=124, sched_get_priority_max=125,
    sched_get_priority_min=126, sched_rr_get_interval=127, restart_syscall=128, kill=129, tkill=130, tgkill=131,
    sigaltstack=132, rt_sigsuspend=133, rt_sigaction=134, rt_sigprocmask=135, rt_sigpending=136,
    rt_sigtimedwait=137, rt_sigqueueinfo=138, rt_sigreturn=139, setpriority=140, getpriority=141, times=153,
    setpgid=154, getpgid=155, getsid=156, setsid=157, getgroups=158, uname=160, getresuid=148, getresgid=150, getrlimit=163, setrlimit=164,
    getrusage=165, umask=166, prctl=167, getcpu=168, gettimeofday=169, getpid=172, getppid=173, getuid=174,
    geteuid=175, getgid=176, getegid=177, gettid=178, sysinfo=179, readahead=213, brk=214, munmap=215,
    mremap=216, clone=220, mmap=222, fadvise64=223, mprotect=226, mincore=232, madvise=233, migrate_pages=238,
    move_pages=239, rt_tgsigqueueinfo=240, wait4=260, prlimit64=261, process_vm_readv=270, process_vm_writev=271,
    kcmp=272, sched_setattr=274, sched_getattr=275, renameat2=276, getrandom=278, copy_file_range=285,
    preadv2=286, pwritev2=287, statx=291, rseq=293, pidfd_open=434, clone3=435, close_range=436, openat2=437,
    faccessat2=439, epoll_pwait2=441, futex_waitv=449,
)

# machine: (audit architecture, first number of a foreign ABI sharing it (x32), numbers by name)
ARCHES = {"x86_64": (0xC000003E, 0x40000000, _X86_64), "aarch64": (0xC00000B7, None, _AARCH64)}

RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
EPERM, ENOSYS_ERRNO = 1, 38
_LD, _JA, _JEQ, _JGE, _JSET, _RET = 0x20, 0x05, 0x15, 0x35, 0x45, 0x06
_JUMPS = {"jeq": _JEQ, "jge": _JGE, "jset": _JSET}


def program(pid, machine, channel=()):
    """The filter for a child whose pid is ``pid`` on ``machine``, as BPF bytes (None: no table);
    ``channel``: the descriptors no call may close or replace."""
    if machine not in ARCHES:
        return None
    arch, foreign, numbers = ARCHES[machine]
    own = {0, pid & 0xFFFFFFFF}
    deny, enosys, allow = ("ret", RET_ERRNO | EPERM), ("ret", RET_ERRNO | ENOSYS_ERRNO), ("ret", RET_ALLOW)
    code = [("ld", 4), ("jeq", arch, 1, None), deny, ("ld", 0)]  # another architecture's calls: refused
    if foreign is not None:
        code += [("jge", foreign, None, 1), deny]  # x32 numbers on x86_64: refused
    checks = {}
    for name, argument in OWN:
        values = own | ({-pid & 0xFFFFFFFF} if name == "kill" else set())
        checks.setdefault(name, []).append((argument, "in", sorted(values)))
    for name, argument in CHANNEL:
        checks.setdefault(name, []).append((argument, "notin", sorted(channel) or [-1 & 0xFFFFFFFF]))
    for name, descriptor, command, commands in CHANNEL_COMMANDS:
        if channel:
            checks.setdefault(name, []).append((command, "when", (commands, descriptor, sorted(channel))))
    for name, conditions in ARGUMENTS:
        checks.setdefault(name, []).extend(
            (arg, kind, sorted(own) if values == ("own",) else values) for arg, kind, values in conditions)
    blocks = []
    for name, conditions in checks.items():
        if name in numbers:
            code += [("jeq", numbers[name], None, 1), ("ja", name)]
            blocks += [("label", name), *_block(name, conditions), allow, ("label", name + ":no"), deny]
    for name in ENOSYS:
        if name in numbers:
            code += [("jeq", numbers[name], None, 1), enosys]
    for name in ALLOWED:
        if name in numbers:
            code += [("jeq", numbers[name], None, 1), allow]
    return _assemble(code + [deny] + blocks)


def _block(name, conditions):
    """Each condition on one argument's low 32 bits (little-endian: at 16 + 8 * index); a miss jumps to
    the block's refusal."""
    out, fail = [], name + ":no"
    for number, (argument, kind, values) in enumerate(conditions):
        ok = f"{name}:{number}"
        out.append(("ld", 16 + 8 * argument))
        if kind == "clear":
            out.append(("jset", values, fail, ok))
        elif kind == "notin":
            out += [("jeq", value, fail, None) for value in values[:-1]] + [("jeq", values[-1], fail, ok)]
        elif kind == "when":  # one of these commands: then the descriptor argument may not be one of these
            commands, descriptor, guarded = values
            named = f"{name}:{number}:descriptor"
            out += [("jeq", value, named, None) for value in commands[:-1]] + [("jeq", commands[-1], named, ok)]
            out += [("label", named), ("ld", 16 + 8 * descriptor)]
            out += [("jeq", value, fail, None) for value in guarded[:-1]] + [("jeq", guarded[-1], fail, ok)]
        else:
            out += [("jeq", value, ok, None) for value in values[:-1]] + [("jeq", values[-1], ok, fail)]
        out.append(("label", ok))
    return out


def _assemble(items):
    """Instructions into BPF. A conditional jump's targets are labels or small forward counts (None:
    the next instruction); ``ja`` reaches any label. BPF jumps only forward."""
    labels, position = {}, 0
    for item in items:
        if item[0] == "label":
            labels[item[1]] = position
        else:
            position += 1
    out, position = [], 0
    for item in items:
        op = item[0]
        if op == "label":
            continue
        if op == "ld":
            out.append(struct.pack("HBBI", _LD, 0, 0, item[1]))
        elif op == "ret":
            out.append(struct.pack("HBBI", _RET, 0, 0, item[1]))
        elif op == "ja":
            out.append(struct.pack("HBBI", _JA, 0, 0, labels[item[1]] - position - 1))
        else:
            jt, jf = (labels[t] - position - 1 if isinstance(t, str) else (t or 0) for t in item[2:4])
            if not (0 <= jt < 256 and 0 <= jf < 256):
                raise ValueError("a jump backwards or too far")
            out.append(struct.pack("HBBI", _JUMPS[op], jt, jf, item[1] & 0xFFFFFFFF))
        position += 1
    return b"".join(out)


# Templates of ``program``, one per machine and set of guarded descriptors, made by ``prepare`` (a fork server, before
# it forks): ``(the program, ((offset of a pid constant, whether it is the negated pid), ...))``.
_TEMPLATES = {}
# Two pids to assemble a template with: the same order as any real pid among 0 and the negated pid (both in
# (0, 2**31)), so the two programs differ only in those constants, which tells where the child's pid goes.
_PROBE_PIDS = (0x1234567, 0x2345678)
_LOW = 0xFFFFFFFF
_FROM_TEMPLATE = [0]  # programs this process made from a template (a fork server's child: its own, once)


def prepare(machine, channel=()):
    """Make the template ``program_for`` patches: in a fork server, before it forks, so that each child copies a
    program and writes its own pid into it (some 10 us) instead of assembling one (0.8 ms in a fresh child, whose
    first touches of this module's tables copy their pages). Made only where two assemblies differ in the pid's
    constants alone (a jump or anything else that moved: no template, and children assemble as before)."""
    key = (machine, tuple(sorted(channel)))
    no_threads(machine)
    first, second = (program(pid, machine, channel) for pid in _PROBE_PIDS)
    if first is None or len(first) != len(second):
        return False
    slots = []
    for at in range(0, len(first), 8):
        one, two = first[at:at + 8], second[at:at + 8]
        if one == two:
            continue
        if one[:4] != two[:4]:
            return False
        constants = (struct.unpack("I", one[4:])[0], struct.unpack("I", two[4:])[0])
        if constants == _PROBE_PIDS:
            slots.append((at + 4, False))
        elif constants == tuple(-pid & _LOW for pid in _PROBE_PIDS):
            slots.append((at + 4, True))
        else:
            return False
    _TEMPLATES[key] = (first, tuple(slots))
    return True


def program_for(pid, machine, channel=()):
    """``program(pid, machine, channel)``, byte for byte: from the template ``prepare`` made for this machine and
    these descriptors where there is one, else assembled."""
    made = _TEMPLATES.get((machine, tuple(sorted(channel))))
    if made is None or not 0 < pid < 1 << 31:
        return program(pid, machine, channel)
    code, slots = made
    _FROM_TEMPLATE[0] += 1
    out = bytearray(code)
    for offset, negated in slots:
        struct.pack_into("I", out, offset, (-pid if negated else pid) & _LOW)
    return bytes(out)


CLONE_THREAD = 0x00010000
EAGAIN = 11


def no_threads(machine):
    """A second filter, for the runner thread alone (and what it starts): ``clone`` with ``CLONE_THREAD`` says
    ``EAGAIN`` (Python: "can't start new thread"), ``clone3`` ``ENOSYS`` (glibc then uses ``clone``); everything
    else is left to the allowlist. Stacked filters all run and the strictest answer wins.

    Why: the student's code runs on the runner thread, and a thread of theirs could run while the harness works on
    its own thread (the interpreter's hold on that thread is a switch interval, which a long enough stretch of the
    harness's work, or a busy machine, lets a waiting thread break). Without threads of theirs, nothing of the
    student's runs at all while the harness works: only their call, while the harness waits for it. A process of
    theirs (``fork``) has memory of its own and stays allowed."""
    if machine not in ARCHES:
        return None
    made = _NO_THREADS.get(machine)  # the same bytes for every thread of every child: made once (``prepare``)
    if made is not None:
        return made
    arch, _foreign, numbers = ARCHES[machine]
    allow, enosys, again = ("ret", RET_ALLOW), ("ret", RET_ERRNO | ENOSYS_ERRNO), ("ret", RET_ERRNO | EAGAIN)
    code = [("ld", 4), ("jeq", arch, 1, None), allow, ("ld", 0)]  # another architecture: the allowlist refuses it
    code += [("jeq", numbers["clone3"], None, 1), enosys]
    code += [("jeq", numbers["clone"], 1, None), allow]
    code += [("ld", 16), ("jset", CLONE_THREAD, 1, None), allow, again]
    made = _NO_THREADS[machine] = _assemble(code)
    return made


_NO_THREADS = {}  # machine: no_threads' program
