"""Landlock: the child fences its own filesystem access, no privileges and no bubblewrap needed.

Linux 5.13 and later let any process restrict itself (and everything it starts) to a list of
folders and files; the restriction can never be lifted. Where bubblewrap is missing (laptops,
containers without user namespaces) this is what keeps student code away from its neighbours,
the output folder, the gradebook and the user's home, even though the child has the grader's
own uid. The child applies it as the last step before student code (``guard.lock_down``),
after the fork when a warm fork server made it, so every child gets its own scratch only.

This file runs on both sides: the parent asks ``abi()`` whether the kernel offers Landlock
and builds the rule set with ``rules()``; the child (a plain ``python -s -P -S`` script) loads
this file by path and calls ``restrict(rules)``. Standard library only.

What the child keeps: read (and execute) on the Python installation, the shared libraries,
the harness, the driver, the child library and its own staged submission; read and write in
its own scratch folders and ``/dev/null``; nothing else (``/proc`` included: Python needs none
of it once started). With ABI 4 it may not bind or connect TCP sockets; with ABI 6 it may
signal and reach abstract unix sockets only inside its own domain (itself and its children).
"""

import os
import sys

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446  # the same numbers on every architecture
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13      # ABI 2: links and renames across folders
TRUNCATE = 1 << 14   # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5
NET_BIND_TCP = 1 << 0     # ABI 4
NET_CONNECT_TCP = 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1                # ABI 6

FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the rights a rule on a file may carry
READ = EXECUTE | READ_FILE | READ_DIR
WRITE = (WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SYM | MAKE_FIFO | MAKE_SOCK
         | REFER | TRUNCATE)

DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")
INSTALLED_PACKAGES = ("site-packages", "dist-packages")  # never readable: the grader itself may live there

_cache = {}


def _syscall():
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return ctypes, libc


def abi():
    """The Landlock ABI version this kernel offers, 0 when none (not Linux, too old, or switched off).

    ``MINIMAX_GRADER_LANDLOCK=off`` makes the grader behave as if there were none: the test of
    the "no Landlock" policy runs on machines that have it.
    """
    if os.environ.get("MINIMAX_GRADER_LANDLOCK", "").lower() in ("0", "off", "no", "false"):
        return 0
    if "abi" not in _cache:
        version = 0
        if sys.platform.startswith("linux"):
            try:
                ctypes, libc = _syscall()
                version = max(0, int(libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0),
                                                  ctypes.c_uint32(CREATE_RULESET_VERSION))))
            except (OSError, AttributeError, ValueError):
                version = 0
        _cache["abi"] = version
    return _cache["abi"]


def handled_fs(version):
    """Every filesystem right this ABI knows: what is handled and not granted is denied."""
    handled = (1 << 13) - 1
    if version >= 2:
        handled |= REFER
    if version >= 3:
        handled |= TRUNCATE
    if version >= 5:
        handled |= IOCTL_DEV
    return handled


def python_paths():
    """This interpreter's standard library, entry by entry, without its installed packages.

    A rule on a folder covers everything below it, so the standard library's folder is
    granted by its entries: its ``site-packages`` (where the grader, with its references,
    may be installed) stays out of reach.
    """
    import sysconfig

    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix, "installed_base": sys.base_prefix,
            "installed_platbase": sys.base_exec_prefix}
    paths = []
    for key in ("stdlib", "platstdlib"):
        folder = sysconfig.get_paths(vars=base).get(key)
        if not folder or not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name not in INSTALLED_PACKAGES:
                paths.append(os.path.join(folder, name))
    for folder in {os.path.join(sys.base_prefix, "lib"), os.path.join(sys.base_exec_prefix, "lib")}:
        try:
            paths += [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.startswith("libpython")]
        except OSError:
            pass
    return list(dict.fromkeys(paths))


def library_folders(candidates=None):
    """Where shared libraries live (an extension module such as ``_ctypes`` loads them when imported).

    A folder is granted whole, unless a ``python3.X`` folder inside it holds installed packages
    (Fedora and RHEL keep ``/usr/lib64/python3.X/site-packages`` there, where the grader and its
    references may be installed): then it is granted entry by entry, and that Python folder by its
    entries too, leaving ``site-packages`` and ``dist-packages`` out (the standard library's rule).
    """
    if candidates is None:
        import sysconfig

        multiarch = sysconfig.get_config_var("MULTIARCH") or ""
        candidates = ["/lib64", "/usr/lib64"]
        if multiarch:
            candidates += [f"/lib/{multiarch}", f"/usr/lib/{multiarch}"]
    granted = []
    for folder in candidates:
        if not os.path.isdir(folder):
            continue
        pythons = _python_folders(folder)
        if not any(os.path.isdir(os.path.join(p, name)) for p in pythons for name in INSTALLED_PACKAGES):
            granted.append(folder)
            continue
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if path in pythons:
                granted += [os.path.join(path, n) for n in sorted(os.listdir(path)) if n not in INSTALLED_PACKAGES]
            else:
                granted.append(path)
    return granted


def _python_folders(folder):
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.startswith("python") and os.path.isdir(os.path.join(folder, n))]


def rules(readable, writable):
    """The plain-data rule set for one child: what it may read, what it may write (JSON-ready)."""
    if "system" not in _cache:  # the same for every session of this grader process
        _cache["system"] = [*python_paths(), *library_folders(), *(f for f in SYSTEM_FILES if os.path.exists(f))]
    read = [*_cache["system"], *readable]
    return {"read": list(dict.fromkeys(read)), "write": list(dict.fromkeys(writable)),
            "devices": [d for d in DEVICES if os.path.exists(d)]}


def restrict(rule_set, version=None):
    """Restrict this process for good. Returns None when done, else why not (one line).

    Paths that do not exist are skipped. ``PR_SET_NO_NEW_PRIVS`` is set first, as the kernel
    requires of an unprivileged caller.
    """
    version = abi() if version is None else version
    if version <= 0:
        return "Landlock is not available in this kernel"
    ctypes, libc = _syscall()
    handled = handled_fs(version)
    attr = [handled, 0, 0]
    size = 8
    if version >= 4:
        attr[1] = NET_BIND_TCP | NET_CONNECT_TCP
        size = 16
    if version >= 6:
        attr[2] = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
        size = 24
    buffer = (ctypes.c_uint64 * 3)(*attr)
    ruleset = libc.syscall(CREATE_RULESET, ctypes.byref(buffer), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return f"landlock_create_ruleset failed ({os.strerror(ctypes.get_errno())})"
    try:
        grants = [(path, READ) for path in rule_set.get("read", ())]
        grants += [(path, READ | WRITE) for path in rule_set.get("write", ())]
        grants += [(path, READ_FILE | WRITE_FILE) for path in rule_set.get("devices", ())]
        for path, access in grants:
            problem = _add(ctypes, libc, ruleset, path, access & handled)
            if problem:
                return problem
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            return f"prctl(PR_SET_NO_NEW_PRIVS) failed ({os.strerror(ctypes.get_errno())})"
        if libc.syscall(RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            return f"landlock_restrict_self failed ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return None


def _add(ctypes, libc, ruleset, path, access):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None  # nothing there: nothing to allow
    try:
        if not os.path.isdir(path):
            access &= FILE_ONLY
        # struct landlock_path_beneath_attr { __u64 allowed_access; __s32 parent_fd; } __attribute__((packed))
        data = access.to_bytes(8, sys.byteorder) + fd.to_bytes(4, sys.byteorder, signed=True)
        raw = ctypes.create_string_buffer(data, len(data))
        if libc.syscall(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(RULE_PATH_BENEATH), raw, ctypes.c_uint32(0)) != 0:
            return f"landlock_add_rule({path}) failed ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(fd)
    return None
