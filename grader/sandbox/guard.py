"""The child's last steps before student code runs: become nobody, and give up what is left.

Loaded by the harness (a plain script under ``python -I -S``) from its own folder, so it may
use only the standard library. In order: import the modules a stranger uid could no longer
read (only when the grader asks), drop to the session's uid (when started as root), forbid
regaining privileges, install a small seccomp filter that refuses sockets, tracing other
processes, signalling anything but the child itself and changing any file's mode, owner, times
or extended attributes (what Landlock leaves open), and become undumpable (so another
process of the same uid cannot read this one's memory through /proc). The filter matters most where
bubblewrap is missing: it is then the only thing between student code and the network or the
grader's other children; under bubblewrap it is a second fence.
"""

import os
import struct
import sys

PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
RET_ALLOW = 0x7FFF0000
RET_EPERM = 0x00050000 | 1
LD_ABS_W = 0x20
JEQ_K = 0x15
JGE_K = 0x35
RET_K = 0x06

# A file's mode, owner, times and extended attributes: Landlock does not cover them, so a child
# of the grader's own uid could set the driver, the child library or a neighbour's staged copy to
# mode 000 (and break every later student). Numbers from asm/unistd_64.h (x86_64) and
# asm-generic/unistd.h (aarch64, which has only the *at and f* forms); fchmodat2, setxattrat and
# removexattrat share one number on every architecture (Linux 6.6 and 6.13; older kernels never
# see them, which is harmless).
_ATTRIBUTES_COMMON = {"fchmodat2": 452, "setxattrat": 463, "removexattrat": 466}
_ATTRIBUTES = {
    "x86_64": {"chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93, "lchown": 94, "utime": 132, "utimes": 235,
               "futimesat": 261, "fchownat": 260, "fchmodat": 268, "utimensat": 280,
               "setxattr": 188, "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
               "fremovexattr": 199, **_ATTRIBUTES_COMMON},
    "aarch64": {"fchmod": 52, "fchmodat": 53, "fchownat": 54, "fchown": 55, "utimensat": 88,
                "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14, "lremovexattr": 15,
                "fremovexattr": 16, **_ATTRIBUTES_COMMON},
}

# (audit arch, x32 bit to refuse, denied, kill, tkill, tgkill)
ARCHES = {
    "x86_64": (0xC000003E, 0x40000000, {
        "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "socket": 41, "socketpair": 53,
        "pidfd_send_signal": 424, "pidfd_getfd": 438, **_ATTRIBUTES["x86_64"]}, 62, 200, 234),
    "aarch64": (0xC00000B7, None, {
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "socket": 198, "socketpair": 199,
        "pidfd_send_signal": 424, "pidfd_getfd": 438, **_ATTRIBUTES["aarch64"]}, 129, 130, 131),
}


def lock_down(config):
    """Everything below is best effort except the uid drop, which must succeed or the child stops,
    and Landlock when the grader asks for it: the reason it failed is returned (None when done)."""
    for name in config.get("preload") or ():
        try:
            __import__(name)
        except BaseException:
            pass
    identity = config.get("identity")
    if identity:
        drop(int(identity["uid"]), int(identity["gid"]))
    problem = None
    if config.get("landlock"):
        problem = landlock().restrict(config["landlock"])
    try:
        install_filter(os.getpid())
    except BaseException:
        pass
    try:
        undumpable()
    except BaseException:
        pass
    return problem


def landlock():
    """landlock.py, loaded from this folder by path (the grader package is not importable here)."""
    module = sys.modules.get("_minimax_grader_landlock")
    if module is None:
        import importlib.util

        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "landlock.py")
        spec = importlib.util.spec_from_file_location("_minimax_grader_landlock", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["_minimax_grader_landlock"] = module
    return module


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


def _libc():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return ctypes, libc


def _assemble(program):
    """Instructions with symbolic jump targets, into BPF (jumps are forward offsets)."""
    labels, position = {}, 0
    for item in program:
        if item[0] == "label":
            labels[item[1]] = position
        else:
            position += 1
    code, position = [], 0
    for item in program:
        if item[0] == "label":
            continue
        op = item[0]
        if op == "ld":
            code.append(struct.pack("HBBI", LD_ABS_W, 0, 0, item[1]))
        elif op == "ret":
            code.append(struct.pack("HBBI", RET_K, 0, 0, item[1]))
        else:  # ("jeq" | "jge", k, label if true, label if false or None for the next one)
            jt = labels[item[2]] - position - 1 if item[2] else 0
            jf = labels[item[3]] - position - 1 if item[3] else 0
            if not (0 <= jt < 256 and 0 <= jf < 256):
                raise ValueError("a jump backwards or too far")
            code.append(struct.pack("HBBI", JEQ_K if op == "jeq" else JGE_K, jt, jf, item[1] & 0xFFFFFFFF))
        position += 1
    return b"".join(code)


def filter_program(pid, machine=None):
    machine = machine or os.uname().machine
    if machine not in ARCHES:
        return None
    arch, x32, denied, kill, tkill, tgkill = ARCHES[machine]
    program = [("ld", 4), ("jeq", arch, None, "allow"), ("ld", 0)]
    if x32:
        program.append(("jge", x32, "deny", None))
    for number in denied.values():
        program.append(("jeq", number, "deny", None))
    program += [("jeq", kill, "kill", None), ("jeq", tgkill, "tgkill", None), ("jeq", tkill, "tkill", None),
                ("label", "allow"), ("ret", RET_ALLOW),
                # BPF jumps only forward: each signal check ends at the shared "mine"/"deny" pair.
                ("label", "kill"), ("ld", 16), ("jeq", 0, "mine", None), ("jeq", pid, "mine", None),
                ("jeq", -pid, "mine", "deny"),
                ("label", "tgkill"), ("ld", 16), ("jeq", pid, "mine", "deny"),
                ("label", "tkill"), ("ld", 16), ("jeq", pid, "mine", "deny"),
                ("label", "mine"), ("ret", RET_ALLOW),
                ("label", "deny"), ("ret", RET_EPERM)]
    return _assemble(program)


def install_filter(pid):
    if not sys.platform.startswith("linux"):
        return False
    code = filter_program(pid)
    if code is None:
        return False
    ctypes, libc = _libc()
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    buffer = ctypes.create_string_buffer(code, len(code))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    program = Program(len(code) // 8, ctypes.addressof(buffer))
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) == 0


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
