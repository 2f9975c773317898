"""A cap on the child's scratch (its work folder and home), under every launcher.

The per-file size limit (RLIMIT_FSIZE) stops one big file, not a thousand small ones: without
a cap on the scratch as a whole, a child under a bulk run's fork server (scratch in /dev/shm)
wrote 1.5 GiB in a second and its neighbours failed with "No space left on device". The cap
is ``BYTES`` and ``FILES`` (files and folders), enforced by the first of these that applies:

* bubblewrap (``check``): the scratch is bwrap's own tmpfs of that size;
* Linux, the posix launcher and the fork server's children (under posix or bwrap): the child, at
  its start and before any thread or student code, mounts a tmpfs of that size over its work
  folder (its home is bound to a folder inside it) in a mount namespace of its own (``enter``):
  as root directly; under the fork server's bwrap with the CAP_SYS_ADMIN that sandbox keeps for
  it; otherwise inside a user namespace of its own, where the kernel allows one. A child that is
  not root then gives up every capability. The host folders stay empty; the tmpfs goes when the
  child's last process does;
* everywhere else (the overflow uid 65534, a kernel without user namespaces, macOS, spawn, or
  forced with ``MINIMAX_GRADER_SCRATCH=watch``): the parent measures the scratch folders every
  ``WATCH_INTERVAL`` and kills the child past the cap. Its latency is that interval plus one walk
  (bounded by ``FILES``): a child writing 1 MiB files as fast as it can was seen at 76 to 114 MiB
  when it was stopped, on a machine with both cores busy. The parent always measures where the
  child's scratch is a host folder: where the tmpfs hides it, that costs one empty listing.

Whatever the launcher, every thread of an isolated child is refused new namespaces and mounts
before the driver loads (``fence``, SECCOMP_FILTER_FLAG_TSYNC): a user namespace of its own would
let student code mount a tmpfs of any size and fill the machine's memory.

A child that fills its capped scratch (or hides a folder from the parent's walk) fails alone:
"exceeded the scratch space limit of 64 MiB". Under a tmpfs the harness sees the full scratch
after each request (``full``) and says so in its reply (``"fatal": "scratch"``), even when the
student code swallowed the "No space left on device" errors.

This file is loaded by the harness from its own folder (``enter``, ``confine`` and ``full`` run in
the child, standard library only) and imported by the grader (``plan``, ``prepare`` and ``Watch``).
"""

import os
import sys
import threading

BYTES = 64 << 20
FILES = 4096
WATCH_INTERVAL = 0.05
ENV = "MINIMAX_GRADER_SCRATCH"  # "watch": no tmpfs in the child, the parent's measuring only (tests)
LIMIT = f"exceeded the scratch space limit of {BYTES >> 20} MiB"
FULL_MARGIN = 1 << 20  # free space below this (a file's size limit) counts as full

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 4096, 16384, 1 << 18


# -- the grader's side ---------------------------------------------------------------------

def plan(mount: bool, watch: bool, dirs, fence: bool = True) -> dict:
    """The init request's ``scratch`` field: the child mounts its tmpfs when ``mount`` (and may),
    ``watch`` tells the session to measure the folders itself (see ``Watch``), and ``fence`` has the
    child refuse itself new namespaces and mounts (an isolated child: a tmpfs of its own would have no cap)."""
    if os.environ.get(ENV, "").lower() == "watch":
        mount, watch = False, True
    linux = sys.platform.startswith("linux")
    return {"bytes": BYTES, "files": FILES, "mount": bool(mount) and linux, "watch": bool(watch),
            "fence": bool(fence) and linux, "dirs": [str(d) for d in dirs]}


def prepare(launcher, dirs, request: dict, env: dict) -> dict:
    """Put the launcher's plan in the init request, and tell a child that will mount what to mount at
    start-up (``enter``, through its environment: the request comes when it runs threads). Returns the plan."""
    spec = request["scratch"] = launcher.scratch_plan(dirs)
    if spec["mount"] and spec["dirs"]:
        import json

        identity = request.get("identity") or {}
        owner = [int(identity["uid"]), int(identity["gid"])] if "uid" in identity else None
        env[NAMESPACE_ENV] = json.dumps({"dirs": spec["dirs"], "bytes": spec["bytes"], "files": spec["files"],
                                         "owner": owner})
    return spec


class Watch(threading.Thread):
    """The portable cap: measure the scratch folders on the host, kill the child past the cap."""

    def __init__(self, dirs, on_exceeded, alive, *, limit: int = BYTES, files: int = FILES,
                 interval: float = WATCH_INTERVAL):
        super().__init__(daemon=True, name="minimax-grader-scratch-cap")
        self.dirs = list(dirs)
        self.on_exceeded = on_exceeded
        self.alive = alive
        self.limit, self.files, self.interval = limit, files, interval
        self.reason = None
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set() and self.alive():
            if self.exceeded():
                self.reason = LIMIT
                self.on_exceeded()
                return
            self.stopped.wait(self.interval)

    def stop(self):
        self.stopped.set()

    def exceeded(self) -> bool:
        """More than the cap in bytes (blocks in use) or entries, or a folder the grader cannot read."""
        used, entries, stack = 0, 0, list(self.dirs)
        while stack:
            folder = stack.pop()
            try:
                with os.scandir(folder) as listing:
                    for entry in listing:
                        entries += 1
                        if entries > self.files:
                            return True
                        try:
                            info = entry.stat(follow_symlinks=False)
                        except OSError:
                            continue  # gone meanwhile
                        used += getattr(info, "st_blocks", 0) * 512 or info.st_size
                        if used > self.limit:
                            return True
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
            except FileNotFoundError:
                continue
            except OSError:  # a folder made unreadable to hide what is inside
                return True
        return False


# -- the child's side (loaded by path by the harness: standard library only) ----------------

NAMESPACE_ENV = "MINIMAX_GRADER_SCRATCH_NS"  # JSON: what ``enter`` mounts (folders, size, files, owner)
_mounted = [False]
CAP_SYS_ADMIN = 21


def enter() -> bool:
    """At the child's start, while it has one thread: the capped tmpfs, in a mount namespace of its own.

    It must be now: a namespace made later would hold only the thread that made it, not the runner
    thread student calls run on (runner.py); and capabilities dropped now are dropped for every
    thread started later. The namespace is made with the capability to mount where the child has it
    (root; the zygote's children under bwrap), otherwise in a user namespace of its own mapping only
    its own uid, but not for the overflow uid (65534): inside a user namespace every unmapped process
    shows as that uid, and the process limit counts its processes. Whatever happens, a child that is
    not root leaves with no capabilities (the zygote's sandbox may have given it CAP_SYS_ADMIN).
    True when the tmpfs is mounted; elsewhere the parent's ``Watch`` measures the folders.
    """
    text = os.environ.pop(NAMESPACE_ENV, None)
    if not sys.platform.startswith("linux"):
        return False
    try:
        if text and not _mounted[0]:
            import json

            spec = json.loads(text)
            _mounted[0] = _mount(spec["dirs"], int(spec["bytes"]), int(spec["files"]), spec.get("owner"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    finally:
        if os.geteuid() != 0:
            _drop_capabilities()
    return _mounted[0]


def _mount(dirs, size, files, owner) -> bool:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(CLONE_NEWNS) != 0:  # no capability to: a user namespace of its own
        if uid == 0 or uid == _overflow_uid() or libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
            return False
        # An undumpable process's /proc files belong to root: dumpable only while writing its maps
        # (nothing of the session is in this process yet; the harness's first line made it undumpable).
        dumpable = libc.prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
        libc.prctl(4, 1, 0, 0, 0)
        try:
            for name, line in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                with open(f"/proc/self/{name}", "w") as handle:
                    handle.write(line)
        finally:
            libc.prctl(4, max(dumpable, 0), 0, 0, 0)
    if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:  # nothing reaches the host's mounts
        return False
    if uid == 0 and owner:  # root hands the tmpfs to the session's uid, which it drops to (guard.py)
        uid, gid = int(owner[0]), int(owner[1])
    work = dirs[0]
    options = f"size={size},nr_inodes={files},mode=0700,uid={uid},gid={gid}".encode()
    if libc.mount(b"tmpfs", work.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options) != 0:
        return False
    for other in dirs[1:]:  # home: a folder of the same tmpfs, so one cap covers both
        inside = os.path.join(work, "." + os.path.basename(other.rstrip("/")))
        os.mkdir(inside, 0o700)
        if os.geteuid() == 0:
            os.chown(inside, uid, gid)
        if libc.mount(inside.encode(), other.encode(), None, MS_BIND, None) != 0:
            raise OSError(ctypes.get_errno(), "mount --bind")
    return True


def _drop_capabilities() -> None:
    """No capability left in any set but the bounding one (capset: this thread, the only one yet)."""
    import ctypes

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    libc = ctypes.CDLL(None, use_errno=True)
    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3: two Data, all zero
    data = (Data * 2)()
    libc.capset(ctypes.byref(header), data)
    libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL


def _overflow_uid() -> int:
    try:
        with open("/proc/sys/kernel/overflowuid") as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return 65534


def confine(config) -> bool:
    """At the init request, before the driver and the lock-down: refuse this child, every thread of it,
    new namespaces and mounts (``fence``). True when ``enter`` mounted the capped tmpfs."""
    if (config.get("scratch") or {}).get("fence"):
        fence()
    return _mounted[0]


# A seccomp filter for every thread of the child (the guard's own covers the thread that installs
# it): no new namespaces (a user namespace of its own would let student code mount a tmpfs of any
# size and fill the machine's memory), no mounts, and no system calls of another architecture.
CLONE_NAMESPACES = 0x7E020000  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
_NEW_MOUNT_API = {"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
                  "mount_setattr": 442}
_FENCE = {  # audit arch, x32 bit, clone, clone3, denied, seccomp()
    "x86_64": (0xC000003E, 0x40000000, 56, 435,
               {"unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, **_NEW_MOUNT_API}, 317),
    "aarch64": (0xC00000B7, None, 220, 435,
                {"unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, **_NEW_MOUNT_API}, 277),
}


def fence_program(machine=None):
    import struct

    machine = machine or os.uname().machine
    if machine not in _FENCE:
        return None
    arch, x32, clone, clone3, denied, _ = _FENCE[machine]
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | 1, 0x00050000 | 38
    code = []

    def op(code_, jt, jf, k):
        code.append(struct.pack("HBBI", code_, jt, jf, k & 0xFFFFFFFF))

    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    op(ld, 0, 0, 4)                       # the architecture
    op(jeq, 1, 0, arch)
    op(ret, 0, 0, eperm)                  # another architecture's system calls (int 0x80 on x86_64)
    op(ld, 0, 0, 0)                       # the system call number
    if x32:
        op(jge, 0, 1, x32)
        op(ret, 0, 0, eperm)
    op(jeq, 0, 1, clone3)                 # its flags are in memory, out of the filter's sight: glibc
    op(ret, 0, 0, enosys)                 # falls back to clone, whose flags are an argument
    numbers = list(denied.values())
    for index, number in enumerate(numbers):
        op(jeq, len(numbers) - index + 3, 0, number)  # to the last instruction: refused
    op(jeq, 0, 2, clone)                  # not denied: clone, or allowed
    op(ld, 0, 0, 16)                      # clone's flags (low half)
    op(jset, 1, 0, CLONE_NAMESPACES)
    op(ret, 0, 0, allow)
    op(ret, 0, 0, eperm)
    return b"".join(code)


def fence() -> bool:
    """Install the filter above on every thread of this process (SECCOMP_FILTER_FLAG_TSYNC)."""
    if not sys.platform.startswith("linux"):
        return False
    code = fence_program()
    if code is None:
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS, which the kernel asks of the unprivileged
            return False
        buffer = ctypes.create_string_buffer(code, len(code))

        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

        program = Program(len(code) // 8, ctypes.addressof(buffer))
        number = _FENCE[os.uname().machine][5]
        return libc.syscall(number, 1, 1, ctypes.byref(program)) == 0  # SET_MODE_FILTER, FLAG_TSYNC
    except (OSError, AttributeError, ValueError):
        return False


def full(config) -> bool:
    """Is the child's capped scratch (a tmpfs of the capped size: its own or bwrap's) full?"""
    spec = config.get("scratch") or {}
    workdir = config.get("workdir")
    if not spec or not workdir:
        return False
    try:
        info = os.statvfs(workdir)
    except (OSError, AttributeError):
        return False
    if info.f_blocks * info.f_frsize > int(spec.get("bytes", BYTES)) + FULL_MARGIN:
        return False  # not a capped scratch (the host's own file system): the parent watches that one
    inodes = info.f_files - info.f_ffree  # bwrap's tmpfs caps bytes only: its files are counted here
    return info.f_bavail * info.f_frsize < FULL_MARGIN or (0 < info.f_files and info.f_favail == 0) or \
        inodes > int(spec.get("files", FILES))


def watch(session, spec) -> "Watch | None":
    """Start measuring a session's scratch when its plan says so; the child is killed past the cap."""
    if not spec.get("watch"):
        return None

    def alive():
        return session.process is not None and session.process.poll() is None

    def stop_it():
        process = session.process
        if process is not None:
            session.launcher.terminate(process, session.fields)

    watcher = Watch(spec["dirs"], stop_it, alive, limit=int(spec["bytes"]), files=int(spec["files"]))
    watcher.start()
    return watcher
