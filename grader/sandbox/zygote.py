"""The warm fork server ("zygote"): pays for start-up once, then forks one child per submission.

Started like the harness (``python -s -P -S -B -c ... CONTROL_FD``, as ``__main__``), it imports only the
standard library, the harness and the exercise's driver, never the grader package. Once, at
set-up, it imports the driver's libraries, and builds every case tree of the bank (plus a
spare copy for the re-asking pass) together with its "before" snapshot. Then, for each
submission, the grader passes it four fresh descriptors over the control socket (the request
pipe, the reply pipe, the stdout and stderr capture files) and it forks. The child starts a
new session (its own process group), keeps only those four descriptors, lowers its resource
limits and becomes an ordinary harness, except that a case sent without its input is run on
the tree prebuilt for it. Each child is a fresh copy of the warm state: nothing one
submission does reaches the zygote or the next submission.

The zygote itself never runs student code. It reaps its children and reports each exit
status, so the grader can tell a crash from a timeout; when the control socket closes (the
grader died or finished) it kills every child it still has and exits.
"""

import bisect
import collections
import errno
import gc
import importlib.util
import marshal
import json
import os
import select
import signal
import socket
import struct
import sys
import time

HEADER = struct.Struct("!I")
FDS_PER_CHILD = 4
MAX_MESSAGE = 64 << 20
SWEEP_TRIES = 500


def _load_harness():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness.py")
    spec = importlib.util.spec_from_file_location("_minimax_grader_harness", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


harness = _load_harness()


class Control:
    """Length-prefixed JSON frames over a stream socket; descriptors ride along with fork requests."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.fds = []

    def fill(self):
        data, fds, _flags, _addr = socket.recv_fds(self.sock, 1 << 16, 16)
        self.fds.extend(fds)
        if not data:
            return False
        self.buffer += data
        return True

    def take(self):
        """The next complete message, or None."""
        if len(self.buffer) < HEADER.size:
            return None
        (length,) = HEADER.unpack_from(self.buffer)
        if length > MAX_MESSAGE:
            raise ValueError("control message too large")
        end = HEADER.size + length
        if len(self.buffer) < end:
            return None
        message = json.loads(self.buffer[HEADER.size:end].decode("utf-8"))
        self.buffer = self.buffer[end:]
        return message

    def send(self, message):
        payload = json.dumps(message).encode("utf-8")
        self.sock.sendall(HEADER.pack(len(payload)) + payload)


_type = type
_tuple = tuple
_id = id
_map = map
_dict_values = dict.values
_dict_keys = dict.keys
_bisect_left = bisect.bisect_left


def _dict_reader(kind):
    """The C-level getter of ``kind``'s instances' dicts (the base getset descriptor), taken before any student
    code runs, or None: ``vars(obj)`` asks the class, where a student can put a ``__dict__`` property."""
    for base in kind.__mro__:
        found = base.__dict__.get("__dict__")
        if found is not None:
            return found.__get__ if type(found).__name__ == "getset_descriptor" else None
    return None


def _made_as_reader(kind, read_dict):
    """``made_as(pair)``: what a prebuilt ``(tree, before)`` pair was made as (its objects' identities), None for
    anything else; a closure that reads no global name (it runs between two calls, see harness._serve_cases).

    It reads nothing of an object that is not exactly a pair of a tree of the very class the zygote built
    (``kind``, read through ``read_dict``) or a plain dict: ``vars()`` of an object planted in the pool would
    ask its class, whose ``__dict__`` may be a property of the student's, run on the harness's thread (the
    twelfth red team).

    What it was made as: the pair's identity, the dict's own identity, and its keys' and values' identities in
    order. Values alone let a dict be given the pair's tree again with the same values under a key of the
    student's that hashes as the driver's own ("root"), whose ``__eq__`` then ran wherever the driver read
    ``built.root`` on the harness's thread, and put the board back before the look after the call (the hundred
    and seventeenth red team: ``gc.unfreeze()`` as the file loads reaches the zygote's frozen pairs)."""
    type_, tuple_, id_, map_, values_, keys_, dict_, len_ = _type, _tuple, _id, _map, _dict_values, _dict_keys, dict, len

    def made_as(pair):
        try:
            if type_(pair) is not tuple_ or len_(pair) != 2:
                return None
            built, before = pair
            if type_(built) is dict_:
                attrs = built
            elif kind is not None and read_dict is not None and type_(built) is kind:
                attrs = read_dict(built)
                if type_(attrs) is not dict_:
                    return None
            else:
                return None
            return (id_(built), id_(before), id_(attrs), tuple_(map_(id_, keys_(attrs))),
                    tuple_(map_(id_, values_(attrs))))
        except:  # noqa: E722 - a bare except looks no name up: not a pair of ours, never in ``made``
            return None

    return made_as


def pool_ledger(prebuilt, inputs):
    """What ``WarmHarness.pool`` needs, worked out once in the zygote after the trees are built and before any
    fork, so no child pays for it (about 2 ms a submission for a bank of 250 cases): a forked child holds
    these very objects, at the very addresses.

    ``(ids, frozen, made, kind, read_dict, order, positions, spares, kept)``: the case ids in order, each input
    as marshal bytes, what every prebuilt pair was made as, the one class of the trees and its dict getter,
    the ids sorted with each one's position (a case is found by bisection, comparing plain strings only: the
    ``prebuilt`` dict is within the student's reach, and a key planted there whose hash collides with a
    case's id would have its ``__eq__`` run by a lookup), each case's list of spare pairs, and every object
    whose identity ``made`` records, kept alive here so that no identity is ever reused."""
    kinds = {type(built) for spares in prebuilt.values() for built, _ in spares if type(built) is not dict}
    kind = next(iter(kinds)) if len(kinds) == 1 else None
    read_dict = _dict_reader(kind) if kind is not None else None
    made_as = _made_as_reader(kind, read_dict)
    ours = [(pair, made_as(pair)) for spares in prebuilt.values() for pair in spares]
    made = frozenset(known for _, known in ours if known is not None)
    kept = _tuple((pair, attrs, _tuple(_dict_keys(attrs)), _tuple(_dict_values(attrs)))
                  for pair, known in ours if known is not None
                  for attrs in (pair[0] if type(pair[0]) is dict else read_dict(pair[0]),))
    ids = _tuple(inputs)
    positions = _tuple(sorted(range(len(ids)), key=ids.__getitem__))  # each id's place, in the ids' sorted order
    order = _tuple(ids[at] for at in positions)
    spares = _tuple(prebuilt[case_id] for case_id in ids)
    return ids, _tuple(_map(marshal.dumps, inputs.values())), made, kind, read_dict, order, positions, spares, kept


class WarmHarness(harness.Harness):
    """A harness whose driver is already loaded and whose bank trees are already built (two copies of
    each: a call that changes its tree leaves a fresh one for the re-asking pass)."""

    def __init__(self, channel, driver, prebuilt, inputs, ledger=None):
        super().__init__(channel)
        self.driver = driver
        self.prebuilt = prebuilt
        self.inputs = inputs
        self.ledger = ledger  # pool_ledger(prebuilt, inputs), made by the zygote before the fork

    def pool(self):
        """``(take, put)`` over the prebuilt trees, as closures that read no global name (they run between
        two calls; see harness._serve_cases), bound before any student code runs.

        The pool is on the heap, where student code finds it (gc) before the case it is for: a pair
        slipped in, or a tree whose attributes were repointed (another root handed to the call than
        the one its "before" describes), would let a call change a tree nobody looks at. Each pair is
        known by what it was made as, in a frozenset. A case whose pair is gone is built from its
        input as it was before any student code ran (marshal bytes: the inputs dict could be edited).
        Nothing is looked up by key in a dict the student can reach (see ``pool_ledger``).
        """
        build, snapshot = self.driver.build, self.driver.snapshot
        ledger = self.ledger if self.ledger is not None else pool_ledger(self.prebuilt, self.inputs)
        ids, frozen, made, kind, read_dict, order, positions, spares, _kept = ledger
        loads, type_, list_, str_, len_, bisect = marshal.loads, _type, list, str, len, _bisect_left
        made_as = _made_as_reader(kind, read_dict)
        count = len_(order)

        def take(case_id, grave):
            if type_(case_id) is not str_:
                return None
            at = bisect(order, case_id)  # plain strings on both sides: str's own comparisons
            if at >= count or order[at] != case_id:
                return None
            index = positions[at]
            spare = spares[index]
            while type_(spare) is list_ and spare:
                pair = spare.pop()
                if made_as(pair) in made:
                    return pair
                grave.append(pair)  # not ours: dropped by the runner thread, never here
            built = build(loads(frozen[index]))
            return built, snapshot(built)

        def put(case_id, built, before):
            """Unchanged by the call: the next question about this case (the re-asking pass) gets this very
            tree again, whose pages this child has already copied, and the spare copy stays untouched."""
            if type_(case_id) is not str_:
                return
            at = bisect(order, case_id)
            if at < count and order[at] == case_id and made_as((built, before)) in made:
                spare = spares[positions[at]]
                if type_(spare) is list_:
                    spare.append((built, before))

        return take, put


class Zygote:
    def __init__(self, control_fd):
        self.sock = socket.socket(fileno=control_fd)
        self.control = Control(self.sock)
        self.driver = None
        self.prebuilt = {}
        self.inputs = {}
        self.ledger = None  # pool_ledger, once the bank is built
        self.children = set()
        self.subreaper = _subreaper()
        self.recent = collections.deque(maxlen=16)
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)

    # -- set-up: import, build, snapshot ------------------------------------------------

    def setup(self, config):
        sys.path[:0] = config.get("sys_path", [])
        driver = self.driver = harness.load_driver(config["driver"])  # from its source, as a cold child's
        nest = config.get("nest")
        self.nest = "pid" if nest == "pid" else bool(nest)  # see forkserver._nesting
        # What every child imports in its last steps before student code (the guard, and the
        # standard modules a dropped uid could no longer read) is imported once, here.
        harness._guard().landlock()  # each child fences itself with its own scratch after the fork
        harness._guard().allowlist()  # and installs the system-call filter with its own pid,
        harness._guard().prepare_filters()  # patched into a template made now
        for name in config.get("preload") or ():
            try:
                __import__(name)
            except BaseException:
                pass
        copies = max(1, int(config.get("copies", 2)))
        for case in config["cases"]:
            self.inputs[case["id"]] = case["input"]
            self.prebuilt[case["id"]] = []
        # One whole copy of the bank after the other: a pass over every case then touches (and
        # copies, in a child) one dense stretch of memory, not pages shared with the other copy.
        for _ in range(copies):
            for case in config["cases"]:
                built = driver.build(case["input"])
                self.prebuilt[case["id"]].append((built, driver.snapshot(built)))
        self.ledger = pool_ledger(self.prebuilt, self.inputs)
        # The C-made types of everything imported so far closed to ``setattr`` once, here, as each child would at
        # its load (runner.lock_types: 3 ms a child, most of a warm child's start): a child inherits the flags, and
        # its own call, where it imported nothing since, walks nothing and locks only the types it names (see
        # runner._modules_mark: nothing is imported after this). Nothing here sets an attribute of one.
        harness._runner.lock_types()
        # Everything built so far is shared, read-mostly state: keep the collector off it, so a
        # child's garbage collections neither walk it nor copy its pages.
        gc.collect()
        gc.freeze()

    # -- the serving loop ----------------------------------------------------------------

    def serve(self):
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        while True:
            try:
                ready, _, _ = select.select([self.sock, self.wake_r], [], [])
            except InterruptedError:
                continue
            if self.wake_r in ready:
                try:
                    while os.read(self.wake_r, 512):
                        pass
                except (BlockingIOError, InterruptedError):
                    pass
            self.reap()
            if self.sock in ready:
                if not self.control.fill():
                    self.shutdown()
                while True:
                    message = self.control.take()
                    if message is None:
                        break
                    self.handle(message)

    def handle(self, message):
        op = message.get("op")
        if op == "setup":
            try:
                self.setup(message)
                self.control.send({"op": "ready", "pid": os.getpid()})
            except BaseException as exc:  # a broken driver is the instructor's problem: say so
                self.control.send({"op": "failed", "error": f"{type(exc).__name__}: {exc}"[:400]})
        elif op == "fork":
            fds, self.control.fds = self.control.fds[:FDS_PER_CHILD], self.control.fds[FDS_PER_CHILD:]
            if len(fds) != FDS_PER_CHILD:
                for fd in fds:
                    os.close(fd)
                self.control.send({"op": "forked", "token": message.get("token"), "pid": None,
                                   "error": "descriptors missing"})
                return
            self.fork(fds, message)
        elif op == "kill":
            self.kill(message.get("pid"))

    def fork(self, fds, message):
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            self.control.send({"op": "forked", "token": message.get("token"), "pid": None, "error": str(exc)})
            return
        if pid == 0:
            try:
                self.become_child(fds, message)
            finally:
                os._exit(5)
        for fd in fds:
            os.close(fd)
        self.children.add(pid)
        self.control.send({"op": "forked", "token": message.get("token"), "pid": pid})

    def reap(self):
        """Collect every dead child: a session's (reported, after a sweep) or a stray's (silently)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not pid:
                return
            if pid in self.children:
                self.children.discard(pid)
                self.recent.append(pid)  # its group may outlive it until the grader's kill arrives
                swept = self.sweep()
                self.control.send({"op": "exited", "pid": pid, "code": os.waitstatus_to_exitcode(status), "swept": swept})

    def sweep(self):
        """Kill whatever a finished session left behind; True when nothing of it is left.

        This zygote is a child subreaper, so a process that escaped its session's group
        (``setsid`` and a double fork) comes back to it as a child when its parent dies: any
        child that is not a live session is such a stray. Without this the grader would have
        to look through every process of the machine for the session's uid.
        """
        if not self.subreaper:
            return False
        path = f"/proc/self/task/{os.getpid()}/children"
        clean = 0
        for attempt in range(SWEEP_TRIES):
            try:
                with open(path, "rb") as handle:
                    pids = [int(p) for p in handle.read().split()]
            except (OSError, ValueError):
                return False
            strays = [p for p in pids if p not in self.children]
            if not strays:
                clean += 1
                if clean == 2:  # the kernel may miss a child that is moving as the list is read: look twice
                    return True
                continue
            clean = 0
            for pid in strays:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for pid in strays:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            if attempt:
                time.sleep(0.001)  # killed, not yet dead
        return False

    def kill(self, pid):
        """Kill a child's whole process group (pids are this zygote's own: it may live in a pid namespace)."""
        if pid in self.children or pid in self.recent:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass

    def shutdown(self):
        for pid in self.children:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
        self.children = set()
        self.sweep()  # strays too: as this process's orphans they would otherwise go to init and live on
        os._exit(0)

    # -- in the child, right after the fork ----------------------------------------------

    def become_child(self, fds, message):
        os.setsid()  # stays undumpable, as the harness makes itself from its first line
        harness._guard().first_to_go()  # now, while it holds nothing of a session (guard.first_to_go)
        cpu = message.get("cpu")
        if type(cpu) is int and hasattr(os, "sched_setaffinity"):
            try:  # the grading thread's CPU: every question wakes one of the two (grader.sandbox.launch)
                os.sched_setaffinity(0, {cpu})
            except OSError:
                pass
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        self.sock.detach()  # the socket object must not close a number reused below
        # Park the four descriptors high, then lay them out as 0..4 and close everything else:
        # the control socket, the wake-up pipe, and anything the zygote ever held.
        high = [_dup_high(fd) for fd in fds]
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(high[2], 1)
        os.dup2(high[3], 2)
        os.dup2(high[0], 3)
        os.dup2(high[1], 4)
        os.closerange(5, _max_fd())
        for name, value in (message.get("env") or {}).items():
            os.environ[str(name)] = str(value)
        workdir = message.get("cwd")
        if workdir:
            os.chdir(workdir)
        nest = getattr(self, "nest", False)
        if nest == "pid":  # needs the capability enter() gives up: pid 2 of a pid namespace of its own from here on
            harness._guard().nest(own_user=False)
        harness._scratch.enter()  # before WarmHarness starts its threads (scratch.py), while capabilities last
        if nest is True:
            harness._guard().nest()  # from here on (if the kernel agrees): pid 2 of a pid namespace of its own
        harness_object = WarmHarness(harness.Channel(3, 4), self.driver, self.prebuilt, self.inputs, self.ledger)
        try:
            harness_object.serve()
        finally:
            os._exit(5)


def _dup_high(fd):
    import fcntl

    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 100)
    os.close(fd)
    return high


def _max_fd():
    try:
        return min(os.sysconf("SC_OPEN_MAX"), 1 << 20)
    except (OSError, ValueError):
        return 4096


def _subreaper():
    """PR_SET_CHILD_SUBREAPER: orphans below this process come back to it, not to init (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _dumpable(flag):
    """PR_SET_DUMPABLE: while 0, a process of the same uid cannot read or write this one's memory
    through /proc or ptrace. The zygote is undumpable (without root, its children share its uid
    and must not reach the warm state every later child starts from), and so is each child, as
    an ordinary harness makes itself from its first line."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, int(flag), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def main():
    control_fd = int(sys.argv[1])
    if sys.platform.startswith("linux"):
        _dumpable(0)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.close(null)
    zygote = Zygote(control_fd)
    try:
        zygote.serve()
    except OSError as exc:
        if exc.errno not in (errno.EPIPE, errno.ECONNRESET):
            raise
        zygote.shutdown()


if __name__ == "__main__":
    main()
