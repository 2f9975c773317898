"""One submission's conversation with its sandboxed child: load it, ask it to run cases.

The parent trusts nothing the child does: replies must be well-formed frames carrying the
run's nonce and the request's sequence number, one per request and nothing else; exit codes
mean nothing; a dead, silent or flooding child ends the session with a one-line reason.
"""

from __future__ import annotations

import json
import math
import os
import re
import hmac
import select
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import bytecode, landlock, launch, replies, scratch, staging
from grader.sandbox.childlib import child_sys_path

PACKAGE = Path(__file__).resolve().parent.parent  # the grader's own package: the bytecode children read (bytecode.py)
HARNESS = Path(__file__).with_name("harness.py")
GUARD = Path(__file__).with_name("guard.py")  # loaded by the harness from its own folder
LANDLOCK = Path(__file__).with_name("landlock.py")  # loaded by the guard from its own folder
ALLOWLIST = Path(__file__).with_name("allowlist.py")  # the filter's table, loaded by the guard
SEAL = Path(__file__).with_name("seal.py")  # loaded by the harness from its own folder
RUNNER = Path(__file__).with_name("runner.py")  # loaded by the harness from its own folder
SCRATCH = Path(__file__).with_name("scratch.py")  # loaded by the harness from its own folder
TAMPERED = "tampered with the result channel"
HARNESS_TAMPERED = "tampered with the grader's harness or its records (the evidence of its calls was changed)"
MAGIC = b"MMG1"      # a request, or its reply
QUESTION = b"MMGQ"   # the child asks while a case runs (a helper's value); the grader answers with ANSWER
ANSWER = b"MMGA"
NOTE = b"MMGN"       # the child tells, one way (a helper was asked to expand a node)
MAX_REPLY = 64 << 20
MAX_QUESTION = 1 << 16  # one question's bytes: a position, a node's number


def reply_signature(key: bytes, seq: int, payload: bytes) -> bytes:
    """What a reply frame carries after its length: HMAC-SHA256 of its sequence number and payload under the
    session's reply key, 32 hex digits (``harness._send`` writes the same)."""
    return hmac.new(key, b"%d " % seq + payload, "sha256").hexdigest()[:32].encode()
NO_CALL_RUNNING = "the grader's helpers answer only while a call of yours runs (a thread left running after it?)"
KEEP_OUTPUT = 16 << 10

SIGNAL_NAMES = {
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGKILL: "killed",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "floating-point exception",
    signal.SIGILL: "illegal instruction",
}


def _write_all(fd: int, data: bytes, deadline: float) -> bool:
    """One frame straight to the pipe (the answers are small: one system call, no buffer to flush).

    The pipe is non-blocking where the platform allows: a child that asks and never reads its answers
    fills it, and the grader then waits for room only until ``deadline`` (False: it ran out), never
    for ever."""
    try:
        written = os.write(fd, data)  # the common case: all of it at once
    except BlockingIOError:
        written = 0
    if written == len(data):
        return True
    view = memoryview(data)[written:]
    while view:
        try:
            view = view[os.write(fd, view):]
        except BlockingIOError:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            select.select([], [fd], [], min(remaining, 0.25))
    return True


def _answer_bytes(answer) -> bytes:
    """An answer as JSON, the common ones (a plain int or a finite float: a value) without the json module's
    layers: the same text ``json.dumps`` writes for them, a few microseconds less per question."""
    kind = type(answer)
    if kind is float and math.isfinite(answer):
        return float.__repr__(answer).encode()
    if kind is int:
        return int.__repr__(answer).encode()
    return json.dumps(answer).encode("utf-8")


REPLAY_CAP = 5_000  # answers kept per case for a later run of it (see Session.run): a search that asks more asks again


class _Batch:
    """One run request's cases, in order, and the oracle of each case begun so far.

    ``answers``: where the run is evidence, each case's questions and the grader's answers, as the bytes
    that went over the channel, for an oracle that answers the same question the same way (``replayable``):
    a later run of the same case hands them to the child (``Session.run``), which asked them already."""

    def __init__(self, cases: list[dict], oracle_for, record: bool = False):
        self.cases = cases
        self.oracle_for = oracle_for
        self.oracles: list = []
        self.answers: list | None = [] if record else None
        # The running case's oracle's quick answer to a question as the bytes the child wrote (``ask_raw``, where it
        # has one): a value, or NotImplemented for a question it leaves to ``ask`` (Session._serve)
        self.quick = None

    def begin(self, number) -> bool:
        """The harness starts case ``number``: only the next one is right."""
        if type(number) is not int or number != len(self.oracles) or number >= len(self.cases):
            return False
        self.case_over()
        oracle = self.oracle_for(self.cases[number])
        self.oracles.append(oracle)
        self.quick = getattr(oracle, "ask_raw", None)
        if self.answers is not None:
            self.answers.append({} if getattr(oracle, "replayable", False) else None)
        return True

    def case_over(self) -> None:
        """The running case is over (the next begins, or the run ended): its oracle, asked nothing more, may let go of
        what it kept only to answer (``case_over``, where it has one: the object route's positions)."""
        over = getattr(self.oracles[-1], "case_over", None) if self.oracles else None
        if over is not None:
            over()

    def remember(self, question: bytes, answer: bytes) -> None:
        """The running case's question and its answer, where kept (see ``answers``)."""
        kept = self.answers[-1] if self.answers else None
        if kept is not None and len(kept) < REPLAY_CAP:
            kept[question] = answer

    def current(self):
        """The oracle of the case running now; None before any case began (a thread an earlier call left
        behind may ask then: it is told no call is running); an error when the exercise keeps no evidence."""
        if not self.oracles:
            return None
        oracle = self.oracles[-1]
        if oracle is None:
            raise LookupError("this exercise's helpers ask nothing")
        return oracle


class _Unlogged:
    """The oracle of a case run with what its helpers answer (``Session.run(evidence=False)``): the child asks
    nothing, so a question comes from a thread an earlier call left behind, and is told no call is running."""

    @staticmethod
    def ask(message):
        return {"error": NO_CALL_RUNNING}

    @staticmethod
    def tell(message):
        pass


_UNLOGGED = _Unlogged()


class _Quiet:
    """A run with nothing to attribute to its cases (``notes: false``: the harness tells no case boundaries):
    the consistency pass and the diagnosis of an exercise whose child holds the helpers' answers (every
    question is then told no call is running), or an exercise whose helpers ask nothing at all (a question
    is tampering, as in any run of it). A case note here is not the harness's: tampering too."""

    def __init__(self, oracle):
        self.oracle = oracle
        self.oracles: list = []

    def begin(self, number) -> bool:
        return False

    def current(self):
        if self.oracle is None:
            raise LookupError("this exercise's helpers ask nothing")
        return self.oracle


class _Loading:
    """While the submission loads: no case has begun, and questions (a helper called by the file's own
    tests) go to the exercise's loading oracle, which answers from plain data and logs nothing."""

    def __init__(self, make):
        self.oracle = make() if make is not None else None
        self.student_code_started = False  # the harness says so before the submission's first line runs

    def begin(self, number) -> bool:
        return False

    def current(self):
        if self.oracle is None:
            raise LookupError("this exercise's helpers ask nothing while the file loads")
        return self.oracle


# Why the harness did not start a case (``skipped``; harness._serve_cases writes these words, a file of the
# child's that imports nothing of the grader's): the time the grader gave the request ran out
# (``Session.run(within=)``), or two calls before it were cut short (the grader asks those again, judge._run_the_rest)
OUT_OF_TIME = "not run: the submission's time ran out"
TIMED_OUT_BEFORE = "not run: earlier calls timed out"


def call_wall_limit(call_timeout: float) -> float:
    """How long one call may take by the wall clock where its limit counts CPU time: the harness's ``wall_limit``
    (its file imports nothing of the grader's, so the rule is written there too). The grader starts a request for
    the cases left over only while a whole such call still fits (``judge._run_the_rest``)."""
    return call_timeout * 2 + 1.0


class SandboxFailure(Exception):
    """The child could not answer; ``reason`` is the one line the student will read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class GraderFault(RuntimeError):
    """The child failed before any student code ran (its driver, its lock-down): the grader's
    failure, never a verdict. Not a ``SandboxFailure``, so it is not stored against the student:
    the batch records no result and grades the submission again next run."""


@dataclass
class Output:
    stdout: str = ""
    stderr: str = ""
    truncated: bool = False


class _Reader(threading.Thread):
    """Drains the reply pipe into a buffer so the parent can wait with a deadline on any OS."""

    def __init__(self, stream):
        super().__init__(daemon=True, name="minimax-grader-reply-reader")
        self.stream = stream
        self.buffer = bytearray()
        self.closed = False
        self.overflow = False
        self.changed = threading.Condition()

    def wait(self, timeout: float, seen: int = 0) -> None:
        """Until the buffer is no longer ``seen`` bytes long (or the pipe closed), at most ``timeout``."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.buffer) != seen or self.closed or self.overflow, timeout)

    def run(self):
        fd = self.stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            with self.changed:
                if not chunk:
                    self.closed = True
                    self.changed.notify_all()
                    return
                if len(self.buffer) < MAX_REPLY:
                    self.buffer += chunk
                else:
                    self.overflow = True
                self.changed.notify_all()


class _PollReader:
    """The same buffer, filled by the waiting thread itself (POSIX): no thread hand-over per frame.

    While a case runs the child asks a question per helper call and waits for the answer, so
    the round trip is on the student's clock: reading the reply pipe right where the answer is
    written spares two thread switches per question.
    """

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.buffer = bytearray()
        self.closed = False
        self.overflow = False
        self.changed = threading.Lock()  # only this thread takes it: a C-level no-op around the buffer
        self.poller = select.poll()
        self.poller.register(self.fd, select.POLLIN | select.POLLHUP | select.POLLERR)

    def start(self):
        pass

    def wait(self, timeout: float, seen: int = 0) -> None:
        """Read what has arrived, waiting up to ``timeout`` seconds for something to."""
        if self.closed or not self.poller.poll(max(0, int(timeout * 1000))):
            return
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
        elif len(self.buffer) < MAX_REPLY:
            self.buffer += chunk
        else:
            self.overflow = True

    def join(self, timeout: float) -> None:
        """After the child is gone: take in what it left in the pipe (bytes after the last reply)."""
        deadline = time.monotonic() + timeout
        while not self.closed and time.monotonic() < deadline:
            self.wait(deadline - time.monotonic())


OUTPUT_EXCEEDED = "output exceeded"  # how every output-cap verdict begins: "output exceeded 1 MiB (truncated)"


def _output_cap_text(limit: int) -> str:
    """The verdict of a submission whose output passed the cap, with what to do: a student's debugging prints, run on
    every one of hundreds of positions, are the usual cause (the 121st helper's search printed 2,000 lines a call
    and was told only "output exceeded")."""
    return (f"{OUTPUT_EXCEEDED} {limit >> 20} MiB (truncated): your code printed more than the grader keeps, so none "
            "of its answers is graded; remove the print calls from your search (the grader reads what it returns)")


def output_exceeded(reason) -> bool:
    """Whether a session's failure is its output passing the cap (which zeroes the submission wherever it happens)."""
    return type(reason) is str and reason.startswith(OUTPUT_EXCEEDED)


def call_clock_wanted() -> str:
    """What a call's limit counts: ``"cpu"`` (the CPU time of the thread it runs on, with a wall-clock limit
    above it, where the platform has such a clock: harness.call_clock), or ``"wall"`` (wall-clock time, the
    portable fallback), asked for with ``MINIMAX_GRADER_CALL_CLOCK=wall`` (any other value is refused when the
    exercise's limits are read: exercise.load_limits)."""
    return "wall" if os.environ.get("MINIMAX_GRADER_CALL_CLOCK", "").strip().lower() == "wall" else "cpu"


def package_bytecode(files: list[str]) -> list[str]:
    """The fresh bytecode files of those of ``files`` in the grader's package, for a sandbox to read instead of
    compiling them (``bytecode.beside``; written where missing or stale unless the user asked Python to write none,
    PYTHONDONTWRITEBYTECODE). A cold child's view and the fork server's both add them."""
    return bytecode.beside(files, [PACKAGE], write=not sys.dont_write_bytecode)


def _reader_for(stream):
    return _PollReader(stream) if hasattr(select, "poll") else _Reader(stream)


class Session:
    def __init__(self, submission, exercise, launcher: launch.Launcher | None = None, *, module_name: str = "solution"):
        """``submission``: a Submission (all its files are staged) or the path of one file."""
        self.exercise = exercise
        self.submission = submission  # kept: the diagnosis may run it again in a session of its own
        self.limits = exercise.limits
        self.launcher = launcher or launch.choose()
        self.nonce = secrets.token_hex(8)
        self._nonce = self.nonce.encode()
        # Replies are signed with a key only the harness's serving frame holds (the nonce is on the child's
        # heap, where a thread of the student's finds it): a reply written by anything else is refused. The
        # key goes with the first request after init: while the files load, their code can read the
        # frame that is serving then (sys._getframe), so no key may exist in the child before that.
        self._reply_key = secrets.token_bytes(16)
        # A question or a note of this session, header only: the fast path of _receive (anything else, and a
        # reply, goes through _parse, which says what is wrong with it).
        self._asked = re.compile(rb"MMG([QN]) " + self._nonce + rb" ([0-9]{1,12}) ([0-9]{1,5})\n")
        self._answer_head = ANSWER + b" " + self._nonce + b" "
        self.seq = 0
        self.started = None
        self.scratch = Path(tempfile.mkdtemp(prefix="minimax-grader-"))
        self.staged = self._stage(submission)
        self.submission_copy = self.staged.entry
        self.module_name = module_name
        self.process: subprocess.Popen | None = None
        self.reader: _Reader | _PollReader | None = None
        self.output = Output()
        self.failure: str | None = None
        self.violation: str | None = None  # tampering anywhere disqualifies the whole submission
        self.fields: dict = {}
        self.batch: _Batch | None = None  # the running request's cases and the log of their questions
        # Per case input (the very object, kept here so its id is not reused): what the child asked in an
        # evidence run and the grader answered, handed back to it in a later run of the case (see run)
        self._answered: dict[int, tuple] = {}
        # The results whose input the harness saw unchanged after the call, in the order it numbers them
        # (harness._serve_cases' ``looked``): a reply's ``late`` names those changed since, by a later call
        self._looked: list[dict] = []
        self._late_seen: set[int] = set()
        self._stderr_file = None
        self._pinned = None  # the opening thread and its CPUs while it serves a child (launch.pin_to_this_cpu)
        self._request_fd = None  # the child's request pipe, once open() has started it

    def _stage(self, submission) -> staging.Staged:
        """Copy the submission into the scratch folder: the child never sees the original."""
        (self.scratch / "work").mkdir()
        (self.scratch / "home").mkdir()
        return staging.stage(submission, self.exercise, self.scratch)

    # -- lifecycle ---------------------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def budget_left(self) -> float:
        return self.limits.submission_timeout - (time.monotonic() - self.started)

    def open(self) -> dict:
        """Start the child and load the submission; returns the harness's load reply."""
        self.started = time.monotonic()
        env = launch.child_env(self.scratch / "home", self.scratch / "work")
        self._stderr_file = open(self.scratch / "stderr.txt", "wb")
        stdout_file = self.scratch / "stdout.txt"
        os.close(os.open(stdout_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))  # bwrap binds it
        self.fields = self.launcher.prepare(self.scratch)
        request = {
            "op": "init", "nonce": self.nonce, "driver": str(self.exercise.driver_path),
            "submission": str(self.submission_copy), "module_name": self.module_name,
            "entry": self.exercise.entry_point, "parameters": self.exercise.parameters,
            "call_timeout": self.limits.call_timeout, "call_clock": call_clock_wanted(), "sys_path": child_sys_path(),
            # the fallback where ctypes is missing (no runner thread: files and calls on the harness's own thread),
            # forced so that it is tested; never a student's choice
            "runner": "off" if os.environ.get("MINIMAX_GRADER_RUNNER", "").strip().lower() == "off" else "on",
            "workdir": str(self.scratch / "work"), "rlimits": self.launcher.rlimits(self.limits),
        }
        request.update(staging.init_fields(self.staged, self.exercise))
        request.update(self.fields)
        argv = self.launcher.python_argv() + bytecode.run_as_main(HARNESS) + [str(stdout_file)]
        view = self._view(request, stdout_file)
        scratch.prepare(self.launcher, view.scratch_dirs, request, env)  # how the scratch is capped
        if getattr(self.launcher, "landlock", 0):
            request["landlock"] = landlock.rules(view.readonly, view.scratch_dirs)
        extra = {"view": view} if getattr(self.launcher, "wants_view", False) else {}
        # Grader and child on one CPU while they talk: each question is a wake-up on either side (see launch).
        self._pinned = self._pinned or launch.pin_to_this_cpu()
        self.process = self.launcher.start(argv, cwd=str(self.scratch / "work"), env=env, stderr=self._stderr_file,
                                           **extra)
        self._request_fd = self.process.stdin.fileno()  # where every answer goes, looked up once
        self.reader = _reader_for(self.process.stdout)
        self.reader.start()
        if hasattr(select, "poll"):
            os.set_blocking(self.process.stdin.fileno(), False)  # see _write_all: never blocked by a child
        self._watch_output()
        self._scratch_watch = scratch.watch(self, request["scratch"])
        self.batch = loading = _Loading(self.exercise.hook("loading_oracle") if hasattr(self.exercise, "hook") else None)
        try:
            reply = self.request(request, timeout=min(self.limits.load_timeout, self.budget_left()))
        finally:
            self.batch = None
        if reply.get("grader_fault") and loading.student_code_started:
            self._fail(TAMPERED)  # the grader's own failures happen before the submission's first line, never after
        self._check_fatal(reply)  # the harness found the seal broken while the files loaded, or a limit hit
        try:
            replies.check_init(reply)
        except replies.Refused:
            self._fail(TAMPERED)
        if reply.get("grader_fault"):
            raise GraderFault(str(reply["grader_fault"])[:400])
        return reply

    def _view(self, request: dict, stdout_file: Path) -> launch.View:
        """Everything the child must see; for bwrap, the whole of its world."""
        readonly = [str(HARNESS), str(GUARD), str(LANDLOCK), str(ALLOWLIST), str(SEAL), str(RUNNER), str(SCRATCH),
                    str(self.exercise.driver_path),
                    str(self.submission_copy.parent)]
        readonly += [str(p) for p in getattr(self.exercise, "driver_files", [])]  # what the driver itself imports
        readonly += package_bytecode(readonly)
        readonly += [p for p in request.get("sys_path", []) if os.path.isdir(p)]
        provided = request.get("provided")
        if provided:
            readonly.append(str(provided))
        return launch.View(readonly=list(dict.fromkeys(readonly)), outputs=[str(stdout_file)],
                           scratch_root=str(self.scratch),
                           scratch_dirs=[str(self.scratch / "work"), str(self.scratch / "home")])

    def _check_fatal(self, reply: dict) -> None:
        """The harness saw the memory limit hit (a MemoryError, caught or not, in student code)."""
        if reply.get("fatal") == "tampered":
            self._fail(HARNESS_TAMPERED)
        if reply.get("fatal") == "scratch":
            self._fail(scratch.LIMIT)
        if reply.get("fatal") == "memory":
            self._fail(f"killed: memory limit {self.limits.memory_mib} MiB")
        if self._output_overflowed():  # Python ignores SIGXFSZ: the writes failed, the child lived on
            self._fail(_output_cap_text(self.limits.output_bytes))

    def run(self, cases: list[dict], evidence: bool = True, within: float | None = None) -> list[dict]:
        """Run the cases in one request; the evidence of each is the grader's log of its questions.

        ``evidence=False``: the caller reads no trace of this run (the consistency pass judges answers
        alone, after the first pass has been logged). Where the exercise can hand the child what its helpers
        would answer (``child_values``: a tree's values), the child gets it with each case and asks nothing;
        a question then (a thread an earlier call left behind) is told no call is running.
        ``within``: seconds after which the harness starts no more cases (they come back ``skipped`` with
        ``OUT_OF_TIME``), so that the process is still there for what the grader asks next (``audit``).

        Which helpers were asked about what is never something the child reports: the child holds
        no value it has not asked for, so there is nothing to read around and no record to forge.
        Before each case the harness tells which case begins; the grader accepts only 0, 1, 2, ...
        each once and in order, and every question belongs to the case last begun. A case begun
        early (to pass questions off as another case's) shows as that case begun twice: tampering.
        """
        values = self.exercise.hook("child_values") if hasattr(self.exercise, "hook") and not evidence else None
        make = self.exercise.hook("oracle") if hasattr(self.exercise, "hook") else None  # looked up once a run
        request = {"op": "run"}
        if values is not None:
            self.batch = _Quiet(_UNLOGGED)
            sent = [{**self._for_child(c), "values": values(c["input"])} if "input" in c else self._for_child(c)
                    for c in cases]
        elif make is None or not cases or "input" in cases[0] and make(cases[0]["input"]) is None:
            self.batch = _Quiet(None)  # this exercise's helpers ask nothing
            sent = [self._for_child(c) for c in cases]
        else:
            self.batch = _Batch(cases, lambda case: make(case["input"]) if "input" in case else None, record=evidence)
            sent = [self._for_child(c) for c in cases]
            if not evidence:
                sent = [self._with_answers(case, shown) for case, shown in zip(cases, sent)]
        if isinstance(self.batch, _Quiet):
            request["notes"] = False  # nothing is told to a case: the harness says no case boundaries
        if within is not None:
            request["within"] = float(max(within, 0.0))
        request["cases"] = sent
        try:
            reply = self.request(request, timeout=self.budget_left())
        finally:
            batch, self.batch = self.batch, None
            if isinstance(batch, _Batch):
                batch.case_over()
        self._check_fatal(reply)
        try:
            results = replies.check_run(reply, cases)  # only the harness's own keys, types and counts
        except replies.Refused:
            self._fail(TAMPERED)
        ran = [number for number, result in enumerate(results) if "skipped" not in result]
        if not isinstance(batch, _Quiet) and ran != list(range(len(batch.oracles))):
            self._fail(TAMPERED)  # a case answered that never began, or one begun and then skipped
        self._looked.extend(result for result in results if "skipped" not in result and not result.get("mutated"))
        self._count_late(reply)
        for result, oracle in zip(results, batch.oracles):
            if oracle is not None and oracle is not _UNLOGGED:
                result["trace"] = oracle.trace()
        for case, kept in zip(cases, getattr(batch, "answers", None) or ()):
            if kept and "input" in case:
                self._answered[id(case["input"])] = (case["input"], kept)
        return results

    def audit(self) -> None:
        """The grader's last look before it judges: every input the child saw unchanged after its own call is
        looked at again (a request with no cases, see ``harness._serve_cases``), and those changed since (by a
        later call, a flush of the student's streams after a reply, or a thread of theirs) are counted as changed
        (``mutated``, ``changed_later``) in the results already returned. No student code runs after that look
        (the audit's reply flushes no stream). Where it cannot be taken (the process has ended, or ends now),
        every input counts as not known to be unchanged (``mutated``, ``unverified``): never as unchanged."""
        if not self._looked:
            return
        if self.failure is None:
            try:
                reply = self.request({"op": "run", "cases": [], "notes": False, "audit": True},
                                     timeout=max(self.budget_left(), 0.5))
                self._check_fatal(reply)
                try:
                    replies.check_run(reply, [])
                except replies.Refused:
                    self._fail(TAMPERED)
                self._count_late(reply)
                return
            except SandboxFailure:
                if self.violation:
                    raise  # tampering: the whole submission is void anyway
        # No last look: the process ended first (it ran out of memory or time, died, or was made to: the fortieth
        # red team raised the harness's memory flag in the flush before the audit, so that the audit's reply,
        # which named every tree it had changed, came back as "memory limit" instead). Whether later calls left the
        # inputs as they were is then not known, and an input not known to be unchanged does not count as such.
        for result in self._looked:
            if not result.get("mutated"):
                result["mutated"] = True
                result["unverified"] = self.failure or "the process ended"

    def _count_late(self, reply: dict) -> None:
        """Mark the results the reply's ``late`` names (see ``audit``) as changed: the checks read ``mutated``."""
        try:
            late = replies.check_late(reply, len(self._looked))
        except replies.Refused:
            self._fail(TAMPERED)
        for number in late:
            if number in self._late_seen:
                self._fail(TAMPERED)  # the harness names an input once, then lets it go
            self._late_seen.add(number)
            self._looked[number]["mutated"] = True
            self._looked[number]["changed_later"] = True  # the grader's own mark, never a field of the child's

    def _with_answers(self, case: dict, shown: dict) -> dict:
        """The case as sent in a run whose questions are no evidence (``evidence=False``), with what the child
        asked in an evidence run of the very same case and the grader answered: the child answers those
        questions itself, asking nothing it asked before; anything else it asks, and is answered, as ever.
        Nothing here is a value the child has not asked for, and no evidence rests on this run."""
        found = self._answered.get(id(case.get("input")))
        if found is None or found[0] is not case["input"]:
            return shown
        return {**shown, "answered": [[q.decode("utf-8"), a.decode("utf-8")] for q, a in found[1].items()]}

    def _oracle_for(self, case: dict):
        """The grader's side of the case's helpers (None for an exercise whose helpers keep no evidence)."""
        make = self.exercise.hook("oracle") if hasattr(self.exercise, "hook") else None
        return make(case["input"]) if make is not None and "input" in case else None

    def _for_child(self, case: dict) -> dict:
        """What the child may know of a case: its input without what only the helpers may tell (a tree's values)."""
        hide = self.exercise.hook("child_input") if hasattr(self.exercise, "hook") else None
        if hide is None or "input" not in case:
            return case
        return {**case, "input": hide(case["input"])}

    def close(self) -> None:
        if self.process is not None:
            if self.process.poll() is None and self.failure is None:
                try:
                    self._send({"op": "exit"})
                    self.process.wait(timeout=0.5)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self.launcher.terminate(self.process, self.fields)
            if self.reader is not None:
                self.reader.join(timeout=1)
                if self.reader.buffer and self.failure is None and not self._only_questions(bytes(self.reader.buffer)):
                    # Bytes after the last reply: a thread or a grandchild wrote on the channel.
                    self.failure = self.violation = TAMPERED
            for stream in (self.process.stdin, self.process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.process = None
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None
            self.output = self._read_output()
        launch.unpin(self._pinned)
        self._pinned = None
        staging.unlock(self.scratch)
        shutil.rmtree(self.scratch, ignore_errors=True)

    # -- the channel -------------------------------------------------------------------

    def _send(self, message: dict) -> int:
        self.seq += 1
        if self.seq == 1:  # init: the harness takes the key out before any student code runs (harness.serve)
            message = {**message, "reply_key": self._reply_key.hex()}
        payload = json.dumps(message).encode("utf-8")
        deadline = time.monotonic() + 2.0 if self.started is None else self.started + self.limits.submission_timeout
        if not _write_all(self.process.stdin.fileno(), b"%s %s %d %d\n" % (MAGIC, self._nonce, self.seq, len(payload))
                          + payload, deadline):
            self._fail(self._timeout_reason(self.limits.submission_timeout))
        return self.seq

    def request(self, message: dict, timeout: float) -> dict:
        if self.failure:
            raise SandboxFailure(self.failure)
        try:
            seq = self._send(message)
        except (BrokenPipeError, OSError):
            self._fail(self._death_reason())
        return self._receive(seq, max(timeout, 0.01))

    def _receive(self, seq: int, timeout: float) -> dict:
        """The reply to request ``seq``; the child's questions in the meantime are answered as they come."""
        monotonic = time.monotonic
        deadline = monotonic() + timeout
        reader = self.reader
        wait, serve = reader.wait, self._serve  # bound once: per question below
        asked = self._asked.match
        while True:
            if not reader.buffer and not reader.closed and not reader.overflow:  # nothing yet: wait for it
                remaining = deadline - monotonic()
                if remaining <= 0:
                    self._fail(self._timeout_reason(timeout))
                wait(remaining if remaining < 0.25 else 0.25, 0)
                if not reader.buffer and not reader.closed and self._ended():
                    self._fail(self._death_reason())
                continue
            with reader.changed:  # the common frame, a whole question or note of this session: straight to its answer
                buffer = reader.buffer
                found = asked(buffer)
                if found is not None:
                    start, length = found.end(), int(found[3])
                    if length <= MAX_QUESTION and len(buffer) >= start + length:
                        # read the match before the buffer changes: its groups are slices of the buffer
                        kind, number = QUESTION if found[1] == b"Q" else NOTE, int(found[2])
                        payload = bytes(buffer[start:start + length])
                        del buffer[:start + length]
                    else:
                        found = None  # not all here yet, or too long (which _parse refuses)
            if found is not None:
                serve(kind, number, None, payload)  # read from its bytes there (see _serve)
                continue
            with reader.changed:
                frame = self._parse(reader.buffer, seq)
                if frame is not None:
                    del reader.buffer[:frame[0]]
                seen = len(reader.buffer)
            if frame is not None:
                consumed, kind, number, message = frame
                if kind == MAGIC:
                    # Bytes after the reply stay for later: a thread the call left behind may ask right after
                    # it (the next request answers that it runs no call), and anything else (a second reply)
                    # fails the next request's parsing, or closing.
                    return message
                self._serve(kind, number, message)
                continue
            if reader.overflow:
                self._fail(TAMPERED)
            if reader.closed:
                self._fail(self._death_reason())
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail(self._timeout_reason(timeout))
            reader.wait(min(remaining, 0.25), seen)
            if len(reader.buffer) == seen and not reader.closed and self._ended():
                self._fail(self._death_reason())

    def _ended(self) -> bool:
        """Whether the child has ended though its reply pipe is still open, once a wait for the pipe came back empty:
        what it wrote before it ended is read first. A process it forked keeps the pipe's write end, so the end of the
        pipe never comes while that process lives, and a harness that ended at once on finding tampering (exit 4)
        was reported as timed out, a whole call's limit later (the twenty-ninth red team's forked readers, once the
        harness stopped replying "tampered" to them)."""
        process = self.process
        if process is None:
            return False
        ended = getattr(process, "ended", None)  # a fork server's child: only what its zygote told (ForkedChild.ended)
        if not (ended() if ended is not None else process.poll() is not None):
            return False
        seen = len(self.reader.buffer)
        self.reader.wait(0.05, seen)  # what it wrote last, still in the pipe (or a reader thread's): read first
        return len(self.reader.buffer) == seen and not self.reader.closed

    def _serve(self, kind: bytes, number: int, message, question: bytes | None = None) -> None:
        """A note or a question from the harness or the running case's helpers, logged and answered at once.

        ``message`` None: the frame as its bytes alone (``question``), read here. The running case's oracle answers
        its common question from the bytes themselves where it can (``ask_raw``: answered and logged, nothing
        parsed); anything else is read the careful way (``replies.loads_question``) and handed to ``ask``."""
        batch = self.batch
        if batch is None:
            self._fail(TAMPERED)  # no case is running: nothing of the grader's asks or tells anything now
        if message is None:
            quick = batch.quick if kind == QUESTION and type(batch) is _Batch else None
            if quick is not None:
                try:
                    answer = quick(question)
                except (LookupError, TypeError, ValueError, AttributeError):
                    self._fail(TAMPERED)
                if answer is not NotImplemented:
                    self._answer(number, _answer_bytes(answer), question)
                    return
            try:
                message = replies.loads_question(question)
            except replies.Refused:
                self._fail(TAMPERED)
        try:
            if kind == NOTE:
                if type(message) is list and len(message) == 2 and message[0] == "case":
                    if not batch.begin(message[1]):
                        self._fail(TAMPERED)
                    return
                if message == ["student code starts"] and isinstance(batch, _Loading) and not batch.student_code_started:
                    batch.student_code_started = True
                    return
                batch.current().tell(message)
                return
            oracle = batch.current()
            answer = oracle.ask(message) if oracle is not None else {"error": NO_CALL_RUNNING}
        except (LookupError, TypeError, ValueError, AttributeError):
            self._fail(TAMPERED)  # not a question the grader's helpers ask
        self._answer(number, _answer_bytes(answer), question)

    def _answer(self, number: int, payload: bytes, question: bytes | None) -> None:
        """Question ``number``'s answer (``payload``, as JSON) to the child, remembered for a later run of the case
        where the batch keeps answers (see ``_Batch.answers``)."""
        batch = self.batch
        if question is not None and getattr(batch, "answers", None):
            batch.remember(question, payload)
        frame = self._answer_head + b"%d %d\n%s" % (number, len(payload), payload)
        try:
            fd = self._request_fd
            try:
                sent = os.write(fd, frame)
            except BlockingIOError:  # the pipe is full: a child that asks and never reads its answers
                sent = 0
            if sent == len(frame):  # the common case, all at once: no deadline to work out
                return
            written = _write_all(fd, frame[sent:], self.started + self.limits.submission_timeout)
        except (BrokenPipeError, OSError):
            self._fail(self._death_reason())
        if not written:  # questions asked and their answers never read, until the submission's time ran out
            self._fail(self._timeout_reason(self.limits.submission_timeout))

    def _parse(self, buffer: bytearray, seq: int):
        """A complete, valid frame at the start of the buffer as (length, kind, number, message), None if
        incomplete; anything else is tampering. Kinds: the reply to ``seq``, a question or a note."""
        if not buffer:
            return None
        newline = buffer.find(b"\n", 0, 200)
        if newline < 0:
            if len(buffer) >= 200 or not any(kind.startswith(bytes(buffer[:4])) for kind in (MAGIC, QUESTION, NOTE)):
                self._fail(TAMPERED)
            return None
        parts = bytes(buffer[:newline]).split(b" ")
        if len(parts) != (5 if parts[0] == MAGIC else 4) or parts[1] != self._nonce:  # a reply carries its signature
            self._fail(TAMPERED)
        kind = parts[0]
        if kind == MAGIC:
            if parts[2] != str(seq).encode():
                self._fail(TAMPERED)
        elif kind not in (QUESTION, NOTE) or not parts[2].isdigit():
            self._fail(TAMPERED)
        try:
            length = int(parts[3])
        except ValueError:
            self._fail(TAMPERED)
        if kind != MAGIC and not 0 <= length <= MAX_QUESTION:
            self._fail(TAMPERED)
        end = newline + 1 + length
        if len(buffer) < end:
            return None
        payload = bytes(buffer[newline + 1:end])
        if kind == MAGIC and not hmac.compare_digest(parts[4], reply_signature(self._reply_key, seq, payload)):
            self._fail(TAMPERED)  # not the harness's reply: the student's code wrote it (init's is signed too)
        try:
            # depth bounded before json.loads recurses; a reply is an object, a question any small value
            message = replies.loads(payload) if kind == MAGIC else replies.loads_message(payload)
        except replies.Refused:
            self._fail(TAMPERED)
        return end, kind, int(parts[2]), message

    # -- failures ----------------------------------------------------------------------

    def _only_questions(self, data: bytes) -> bool:
        """Whether what the child wrote after its last reply is whole questions or notes of this session
        (a thread the student's call left running may still ask): anything else is tampering."""
        while data:
            header, newline, rest = data.partition(b"\n")
            parts = header.split(b" ")
            if not newline:  # the last question, cut short when the child was stopped
                return any(kind.startswith(header[:4]) for kind in (QUESTION, NOTE)) and len(header) < 200
            if len(parts) != 4 or parts[0] not in (QUESTION, NOTE) or parts[1] != self._nonce \
                    or not parts[3].isdigit() or int(parts[3]) > MAX_QUESTION:
                return False
            if len(rest) < int(parts[3]):
                return True  # cut short too
            data = rest[int(parts[3]):]
        return True

    def _fail(self, reason: str):
        self.failure = reason
        if reason in (TAMPERED, HARNESS_TAMPERED):
            self.violation = reason
        if self.process is not None:
            self.launcher.terminate(self.process, self.fields)
        raise SandboxFailure(reason)

    def _timeout_reason(self, waited: float) -> str:
        """The limit that ran out (the submission's budget, or the wait for this reply, such as the load
        timeout), never the time measured, which a busy machine stretches past the limit."""
        return f"timed out after {self.limits.submission_timeout:.1f} s" if self.budget_left() <= 0.05 else \
            f"timed out after {waited:.1f} s"

    def _death_reason(self) -> str:
        if getattr(self, "_scratch_watch", None) is not None and self._scratch_watch.reason:
            return self._scratch_watch.reason  # killed by the parent's measuring (scratch.Watch)
        process = self.process
        try:
            code = process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "stopped answering"
        if self._output_overflowed():
            return _output_cap_text(self.limits.output_bytes)
        if code > 128 and getattr(self.launcher, "signal_in_exit_code", False):
            code = 128 - code  # bwrap reports a child killed by signal N as exit code 128 + N
        if code == -signal.SIGKILL and time.monotonic() - self.started >= self.limits.cpu_seconds:
            return f"killed: CPU time limit {self.limits.cpu_seconds} s"  # the kernel's hard limit
        if code < 0:
            number = -code
            if number == getattr(signal, "SIGXFSZ", -1):
                return _output_cap_text(self.limits.output_bytes)
            if number == getattr(signal, "SIGXCPU", -1):
                return f"killed: CPU time limit {self.limits.cpu_seconds} s"
            name = SIGNAL_NAMES.get(number)
            if name is None:
                try:
                    name = signal.Signals(number).name
                except ValueError:
                    name = "unknown"
            return f"crashed: signal {number} ({name})"
        return "exited before answering" + (f" (exit code {code})" if code else "")

    def _output_overflowed(self) -> bool:
        for name in ("stdout.txt", "stderr.txt"):
            try:
                if (self.scratch / name).stat().st_size > self.limits.output_bytes:
                    return True
            except OSError:
                pass
        return False

    def _watch_output(self):
        """Portable output cap: kill a child whose captured output passes the limit."""

        def watch():
            while self.process is not None and self.process.poll() is None:
                if self._output_overflowed():
                    self.failure = self.failure or _output_cap_text(self.limits.output_bytes)
                    self.launcher.terminate(self.process, self.fields)
                    return
                time.sleep(0.1)

        threading.Thread(target=watch, daemon=True, name="minimax-grader-output-cap").start()

    def _read_output(self) -> Output:
        out = Output()
        for name in ("stdout", "stderr"):
            path = self.scratch / f"{name}.txt"
            try:
                # Never through a link: a child of the grader's own uid could put one there, pointing at any
                # file the grader may read, and see it in its report as "your code printed".
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
                with open(fd, "rb") as handle:
                    status = os.fstat(handle.fileno())
                    if not stat.S_ISREG(status.st_mode):
                        continue
                    size = status.st_size
                    data = handle.read(KEEP_OUTPUT)
            except OSError:
                continue
            if size > KEEP_OUTPUT:
                out.truncated = True
            setattr(out, name, data.decode("utf-8", errors="replace"))
        return out
