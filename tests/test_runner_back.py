"""The serving thread's first look after a hand-over's "done" (``harness._runner_back``): it ends the process on every
sign that the student's code may still run, or start, beside the serving thread, and allocates nothing the collector
counts before it knows.

The sixty-sixth red team wrote "done" from the call itself and kept the call running with collection on; the
sixty-seventh had a forked process read the harness's "go" ahead of the runner, write "done", and start the job
later with a "go" of its own. Each reply the serving thread then composed (or any allocation on its way there) gave
their gc callback the serving thread. The probes (``fixtures/probes/early_done.py``, ``stolen_go.py``) run those
routes through the real sandbox (``tests/test_evidence.py``); these tests pin the look itself: its verdict for each
state of the hand-over, and that its first run, before the interpreter specialized any of its instructions, makes
nothing a collection could start on.
"""

from __future__ import annotations

import _thread
import dis
import gc
import itertools
import sys
import types

import pytest

from grader.sandbox import harness
from test_watchdog_collects_nothing import _Collections

_runner = harness._runner


class _Ended(Exception):
    """Raised by the stand-in for ``os._exit``: the process would have ended with ``code``."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _exit(code):
    raise _Ended(code)


def _waiting_frame():
    """A frame stopped at a known instruction: this generator's, suspended at its ``yield``."""
    def parked():
        yield
    generator = parked()
    next(generator)
    return generator, generator.gi_frame


class _HandOver:
    """The runner's side of one hand-over as the look finds it: the mailbox, the loop frame and where it waits, the
    hold and the job count (``handed`` read before "go", the runner's count of the job taken)."""

    def __init__(self):
        self.generator, self.frame = _waiting_frame()
        self.box = [None, None, None, None, False]
        self.hold = _thread.allocate_lock()
        self.hold.acquire()
        self.jobs = itertools.count()
        self.switched = []
        self.handed = next(self.jobs)
        next(self.jobs)  # the runner took the job

    def tools(self, waits=None):
        frame = self.frame
        waits = frozenset({frame.f_lasti}) if waits is None else waits
        return (self.box, type(frame).__dict__["f_lasti"].__get__, (frame,), waits, gc.disable,
                self.switched.append, self.hold.locked, _runner.DONE, self.jobs, next, _exit)


def _fresh(function):
    """``function`` made anew from a copy of its code: none of its instructions specialized yet (the interpreter
    specializes per code object, and the first runs of an unspecialized ``UNPACK_SEQUENCE`` make an iterator)."""
    return types.FunctionType(function.__code__.replace(), function.__globals__, function.__name__)


def _look(state, signal=_runner.DONE, waits=None):
    try:
        _fresh(harness._runner_back)(signal, state.handed, state.tools(waits))
    except _Ended as ended:
        return ended.code
    return None


def test_an_honest_hand_over_passes_with_collection_off_and_the_interpreter_held():
    state = _HandOver()
    gc.enable()
    try:
        assert _look(state) is None
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert state.switched == [1.0]


@pytest.mark.parametrize("tampered", ["job left in the mailbox", "runner not at a wait", "hold let go of",
                                      "another job ran", "no done read", "a byte not done"])
def test_every_sign_of_the_student_s_code_running_ends_the_process(tampered):
    """Each of these was a "tampered" reply before (or the sixty-sixth's first look): a reply lets the interpreter
    go, and the job the runner had not yet taken (the sixty-seventh's stolen "go") or had not finished ran on."""
    state = _HandOver()
    signal, waits = _runner.DONE, None
    if tampered == "job left in the mailbox":
        state.box[0] = (print, ())
    elif tampered == "runner not at a wait":
        waits = frozenset({state.frame.f_lasti + 2})
    elif tampered == "hold let go of":
        state.hold.release()
    elif tampered == "another job ran":
        next(state.jobs)
    elif tampered == "no done read":
        signal = None
    else:
        signal = b"x"
    assert _look(state, signal, waits) == 4


def test_its_first_run_starts_no_collection():
    """Run for the first time (nothing specialized), with the collector set to run at every allocation and the free
    lists emptied, as the student's code leaves them: no collection starts on this thread. Looking at every state
    above, the ending ones too: the process must end before anything is made."""
    states = []
    for tampered in (None, "box", "hold", "count"):
        state = _HandOver()
        if tampered == "box":
            state.box[0] = (print, ())
        elif tampered == "hold":
            state.hold.release()
        elif tampered == "count":
            next(state.jobs)
        states.append(state)
    looks = [(_fresh(harness._runner_back), state, state.tools()) for state in states]
    started_in, kept = [], []

    def note(phase, info):  # where each collection started: the code running when it did
        if phase == "start":
            frame = sys._getframe(1)
            started_in.append((frame.f_code.co_name, frame.f_lasti))

    with _Collections():
        gc.callbacks.append(note)
        try:
            for look, state, tools in looks:
                # The student's code turned collection on again, its count one short of a collection, so that the
                # first object made in the look starts one (an honest look turns collection off at once)
                gc.disable()
                while gc.get_count()[0] < 1:
                    kept.append([])
                gc.enable()
                try:
                    look(_runner.DONE, state.handed, tools)
                except _Ended:  # the stand-in for os._exit raised (and allocated) only once the look was over
                    pass
        finally:
            gc.callbacks.remove(note)
    assert started_in, "nothing here allocated: the collector was not set as the test expects"
    # The stand-in for ``os._exit`` is a Python function that raises: what its call makes is past the process's end
    ending = _exit_calls(harness._runner_back)
    assert [at for name, at in started_in if name == "_runner_back" and at not in ending] == []


def _exit_calls(function):
    """The offsets (``f_lasti`` values, caches included) of ``function``'s calls of ``tools[10]``, ``os._exit``."""
    instructions = list(dis.get_instructions(function, show_caches=True))
    offsets = set()
    for index, instruction in enumerate(instructions):
        if instruction.opname == "CALL":
            callee = [i for i in instructions[:index] if i.opname == "BINARY_SUBSCR"][-1]
            loaded = [i for i in instructions[:instructions.index(callee)] if i.opname == "LOAD_CONST"][-1]
            if loaded.argval == 10:
                following = [i.offset for i in instructions[index + 1:] if i.opname != "CACHE"]
                offsets.update(range(instruction.offset, following[0] if following else instruction.offset + 2, 2))
    assert len(offsets) >= 2 * 2, "both of the look's ends found"
    return offsets


def test_it_unpacks_nothing_builds_nothing_and_looks_nothing_up():
    """The bytecode behind the test above: no ``UNPACK_SEQUENCE`` (an iterator, until specialized), no tuple, list or
    dict built, no attribute or global name looked up (a key planted in a type's dict, or in the module, would run
    there before the guard's check), no function made; the one ``CALL_FUNCTION_EX`` spreads a tuple made beforehand."""
    instructions = list(dis.get_instructions(harness._runner_back))
    refused = [(i.opname, i.positions.lineno) for i in instructions
               if i.opname.startswith(("UNPACK_", "BUILD_", "LIST_", "DICT_", "LOAD_ATTR", "LOAD_METHOD",
                                       "LOAD_GLOBAL", "LOAD_NAME", "MAKE_FUNCTION", "STORE_ATTR"))]
    assert refused == []
    assert sum(i.opname == "CALL_FUNCTION_EX" for i in instructions) == 1


def test_every_site_looks_first_thing_after_done():
    """A call's, a load's and a flush's hand-over each call the look right after the read of "done", with nothing in
    between but the check of the look's own code."""
    source = harness.__file__
    assert source.endswith(".py")
    import ast

    tree = ast.parse(open(source, encoding="utf-8").read())
    sites = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in ("_serve_cases", "_load_on_runner",
                                                                        "_flush_streams"):
            text = ast.unparse(function)
            read = text.index("read(done_read, 1)")
            look = text.index("back[3](signal, handed, back[4])")
            between = text[read:look]
            sites[function.name] = [line.strip() for line in between.splitlines()[1:]
                                    if line.strip() and not line.strip().startswith("#")]
    assert set(sites) == {"_serve_cases", "_load_on_runner", "_flush_streams"}
    for name, lines in sites.items():
        assert lines == ["except os_error:", "pass", "if back[0](*back[1]) is not back[2]:", "exit_(4)"], (name, lines)


def test_with_a_real_runner_an_honest_job_passes_and_a_stolen_go_ends_the_process():
    """The look bound by ``_runner_back_check`` to a real runner thread (its mailbox, loop frame, waits, hold and
    count): a job handed over as the harness does passes; a "done" written while the runner still waits for its
    "go" (the sixty-seventh's: the go read by another process) ends the process, the job still in the mailbox."""
    import os

    made = (os.pipe(), os.pipe())
    runner = _runner.Runner(_thread.allocate_lock(), made, True)
    if runner.ident is None:
        pytest.skip("no runner thread here (ctypes cannot reach the interpreter)")
    code_of, arguments, code, function, tools = harness._runner_back_check(runner)
    assert function is harness._runner_back and code_of(*arguments) is code
    tools = tools[:10] + (_exit,)
    done_write = made[1][1]
    ran = []

    def hand_over(job, forge=False):
        runner.box[0] = (job, ())
        handed = next(runner.jobs)
        runner.hold.release()
        if not forge:
            os.write(runner.go_write, _runner.GO)
        else:
            os.write(done_write, _runner.DONE)
        signal = os.read(runner.done_read, 1)
        try:
            function(signal, handed, tools)
        except _Ended as ended:
            return ended.code
        return None

    enabled = gc.isenabled()
    try:
        assert hand_over(lambda: ran.append(1)) is None and ran == [1]
        assert hand_over(lambda: ran.append(2), forge=True) == 4
        assert runner.box[0] is not None and ran == [1]
    finally:
        (gc.enable if enabled else gc.disable)()
        sys.setswitchinterval(0.005)
    # Let the runner have its job and go back to its wait, so that nothing of this test runs on later
    os.write(runner.go_write, _runner.GO)
    assert os.read(runner.done_read, 1) == _runner.DONE and ran == [1, 2]
