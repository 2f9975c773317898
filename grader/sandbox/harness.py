"""The program that runs inside the sandbox, next to the student's code.

It is started as ``__main__`` (``python -s -P -S -B -c ... STDOUT_FILE``: ``bytecode.run_as_main``, so that its
bytecode is read, not compiled, in every child) and imports only the standard library and the exercise's driver,
never the grader package: nothing secret is reachable from here. It loads the submission, then answers requests
that arrive as framed JSON on its stdin with exactly one framed JSON reply each on its stdout; both are moved to
private descriptors at start-up, before any student code runs. Answers are sent as tagged plain data; the grader
decides every verdict itself.
"""

import _hashlib
import _random
import _thread
import array
import gc
import hashlib
import importlib.util
import inspect
import itertools
import json
import json.scanner
import marshal
import os
import random
import sys
import threading
import time
import traceback

# Private references taken before any student code runs: patching builtins later changes
# what the student's code sees, not what the harness uses to describe its answers.
_type = type
_id = id
_FunctionType = type(lambda: None)
_repr = repr
_str = str
_len = len
_float_hex = float.hex
_perf_counter = time.perf_counter
_clock_gettime = getattr(time, "clock_gettime", None)  # absent on Windows: see call_clock
_sleep = time.sleep
_json_loads = json.loads
_os_write = os.write
_os_read = os.read
_os_exit = os._exit
_isinstance_early = isinstance
_builtins_dict = __builtins__.__dict__ if _type(__builtins__) is not dict else __builtins__
# Immutable all the way down (a tuple of pairs, a frozenset): student code that finds these through
# gc cannot change what a restore installs, as it could with a dict (a ``list`` subclass planted
# there would then be installed by the harness itself, after every call).
_pristine_builtins = tuple(_builtins_dict.items())
_pristine_names = frozenset(_builtins_dict)
_dict_update = dict.update
_repeat = itertools.repeat


MAGIC = b"MMG1"      # a request, or its reply
QUESTION = b"MMGQ"   # the child asks, the grader answers
ANSWER = b"MMGA"
NOTE = b"MMGN"       # the child tells, one way


def _sibling(filename, name):
    """A helper module from this folder, loaded by path: the grader package is not importable here."""
    module = sys.modules.get(name)
    if module is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module


def load_driver(path):
    """The exercise's driver, compiled from its source: never from a bytecode file beside it.

    The grader writes drivers into its cache folder, which it trusts for nothing (``kit/generated.py`` checks each
    driver's text every run): a child of an unconfined run (posix without Landlock, the grader's own uid) can write
    there, and a bytecode file it planted beside a driver, its header made to match, was what the import system's
    loader ran instead of the source (the hundred-and-seventh helper's planted driver answered every case right for
    an ``always_max``). A child writes no bytecode (``-B``), so an honest driver never had any: compiling it is what
    every child did already."""
    spec = importlib.util.spec_from_file_location("_minimax_grader_driver", path)
    module = importlib.util.module_from_spec(spec)
    with open(path, "rb") as handle:
        source = handle.read()
    exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    return module


_seal = _sibling("seal.py", "_minimax_grader_seal")  # loaded before any student code can patch importlib
_runner = _sibling("runner.py", "_minimax_grader_runner")
_scratch = _sibling("scratch.py", "_minimax_grader_scratch")  # the cap on this child's scratch
_tampered = [False]  # set when a call changed the harness or its records; every later reply says only that


_json_encode = json.JSONEncoder(allow_nan=False).encode  # one encoder, not one per message as json.dumps(allow_nan=False) makes
_int = int
_float = float
_NUMBER_START = frozenset(b"-0123456789")


def _answer_value(payload):
    """The grader's answer: a plain number (a value, the common answer) read directly, anything else as JSON.
    The grader writes a number as JSON does (``repr``), so both read it alike."""
    if payload and payload[0] in _NUMBER_START:
        try:
            if b"." in payload or b"e" in payload or b"E" in payload:
                return _float(payload)
            return _int(payload)
        except ValueError:
            pass
    return _json_loads(payload.decode("utf-8"))


_NOT_HERE = object()


class Channel:
    """Framed messages: ``<kind> <nonce> <seq> <length>\\n<json>``.

    The grader sends requests (``MMG1``) and, while a case runs, answers (``MMGA``); the child
    sends one reply per request (``MMG1``), and while the student's code runs it asks questions
    (``MMGQ``, each answered before the helper returns) and reports what it was asked to do
    (``MMGN``, one way). Helper values live in the grading process: what the child asked is what
    the grader logged, and nothing the child keeps is evidence.
    """

    def __init__(self, req_fd, res_fd):
        self.req_fd = req_fd
        self.res_fd = res_fd
        self.nonce = ""
        self.buffer = b""
        self.asked = 0
        self.told = b""  # notes not written yet: they go out with the next frame (see tell)
        self.lock = _thread.allocate_lock()  # one question at a time, whatever thread asks

    @property
    def nonce(self):
        return self._nonce

    @nonce.setter
    def nonce(self, text):
        """The session's nonce, kept as the bytes every frame carries (encoded once, not per frame)."""
        self._nonce = text
        self.nonce_bytes = text.encode("ascii")

    def _read_exact(self, count):
        while _len(self.buffer) < count:
            chunk = _os_read(self.req_fd, max(65536, count - _len(self.buffer)))
            if not chunk:
                _os_exit(3)
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _read_line(self):
        while b"\n" not in self.buffer:
            chunk = _os_read(self.req_fd, 65536)
            if not chunk:
                _os_exit(3)
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _frame(self):
        header = self._read_line().split(b" ")
        if _len(header) != 4 or header[0] not in (MAGIC, ANSWER):
            _os_exit(4)
        payload = self._read_exact(int(header[3]))
        return header[0], int(header[2]), payload

    def _frame_bytes(self, kind, seq, message):
        # bytes: a question a driver wrote as JSON itself (tree_driver: ``["v", 12]``, the commonest); the
        # grader parses every question defensively either way
        payload = message if _type(message) is bytes else _json_encode(message).encode("utf-8")
        return b"%s %s %d %d\n%s" % (kind, self.nonce_bytes, seq, _len(payload), payload)

    def _answer_to(self, number):
        """The answer to question ``number`` when it is the next frame, whole, in what one read brings (the
        common case: the grader answers at once, one small frame); ``_NOT_HERE`` for anything else, which ``_frame``
        then reads the general way (nothing was taken from the buffer). A question is asked
        thousands of times per submission: this is the part of its round trip that is the child's."""
        buffer = self.buffer
        if not buffer:
            buffer = self.buffer = _os_read(self.req_fd, 65536)
            if not buffer:
                _os_exit(3)
        head = b"MMGA %s %d " % (self.nonce_bytes, number)
        if not buffer.startswith(head):
            return _NOT_HERE
        newline = buffer.find(b"\n", _len(head), _len(head) + 8)
        if newline < 0:
            return _NOT_HERE
        end = newline + 1 + _int(buffer[_len(head):newline])
        if _len(buffer) < end:
            return _NOT_HERE
        self.buffer = buffer[end:]
        return _answer_value(buffer[newline + 1:end])

    def _write(self, kind, seq, message):
        """One frame, after the notes told since the last write (the caller holds the lock)."""
        data = self._frame_bytes(kind, seq, message)
        if self.told:
            data, self.told = self.told + data, b""
        written = _os_write(self.res_fd, data)
        while written < _len(data):
            data = data[written:]
            written = _os_write(self.res_fd, data)

    def send(self, seq, message):
        with self.lock:  # the notes told so far go first; a thread left asking holds it only until answered
            self._write(MAGIC, seq, message)

    def tell(self, message, now=False):
        """Tell the grader something (a case begins, a helper was asked to do something); nothing comes back.

        Kept until the next frame this channel writes (a question, a reply), then written with it in one
        system call: the grader reads the frames in the order they were told either way, every question
        after the note of the case it belongs to, and is not woken for a note it has nothing to answer to.
        ``now``: a note that must be out before anything else runs (``student code starts``: student code
        could write on the descriptor itself, and a frame of its own must come after the note)."""
        with self.lock:
            self.told += self._frame_bytes(NOTE, 0, message)
            if now or _len(self.told) > 65536:  # or a flood of notes: out now, as they would have gone one by one
                self._write_told()

    def _write_told(self):
        data, self.told = self.told, b""
        while data:
            written = _os_write(self.res_fd, data)
            data = data[written:]

    def ask(self, message):
        """Ask the grader (a helper's value); returns its answer. The grader logs the question."""
        with self.lock:
            self.asked += 1
            number = self.asked
            self._write(QUESTION, number, message)
            value = self._answer_to(number)
            if value is not _NOT_HERE:
                return value
            while True:
                kind, seq, payload = self._frame()
                if kind == ANSWER and seq == number:
                    return _answer_value(payload)
                if kind == MAGIC:  # the next request, read by a thread a call left asking: no honest code does that
                    _os_exit(4)  # (the harness reads requests only from the pipe itself: see _receive)


def call_clock(ident):
    """The clock id of the CPU time of thread ``ident`` (the thread the student's calls run on), or None
    where there is none (Windows, macOS, a refusal): a call's time is then its wall-clock time.

    A call's limit is the CPU time its thread spends, as judges such as DOMjudge count it, with a wall-clock
    limit above it (``wall_limit``) for a call that waits (a sleep, a lock, a thread of its own): the time a
    call waits for the grader's answers, or for the CPU on a busy machine, is nobody's fault of the
    student's. On wall-clock time alone a correct call on a one-node tree was once cut off after a second,
    with the test suite loading the machine. ``MINIMAX_GRADER_CALL_CLOCK=wall`` (the config's
    ``call_clock``) asks for the portable fallback, so it is tested on Linux too."""
    getclockid = getattr(time, "pthread_getcpuclockid", None)
    if getclockid is None or _clock_gettime is None or ident is None:
        return None
    try:
        clock_id = getclockid(ident)
        _clock_gettime(clock_id)
    except (OSError, OverflowError, ValueError):
        return None
    return clock_id


def wall_limit(call_timeout):
    """How long a call may take by the wall clock where its limit counts CPU time (see ``call_clock``): room
    for a machine busy enough to give it half a CPU, and a second more for a stall (a call that sleeps meets it: more
    would keep a sleeping submission waiting, and a class with it, that much longer)."""
    return call_timeout * 2 + 1.0


class Watchdog:
    """Interrupts the student's call when it runs too long.

    Portable (no SIGALRM): KeyboardInterrupt is raised in the thread the call runs on (the
    runner's, through ctypes' ``PyThreadState_SetAsyncExc``; ``_thread.interrupt_main`` where there is no runner).
    A student who swallows it only delays the grader's own wall-clock kill.

    Arming and disarming happen around every call, thousands of times per submission, so
    they wake nobody: ``_serve_cases`` arms it by storing into ``state`` (deadlines, tick, serial number) and
    disarms it under ``lock`` (which the runner takes too, as a call ends and around its questions), and the watchdog
    thread looks at the clocks a few times per call timeout on its own, taking no lock (see _watch). A call is
    interrupted at most a tick (a twentieth of its timeout) late.

    The thread's loop (``_watch``) is a function over values bound before any student code runs, and reads
    nothing through this class or the runner's: a property the student set on ``Watchdog`` (``tick``) ran their
    code on this thread, which held the watchdog's lock while the harness waited for it and put the tree back
    before the harness looked (the twenty-third red team). ``state`` is an ``array('d')``: whatever the
    student's code writes there is stored as a C double, and what this thread reads is a float of its own. It
    never holds, nor drops, an object of the student's: a list's item it overwrote (``fired``), an object of
    theirs, ran its ``__del__`` on this thread, which set a tracer on ``_watch`` and kept the thread for good
    (the twenty-eighth red team).
    """

    def __init__(self):
        # Taken by the runner and the harness, never by the watchdog's own loop (see _watch): the student's code
        # reaches it (the runner's frames hold it), and any lock it reaches it can make raise
        self.lock = _thread.allocate_lock()
        # [wall deadline (0: not armed), CPU deadline, tick, the call's serial number (tells calls apart), the
        # runner's status (runner.STATUS: IDLE, RUNNING, ASKING)]
        self.state = array.array("d", [0.0, 0.0, 0.05, 0.0, _runner.IDLE])
        self.cpu_clock = None  # the CPU clock of the thread the calls run on (call_clock), None: wall time only

    def start(self, runner, refuse=True):
        """The watchdog's thread, once the runner and the calls' clock are known (see ``Harness.start_threads``).
        Returns whether that thread refuses threads (its first act, awaited here, unless ``refuse`` is False: see
        ``_refuse_threads_here``)."""
        threaded = runner.ident is not None
        ready, refused = _thread.allocate_lock(), [False]
        ready.acquire()
        _thread.start_new_thread(_watch, (
            self.state, _perf_counter, _clock_gettime, self.cpu_clock,
            runner.raiser if threaded else None, runner.ident, _runner.STATUS, KeyboardInterrupt,
            None if threaded else _thread.interrupt_main,  # gc would hand it to the student's code (see _hand_over)
            _sleep, runner.due.acquire if threaded else None, _runner.RUNNING, _runner.ASKING, ready, refused, refuse))
        ready.acquire()  # the thread has tried to install its filter
        return refused[0]


def _watch(state, wall, cpu_time, cpu_clock, raiser, runner_ident, status, keyboard_interrupt,
           interrupt_main, sleep, make_due, running, asking, ready, refused, refuse, exit_=_os_exit):
    """The watchdog's loop (see ``Watchdog``): reads no global name and no attribute; its state is floats of its
    own (read from the array), the runner's status among them (``state[status]``, see runner.STATUS); it writes
    nothing but doubles and a lock (an interrupt due while the call asks: ``Runner.due``). Its first
    act, before any student code runs, is to refuse threads on its own thread (``_refuse_threads_here``).

    It runs while the student's calls do, when collection may be on, so its loop allocates nothing the collector
    tracks, and raises nothing (an error is such an allocation): a collection set off here would run the student's
    gc callbacks and finalizers on this thread (the sixty-third red team's callback kept the thread and from it
    dropped an object of theirs on the harness's). So: the interrupt made once, before any student code runs
    (``runner._async_raiser``); every call that takes a tuple of arguments given one made beforehand; the state
    array pinned to its size; no lock (the sixty-fourth made a reentrant one raise on this thread); no list of the
    student's read. ``tests/test_watchdog_collects_nothing.py`` runs this loop under a collector set to run at every
    allocation.

    The loop never ends: an error in it all the same ends the process, as the runner's does. Ended, the thread would report the error through
    ``sys.unraisablehook``, a function of the student's then running on this thread for as long as it liked: it
    took the lock the runner takes as a call ends, held "done" back and put the tree back meanwhile (the
    thirty-seventh red team)."""
    refused[0] = _refuse_threads_here() if refuse else False
    # The interrupt, made now, before any student code runs, and kept in this frame alone (see
    # runner._async_raiser): from here on this thread allocates nothing the collector tracks, so no collection
    # ever runs here (one would run the student's gc callbacks and finalizers on this thread: the sixty-third
    # red team's callback kept the thread for good, and from it dropped an object of theirs on the harness's)
    interrupt, interrupt_arguments, pinned = raiser[1](runner_ident, keyboard_interrupt, state) \
        if raiser is not None else (None, None, None)
    raiser = None
    # Likewise the arguments of the calls below that take a tuple of them (``clock_gettime``, a lock's ``acquire``):
    # made now, so that no call makes one (a tuple taken from its free list is no allocation the collector counts,
    # one made afresh is, and the student's code can empty that list)
    clock_arguments, not_blocking = (cpu_clock,), (False,)
    ready.release()
    ready = refused = None
    try:
        while True:
            tick = state[2]
            sleep(tick if 0.0 < tick < 1.0 else 0.05)
            wall_deadline, cpu_deadline, serial = state[0], state[1], state[3]
            if not wall_deadline > 0.0:
                continue
            if wall() < wall_deadline and (cpu_time(*clock_arguments) if cpu_clock is not None else wall()) < cpu_deadline:
                continue
            # From the look at the state to the interrupt nothing lets another thread run (no call, no jump back:
            # CPython 3.11 switches threads only there), so no lock is taken: the runner's status cannot change
            # between this look and the act, and an interrupt lands where the runner last let the interpreter go.
            # (A lock shared with the runner is within the student's reach: let go of, or given this thread as
            # its owner with a count about to wrap, by ``RLock._acquire_restore``, it made this thread's own
            # ``release`` or ``acquire`` raise: the sixty-fourth red team.) Disarmed first, then acted on.
            if state[0] > 0.0 and state[3] == serial:  # still the same call: it has run too long
                state[0] = 0.0
                if interrupt is None:
                    interrupt_main()
                # At once; or, while the call is asking the grader, made due (Runner.due) and raised by
                # runner.leave_question once the answer is in: an interrupt then would cut the question from its
                # answer, and waiting for a tick between two questions let a call that does little but ask run
                # on far past its limit
                elif state[status] == running:
                    interrupt(*interrupt_arguments)  # the arguments' own tuple: no call allocates one
                elif state[status] == asking:
                    make_due(*not_blocking)
    finally:
        exit_(4)


_memory_exhausted = [False]  # set when student code ran out of memory; the reply then says only that


def describe_exception(exc, submission_files):
    if _isinstance_early(exc, MemoryError):
        _memory_exhausted[0] = True
    try:
        name = _type(exc).__name__
        text = _str(exc)
    except BaseException:  # a hostile __str__
        name, text = "exception", "(unprintable)"
    where = ""
    try:
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if frame.filename in submission_files:
                where = f" (line {frame.lineno} of {os.path.basename(frame.filename)})"
                break
    except BaseException:
        pass
    message = f"{name}: {text}" if text else name
    if name == "RuntimeError" and text == "can't start new thread":  # refused by the runner's filter (_refuse_threads)
        message += " (the grader runs submissions without threads of their own: search on this thread)"
    return (message[:300] + where)[:400]


ANSWER_DEPTH = 8          # nesting levels of lists/tuples/dicts an answer may have
ANSWER_ITEMS = 256        # scalars and containers in one answer, all levels together
ANSWER_TEXT = 200         # characters of a string (or of a repr) that are sent

_list = list
_tuple = tuple
_dict = dict
_bool = bool
_NoneType = type(None)
_dict_items = dict.items


class _TooBig(Exception):
    """An answer with more items or nesting than the caps allow; it is then sent as a summary."""


def encode_answer(value):
    """The student's answer as tagged plain data, judged by exact type and never by its methods.

    Only exact built-in types are looked inside (``type(x) is list``, never a subclass), so no
    student code runs while encoding: iterating a real list or dict, or reading a real str,
    calls nothing of theirs. Everything else becomes ``other`` with its type name and a short
    repr; an answer nested too deep or with too many items becomes ``other`` too.
    """
    budget = [ANSWER_ITEMS]
    try:
        return _encode(value, 0, budget)
    except _TooBig:
        return {"t": "other", "type": _type_name(_type(value)), "repr": _summary(value)}


def _encode(value, depth, budget):
    budget[0] -= 1
    if budget[0] < 0 or depth > ANSWER_DEPTH:
        raise _TooBig
    kind = _type(value)
    if kind is int:
        try:
            _str(value)
        except ValueError:  # more digits than int->str allows
            return {"t": "other", "type": "int", "repr": "(an integer too large to print)"}
        return {"t": "int", "v": value}
    if kind is float:
        return {"t": "float", "v": _float_hex(value)}
    if kind is _bool:
        return {"t": "bool", "v": True if value is True else False}
    if kind is _NoneType:
        return {"t": "none"}
    if kind is _str:
        if _len(value) > ANSWER_TEXT:
            return {"t": "other", "type": "str", "repr": _repr(value[:ANSWER_TEXT]) + "..."}
        return {"t": "str", "v": value}
    if kind is _list or kind is _tuple:
        return {"t": "list" if kind is _list else "tuple", "v": [_encode(item, depth + 1, budget) for item in value]}
    if kind is _dict:
        pairs = []
        for key, item in _dict_items(value):
            if _type(key) is not _str:
                return _other(value, kind)
            pairs.append([key, _encode(item, depth + 1, budget)])
        return {"t": "dict", "v": pairs}
    return _other(value, kind)


def _type_name(kind):
    try:
        type_name = kind.__qualname__
        if _type(type_name) is not _str:
            type_name = "?"
    except BaseException:
        type_name = "?"
    return type_name[:80]


def _other(value, kind):
    try:
        text = _repr(value)
        if _type(text) is not _str:
            text = "(repr returned a non-string)"
    except BaseException:
        text = "(repr raised)"
    return {"t": "other", "type": _type_name(kind), "repr": text[:ANSWER_TEXT]}


def _summary(value):
    """Words for an answer too large to send, without calling its repr (it may be huge)."""
    kind = _type(value)
    if kind is _list or kind is _tuple or kind is _dict:
        count = _len(value)
        return f"(a {kind.__name__} too large or too deeply nested to show, {count} item{'' if count == 1 else 's'} at the top)"
    return "(too large to show)"


def _pending():
    """Calling any Python function lets an interrupt already raised in this thread fire here."""


class Link:
    """What a driver's helpers use to reach the grader while the student's code runs.

    A question is never cut in half by the watchdog: on the runner thread it is asked in the
    runner's ``ASKING`` state, in which the watchdog waits for the answer before it interrupts
    (an interrupt raised just before fires in ``_pending``, before anything is sent). A timeout
    then stays a timeout, and the channel never loses a frame.
    """

    def __init__(self, channel, runner):
        self.channel = channel
        self.runner = runner

    def ask(self, message):
        entered = self.runner.enter_question()
        try:
            if entered:
                _pending()
            return self.channel.ask(message)
        finally:
            if entered:
                self.runner.leave_question()

    def tell(self, message):
        entered = self.runner.enter_question()
        try:
            if entered:
                _pending()
            self.channel.tell(message)
        finally:
            if entered:
                self.runner.leave_question()


class Answered:
    """A link for a case run again where no evidence is kept (the grader's ``Session.run(evidence=False)``):
    the questions this case asked in an evidence run are answered here with the grader's answers then, as
    the bytes went over the channel; any other question is asked as ever. A case of an evidence run never
    gets one: there every question goes to the grader and is logged."""

    def __init__(self, link, answered):
        self.link = link
        known = {}  # a loop, not a comprehension: it runs between two calls (see _serve_cases, MAKE_FUNCTION)
        for question, answer in answered:
            known[question.encode("utf-8")] = answer.encode("utf-8")
        self.known = known

    def ask(self, message):
        question = message if _type(message) is bytes else _json_encode(message).encode("utf-8")
        known = self.known.get(question)
        if known is not None:
            return _answer_value(known)
        return self.link.ask(question)

    def tell(self, message):
        self.link.tell(message)


class Harness:
    def __init__(self, channel):
        self.channel = channel
        self.watchdog = None  # both threads start only once the child is locked down (see load)
        self.runner = None
        self.link = None
        self.driver = None
        self.module = None
        self.modules = []
        self.entry = None
        self.config = {}
        self.submission_files = set()
        self.seal = None
        self.threads_refused = False  # whether no thread may be made in this process any more (start_threads)
        self.prepared = None  # (the lock-down's problem or None,) once prepare_child ran before the hand-over (serve)

    def load(self, config):
        self.config = config
        self.call_timeout = config.get("call_timeout", 1.0)
        self.channel.nonce = config["nonce"]
        problem = self.prepared[0] if self.prepared is not None else self._prepare_child_or_say_why(config)
        if problem:  # e.g. the grader counted on Landlock: no student code runs unconfined
            return {"ok": False, "grader_fault": f"the sandbox could not be set up: {problem}"[:400]}, None, None, None
        self.channel.tell(["student code starts"], now=True)  # from here on a grader fault can only be forged
        self.start_threads()
        if self.runner.ident is not None:
            _block_signals_here()  # the runner and the watchdog, started just now, keep theirs
        self.seal = _seal.Seal.__new__(_seal.Seal)  # in place first: the seal covers its own identity too
        # The driver's classes and the library's, with the names each is read through, taken once, now: the whole
        # seal and the per-call check seal the same ones
        driver_classes, plumbing = self.sealed_classes()
        self.make_seal(self.seal, driver_classes, plumbing)
        anchor = self.seal.anchor  # into this frame before the submission's first line: serve() keeps it
        kit, window_anchor, restore = self.window(anchor, driver_classes, plumbing)
        serving = (window_anchor, _scratch_cap(config), (_flush_streams, _flusher(self.runner, sys)),
                   _seal.code_of(_flush_streams), restore)
        load_tools = _loader(self.runner) if self.runner.ident is not None else None
        load_on_runner = _load_on_runner  # bound now: the files may rebind the module's names
        restore_signal = None
        if load_tools is not None:
            restore_signal = _signals_while_loading()
        # The types of what this thread makes, calls and drops between two calls, closed to ``setattr`` (see
        # runner.lock_types): the ctypes prototype of its look at the runner's stack among them
        prototype = self.runner.frames[0] if self.runner.frames is not None else None
        interrupter = self.runner.raiser[0] if self.runner.raiser is not None else None
        _runner.lock_types(tuple(kind for kind in (prototype, interrupter) if isinstance(kind, type)))
        _runner.hide_other_threads(sys)
        # The submission's files run here, on the main thread (a file may set a signal handler, which only
        # the main thread can), through sys.call_tracing: whatever trace or profile function they set is
        # switched off again, in C, before this frame runs another line, and then removed for good. A trace
        # function on this thread would see the serving frame and could rewrite its variables; every other
        # line of the student's runs on the runner thread.
        #
        # The signal handlers the files set are quieted inside that call too: from the moment it returns this
        # thread looks nothing up (no global name, no attribute) until the seal's check in ``_finish``. A lookup
        # there could run the student's code here, outside the load, where a trace function it sets stays on:
        # ``signal.getsignal`` read ``_int_to_enum`` from the ``signal`` module's globals, where a key planted
        # at load ran (the lookup probe's find, ``forge_load_tail``).
        call_tracing, settrace, setprofile, quiet = _call_tracing, _settrace, _setprofile, _quiet_signals
        handlers = _signal_handlers()  # before: what a handler the file sets is told apart from
        # Everything this frame holds that the files could reach, kept for good in what ``serve`` keeps (a tuple):
        # dropped here as this method returns, each could run a weak reference's callback of the student's on
        # this thread, with the serving frame and the key above it (the thirty-first red team: the signal
        # stand-in's ``restore`` closure). The jobs' arguments too (a bound method of this harness among them).
        load_job = (self._load_and_bind, (config,), restore_signal)
        fallback_job = (self._load_bind_and_quiet, (config, handlers, quiet))
        kept = (load_tools, load_on_runner, restore_signal, prototype, interrupter, call_tracing, settrace,
                setprofile, quiet, handlers, load_job, fallback_job, config)
        if load_tools is not None:
            # Where there is a runner thread the files load there, as the calls run: no line of the student's
            # ever runs on this thread, whose frames hold the reply key (see serve). Loading here let a file
            # answer the grader in the harness's stead: it wrote the init reply, read the next request and
            # served the session itself (the twentieth red team). A handler cannot be set off the main thread:
            # ``signal.signal`` is a stand-in while they load (see _signals_while_loading).
            # First the runner refuses threads, for itself and all it starts (seccomp, that thread only): then no
            # code of the student's runs while this thread works, only their call while it waits for "done" (the
            # twenty-second red team's route ran a thread of theirs in a stretch of this thread's work, and found
            # a generator of the driver's running here, whose frame led up to the reply key).
            refused = load_on_runner(_refuse_threads, (), load_tools)
            if refused is None:
                return {"ok": False, "grader_fault": "the runner thread could not be set up"}, None, None, None
            self.threads_refused = self.threads_refused and refused[0] is True
            loaded = load_on_runner(_then, load_job, load_tools)
            replaced = quiet(handlers)  # C functions only: nothing the files did can have changed a handler
            if loaded is None:
                return {"fatal": "tampered"}, anchor, kit, serving + (replaced, None, kept)
            reply, bound = loaded
            return reply, anchor, kit, serving + (replaced, bound, kept)
        reply, bound, replaced = call_tracing(*fallback_job)
        settrace(None)
        setprofile(None)
        # the handlers replaced are kept for good: dropping one would run its __del__, here, on this thread
        return reply, anchor, kit, serving + (replaced, bound, kept)

    def _load_bind_and_quiet(self, config, handlers, quiet):
        """``_load_and_bind``, then the signal handlers the files set quieted, however the loading ended."""
        try:
            reply, bound = self._load_and_bind(config)
        finally:
            replaced = quiet(handlers)
        return reply, bound, replaced

    def _load_and_bind(self, config):
        """``load_submission``, then what the calls need of it, read once, while the files still load (a
        trace function that reading sets is switched off right after): the entry, the namespaces the helpers
        go into (exact dicts, one per module of the submission, the entry's first) and the submission's files.
        The serving frame keeps them; nothing reads them from this object again, whose ``module`` a student
        could swap for an object whose ``__dict__`` runs their code on this thread (found by the tenth
        session's red team)."""
        reply = self.load_submission(config)
        bound = None
        if _type(reply) is dict and reply.get("ok") is True:
            attrs = vars(self.module)
            if _type(attrs) is not dict:
                return {"ok": False, "error": "the submission's module has no plain namespace"}, None
            # The helpers go into every module of the submission, the entry's first: a search reads them from its
            # own module, which need not be the one that defines or binds the entry (a decorator or a factory kept
            # in another file, a bound method of a class in another file, a third file that imports the starter's
            # stand-ins: the fifty-ninth red team's honest layouts, 0 for "reads node.value").
            spaces = {_id(attrs): attrs}
            for module in self.modules:
                space = vars(module) if _type(module) is _type(sys) else None
                if _type(space) is dict and _id(space) not in spaces:
                    spaces[_id(space)] = space
            bound = (self.entry, _tuple(spaces.values()), frozenset(self.submission_files))
        return reply, bound

    def start_threads(self):
        """The watchdog and the runner (where the student's calls run), started after the lock-down.

        Landlock and a seccomp filter installed by prctl bind the calling thread and the threads
        it starts afterwards, never threads already running: a runner started earlier would run
        every student call with no filter and no file fence.
        """
        self.watchdog = Watchdog()
        self.runner = _runner.Runner(self.watchdog.lock, getattr(self, "runner_pipes", None),  # the student's calls run there
                                     threaded=self.config.get("runner") != "off", status=self.watchdog.state)
        # The calls' clock: the CPU time of the thread they run on (the runner's, or this one's without it)
        self.cpu_clock = None if self.config.get("call_clock") == "wall" else \
            call_clock(self.runner.ident if self.runner.ident is not None else _thread.get_ident())
        self.watchdog.cpu_clock = self.cpu_clock
        # The fallback without a runner thread stands for a Python without ctypes, which the filters need: none there
        refuse = self.runner.ident is not None
        watchdog_refused = self.watchdog.start(self.runner, refuse)
        self.link = Link(self.channel, self.runner)
        # No thread may be made from now on, in this whole process (a second seccomp filter, allowlist.no_threads):
        # the harness has all it needs, and a thread of the student's could run while this one works (the
        # twenty-second red team). On every thread, not the runner's alone: the student's code reached the
        # watchdog's thread through a property of its class, and started threads there (the twenty-third). Each
        # thread installs it on itself (a filter is inherited only by threads made after it, and the allowlist
        # refuses the seccomp call that would reach the others): the watchdog's as it starts, the runner's before
        # the files load (``load``), this one's now. Where no filter can be had, student threads remain
        # (docs/security.md).
        self.threads_refused = refuse and watchdog_refused and _refuse_threads_here()

    def _prepare_child_or_say_why(self, config):
        """``prepare_child``, its failure described: no student code has run yet, so whatever broke is the grader's."""
        try:
            return self.prepare_child(config)
        except BaseException as exc:  # noqa: B036 - a failure of the grader's own set-up, reported as such
            return describe_exception(exc, ())

    def prepare_child(self, config):
        """Limits, the driver and the lock-down: everything before the submission's first line.

        A failure here (a driver that does not load, Landlock refusing) says nothing about the
        student, so the reply carries ``grader_fault`` and the grader never stores it as their
        result. Returns the reason the lock-down failed, or None.
        """
        apply_limits(config.get("rlimits", {}), config.get("nproc_shared", False))
        sys.path[:0] = config.get("sys_path", [])
        _scratch.confine(config)  # a capped tmpfs over the work folder, where this child may mount one
        os.chdir(config.get("workdir", "."))
        if self.driver is None:  # a warm fork server (zygote.py) hands over its driver already loaded
            self.driver = load_driver(config["driver"])
        # The runner's hand-over pipes, made now so that the system-call filter guards them as it guards the
        # channel: student code may not close them or put another file in their place.
        self.runner_pipes = _runner.pipes()
        guarded = [self.channel.req_fd, self.channel.res_fd, *(fd for pair in self.runner_pipes for fd in pair)]
        return lock_down({**config, "channel_fds": guarded})

    def sealed_classes(self):
        """``(the driver's classes, the plumbing)``: what ``make_seal`` and ``window`` seal of the driver and its
        library (see ``_library_plumbing``), read before any student code runs."""
        driver_classes, library_classes = _classes_of_driver(self.driver)
        return driver_classes, [*_library_plumbing(self.driver, library_classes), *GENERATOR_PLUMBING]

    def make_seal(self, seal, driver_classes, plumbing):
        """What student code must leave alone: this harness, the driver, the seal itself; ``driver_classes`` and
        ``plumbing`` as ``load`` took them."""
        driver = self.driver
        # the modules of this harness's own classes too: a warm fork server's subclass reads the
        # fork server's globals (its pool's checks) between the calls
        homes = [vars(sys.modules[k.__module__]) for k in type(self).__mro__[:-1] if k.__module__ in sys.modules]
        seal.__init__(
            # Not json's modules or classes: the harness's thread encodes and decodes with json's C functions,
            # bound at import, and the student's own thread may teach json to write their objects (no tampering).
            namespaces=list({_id(n): n for n in [globals(), *homes]}.values()) + [_seal, _runner, _scratch],
            lenient=[driver, *_own_modules_of(driver)],
            objects=[self, self.channel, self.watchdog, self.runner, self.link],
            classes=[*type(self).__mro__[:-1], Channel, Watchdog, Link, Answered, _seal.Seal, _runner.Runner,
                     *driver_classes],
            plumbing=plumbing,
        )

    def load_submission(self, config):
        """Load every file of the submission as a module of its own name, then find what to call.

        The submission's folder comes first on ``sys.path`` and the exercise's provided
        files second, so a student's modules import each other by name and, where a part is
        missing, get the grader's stand-in instead. For exercises made of parts, each part is
        graded when the student defines it and supplied otherwise; the reply says which.
        """
        entry_path = config["submission"]
        files = [entry_path] + [f for f in config.get("submission_files") or () if f != entry_path]
        sys.path.insert(0, os.path.dirname(entry_path))
        provided = config.get("provided")
        if provided:
            sys.path.insert(1, provided)
        self.submission_files = set(files)
        loading = _loading_helpers(self.driver, self.link)
        modules = []
        for path in files:
            name = _module_name(path, config.get("module_name", "solution") if path == entry_path else None)
            module = sys.modules.get(name)
            if module is None or getattr(module, "__file__", None) != path:  # not yet imported by a sibling
                spec = importlib.util.spec_from_file_location(name, path)
                module = importlib.util.module_from_spec(spec)
                for helper_name, helper in loading.items():
                    module.__dict__[helper_name] = helper
                sys.modules[name] = module
                problem = _run_module(spec, module, path, self.submission_files)
                if problem:
                    return {"ok": False, "error": problem}
            modules.append(module)
        self.modules = modules
        namespace = {}
        for module in reversed(modules):  # the entry file's names win
            namespace.update(module.__dict__)
        reply = {"ok": True}
        parts = config.get("parts") or []
        if parts:
            chosen = _choose_parts(parts, modules, provided, self.submission_files)
            if "error" in chosen:
                return {"ok": False, "error": chosen["error"]}
            namespace.update(chosen["names"])
            reply["parts"] = chosen["report"]
        if hasattr(self.driver, "resolve"):
            try:
                self.entry = self.driver.resolve(namespace)
            except (LookupError, TypeError, ValueError) as exc:
                return {"ok": False, "error": _str(exc)[:400]}
            self.module = modules[0]
            return reply
        entry_name = config["entry"]
        entry = namespace.get(entry_name)
        if entry is None:
            return {"ok": False, "error": f"the submission defines no function named {entry_name}"}
        if not callable(entry):
            return {"ok": False, "error": f"{entry_name} is not a function (it is a {_type(entry).__name__})"}
        parameters = config.get("parameters", [])
        try:
            signature = inspect.signature(entry)
            signature.bind(*range(_len(parameters)))
        except TypeError:
            shown = ", ".join(signature.parameters)
            return {"ok": False, "error": (f"{entry_name}({shown}) cannot be called with {_len(parameters)} arguments; "
                                           f"it must be {entry_name}({', '.join(parameters)})")}
        except ValueError:
            pass  # builtins without a signature: let the calls decide
        # The provided helpers go into the module that defines the function, whichever file that is: the one whose
        # namespace is the function's globals (``from search import minimax`` in the entry file binds the name
        # there too, yet the function looks its helpers up in search.py's: the fifty-eighth red team's honest
        # two-file submission got "calls get_value, which this exercise does not provide"); else one that binds it.
        defining = entry.__globals__ if _type(entry) is _FunctionType else None
        self.module = next((m for m in modules if m.__dict__ is defining), None) or \
            next((m for m in modules if m.__dict__.get(entry_name) is entry), modules[0])
        self.entry = entry
        return reply

    def pool(self):
        """``(take, put)`` for trees built before any student code ran (zygote.py), or ``(None, None)``:
        ``take(case_id)`` is a ``(tree, before)`` pair or None, ``put`` gives an unchanged pair back."""
        return None, None

    def window(self, anchor, driver_classes, plumbing):
        """Everything the harness uses between two calls, bound before any student code runs: the
        ``kit`` that ``_serve_cases`` reads (and its builtins restorer, which ``_finish`` uses too), and
        the anchor of the per-call check, which covers the
        code in the kit that could change (the driver's namespaces, functions and classes, this
        harness's closures) and nothing the window never touches (json's Python code, the loader).
        ``serve`` keeps both in its frame."""
        driver = self.driver
        evidence, broken = _seal.call_seal()
        take, put = self.pool()
        restore = _builtins_restorer()
        helpers_with_values = getattr(driver, "helpers_with_values", None)
        closures = [f for f in (evidence, broken, take, put, restore) if f is not None]
        # The library's classes are looked at after every call too, even where the driver reads their objects only
        # through getters it took at import: making one (``object.__new__(Node)``) consults the class's abstract
        # flag, and ``Node.__abstractmethods__ = x`` of the student's had its ``__iter__`` run there, between two
        # calls (the eighteenth red team).
        window_anchor = _seal.Seal(lenient=[driver, *_own_modules_of(driver)], classes=[*driver_classes, Answered, Link],
                                   plumbing=plumbing, functions=closures).anchor
        runner = self.runner
        threaded = runner.ident is not None
        own_objects = (self.channel, self.watchdog, runner, _random_instance, self.link)
        kit = (
            # the per-call check, and the clock a call's time is measured by
            anchor[1], window_anchor, _seal.check, _seal.check.__code__, _perf_counter,
            _seal.SWITCH_SECONDS, _seal._gc_enable, _seal._gc_isenabled, _seal._gc_disable,
            # cases, results and the random generator (C-level code only)
            _marshal_loads, _marshal_dumps, _result_encoder(), _seed_encoder(), _random_seed, _random.Random.getstate,
            _random.Random.setstate, _random_instance, vars(_random_instance), _sha512,
            _int_from_bytes,
            _object_setattr,
            # the notes to the grader ("case N"), kept for the channel's next frame
            vars(self.channel), self.channel.nonce_bytes, self.channel.res_fd, _os_write,
            # the driver, the pool of prebuilt trees, this call's seal
            driver.build, driver.snapshot, driver.helpers, helpers_with_values, driver.call,
            getattr(driver, "changed", None), getattr(driver, "change_of", None), take, put, evidence, broken, restore,
            Answered, self.link, vars(self.link),
            # the watchdog and the runner thread
            self.watchdog.state, self.watchdog.lock.acquire, self.watchdog.lock.release, runner.box, vars(runner),
            runner.due.acquire if threaded else None, runner.due.release if threaded else None,
            runner.go_write if threaded else None, runner.done_read if threaded else None, _runner.GO,
            runner.hold.release if threaded else None, runner.jobs, next,
            _os_read, OSError, threaded,
            *(runner.frames or (None, None)), runner.ident, runner.loop_frame, _runner.SAFE_WAITS,
            _runner.call_and_report, describe_exception, encode_answer, self.call_timeout,
            wall_limit(self.call_timeout), _clock_gettime, self.cpu_clock,
            # builtins, bound now
            _type, _tuple, _list, _dict, _len, _min, _max, _range, bytes, BaseException, KeyboardInterrupt,
            # which dicts hold plain-string keys only, and a namespace made so again (see _serve_cases)
            all, map, _seal._is, _repeat(str), _str, dict.items, dict.clear, _seal.code_of,
            # the harness's own objects read by attribute between two calls (the generator's ``gauss_next`` by
            # ``object.__setattr__``, the link's ``ask`` by the driver) and their very classes: see _serve_cases
            own_objects, _tuple(_map(_type, own_objects)), id,
            # ``"".join``, bound once: a bound method made per request, alive while the student's calls ran and dropped
            # here when the request ends, had a weak reference's callback of theirs run on this thread (the thirty-first
            # red team; ``grave.append`` likewise, bound once by ``serve`` and passed down as ``keep``)
            _join,
            # the plain-data walk over a call's report, and its code object, checked before each use
            _plain_data, _seal.code_of(_plain_data), _plain_data_tools(),
            # the process ended at once where "done" came while the student's code still ran (see _serve_cases)
            _os_exit, _runner_back_check(runner),
        )
        return kit, window_anchor, restore

    def run(self, request, kit, bound, grave, keep, looked):
        """Every case of a request: the reply's bytes, or a fatal reply; and ``looked``, the inputs to look at
        again after the next request (see ``_serve_cases``), as they are now.

        Called held (``serve`` has just checked the whole seal, this method included). What the cases
        loop needs of the loaded submission comes in ``bound`` (read once while the files loaded); the cases themselves are frozen (``marshal``:
        exact built-in types only, read back fresh right before each is used), so nothing a call
        slips into a later case of the request reaches the harness."""
        cases = request.get("cases")
        frozen = _tuple(_map(_marshal_dumps, cases)) if _type(cases) is _list else ()
        # The list to the grave, not this frame's: the calls may take it out of the request (gc reaches it), and
        # whatever they put in it then died here as this method returned (the thirty-third red team)
        keep(cases)
        cases = None
        limit = request.get("stop_after_timeouts", 2)
        tell_cases = request.get("notes", True) is not False  # the grader says when it attributes nothing to cases
        audit = request.get("audit") is True  # every input seen unchanged looked at again (see _serve_cases)
        within = request.get("within")  # seconds from now after which no case starts (see _serve_cases)
        stop_at = _perf_counter() + within if _type(within) is float and within >= 0.0 else None
        if bound is None:
            return {"error": "nothing loaded to run"}, looked
        entry, module_spaces, submission_files = bound
        tampered = _tampered  # bound now: after the cases, a global looked up could run a key the student planted
        encoded = _serve_cases(kit, frozen, limit, tell_cases, entry, module_spaces, submission_files,
                               grave, keep, looked, audit, stop_at)
        if encoded is None:
            tampered[0] = True
            return {"fatal": "tampered"}, looked
        return encoded

    def serve(self):
        """The first request (``init``: the submission loads), then ``_serve_requests`` for the rest; where there
        is a runner, on a thread of their own (``_hand_over``), this, the main one, waiting for good.

        This frame starts before any student code runs. While the submission's files load on this (the
        main) thread their code can reach this frame (``sys._getframe``) and read its variables, so it
        holds nothing secret: the key replies are signed with arrives with the next request, into the
        frame of ``_serve_requests``, which starts after loading and which no student code reaches.
        What it binds before loading (the seal's ``check`` and that function's code object, the reading
        and writing of frames, the interpreter's switches) and what ``load`` hands back (the seal's
        anchor, the kit of ``_serve_cases``) are the grader's own: student code may swap a function's
        ``__code__`` or a class's method, but not a code object, nor a frame's variables.
        """
        check, receive, send, finish = _seal.check, _receive, _send, _finish
        # Code objects are read through the function type's own getter, never ``f.__code__``: that lookup goes
        # through the function type's dict, where a key planted after the files load would run (see seal's
        # GUARDED_TYPES); likewise a method's function.
        code_of, func_of = _seal.code_of, _seal.func_of
        codes = (code_of(check), code_of(receive), code_of(send), code_of(finish))
        serve_requests = self._serve_requests
        serve_requests_code = code_of(func_of(serve_requests))
        grave = []
        tools = (_type, bytes, _marshal_loads, _marshal_dumps, _join, _reply_encoder, _scratch_full,
                 code_of(_scratch_full), _os_exit, _seal._setswitchinterval, _seal.SWITCH_SECONDS,
                 _tampered, _memory_exhausted, code_of, func_of, _dict, _str, bytes.fromhex, grave.append, BaseException,
                 _plain_data, code_of(_plain_data), _plain_data_tools())
        wire = _wire(self.channel)
        seq, request = receive(wire, grave)
        # The reply key comes with init and is taken out before anything else runs. Where there is a runner
        # thread no student code ever runs on this thread (the files load on the runner too), so nothing of
        # theirs reaches this frame or ``_serve_requests``'s, the only places the key is kept, and every
        # reply, init's too, is one only the harness can sign.
        key = b""
        if _type(request) is _dict and _type(request.get("reply_key")) is _str:
            key = bytes.fromhex(request.pop("reply_key"))
        # Served from here on by a thread of its own where there will be a runner (see _hand_over): this one, the
        # interpreter's main thread, is the one that handles signals, and it then never runs Python again
        if _may_hand_over(request):
            # Locked down here, on the main thread, before the serving thread starts: Landlock (and a filter that
            # cannot synchronise threads) binds the thread that sets it up and the threads it starts afterwards,
            # and the main thread, which waits for good after the hand-over, would otherwise be the one thread of
            # the process without the file fence (the sixty-eighth red team woke it and read a neighbour's file)
            self.prepared = (self._prepare_child_or_say_why(request),)
            box = [self._serve_from_init, seq, request, key, check, receive, send, finish, codes, tools, grave, wire,
                   serve_requests, serve_requests_code]
            # Nothing of the session stays in this frame, which the main thread keeps for good: woken, that thread
            # ran a hook of the student's with this frame above it, the key in its variables (the sixty-eighth red
            # team; see _hand_over). The box is emptied by the serving thread before any student code runs.
            request = key = check = receive = send = finish = codes = tools = grave = wire = None
            serve_requests = serve_requests_code = None
            _hand_over(box)
        self._serve_from_init(seq, request, key, check, receive, send, finish, codes, tools, grave, wire,
                              serve_requests, serve_requests_code)

    def _serve_from_init(self, seq, request, key, check, receive, send, finish, codes, tools, grave, wire,
                         serve_requests, serve_requests_code):
        """``init`` (the files load), its reply, then ``_serve_requests``: on the serving thread (see
        ``_hand_over``), or on the main one where there is no runner. Reads no global name after the load but on
        the way to ``os._exit``."""
        code_of, func_of = tools[13], tools[14]
        guard = None
        reply = {"error": "the first request must be init"}
        try:
            if _type(request) is _dict and request.get("op") == "init":
                reply, anchor, kit, serving = self.load(request)  # loads through sys.call_tracing (see load)
                if anchor is not None:
                    guard = (check, codes[0], anchor, kit, *serving)
            elif _type(request) is _dict and request.get("op") == "exit":
                _os_exit(0)
        except BaseException:  # noqa: B036 - student code broke something the harness relies on
            reply = {"ok": False, "error": "the submission broke the grader's harness (patched builtins or modules?)"}
        if code_of(finish) is not codes[3] or code_of(send) is not codes[2]:
            _os_exit(4)
        payload = finish(reply, False, guard, check, codes[0], tools, grave)
        send(wire, seq, payload, key, grave)
        # The usual switching again; collection stays off on this thread for good (the runner turns it on for
        # the student's calls only: runner._loop), so no collection here runs a __del__ of theirs.
        tools[9](tools[10])
        if code_of(func_of(serve_requests)) is not serve_requests_code:
            _os_exit(4)
        serve_requests(guard, wire, check, receive, send, finish, codes, tools, grave, key)

    def _serve_requests(self, guard, wire, check, receive, send, finish, codes, tools, grave, key):
        """Requests after ``init``, one reply each, until told to exit. This frame starts after the
        submission's files have loaded and no student code runs on this thread any more, so nothing of
        the student's reaches it: the reply key, taken out of the init request by ``serve``, lives in its
        variables and ``serve``'s only. (An exception caught here makes this frame an object that gc could
        hand to the student's code; its reply says the harness broke, and the grader asks nothing more.)

        After a blocking read or write, or anything the student's code ran in, this frame calls only
        C-level code and functions whose code object it verifies first (``check``, ``_receive``,
        ``_send``, ``_finish``: none reads a global name), until the whole seal has been checked again.
        """
        check_code, receive_code, send_code, finish_code = codes
        type_, exit_, code_of, dict_ = tools[0], tools[8], tools[13], tools[15]
        keep = tools[18]  # ``grave.append``, likewise
        base_exception = tools[19]  # and ``BaseException``: an ``except BaseException`` here would look it up
        switch, switch_seconds = tools[9], tools[10]
        # ``grave``: what this thread would drop that the student could have put there (see _serve_cases)
        request = None
        # Every input seen unchanged after its own call, looked at again by the grader's audit (see _serve_cases): a
        # tuple in this frame, which nothing of the student's reaches
        looked = (0, ())
        while True:
            if code_of(receive) is not receive_code:
                exit_(4)
            # The last request (its cases' dicts were within the student's reach) to the grave, not dropped here
            keep(request)
            seq, request = receive(wire, grave)  # the interpreter held from the moment the request is read
            op = request.get("op") if type_(request) is dict_ else None
            if op == "exit":
                exit_(0)
            # The grader's last look (see _serve_cases): read now, before any student code runs, and its reply
            # flushes no stream, so that nothing of theirs runs after that look (the fortieth red team changed the
            # trees in the flush after it)
            audit = op == "run" and request.get("audit") is True
            intact, _collecting = (check(guard[2]) if code_of(check) is check_code else (False, None)) \
                if guard is not None else (False, None)
            reply = None
            try:
                if not intact:
                    pass
                elif op == "run":
                    reply, looked = self.run(request, guard[3], guard[10], grave, keep, looked)  # held: nothing ran since the check
                else:
                    reply = {"error": "unknown request"}
            except base_exception:  # noqa: B036 - student code broke something the harness relies on
                reply = {"ok": False, "error": "the submission broke the grader's harness (patched builtins or "
                                               "modules?)"}
            if code_of(finish) is not finish_code or code_of(send) is not send_code:
                exit_(4)
            payload = finish(reply, not intact, guard, check, check_code, tools, grave, audit)
            send(wire, seq, payload, key, grave)
            switch(switch_seconds)  # collection stays off on this thread (see serve)


PLAIN_DATA_ITEMS = 100_000  # far above what encode_answer (ANSWER_ITEMS) or a load's reply makes


def _plain_data(root, tools):
    """Whether ``root`` is plain data: exact dicts with plain-string keys, lists, tuples, str, int, float, bool and
    None, at most ``PLAIN_DATA_ITEMS`` of them all told. Run on the harness's thread over what the runner thread
    hands it (a call's report, a load's reply) before ``marshal`` copies it: marshal sorts a set's items and compares
    two whose bytes are alike, and a ``bytes`` subclass's ``__eq__`` of the student's ran there (the sixty-first red
    team, a frozenset slipped into a report by a tracer on the runner's frame). The budget ends a list that holds
    itself, which would otherwise be walked until the submission's time ran out.

    Reads no global name and compares nothing: types by identity, an exact dict's keys read, never looked up.
    What it walks stays held by ``root`` (the caller keeps that), so nothing dies here when it returns."""
    type_, dict_, list_, tuple_, str_, int_, float_, bool_, none_, items_of, budget = tools
    pending = [root]
    while pending:
        budget -= 1
        if budget < 0:
            return False
        item = pending.pop()
        kind = type_(item)
        if kind is dict_:
            for key in item:  # an exact dict's keys, read: nothing of theirs runs
                if type_(key) is not str_:
                    return False
            pending.extend(items_of(item))
        elif kind is list_ or kind is tuple_:
            pending.extend(item)
        elif kind is not str_ and kind is not int_ and kind is not float_ and kind is not bool_ and kind is not none_:
            return False
    return True


def _plain_data_tools():
    """The tools ``_plain_data`` reads, bound before any student code runs."""
    return (_type, _dict, _list, _tuple, _str, int, float, _bool, _NoneType, _dict_items, PLAIN_DATA_ITEMS)


def _finish(reply, tampered, guard, check, check_code, tools, grave, unflushed=False):
    """After a request's work: the whole seal and the window's checked, the fatal states, the reply's bytes,
    the student's streams flushed (on the runner thread; not after the grader's audit, ``unflushed``). Returns
    the payload. Reads no global name: it runs after the student's code did, and after the scratch test's
    statvfs."""
    (type_, bytes_, loads, dumps, join, encode, scratch_full, scratch_full_code, exit_, _switch, _seconds,
     tampered_flag, memory_flag, code_of, _func_of, _dict_type, _str_type, _fromhex, _keep, _base_exception, plain_data,
     plain_data_code, plain_tools) = tools
    if guard is not None:
        whole, _ = check(guard[2]) if code_of(check) is check_code else (False, None)
        window, _ = check(guard[4]) if code_of(check) is check_code else (False, None)
        tampered = tampered or not whole or not window or tampered_flag[0]
        if not tampered:
            guard[8](grave)  # the builtins restored; verified just now (the window's check), nothing ran since
            if memory_flag[0]:
                reply = {"fatal": "memory"}
            elif code_of(scratch_full) is not scratch_full_code or scratch_full(guard[5]):
                reply = {"fatal": "scratch"}
            # The statvfs let the student's threads run: everything looked at again before any lookup below
            # (the builtin types' dicts first, see seal.GUARDED_TYPES), collection included: on again means
            # code of the student's ran meanwhile (the twenty-fifth red team's finds)
            window, collecting = check(guard[4]) if code_of(check) is check_code else (False, None)
            tampered = not window or collecting is not False
    if tampered:
        # No lookup of any name from here on: a check failed, so the builtin types' dicts may hold the
        # student's methods (a ``str.encode`` of theirs would run here and could put the guard back before
        # returning a reply of its own making: the lookup probe). Nor are their streams flushed.
        return b'{"fatal": "tampered"}'
    # A reply made while the files loaded is plain data, checked before marshal copies it (see _plain_data)
    if type_(reply) is not bytes_ and (code_of(plain_data) is not plain_data_code or not plain_data(reply, plain_tools)):
        return b'{"fatal": "tampered"}'
    try:  # a reply made while the files loaded is copied first: exact built-in types only
        payload = reply if type_(reply) is bytes_ else join(encode(loads(dumps(reply)), 0)).encode("utf-8")
    except:  # noqa: E722 - a bare except looks no name up
        payload = b'{"fatal": "tampered"}'
    if guard is not None and not unflushed:  # the student's streams, flushed on the runner thread (their code runs)
        (flush, flush_tools), flush_code = guard[6], guard[7]
        if code_of(flush) is not flush_code:
            exit_(4)
        if flush(grave, flush_tools) is False:  # the hand-over tampered with while the student's code flushed
            payload = b'{"fatal": "tampered"}'
    return payload


def _signal_handlers():
    """The signals this process can handle, with their handlers now and the tools ``_quiet_signals`` uses,
    all bound before the submission's files run (they may change ``signal``'s module and builtins). The C
    module's own functions: ``signal.getsignal`` and ``signal.signal`` are Python, and read names from the
    ``signal`` module's globals, where the files may have planted keys."""
    try:
        import _signal
    except ImportError:
        return None
    unhandled = (getattr(_signal, "SIGKILL", None), getattr(_signal, "SIGSTOP", None))  # neither exists on Windows
    numbers = sorted(number for number in _signal.valid_signals() if number not in unhandled)
    kept = tuple(_signal.getsignal(number) for number in numbers)
    return (tuple(numbers), kept, frozenset(map(_id, kept)), _signal.getsignal, _signal.signal, _signal.SIG_IGN,
            callable, _id, _zip, _os_exit)


def _quiet_signals(handlers):
    """A handler the submission's files set on this (the main) thread would run the student's code here,
    between two calls or while the harness waits for one: each becomes "ignore" (the student wanted the
    signal handled, not the process stopped; an ignored SIGXCPU or SIGXFSZ still meets the hard limit).
    Reads no global name and calls C functions only. ``signal.signal`` runs the handlers of signals already
    pending first, and one of them may set another handler: the handlers are looked at again until a pass
    changes nothing (a file that keeps setting them is not taken further). Every handler read is returned,
    to be held for good: one dropped here would run its ``__del__`` on this thread."""
    if handlers is None:
        return ()
    numbers, kept, kept_ids, getsignal, set_handler, ignore, callable_, id_, zip_, exit_ = handlers
    replaced = ()
    for _ in (1, 2, 3, 4):
        changed = False
        for number, before in zip_(numbers, kept):
            try:
                now = getsignal(number)
                replaced += (now,)
                if now is not before and id_(now) not in kept_ids and callable_(now):
                    set_handler(number, ignore)
                    changed = True
            except:  # noqa: E722 - a bare except looks no name up
                changed = True
        if not changed:
            return replaced
    exit_(4)


def _may_hand_over(request):
    """Whether ``init`` is served by a thread of its own (``_hand_over``): where the calls will run on a runner
    thread (ctypes reaches the interpreter, the grader did not ask for the fallback) and a thread's signals can be
    blocked (POSIX). Before any student code runs."""
    if _type(request) is not _dict or request.get("op") != "init" or request.get("runner") == "off":
        return False
    try:
        import _signal
    except ImportError:
        return False
    return hasattr(_signal, "pthread_sigmask") and _runner._async_raiser() is not None


def _hand_over(box, exit_=_os_exit):
    """The rest of the session served by a new thread; this one, the main thread, blocks every signal and waits
    for good, never to run Python again. Never returns.

    Only the main thread handles signals, and it handles one at its next check for pending work, after any call:
    ``_thread.interrupt_main(32)`` (a signal glibc keeps, which Python has no handler entry for) from the
    student's call made the harness's thread report "Signal 32 ignored" through ``sys.unraisablehook``, a
    function of theirs, right after "done", with the serving frames and the key above it (the thirty-fifth red
    team). Pending calls run there too. Served from another thread, nothing of the harness is on the thread that
    handles them, and that thread, its signals blocked, never wakes to handle them. ``box`` holds the serving
    method and its arguments (the reply key among them); the new thread empties it before anything else, so no
    object gc can hand out holds the key. Runs before any student code, the files' load included.

    The wait for good is on a lock out of the collector's sight (untracked, held only by this frame, which is no
    object anything reaches): a lock ``gc.get_objects`` lists, locked and held by nothing else, is easy to find and
    to let go of, and the main thread woke, handled the pending "Signal 32" of an ``interrupt_main`` through the
    student's ``sys.unraisablehook`` and ran it there, with ``serve``'s frame above it and the reply key in that
    frame's variables; a file could then serve the session itself, the evidence as honest as it liked and every
    reply signed (the sixty-eighth red team: 10 against an honest 9; and on posix the main thread, started before
    the Landlock fence, which binds only the thread that sets it up and the threads it starts, read a neighbour's
    file). ``serve`` lets go of all it held before it calls this; the exit after the wait is bound beforehand (a
    global looked up could run a key planted in this module's namespace)."""
    started, go, forever = _thread.allocate_lock(), _thread.allocate_lock(), _thread.allocate_lock()
    started.acquire()
    go.acquire()
    forever.acquire()
    _untrack(forever)
    _ignore_timer_signals()  # on this thread, the one that may set a handler: see _signals_while_loading
    box += [started, go]
    _thread.start_new_thread(_served_here, (box,))
    started.acquire()  # the box emptied
    # Blocked after the new thread started (it keeps the signals it had, and so do the runner and the watchdog it
    # starts: a CPU limit's SIGXCPU still ends the process), before it goes on to load the files
    _block_signals_here()
    go.release()
    started = go = box = None
    forever.acquire()
    exit_(5)


def _untrack(obj):
    """``obj`` out of the collector's sight for good (``PyObject_GC_UnTrack``, through ctypes: ``_may_hand_over``
    asks for it): ``gc.get_objects`` and ``gc.get_referrers`` no longer find it. Only for an object kept until the
    process ends (the main thread's lock, see ``_hand_over``)."""
    import ctypes

    address = ctypes.cast(ctypes.pythonapi["PyObject_GC_UnTrack"], ctypes.c_void_p).value
    ctypes.PYFUNCTYPE(None, ctypes.py_object)(address)(obj)


def _block_signals_here():
    """Every signal blocked on this thread (the main one as it hands the session over; the serving one, once the
    runner and the watchdog have started): none of its waits is cut short by one. A wait cut short is retried, but
    the student's code could also have changed how the descriptor reads (now refused, see
    allowlist.CHANNEL_COMMANDS), and the retry then failed: an error made on this thread while the student's call
    had collection on (the sixty-fifth red team's route to its gc callback)."""
    try:
        import _signal

        _signal.pthread_sigmask(_signal.SIG_BLOCK, tuple(_signal.valid_signals()))
    except (ImportError, AttributeError, OSError, ValueError):
        pass  # not POSIX: no such signals


def _served_here(box, exit_=_os_exit):
    """The serving thread of ``_hand_over``: takes everything out of ``box``, then serves, and ends the process if
    serving ever ends."""
    (serve_from_init, seq, request, key, check, receive, send, finish, codes, tools, grave, wire, serve_requests,
     serve_requests_code, started, go) = box
    box.clear()
    started.release()
    go.acquire()
    started = go = None
    try:
        serve_from_init(seq, request, key, check, receive, send, finish, codes, tools, grave, wire, serve_requests,
                        serve_requests_code)
    finally:
        exit_(5)


def _ignore_timer_signals():
    """The signals a file may arm a timer for (or send itself) ignored, SIGINT too for good: its default
    handler raises KeyboardInterrupt on the main thread, which a file could trigger with ``os.kill(os.getpid(),
    SIGINT)``; the exception's traceback makes the serving frames objects that gc hands out. (The watchdog
    interrupts the runner thread directly; only the fallback without a runner uses SIGINT, and it never comes
    here.) Only the main thread may set a handler: elsewhere (the serving thread of ``_hand_over``, after the
    main thread did this) nothing is done."""
    try:
        import _signal
    except ImportError:
        return
    for name in ("SIGINT", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGUSR1", "SIGUSR2"):
        number = getattr(_signal, name, None)
        if number is not None:
            try:
                _signal.signal(number, _signal.SIG_IGN)
            except ValueError:  # not the main thread
                return


def _wire(channel):
    """What ``_receive`` and ``_send`` use, bound before any student code runs: the channel's attributes
    (its dict: buffer, notes not yet written), descriptors, nonce, lock, and C-level parsing (json's C
    scanner)."""
    return (vars(channel), channel.req_fd, channel.res_fd, channel.lock.acquire, channel.lock.release,
            _os_read, _os_write, _os_exit, _json_scanner, MAGIC, ANSWER, _seal._setswitchinterval,
            _type, _len, _int, bytes, list, tuple, _hashlib.hmac_digest, _seal._gc_disable,
            all, map, _seal._is, _repeat(str), (*_seal.TYPE_GUARD, _seal.guard_still()), itertools.chain.from_iterable,
            _seal._gc_get_referents, _json_memo)


# json's C scanner, made of C parts only: ``parse_constant`` is ``float``, not json's default (a bound method of
# the ``_CONSTANTS`` dict in json.decoder, which the student reaches, and whose lookup would compare a key of theirs).
_json_scanner = json.scanner.c_make_scanner(json.decoder.JSONDecoder(parse_constant=float)) \
    if json.scanner.c_make_scanner else None
# The one dict the scanner keeps between parses: its memo of object keys, emptied at the end of every parse.
# gc reaches it, and a key planted there, colliding with "op", had its __eq__ run by the next request's parse, on
# the harness's thread, after every check (the seventeenth red team): it must be empty when a parse starts.
_json_memo = next((part for part in gc.get_referents(_json_scanner) if type(part) is dict), None) \
    if _json_scanner is not None else None


def _receive(wire, grave):
    """The next request: ``(seq, request)``. Reads no global name and runs no Python code but its own: it
    returns to the serving frame after a blocking read, during which the student's threads ran.
    The interpreter is held (switch interval up) before the request is decoded, so none of them sees
    it before the seal is checked."""
    (attrs, req_fd, _res_fd, lock, unlock, read, _write, exit_, scan, magic, answer, switch,
     type_, len_, int_, bytes_, _list, tuple_, _sign, stop_collecting, all_, map_, is_, strs,
     (guarded, referents, keys, (still_read, still_views, still_then)), chained, referents_of, memo) = wire
    lock()  # a thread of the student's may be reading an answer right now
    try:
        # After every wait (the lock, each read) the interpreter is held and collection turned off before
        # anything is allocated: a thread of the student's may have turned it on while this one waited, and a
        # collection here could run a __del__ of theirs on this thread (the eleventh red team's find).
        stop_collecting()
        switch(1.0)
        # Plain-string keys only in the channel's dict before it is read by key: a key whose hash collides
        # with "buffer", planted by a thread of the student's while this one waited, would have its __eq__
        # run by the lookup, here (the twelfth red team, see _serve_cases). No request, then: the
        # seal finds the channel changed, and the reply (see _send) is one the grader calls tampering. The
        # builtin types' dicts first, as after every wait (see seal.GUARDED_TYPES): ``attrs.get`` goes through one.
        if tuple_(map_(still_read, still_views)) != still_then \
                or len_(found := referents_of(*guarded)) != len_(referents) or not all_(map_(is_, found, referents)) \
                or tuple_(chained(guarded)) != keys or not all_(map_(is_, map_(type_, attrs), strs)):
            return 0, None
        # Only bytes this function reads from the pipe itself are parsed: bytes kept on the heap are the
        # student's to write, and json's C scanner, given bytes it cannot parse, calls whatever
        # ``json.decoder.JSONDecodeError`` is by then, here (the thirtieth red team planted a request in the
        # channel's list of requests read by a thread left asking, which is gone, and named a function of theirs
        # so). The grader sends a request only once the last one is answered, and answers only questions: in an
        # honest session nothing is left over when a request is awaited. Anything left is a reply the grader
        # does not take (sequence number 0).
        buffer = attrs.get("buffer")
        if type_(buffer) is not bytes_ or buffer:
            grave.append(buffer)
            return 0, None
        while True:
            while b"\n" not in buffer:
                chunk = read(req_fd, 65536)
                stop_collecting()
                switch(1.0)
                if not chunk:
                    exit_(3)
                buffer += chunk
            line, _, buffer = buffer.partition(b"\n")
            header = line.split(b" ")
            if len_(header) != 4 or (header[0] != magic and header[0] != answer):
                exit_(4)
            count = int_(header[3])
            while len_(buffer) < count:
                chunk = read(req_fd, 65536 if count - len_(buffer) < 65536 else count - len_(buffer))
                stop_collecting()
                switch(1.0)
                if not chunk:
                    exit_(3)
                buffer += chunk
            payload, buffer = buffer[:count], buffer[count:]
            if tuple_(map_(still_read, still_views)) != still_then \
                    or len_(found := referents_of(*guarded)) != len_(referents) or not all_(map_(is_, found, referents)) \
                    or tuple_(chained(guarded)) != keys \
                    or not all_(map_(is_, map_(type_, attrs), strs)):  # the reads above waited: as after the lock
                return 0, None
            grave.append(attrs.get("buffer"))
            attrs["buffer"] = buffer
            switch(1.0)
            if header[0] == magic:
                if memo is not None and len_(memo):  # a key of the student's in the scanner's memo (see _json_memo)
                    return 0, None
                return int_(header[2]), scan(payload.decode("utf-8"), 0)[0]
            # an answer whose question was cut short (the call was interrupted): nobody waits for it
    finally:
        unlock()


def _send(wire, seq, payload, key, grave):
    """One reply frame, after the notes told since the last one, written by C-level calls only, and signed
    with the session's reply key (``session.reply_signature``): the key lives in the serving frame only,
    so a frame written by a thread of the student's, which can reach the channel and its nonce, is not
    taken for the harness's reply."""
    (attrs, _req_fd, res_fd, lock, unlock, _read, write, _exit, _scan, magic, _answer, switch,
     type_, len_, _int, bytes_, _list, tuple_, sign, stop_collecting, all_, map_, is_, strs,
     (guarded, referents, keys, (still_read, still_views, still_then)), chained, referents_of, _memo) = wire
    lock()
    try:
        stop_collecting()  # the lock may have waited for a thread of the student's: as in _receive
        switch(1.0)
        if tuple_(map_(still_read, still_views)) == still_then \
                and len_(found := referents_of(*guarded)) == len_(referents) and all_(map_(is_, found, referents)) \
                and tuple_(chained(guarded)) == keys and all_(map_(is_, map_(type_, attrs), strs)):
            signature = sign(key, b"%d " % seq + payload, "sha256").hex()[:32].encode()
            told, nonce = attrs.get("told"), attrs.get("nonce_bytes")
            grave.append((told, nonce))
            attrs["told"] = b""
        else:  # a planted key (see _receive): nothing is looked up, and the grader takes no such reply
            signature, told, nonce = b"-", b"", b"-"
        if type_(nonce) is not bytes_:
            nonce = b"-"  # rewritten by the student: the grader will not take this reply
        data = (told if type_(told) is bytes_ else b"") + b"%s %s %d %d %s\n%s" % (magic, nonce, seq, len_(payload),
                                                                                       signature, payload)
        # No subscript unless the pipe took part of it: the interpreter's specializing of ``data[n:]`` looks
        # ``__getitem__`` up in bytes' dict, which, on the refused branch above, may hold a key of the student's.
        written = write(res_fd, data)
        while written < len_(data):
            data = data[written:]
            written = write(res_fd, data)
    finally:
        unlock()


def _flusher(runner, sys_module):
    """What ``_flush_streams`` needs, bound before any student code runs: a tuple (its items cannot be swapped,
    as a closure's cells can: ``cell.cell_contents`` is writable, and a function of the student's put in a
    cell of the flush's closure ran on the harness's thread, with its frames above: the cells probe's find)."""
    threaded = runner.ident is not None
    (guarded, referents, keys) = _seal.TYPE_GUARD
    return (runner.box, _runner.flush_streams, threaded, tuple, runner.go_write if threaded else None,
            runner.done_read if threaded else None, _runner.GO, _os_write, _os_read, OSError,
            runner.hold.release if threaded else None,
            *(runner.frames or (None, None)), runner.ident, runner.loop_frame, _runner.SAFE_WAITS,
            guarded, referents, keys, itertools.chain.from_iterable,
            all, map, _seal._is, _len, _seal._gc_get_referents, runner.jobs, next, sys_module, _seal.guard_still(),
            _os_exit, _runner_back_check(runner))


def _flush_streams(grave, tools):
    """The student's streams flushed on the runner thread, by a function that reads no global name: the same
    hand-over as a call's (the hold let go of, "go", "done", then ``_runner_back`` and the runner's frame: see
    runner._loop). False where the flush planted a key in a builtin type's dict; where it tampered with the
    hand-over the process ends."""
    (box, flush, threaded, tuple_, go_write, done_read, go_byte, write, read, os_error, let_go_of_hold,
     make_reader, reader, runner_id, loop_frame, safe_waits, guarded, referents, keys,
     chained, all_, map_, is_, len_, referents_of, jobs, count, sys_module, (still_read, still_views, still_then),
     exit_, back) = tools
    if threaded:
        grave.append((box[0], box[1]))
        if box[3] is None:  # what this thread held back goes with it, dropped on the runner thread
            box[3] = tuple_(grave)
            grave.clear()
        box[0] = (flush, (sys_module,))
        handed = count(jobs)
        let_go_of_hold()  # see runner._loop
        signal = None
        try:
            write(go_write, go_byte)
            signal = read(done_read, 1)
        except os_error:  # a pipe of the hand-over closed or replaced: _runner_back ends the process
            pass
        # The runner back in its loop, the hold held, exactly this job run (see _runner_back): or the process ends
        if back[0](*back[1]) is not back[2]:
            exit_(4)
        back[3](signal, handed, back[4])
        if tuple_(map_(still_read, still_views)) != still_then \
                or len_(found := referents_of(*guarded)) != len_(referents) or not all_(map_(is_, found, referents)) \
                or tuple_(chained(guarded)) != keys:
            return False  # a key planted in a builtin type's dict (see seal.GUARDED_TYPES): the reply says tampered
        found = None
        top = make_reader(reader)().get(runner_id)  # a "done" of the student's, the flush still running
        if top is not loop_frame or top.f_back is not None or top.f_lasti not in safe_waits:
            exit_(4)
        top = None
        grave.append(box[1])
        box[1] = None
    else:
        flush(sys_module)
    return True


def _runner_back(signal, handed, tools):
    """The serving thread's first look after a hand-over's "done" (a call's, a load's, a flush's), one function for
    all three: made before anything is allocated (so no collection can run here, whatever the student's code set)
    and with no attribute looked up (a key planted in a type's dict would run there, before the guard's check).
    Where it returns, nothing of the student's runs or can start until the harness lets go of the hold for the
    next job: the runner took this very job (the mailbox is empty), is back at one of its loop's waits
    (``runner.SAFE_WAITS``: not in a call), holds the hold (a "go" from anyone now leaves it waiting on the lock),
    and took exactly one job since ``handed`` (two more counts: its own and this look's). Anything else, and the
    process ends at once (exit 4, which the grader reports as the harness ended: tampering, for honest code never
    gets here), rather than reply "tampered": a reply lets the interpreter go (the HMAC, the write), and the
    student's code running or starting beside it meanwhile turned collection on and had their gc callback run
    on this thread at its next allocation, the reply key up the stack. Two ways it did or could: the call wrote
    "done" itself and ran on (the sixty-sixth red team, exit 77); a process the call forked read the harness's
    "go" ahead of the runner, wrote "done", and later a "go" of its own, which started the job, still in the
    mailbox, beside the serving thread on its way to the tampered reply (the sixty-seventh).

    ``signal``: the byte read as "done" (None where the pipe's read or write failed: the job may still be in the
    mailbox with the hold let go of). ``tools``: see ``_runner_back_check``.

    Nothing here may allocate an object the collector counts until the count is read: the student's code may be
    running beside this thread with collection on, and a collection here would run their callback on this thread.
    So no tuple is unpacked (an ``UNPACK_SEQUENCE`` not yet specialized goes through an iterator, a new object:
    unpacking the tools here had the sixty-sixth red team's probe run its callback on the serving thread), no
    argument tuple is made (the frame's ``f_lasti`` is read through the frame type's own getter with its argument
    tuple made beforehand) and no attribute is looked up (a key planted in a type's dict would run there, before
    the guard's check): ``tests/test_evidence.py`` reads its bytecode and runs it under a collector set to run at
    every allocation."""
    if tools[0][0] is not None or tools[1](*tools[2]) not in tools[3]:
        tools[10](4)
    # Collection off and the interpreter held, by this thread: the runner does both before it says done, but its
    # loop's variables are within the student's reach (their trace function on that thread can rewrite them), and
    # a thread of theirs may take the interpreter while "done" is written (the eleventh red team's finds)
    tools[4]()
    tools[5](1.0)
    # Read after the look above: a job that started since (a "go" written by a forked process, the hold let go of
    # by the student's code) took the hold and counted, and the count is read last
    if not tools[6]() or signal != tools[7] or tools[9](tools[8]) != handed + 2:
        tools[10](4)


def _runner_back_check(runner):
    """``(code_of, (function,), its code, function, its tools)`` for ``_runner_back``, bound before any student code
    runs: a site checks ``code_of(*(function,)) is code`` (the argument tuple made now: calling the getter made one
    per call) and then calls ``function(signal, handed, tools)``. ``None`` where there is no runner (never used).
    The tools, read by index: the mailbox, the loop frame's ``f_lasti`` getter and its argument tuple, the loop's
    waits, collection off, the switch interval, the hold's ``locked``, the "done" byte, the job count and ``next``,
    ``os._exit``."""
    if runner.ident is None:
        return None
    frame = runner.loop_frame
    tools = (runner.box, _type(frame).__dict__["f_lasti"].__get__, (frame,), _runner.SAFE_WAITS,
             _seal._gc_disable, _seal._setswitchinterval, runner.hold.locked, _runner.DONE, runner.jobs, next,
             _os_exit)
    return _seal.code_of, (_runner_back,), _seal.code_of(_runner_back), _runner_back, tools


def _loader(runner):
    """What ``_load_on_runner`` needs, bound before any student code runs: a tuple, as ``_flusher``'s (the
    files may write a closure's cells)."""
    (guarded, referents, keys) = _seal.TYPE_GUARD
    return (runner.box, runner.go_write, runner.done_read, _runner.GO,
            runner.hold.release, _os_write, _os_read, OSError,
            *runner.frames, runner.ident, runner.loop_frame, _runner.SAFE_WAITS, _type, tuple, _len, guarded,
            referents, keys, itertools.chain.from_iterable, all, map, _seal._is, _seal._gc_get_referents,
            runner.jobs, next, dict, frozenset, _seal.guard_still(), _LOAD_OUTCOMES.append, _os_exit,
            _runner_back_check(runner))


# Every load's outcome as the harness read it, kept for the process's life (one a child): an outcome swapped for an
# object of the student's and refused would otherwise die on the harness's thread as ``_load_on_runner`` returns,
# running its ``__del__`` there (the sixty-second review's probe: exit code 77, and the reply key up the stack).
_LOAD_OUTCOMES = []


def _load_on_runner(function, args, tools):
    """The submission's files loaded on the runner thread, by a function that reads no global name:
    ``function(*args)``'s value, or None where the load tampered with the harness (the builtin types' dicts, the
    outcome's shape); where the hand-over itself was tampered with (its pipes, the hold, the job count, the runner
    not back in its loop) the process ends (``_runner_back``). Everything it uses is unpacked from ``tools``
    before the job: a variable of this running frame is out of the files' reach.

    Like the calls, the load leaves the harness's thread waiting on a pipe: the student's code never runs
    where the serving frames are, and a trace function their files set stays on the runner thread, whose
    loop clears it when the load is over."""
    (box, go_write, done_read, go_byte, let_go_of_hold, write, read, os_error, make_reader, reader, runner_id,
     loop_frame, safe_waits, type_, tuple_, len_, guarded, referents, keys, chained, all_, map_, is_, referents_of,
     jobs, count, dict_, frozenset_, (still_read, still_views, still_then), keep_outcome, exit_, back) = tools
    box[0] = (function, args)
    handed = count(jobs)
    let_go_of_hold()  # see runner._loop
    signal = None
    try:
        write(go_write, go_byte)
        signal = read(done_read, 1)
    except os_error:  # the hand-over's pipes are the filter's to keep: _runner_back ends the process
        pass
    # The runner back in its loop, the hold held, exactly this job run (see _runner_back): or the process ends
    if back[0](*back[1]) is not back[2]:
        exit_(4)
    back[3](signal, handed, back[4])
    # The builtin types' dicts before any attribute is looked up (see seal.GUARDED_TYPES): a ``dict.get`` of
    # the student's, set while the files loaded, ran in the lookup below (the lookup probe's find)
    if tuple_(map_(still_read, still_views)) != still_then \
            or len_(found := referents_of(*guarded)) != len_(referents) or not all_(map_(is_, found, referents)) \
            or tuple_(chained(guarded)) != keys:
        return None
    found = None
    top = make_reader(reader)().get(runner_id)  # "done" from the runner's own loop, waiting, nothing above it
    if top is not loop_frame or top.f_back is not None or top.f_lasti not in safe_waits:
        exit_(4)
    top = None
    outcome = box[1]
    keep_outcome(outcome)  # before any test: refused or not, it never dies on this thread (see _LOAD_OUTCOMES)
    box[1] = None
    if type_(outcome) is not tuple_ or len_(outcome) != 2 or outcome[0] is not True:
        return None  # the load raised out of the harness's own code, or the outcome was swapped
    loaded = outcome[1]
    if type_(loaded) is not tuple_ or len_(loaded) != 2:
        return None
    # What the calls will read of it on this thread, of the exact types ``_load_and_bind`` made: the outcome can be
    # swapped after the job stored it (a trace function the files set on ``_serve_job``'s frame runs its last
    # lines), and a namespace of a dict subclass ran its ``__iter__`` here before every call (the thirty-third
    # red team). The reply is copied to exact types before it is read (``_finish``).
    bound = loaded[1]
    if bound is not None and (type_(bound) is not tuple_ or len_(bound) != 3 or type_(bound[1]) is not tuple_
                              or type_(bound[2]) is not frozenset_):
        return None
    for space in bound[1] if bound is not None else ():  # the namespaces the helpers go into: exact dicts
        if type_(space) is not dict_:
            return None
    space = None
    return loaded


def _signals_while_loading():
    """While the files load on the runner thread, ``signal.signal`` is a stand-in, and the signals a file
    may arm a timer for (or send itself) are ignored.

    The real one works on the main thread only, and a file that sets a handler as it loads (a time guard
    for its own self-test: ``harmless/alarm_set_while_loading.py``) would fail to load. On the main thread
    the harness made every handler the files set "ignore" after the load anyway: the stand-in says which
    handler was in place, as the real one does, and sets nothing. Set before any student code runs; returns what
    puts the real one back."""
    try:
        import _signal
        import signal as signal_module
    except ImportError:
        return None
    getsignal, valid = _signal.getsignal, _signal.valid_signals()
    _ignore_timer_signals()

    def signal(signalnum, handler):
        number = int(signalnum)
        if number not in valid:
            raise ValueError("signal number out of range")
        if not callable(handler) and int(handler) not in (0, 1):
            raise TypeError("signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object")
        return getsignal(number)

    signal.__doc__ = signal_module.signal.__doc__
    real = signal_module.signal
    signal_module.signal = signal

    def restore():
        """The real ``signal.signal`` back once the files have loaded (run on the runner thread, at the end of the
        load: a store into the ``signal`` module's namespace, where the files may have planted keys, never runs on
        the harness's thread). In a call, as before, it says it works on the main thread only."""
        if signal_module.signal is signal:
            signal_module.signal = real

    return restore


def _refuse_threads():
    """On the runner thread, before any student code runs there: ``_refuse_threads_here``, as the pair the
    hand-over takes. Where no filter can be had the student's threads stay possible: a weaker fallback
    (docs/security.md)."""
    return _refuse_threads_here(), None


def _refuse_threads_here():
    """``guard.refuse_threads`` on the calling thread where it can be had (Linux): True when installed."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return _guard().refuse_threads() is True
    except BaseException:  # noqa: B036 - ctypes missing or refused
        return False


def _then(function, args, after):
    """``function(*args)``, then ``after()`` however it ended (on the runner thread: see ``_loader``)."""
    try:
        return function(*args)
    finally:
        if after is not None:
            after()


def _scratch_cap(config):
    """What ``_scratch_full`` compares, read from the configuration before any student code runs."""
    spec = config.get("scratch") or {}
    workdir = config.get("workdir")
    return (os.statvfs if spec and workdir and hasattr(os, "statvfs") else None, workdir,
            int(spec.get("bytes", _scratch.BYTES)), int(spec.get("files", _scratch.FILES)), _scratch.FULL_MARGIN,
            OSError)


def _scratch_full(cap):
    """``scratch.full`` on values bound before any student code ran: C-level calls and arithmetic only."""
    statvfs, workdir, cap_bytes, cap_files, margin, os_error = cap
    if statvfs is None:
        return False
    try:
        info = statvfs(workdir)
    except os_error:
        return False
    # By index (tuple's own slot), never by attribute: ``info.f_blocks`` is looked up in statvfs_result's dict,
    # where a key planted through gc would run on this thread (the fourteenth red team).
    frsize, blocks, bavail, files, ffree, favail = info[1], info[2], info[4], info[5], info[6], info[7]
    if blocks * frsize > cap_bytes + margin:
        return False  # not a capped scratch (the host's own file system): the parent watches that one
    inodes = files - ffree  # bwrap's tmpfs caps bytes only: its files are counted here
    return bavail * frsize < margin or (0 < files and favail == 0) or inodes > cap_files


_call_tracing = sys.call_tracing
_settrace = sys.settrace
_setprofile = sys.setprofile
_random_seed = _random.Random.seed  # the C seeding, under random.Random.seed's Python code
_random_instance = random._inst  # the generator behind random.random(), random.choice(), ...
# Its Python classes (``random.Random``), sealed as plumbing: the harness sets ``gauss_next`` on the generator between
# calls, which looks that name up in these classes' dicts, and reads no other name of theirs; a student who gives
# ``random.Random`` a method of their own (a course's helper, monkeypatched in) is not tampering (the fifty-fifth
# red team found such honest code called so while the class was sealed whole among the builtin types).
GENERATOR_PLUMBING = _tuple((klass, ("gauss_next",)) for klass in _type(_random_instance).__mro__
                            if klass.__module__ != "builtins" and klass is not _random.Random)
_sha512 = hashlib.sha512
_int_from_bytes = int.from_bytes
_object_setattr = object.__setattr__
_marshal_dumps = marshal.dumps
_marshal_loads = marshal.loads
_map = map
_min = min
_max = max
_range = range
_zip = zip


_bytes_fromhex = bytes.fromhex  # the C encoders' ``default``: JSON's own types only, anything else refused, in C


def _result_encoder():
    """A result as JSON text, by json's C encoder alone (``json.JSONEncoder.encode`` is Python whose
    attributes a student could change; this runs between two calls)."""
    return _c_make_encoder(None, _bytes_fromhex, _json_encoder_module.encode_basestring_ascii, None, ": ", ", ",
                           False, False, False)


def _seed_encoder():
    """``json.dumps(value, sort_keys=True)``'s text for JSON's own types, by the C encoder alone."""
    return _c_make_encoder(None, _bytes_fromhex, _json_encoder_module.encode_basestring_ascii, None, ": ", ", ",
                           True, False, True)


_json_encoder_module = json.encoder
_c_make_encoder = json.encoder.c_make_encoder
_join = "".join
_reply_encoder = _result_encoder()  # a reply to a request, as a case's result: the same C encoder


def _builtins_restorer():
    """Undo the student's patches to builtins before harness code runs again: a closure that reads no global
    name (see ``_serve_cases``). Key by key where only values changed, and without comparing values (a planted
    object's ``__eq__`` would run); keys that are not plain strings are told apart by type first, so no
    planted key's ``__hash__`` runs either."""
    update, names, pristine, len_, type_ = _dict_update, _pristine_names, _pristine_builtins, _len, _type
    all_, map_, is_, values_, items_, tuple_, clear, strs = all, map, _seal._is, dict.values, dict.items, tuple, \
        dict.clear, _repeat(str)
    space = _builtins_dict
    keys, values = tuple(k for k, _ in pristine), tuple(v for _, v in pristine)
    # The dict's version (seal._version_reader) while it is found exactly as it was: the same version later means
    # not changed since, in one read. None where this Python keeps no versions, or the dict differs already.
    view = version = None
    read = _seal.read_version
    if _seal._VIEW is not None and len_(space) == len_(keys) and all_(map_(is_, space, keys)) \
            and all_(map_(is_, values_(space), values)):
        view = _seal._VIEW(space)
        version = read(view)

    def restore(grave):
        """Untouched (the common case), nothing to do; else everything the dict held goes to ``grave`` first
        (dropped by the runner thread: a planted value's ``__del__`` never runs on this one).

        A key that is not a plain string (a ``str`` subclass whose hash collides with a builtin's name) would
        have its ``__eq__`` run by any insertion or deletion by key, here on the harness's thread: the dict
        is then emptied and filled again, which compares no key."""
        if version is not None:
            try:  # a view the student's code released cannot be read: then the passes below decide
                if read(view) == version:
                    return
            except:  # noqa: E722 - a bare except looks no name up
                pass
        if len_(space) == len_(keys) and all_(map_(is_, space, keys)) and all_(map_(is_, values_(space), values)):
            return
        # Its items, as a tuple: ``dict.copy`` of a sparse dict inserts key by key, comparing keys (a planted key's
        # ``__eq__`` ran here: the sixtieth red team); reading the items compares nothing.
        grave.append(tuple_(items_(space)))
        if not all_(map_(is_, map_(type_, space), strs)):
            clear(space)
            update(space, pristine)
            return
        update(space, pristine)
        if len_(space) != len_(names):  # names added: emptied and filled again, in time linear in the dict (a
            clear(space)  # key-by-key removal was quadratic: 26,000 planted names kept this thread busy for 2 s, a
            update(space, pristine)  # stretch the twenty-sixth red team's threads used)

    return restore


def _serve_cases(kit, frozen, limit, tell_cases, entry, module_spaces, submission_files, grave, keep, looked,
                 audit, stop_at):
    """The cases of one request, each called and looked at: ``(the reply's bytes, looked)``, or None on tampering.

    Reads no global name and no attribute of a Python object whose class a student could change: all
    it uses comes in ``kit`` (bound by ``Harness.window`` before any student code ran) or is C-level.
    So between a call's seal check and the next call the only code that runs is this function's own
    (its code object is fixed while it runs) and what the per-call check vouches for: the driver's
    functions and classes, and the kit's closures. That check is therefore small, and runs after every
    call, before the harness looks at what the call left (the whole seal is checked once per request).

    The interpreter is held (see ``seal.check``) from each check until the next call starts: no other
    thread of the student's runs, and no collection runs a ``__del__`` of theirs. Nor does a reference
    count: everything the harness would drop here that the student could have put there (a value it
    overwrites in a dict they reach, what a call left) goes into ``grave``, which the runner empties as
    the next call starts, on its own thread. A ``__del__`` on the harness's thread could set a trace
    function there, and a trace function can rewrite a frame's variables.

    Every call's input is snapshotted before it and compared after it, in every request (the consistency pass's
    too: a call that changed its input only when asked again was the forty-first red team's), with a seal of the
    call's own; the per-call check and the builtins restored come between every two calls.

    ``looked``: every input of the session seen unchanged after its own call, ``(next number, ((number, built,
    before, type of before), ...))``, a tuple (nothing of the student's can edit it) that ``serve``'s frame keeps
    from one request to the next. A call can change the input of an *earlier* call, after the one look the harness
    took right after that call (the thirty-ninth red team: each call re-sorted the trees of the calls before it, and
    left its own as it found it). So on ``audit`` (``Session.audit``: a request with no cases, the grader's last
    before it judges, after every call whose answer it judges and every flush of the student's streams) every input
    seen so far is looked at again, and the reply names, under ``late``, the numbers of those changed since (the
    grader's ``Session`` numbers the unchanged results alike, and counts those against them). Once per session,
    not per request: each look costs a comparison per input seen, and a shrinking grader makes dozens of requests.

    ``stop_at``: a time (this frame's clock) by which the request's calls should be done: a case starts only
    while the longest call so far would still end before it; the rest come back ``skipped`` (the grader's
    consistency pass leaves itself time for its audit, which a process killed for running out of the
    submission's time could not answer: a slow but honest submission lost "tree left unchanged" for it, the
    forty-first red team's find; a fixed reserve of a whole call's limit skipped cases that would have fitted,
    the forty-second's). None: every case runs, as far as ``limit`` allows.
    """
    (switches, window_anchor, check, check_code, clock, switch_seconds, gc_enable, gc_isenabled, gc_disable,
     loads, dumps, encoder, seed_encoder, random_seed, get_state, set_state, generator, generator_attrs, sha512,
     from_bytes, setattr_,
     channel_attrs, nonce, reply_fd, os_write,
     build, snapshot, helpers_of, helpers_with_values, call_driver, changed, change_of, take, put, evidence_of, broken,
     restore,
     answered_link, link, link_attrs,
     watchdog_state, lock_watchdog, unlock_watchdog, box, runner_attrs, due_acquire, due_release, go_write,
     done_read, go_byte,
     let_go_of_hold, jobs, count,
     os_read, os_error, threaded, make_reader, reader,
     runner_id, loop_frame, safe_waits, report, describe, encode_answer, call_timeout, call_wall_limit, cpu_time, cpu_clock,
     type_, tuple_, list_, dict_, len_, min_, max_, range_, bytes_, base_exception, keyboard_interrupt,
     all_, map_, is_, strs, str_, items_of, clear, code_of, own_objects, own_classes, id_, join, plain_data,
     plain_data_code, plain_tools, exit_, back) = kit
    switch = switches[0]
    # The last seed text and the generator's state after it: C-level setstate is twice as quick as seeding (a
    # warm child's prebuilt cases all seed alike). Not a dict: student code finds any dict of this frame (gc),
    # and a key planted there whose hash collides with the next text would have its __eq__ run by the lookup.
    last_seed, last_state = None, None
    # The harness's own objects whose dicts this loop reads by key (the channel's notes, the watchdog's and the
    # runner's flags, the generator's ``gauss_next``, the link the driver's helpers are made with): a key that
    # is not a plain string (a ``str`` subclass whose hash collides with a name the harness looks up) would have
    # its __eq__ run by the lookup, here, on the harness's thread (the twelfth red team). Their keys
    # are looked at first: now, after every call, and after every wait that lets the student's threads run (a
    # flood of notes written out, the watchdog's lock taken). Honest code never touches these objects.
    own_dicts = (channel_attrs, runner_attrs, generator_attrs, link_attrs)
    # And their very classes: an object's ``__class__`` can be set to a subclass of the student's, whose property
    # then runs where the harness reads or sets that attribute (the nineteenth red team: the generator's
    # ``gauss_next``, the link's ``ask``). Looked at wherever their dicts are.
    if not all_(map_(is_, map_(type_, own_objects), own_classes)):
        return None
    for attrs in own_dicts:
        if not all_(map_(is_, map_(type_, attrs), strs)):
            return None
    # The student's streams were flushed after the last request's checks, and their code ran there: the builtins
    # are put back before the driver's code reads one (a key colliding with ``all``, planted in the builtins by
    # that flush, ran in the tree driver's ``snapshot``: the lookup probe's find). The window first, as after a call.
    intact, _ = check(window_anchor) if code_of(check) is check_code else (False, None)
    if not intact:
        return None
    restore(grave)
    # Everything of a case that the student could have reached, and that this frame would drop, goes to the grave
    # however the cases end: an early return (tampering found) drops this frame's variables, and a __del__ of the
    # student's run by that (an object planted, through gc, in a case's dict or a result's) would run here, on the
    # harness's thread, where it could still rewrite the serving frame's reply (the fifteenth red team).
    case = result = shown = answer = raised = built = helpers = before = evidence = reported = pair = job = None
    outcome = values = answered = item = plain = seen = looked_at = known = None
    numbered, entries = looked
    still = ()
    longest = 0.0  # the longest call of this request so far, by the wall clock (see stop_at)
    try:
        results = ()
        timeouts = 0
        outcome = None
        for number in range_(len_(frozen)):
            case = loads(frozen[number])  # fresh: nothing of the student's has seen these objects
            case_id = case["id"]
            if timeouts >= limit:
                results += (join(encoder({"id": case_id, "skipped": "not run: earlier calls timed out"}, 0)).encode(),)
                continue
            if stop_at is not None and clock() + longest >= stop_at:
                results += (join(encoder({"id": case_id, "skipped": "not run: the submission's time ran out"}, 0)
                                 ).encode(),)
                continue
            # Every question from now on is this case's. The note goes out on its own, right before the call
            # starts (below), from this frame: kept in the channel's dict until the call's first question took it
            # along, it was within the call's reach, which took it out, asked, and put it back, so that its
            # questions were logged as the last case's (the twentieth red team).
            note = b""
            if tell_cases:
                payload = b'["case", %d]' % number
                told = channel_attrs.get("told")  # notes told since the last frame go first
                grave.append(told)
                note = (told if type_(told) is bytes_ else b"") + b"MMGN %s 0 %d\n%s" % (nonce, len_(payload), payload)
                channel_attrs["told"] = b""
                told = None
                if len_(note) > 4096:  # a flood of notes: out now; writing lets other threads run, so look again
                    told, note = note, b""
                    while told:
                        told = told[os_write(reply_fd, told):]  # bytes and ints: nothing a collection counts
                    gc_disable()  # as after every system call here: the student's code may have run meanwhile
                    intact, collecting = check(window_anchor) if code_of(check) is check_code else (False, None)
                    if not intact or collecting:
                        return None
                    if not all_(map_(is_, map_(type_, own_objects), own_classes)):
                        return None
                    for attrs in own_dicts:  # the writes let the student's threads run: as after a call
                        if not all_(map_(is_, map_(type_, attrs), strs)):
                            return None
                    attrs = None
            # The same question draws the same random numbers in every run, on every machine, whatever the
            # process asked before: random.seed(json.dumps(input, sort_keys=True)), C-level code only.
            text = join(seed_encoder(case.get("input"), 0))
            if text == last_seed:  # two exact strings (locals of this frame): compared by str's own code
                set_state(generator, last_state)
            else:
                data = text.encode("utf-8")
                # In pieces under 2 KB: hashlib lets the interpreter go for a longer one, and the student's threads
                # would run before the lookups below (the fourteenth red team)
                digest = sha512()
                for at in range_(0, len_(data), 1024):
                    digest.update(data[at:at + 1024])
                random_seed(generator, from_bytes(data + digest.digest(), "big"))
                last_seed, last_state = text, get_state(generator)
                digest = None
            grave.append(generator_attrs.get("gauss_next"))
            setattr_(generator, "gauss_next", None)
            pair = take(case_id, grave) if take is not None and "input" not in case else None
            if pair is None:
                built = build(case["input"] if "input" in case else None)
                before = snapshot(built)
            else:
                built, before = pair
            values, answered = case.get("values"), case.get("answered")
            if values is not None and type_(values) is list_ and helpers_with_values is not None:
                helpers = helpers_with_values(built, values)  # a run the grader keeps no evidence of
            elif answered is not None and type_(answered) is list_:  # a run the grader keeps no evidence of either
                helpers = helpers_of(built, answered_link(link, answered))
            else:
                helpers = helpers_of(built, link)
            evidence = evidence_of(helpers.values(), before, built)  # kept in this frame only
            for module_attrs in module_spaces:  # every module of the submission (see Harness._load_and_bind)
                if not all_(map_(is_, map_(type_, module_attrs), strs)):
                    # A key of the student's own namespace that is not a plain string would have its __eq__ run by
                    # the lookups below: the namespace is made again of its plain-string names (which compares no
                    # key), everything it held kept in the grave until the runner drops it: as a tuple of its items,
                    # never a copied dict (``dict.copy`` of a sparse dict inserts key by key, and a planted key's
                    # ``__eq__`` ran there, on this thread: the sixtieth red team, who then rewrote this frame).
                    grave.append(tuple_(items_of(module_attrs)))
                    plain = ()  # a loop, not a comprehension: making its function reads this module's globals by key
                    for item in items_of(module_attrs):
                        if type_(item[0]) is str_:
                            plain += (item,)
                    # The loop's variable let go of now, while the copy in the grave still holds its value: kept, it
                    # was the last reference to an object under the namespace's last key, once the runner emptied the
                    # grave, and the next case's loop dropped it here (the thirty-second red team: its __del__ set a
                    # tracer)
                    item = None
                    clear(module_attrs)
                    module_attrs.update(plain)
                    plain = None
                for name in helpers:  # what the student's module held under these names, and the last helpers
                    grave.append(module_attrs.get(name))
                module_attrs.update(helpers)
            module_attrs = None
            # Whether the call ran too long is decided here, from a start time kept in this frame and the
            # serving frame's clock: the watchdog's own flags live on the heap, where student code can
            # find them (gc) and clear them.
            grave.append((box[0], box[1]))
            if box[3] is not None:  # the runner emptied it as the last call started: whatever is there was slipped in
                return None
            box[3] = tuple_(grave)  # dropped by the runner as this call starts, on its own thread
            grave.clear()
            watchdog_state[2] = min_(0.05, max_(0.002, call_timeout / 20))
            watchdog_state[3] = watchdog_state[3] + 1.0  # this call's serial number: the watchdog tells calls apart
            # The interpreter's usual switching again: the watchdog must be able to interrupt. Collection stays off
            # here: the runner turns it on for the call and off again before it says done (runner._loop).
            if due_acquire is not None:  # no interrupt due (see runner.Runner.due): let go of, whoever held it
                due_acquire(False)
                due_release()
            switch(switch_seconds)
            started = clock()
            # The call's limit counts the CPU time of its thread, where there is such a clock (see call_clock)
            cpu_started = cpu_time(cpu_clock) if cpu_clock is not None else started
            watchdog_state[1] = cpu_started + call_timeout
            watchdog_state[0] = started + call_wall_limit  # armed
            job = (call_driver, entry, built, describe, encode_answer, submission_files)
            reported = None
            checked = False  # whether the per-call check has run since the call (see below)
            # The case's note, the last thing before the call: the write lets the student's threads run, and from
            # here to the call this frame reads no dict (one write under PIPE_BUF is whole, whoever else writes)
            if note:
                try:
                    if os_write(reply_fd, note) != len_(note):
                        return None
                except os_error:  # the reply pipe made non-blocking and filled: no honest code does that
                    return None
                # Collection off again before the next allocation (the job's tuple below): the write let the
                # interpreter go, and a collection on this thread would run the student's gc callbacks and
                # finalizers here (the twenty-fifth red team's second half; their first, code of theirs running
                # on the runner while this thread works, is closed in runner._loop)
                gc_disable()
                note = b""
            try:
                if threaded:  # the answer is encoded, or the exception described, on the runner thread too
                    # Emptied by the runner as the last job started: anything there now was slipped in, and this
                    # store would drop it here (the sixty-third red team's, from a thread of the harness they had
                    # taken). Nothing runs between this look and the store.
                    if box[0] is not None:
                        return None
                    box[0] = (report, job)
                    handed = count(jobs)  # two more after "done": the runner's count of this job, and this look
                    let_go_of_hold()  # the runner may take the job now, and only now (see runner._loop)
                    signal = None
                    try:
                        os_write(go_write, go_byte)
                        signal = os_read(done_read, 1)  # a bytes object: nothing a collection counts
                    except os_error:  # a pipe of the hand-over closed or replaced: _runner_back ends the process
                        pass
                    # Before anything else, with nothing allocated: the runner back in its loop, at a wait, the job
                    # taken, the hold held, exactly this job run, collection off and the interpreter held; or the
                    # process ends at once (see _runner_back). Anything else means the student's code may still
                    # run, or start, beside this thread: the sixty-sixth red team's "done" written by the call
                    # itself, the sixty-seventh's "go" read by a forked process ahead of the runner.
                    if back[0](*back[1]) is not back[2]:
                        exit_(4)
                    back[3](signal, handed, back[4])
                    # Then, before any attribute is looked up, the per-call check: it looks at the builtin types'
                    # dicts first (seal.GUARDED_TYPES), where a key planted during the call would run in the lookups
                    # below (the thirteenth red team), then at all the window vouches for.
                    intact, collecting = check(window_anchor) if code_of(check) is check_code else (False, None)
                    if collecting is True:  # on again since _runner_back turned it off: code of the student's runs
                        exit_(4)
                    if not intact:  # changed by the call: nothing of the student's can run now (see _runner_back)
                        return None
                    checked = True
                    # Done means the runner thread is back in its own loop, with nothing above it: a thread
                    # of the student's could release ``done`` itself, the call still running, to go on
                    # changing the tree after the harness had looked at it.
                    top = make_reader(reader)().get(runner_id)  # see runner.frame_reader
                    # That very frame (a function made from its code passed a look at the code: the twenty-seventh
                    # red team), at one of its waits (see runner.SAFE_WAITS)
                    if top is not loop_frame or top.f_back is not None or top.f_lasti not in safe_waits:
                        exit_(4)
                    top = None
                    outcome = box[1]
                    grave.append(outcome)
                    box[1] = None
                    if type_(outcome) is not tuple_ or len_(outcome) != 2:  # the runner's loop swapped
                        return None
                    reported = outcome[1] if outcome[0] is True else (False, "KeyboardInterrupt", outcome[1])
                else:  # no runner thread (no ctypes): all of it here, as the call itself is
                    box[3] = None  # the last call's leftovers die here, on the student's clock
                    if box[4] is True:
                        gc_enable()
                    try:
                        reported = report(*job)
                    finally:
                        box[4] = gc_isenabled()
                        gc_disable()
            except base_exception as exc:  # the watchdog's interrupt, landing in the harness's own lines
                if threaded:
                    # Where the calls run on the runner, the watchdog interrupts that thread, and SIGINT is ignored:
                    # nothing honest raises here. The exception is dropped at once, never kept: its traceback holds
                    # this frame, whose ``f_back`` chain reaches the reply key (the twenty-first red team's forger
                    # raised KeyboardInterrupt here with ``_thread.interrupt_main`` and a "done" of its own).
                    exc = None
                    return None
                reported = (False, "KeyboardInterrupt", exc)
            ended = clock()
            cpu_used = (cpu_time(cpu_clock) if cpu_clock is not None else ended) - cpu_started
            if ended - started > longest:
                longest = ended - started
            if not all_(map_(is_, map_(type_, own_objects), own_classes)):
                return None
            for attrs in own_dicts:  # before any of them is read by key (see own_dicts)
                if not all_(map_(is_, map_(type_, attrs), strs)):
                    return None
            attrs = None
            # The watchdog disarmed and its verdict read, under its lock (no method of its class runs here). Taking
            # the lock may wait for a thread of the student's that holds it, which then runs: its dict is looked
            # at again once the lock is held (the thirteenth red team).
            if not lock_watchdog(False):  # held by a thread of the student's, which runs while this one waits
                # The watchdog's thread holds it for a moment at most: a lock still held after a call's whole wall-clock
                # limit is held by the student's code (a trace function on the runner's loop took it), which would
                # keep this thread waiting until the grader's budget ran out
                if not lock_watchdog(True, call_wall_limit):
                    return None
                # Everything looked at after the call is looked at again: the window, and every dict of the harness's
                # own this loop reads by key (the sixteenth red team's route: a thread that held this lock
                # planted a key in the link's dict, read by the next case's helpers, and in the generator's)
                intact, collecting = check(window_anchor) if code_of(check) is check_code else (False, None)
                if not intact or collecting:
                    unlock_watchdog()
                    return None
                if not all_(map_(is_, map_(type_, own_objects), own_classes)):
                    unlock_watchdog()
                    return None
                for attrs in own_dicts:
                    if not all_(map_(is_, map_(type_, attrs), strs)):
                        unlock_watchdog()
                        return None
                attrs = None
            watchdog_state[0] = 0.0  # disarmed (a double: nothing of the student's is dropped here or on its thread)
            unlock_watchdog()
            # From this frame's own clocks: the watchdog fires only past one of these limits
            timed_out = cpu_used >= call_timeout or ended - started >= call_wall_limit
            if type_(reported) is not tuple_ or len_(reported) != 3:  # made on the student's thread: plain data or nothing
                return None
            ok, answer = reported[0] is True, reported[2]
            raised = None if ok else answer
            # Plain data only (what encode_answer and describe_exception make), before marshal copies it (see
            # _plain_data): anything else is tampering
            if code_of(plain_data) is not plain_data_code or not plain_data(reported[1], plain_tools):
                return None
            try:
                shown = loads(dumps(reported[1]))  # exact built-in types only, copied: no method of anything runs
            except base_exception:
                return None
            result = {"id": case_id}
            if timed_out:
                result["timed_out"] = True
            elif ok:
                result["answer"] = shown
            else:
                result["raised"] = shown
            # From here to the next call no code runs that the check vouches for (run above, right after "done", on
            # the runner; here where the call ran on this thread).
            if not checked:
                intact, collecting = check(window_anchor) if code_of(check) is check_code else (False, None)
                if not intact or collecting:  # collection on again since "done": only code of the student's did that
                    return None
            restore(grave)
            # Absent fields mean their defaults (no answer, nothing raised, no timeout, unchanged):
            # the reply stays small. What the helpers were asked is not here: the grader logged it.
            if broken(evidence, before, built):
                return None  # the "before", a helper or the driver's object was swapped: the observations are void
            try:
                if (changed(built, before) if changed is not None else snapshot(built) != before):
                    result["mutated"] = True
                    # what changed, in words, where the driver can say (the tree's: tree_driver.change_of); the
                    # grader shows it as observed here and judges by "mutated" alone (replies: a short text or nothing)
                    words = change_of(built, before) if change_of is not None else None
                    if type_(words) is str_ and len_(words) <= 400:
                        result["change"] = words
                    words = None
                else:
                    entries += ((numbered, built, before, type_(before), evidence),)  # looked at again by the audit
                    numbered += 1
                    if pair is not None:
                        put(case_id, built, before)  # unchanged: the re-asking pass may have this very tree again
            except base_exception:
                result["mutated"] = True
            grave.append((answer, raised, built, helpers, before, evidence, reported, pair, job, outcome, values,
                          answered))
            # dropped by the runner as the next call starts; and no local of this frame keeps one of them alive
            # past that, to die here when it is rebound (an unawaited coroutine's warning, a file's __del__; the
            # case's ``values`` list, taken out of the case's dict by the call: the thirty-third red team)
            answer = raised = built = helpers = before = evidence = reported = pair = job = outcome = shown = None
            values = answered = None
            results += (join(encoder(result, 0)).encode("utf-8"),)  # bytes: a later call cannot edit them
            keep((case, result))  # the next case's would drop them here: their dicts are within the student's reach
            case = result = None
            if timed_out:
                timeouts += 1
        # The audit: every input seen unchanged so far looked at again (see ``looked`` above). Nothing ran since this
        # request's first check. The "before" is this frame's own, in a tuple nothing can edit, and immutable all
        # the way down; only its class could have been set to another (a comparison would run that class's code
        # here), so its type is compared first, as ``broken`` does right after a call. An input found changed is
        # named once and let go of (to the grave: the runner drops it, on its own thread, as the next call starts).
        late = b""
        if audit:
            # A tree asked about twice (the warm pool hands the re-asking pass the very pair the first pass left
            # unchanged) is compared once: nothing runs between two looks here. Keyed by the identity of its
            # "before", an int (no method of anything runs), and only for the very tree that pair was made with.
            looked_at = {}
            for seen in entries:
                if type_(seen[2]) is not seen[3] or broken(seen[4], seen[2], seen[1], True):
                    return None  # its "before", or the driver's object it is read back through, swapped since
                key = id_(seen[2])
                known = looked_at[key] if key in looked_at else None
                if known is not None and known[0] is seen[1]:
                    differs = known[1]
                else:
                    try:
                        differs = changed(seen[1], seen[2]) if changed is not None else snapshot(seen[1]) != seen[2]
                    except base_exception:
                        differs = True
                    looked_at[key] = (seen[1], differs)
                known = None
                if differs is False:
                    still += (seen,)
                else:
                    late += (b", %d" if late else b"%d") % seen[0]
                    grave.append(seen)
            seen = looked_at = None
            entries, still = still, ()
        reply = b'{"results": [' + b", ".join(results) + b"]" + (b', "late": [' + late + b"]}" if late else b"}")
        return reply, (numbered, entries)
    finally:
        keep((case, result, shown, answer, raised, built, helpers, before, evidence, reported, pair, job, outcome,
              values, answered, item, plain, seen, entries, still, looked_at, known))


def _loading_helpers(driver, link):
    """The helpers a file may use while it loads; a driver whose helpers ask the grader gets the link."""
    make = getattr(driver, "loading_helpers", None)
    if make is None:
        return {}
    try:
        wants_link = _len(inspect.signature(make).parameters) > 0
    except (TypeError, ValueError):
        wants_link = False
    return make(link) if wants_link else make()


def _own_modules_of(driver):
    """The namespaces of every child-side module the driver reaches (names starting ``_minimax_grader``):
    modules it holds, the globals of its functions (a kit exercise's driver is configured by the kit's
    module, whose functions look ``_snapshot`` up at call time) and modules in their closures (the
    game's rules). Sealed like the driver itself: a student who reaches one through a frame, a helper's
    ``__globals__`` or ``gc`` and swaps a function in it has tampered with the evidence.
    """
    found, queue = {}, [vars(driver)]
    while queue:
        space = queue.pop()
        for value in list(space.values()):
            spaces = []
            if _type(value) is _type(sys):
                spaces.append(vars(value))
            elif _type(value) is _FunctionType:
                spaces.append(value.__globals__)
                for cell in value.__closure__ or ():
                    try:
                        contents = cell.cell_contents
                    except ValueError:
                        continue
                    if _type(contents) is _type(sys):
                        spaces.append(vars(contents))
                    elif _type(contents) is _FunctionType:
                        spaces.append(contents.__globals__)
            for candidate in spaces:
                name = candidate.get("__name__")
                if (_type(name) is str and name.startswith("_minimax_grader") and candidate is not vars(driver)
                        and _id(candidate) not in found):
                    found[_id(candidate)] = candidate
                    queue.append(candidate)
    return list(found.values())


def _classes_of_driver(driver):
    """The grader's own classes the driver uses, sealed whole, and the library classes it imports
    (anytree's ``Node`` and its bases), whose attribute plumbing alone is sealed.

    The grader's own are those of every child-side module the driver holds (their names start with
    ``_minimax_grader``): a driver may borrow classes from a module of its own, a kit
    exercise's driver holds the kit's; and those a driver names in ``SEALED_CLASSES`` (classes it makes inside
    a function, such as the object route's board class). A library class keeps its methods open to students (a
    ``Node.__lt__`` to sort nodes is no tampering); a ``__dict__`` slipped into it is.
    """
    spaces = [vars(driver), *_own_modules_of(driver)]
    own, library = {}, {}
    listed = vars(driver).get("SEALED_CLASSES", ())  # made inside a function of the driver's: in no namespace
    for klass in listed if _type(listed) is tuple else ():
        if isinstance(klass, type):
            own[id(klass)] = klass
    for space in spaces:
        for value in list(space.values()):
            if not isinstance(value, type):
                continue
            if _str(getattr(value, "__module__", "")).startswith("_minimax_grader"):
                own[id(value)] = value
            else:
                for klass in value.__mro__:
                    if klass.__module__ != "builtins":
                        library[id(klass)] = klass
    return list(own.values()), list(library.values())


def _library_plumbing(driver, library_classes):
    """Each library class with the names its objects are read through, sealed with its machinery (see
    ``seal.PLUMBING``): the data descriptors in its own dict, taken now, before any student code runs (anytree's
    ``children`` and ``parent`` properties), and the attribute names the driver gives the library's objects
    (its ``INSTANCE_NAMES``: a data descriptor under one of them, put in the class, would hide the object's own).

    Why: the driver compares the objects' own dicts before and after a call, and the library's code reads
    those dicts. A property of the student's put in its place read the objects their way for every reader, the
    driver's helpers too, while the dicts stayed as they were: the fifty-sixth red team kept the children lists
    their search re-sorted in a property of their own on ``NodeMixin.children``, and the tree-unchanged check saw
    nothing (10 against 9). The driver's helpers now read the dicts themselves (``tree_driver._children``, after
    the fifty-seventh changed anytree's reading without replacing anything); this stays as a second line:
    replacing the library's own way of reading its objects is nothing a search needs. Methods stay open: a
    ``Node.__lt__`` or a new property of the student's (``Node.value``) is no tampering."""
    declared = vars(driver).get("INSTANCE_NAMES", ())
    declared = declared if _type(declared) is tuple and all(_type(name) is str for name in declared) else ()
    plumbing = []
    for klass in library_classes:
        described = tuple(name for name, value in vars(klass).items()
                          if _type(name) is str and (hasattr(_type(value), "__set__") or hasattr(_type(value), "__delete__")))
        plumbing.append((klass, (*described, *declared)))
    return plumbing


def _module_name(path, fallback):
    """A file's module name is its own, unless that would shadow a module already in use."""
    stem = os.path.splitext(os.path.basename(path))[0]
    taken = stem in sys.modules and getattr(sys.modules[stem], "__file__", None) != path
    if stem.isidentifier() and not taken and stem not in sys.stdlib_module_names:
        return stem
    return fallback or "_submission_" + "".join(c if c.isalnum() else "_" for c in stem)


def _run_module(spec, module, path, submission_files):
    """Execute one file of the submission; a one-line reason when that fails."""
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        where = os.path.basename(exc.filename or path)
        return f"syntax error: {exc.msg} (line {exc.lineno} of {where})"
    except SystemExit as exc:
        return f"the submission called sys.exit({exc.code!r:.40}) while being loaded"
    except BaseException as exc:
        return f"loading the submission raised {describe_exception(exc, submission_files)}"
    return None


def _choose_parts(parts, modules, provided, submission_files):
    """For each part: the student's names when they define them all, the provided file's when none.

    A name counts as the student's only when it is not the very object a provided module
    holds (``from minimax_helpers import *`` copies the stand-in's names into the student's
    module). Defining some of a part's names but not all is an error worth a clear line.
    """
    def stand_ins_of(part):
        """The provided module(s) for this part already imported (by a student's import or ours)."""
        if not provided:
            return []
        path = os.path.join(provided, part["module"] + ".py")
        return [m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == path]

    names, report = {}, {"graded": [], "supplied": []}
    for part in parts:
        mine = {}
        stand_ins = stand_ins_of(part)
        for wanted in part["defines"]:
            for module in modules:
                if wanted in module.__dict__:
                    value = module.__dict__[wanted]
                    if not any(stand_in.__dict__.get(wanted) is value for stand_in in stand_ins):
                        mine[wanted] = value
                        break
        if _len(mine) == _len(part["defines"]):
            names.update(mine)
            report["graded"].append(part["name"])
            continue
        if mine:
            missing = [n for n in part["defines"] if n not in mine]
            return {"error": (f"{part['title']} is incomplete: the submission defines {', '.join(mine)} "
                              f"but not {', '.join(missing)}; hand in the whole part or leave it out")}
        try:
            stand_in = _load_provided(part["module"], provided)
        except BaseException as exc:  # the stand-in imports a student module that fails, say
            return {"error": f"the grader's own {part['title']} could not run beside the submission: "
                             f"{describe_exception(exc, submission_files)}"}
        if stand_in is None:
            return {"error": f"the submission defines none of {', '.join(part['defines'])} ({part['title']})"}
        for wanted in part["defines"]:
            names[wanted] = stand_in.__dict__.get(wanted)
        report["supplied"].append(part["name"])
    if not report["graded"]:
        every = ", ".join(n for part in parts for n in part["defines"])
        return {"error": f"the submission defines none of the parts of this exercise ({every})"}
    return {"names": names, "report": report}


def _load_provided(module_name, provided):
    """The exercise's stand-in for a part, under its own name unless a student module has that name."""
    if not provided:
        return None
    path = os.path.join(provided, module_name + ".py")
    if not os.path.isfile(path):
        return None
    current = sys.modules.get(module_name)
    if current is not None and getattr(current, "__file__", None) == path:
        return current
    name = module_name if current is None else "_provided_" + module_name
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def apply_limits(limits, nproc_shared=False):
    """Lower this process's own limits before any student code runs (POSIX only).

    Soft and hard limits are both lowered, so the student cannot raise them again; the CPU
    limit keeps one second between them, so the kernel first sends SIGXCPU (a clear verdict)
    and kills only a process that ignores it. When the uid is shared with the grader (no
    root, no bwrap), the process limit counts on top of what that uid already runs.
    """
    try:
        import resource
    except ImportError:  # Windows: the grader's wall-clock timeout is all there is
        return
    for name, value in limits.items():
        key = getattr(resource, name, None)
        if key is None:
            continue
        if name == "RLIMIT_NPROC" and nproc_shared:
            # In its own user namespace the child's tasks are counted apart (its waiter and init: 2 more);
            # otherwise on top of everything the grader's user runs (those a pid namespace of its own hides too).
            value += 2 if _guard().nested() else _guard().tasks_of(os.getuid()) + _guard().outside()
        try:
            soft, hard = resource.getrlimit(key)
            top = value + 1 if name == "RLIMIT_CPU" else value
            if hard != resource.RLIM_INFINITY:
                value, top = min(value, hard), min(top, hard)
            resource.setrlimit(key, (value, top))
        except (ValueError, OSError):
            pass


def _guard():
    """guard.py, loaded from this folder by path (when first needed: a plain spawn child never loads it)."""
    return _sibling("guard.py", "_minimax_grader_guard")


def lock_down(config):
    """Drop to the session's uid, refuse sockets and signals to others: the last step before student code."""
    if config.get("identity") or config.get("preload") or config.get("rlimits") or config.get("landlock"):
        return _guard().lock_down(config)
    return None


def _undumpable():
    """Close this process's memory and descriptors to others of its uid from the start.

    Where grader and children share a uid (no root, no bwrap), a sibling could otherwise open
    /proc/PID/fd or /proc/PID/mem during start-up, before the guard's lock-down.
    """
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
        except BaseException:
            pass


NEST_FLAG = "--own-namespaces"  # launch.py: the grader asks for pid and user namespaces of the child's own
PID_NEST_FLAG = "--own-pid-namespace"  # bwrap.py: a pid namespace alone (an ordinary user's bubblewrap)


def main():
    """Take the channel off stdin/stdout, so that whatever the student prints lands in a file."""
    if sys.platform.startswith("linux"):  # (a plain spawn child elsewhere never loads the guard)
        _guard().first_to_go()  # while still dumpable and holding nothing (guard.first_to_go); what it forks inherits it
    _undumpable()
    if _len(sys.argv) > 2 and sys.argv[1] == PID_NEST_FLAG:
        del sys.argv[1]
        # With the capability bwrap keeps for this alone, which enter() below gives up (guard.nest)
        _guard().nest(own_user=False)
    # While this process has one thread, and before the user namespace's nest below: inside it the child shows as
    # the overflow uid, for which scratch.enter makes no namespace of its own (the tmpfs would be lost).
    _scratch.enter()
    if _len(sys.argv) > 2 and sys.argv[1] == NEST_FLAG:
        del sys.argv[1]
        _guard().nest()  # single-threaded still; returns in the process that goes on (see guard.nest)
    req_fd = os.dup(0)
    res_fd = os.dup(1)
    capture = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(capture, 1)
    os.close(capture)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    channel = Channel(req_fd, res_fd)
    sys.argv = [sys.argv[0]]
    try:
        Harness(channel).serve()
    finally:
        _os_exit(5)


if __name__ == "__main__":
    main()
