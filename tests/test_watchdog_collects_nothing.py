"""The watchdog's loop allocates nothing the collector tracks, and raises nothing, while the calls it times run.

The sixty-third red team set a gc callback and a threshold of 1 in a call that ran past its limit: the watchdog
made a ctypes function object to interrupt it, that allocation set off a collection on the watchdog's thread,
and the callback kept that thread for good; from there it dropped an object of theirs on the harness's thread
(exit 77, the reply key up the stack). These tests run the real loop (``harness._watch``) in this process with
the collector set to run at every allocation, the tuple free lists emptied (a tuple taken from one is no
allocation the collector counts), and a callback that notes every thread a collection ran on.
"""

from __future__ import annotations

import _thread
import gc
import sys
import threading
import time

import pytest

from grader.sandbox import harness

_runner = harness._runner
# What the watchdogs started here made and untracked, kept for the process's life as the harness's watchdog keeps
# them (its loop never ends): a memoryview let go of after it was untracked would crash the interpreter
_KEPT: list = []


class _Collections:
    """Every thread a collection started on, while collecting at every allocation."""

    def __init__(self):
        self.threads: set[int] = set()
        self.held: list = []

    def __call__(self, phase, info):
        if phase == "start":
            self.threads.add(_thread.get_ident())

    def __enter__(self):
        self.was = (gc.isenabled(), gc.get_threshold())
        # Free lists of small tuples, lists and dicts emptied and kept so: one taken from its free list is no
        # allocation the collector counts, one made afresh is (and a student's code can empty those lists)
        self.held = [tuple(range(size)) + (object(),) for size in range(4) for _ in range(3000)]
        self.held += [[object()] for _ in range(300)] + [{0: object()} for _ in range(300)]
        # The heap so far (pytest's, and every earlier test's in this worker) moved out of the collector's sight:
        # a collection at every allocation then walks only what was made since, where walking a suite's heap
        # took this file 30 s in place of 4. What the watchdog allocates from here on is counted as before.
        gc.freeze()
        gc.callbacks.append(self)
        gc.set_threshold(1)
        gc.enable()
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self)
        gc.set_threshold(*self.was[1])
        (gc.enable if self.was[0] else gc.disable)()
        gc.unfreeze()
        self.held = []


@pytest.fixture(autouse=True)
def _interrupts_in_callbacks_are_the_spinner_s(monkeypatch):
    """The spinning "runner" below is interrupted at any instruction, and a collection on its thread (at every
    allocation here) runs other code's weak reference callbacks there: an interrupt landing in one is unraisable,
    and pytest's own hook, interrupted in its turn while it formats the report, failed the test on a busy machine
    (a red team running beside CI). Such interrupts are the spinner's, which only counts them: a hook that does
    nothing else."""
    landed = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: landed.append(unraisable.exc_type))
    yield landed


def _start_watchdog(status: float):
    """The real watchdog loop on a thread of its own, timing a "runner" thread that spins and counts interrupts.
    Returns ``(watchdog ident, state, lock, interrupts, stop)``."""
    raiser = _runner._async_raiser()
    if raiser is None:
        pytest.skip("ctypes cannot reach PyThreadState_SetAsyncExc here: the watchdog interrupts the main thread")
    watchdog = harness.Watchdog()
    state, lock, due = watchdog.state, watchdog.lock, _thread.allocate_lock()
    interrupts, stop = [0], threading.Event()
    started = threading.Event()
    ident = []

    def spin():
        ident.append(_thread.get_ident())
        started.set()
        while not stop.is_set():
            try:
                while not stop.is_set():
                    pass
            except KeyboardInterrupt:
                interrupts[0] += 1

    threading.Thread(target=spin, daemon=True).start()
    started.wait(5)
    ready, refused = _thread.allocate_lock(), [False]
    ready.acquire()
    state[_runner.STATUS] = status
    watchdog_ident = _thread.start_new_thread(harness._watch, (
        state, time.perf_counter, time.clock_gettime, time.CLOCK_MONOTONIC,
        raiser, ident[0], _runner.STATUS, KeyboardInterrupt, None, time.sleep, due.acquire, _runner.RUNNING,
        _runner.ASKING, ready, refused, False))
    ready.acquire()
    return watchdog_ident, state, lock, due, interrupts, stop


def _arm(state, rounds: int, seconds: float = 3.0) -> bool:
    """Arm the watchdog with deadlines already past, again and again, as a harness whose calls run too long; back
    once it has fired for the last time (True), or after ``seconds`` (False)."""
    ends = time.monotonic() + seconds
    done = 0
    state[2] = 0.001
    while time.monotonic() < ends:
        if state[0] == 0.0:  # fired (or never armed)
            if done == rounds:
                return True
            state[3] = state[3] + 1.0
            state[1] = -1.0
            state[0] = 1e-9  # armed, and long past
            done += 1
        time.sleep(0.002)
    return False


def test_interrupting_a_running_call_collects_nothing_on_the_watchdog_s_thread():
    # Started first: what it makes before the calls run (its interrupt) is made before any student code could run
    watchdog, state, lock, due, interrupts, stop = _start_watchdog(_runner.RUNNING)
    with _Collections() as collections:
        try:
            ends = time.monotonic() + 30.0  # a loaded machine delivers fewer interrupts per round: rounds until five
            while interrupts[0] < 5 and time.monotonic() < ends:
                _arm(state, rounds=5)
        finally:
            stop.set()
    assert interrupts[0] >= 5, interrupts  # it did interrupt, through the ready-made function
    assert watchdog not in collections.threads
    assert collections.threads  # the collector did run at every allocation elsewhere: the test can fail


def test_an_interrupt_made_due_while_asking_collects_nothing_on_the_watchdog_s_thread():
    watchdog, state, lock, due, interrupts, stop = _start_watchdog(_runner.ASKING)
    with _Collections() as collections:
        try:
            for _ in range(20):
                # Fired, however long a loaded machine takes (3 s was not always enough with the suite beside it)
                assert _arm(state, rounds=1, seconds=60.0)
                made_due = time.monotonic() + 10.0  # disarmed first, then made due: give its act the time it takes
                while not due.locked() and time.monotonic() < made_due:
                    time.sleep(0.001)
                assert due.locked()  # made due, not raised: the call is asking the grader
                due.release()
        finally:
            stop.set()
    assert interrupts[0] == 0
    assert watchdog not in collections.threads


def test_the_watchdog_s_state_cannot_be_made_to_raise_on_its_thread():
    """An error in the loop is an allocation there too. The state array is pinned to its size while the loop
    runs, so no read or write of its items can fail."""
    watchdog, state, lock, due, interrupts, stop = _start_watchdog(_runner.IDLE)
    try:
        with pytest.raises(BufferError):
            del state[:]
        with pytest.raises(BufferError):
            state.append(0.0)
        assert len(state) == _runner.STATUS + 1
    finally:
        stop.set()


def test_the_watchdog_s_loop_takes_no_lock_the_student_can_reach():
    """The sixty-fourth red team handed the watchdog's reentrant lock to the watchdog's own thread with a count
    about to wrap (``RLock._acquire_restore``): its next ``acquire`` raised OverflowError there, and the collection
    that error's allocations set off ran their callback on that thread. Any lock the student's code reaches can be
    made to raise (a plain one let go of while held): the loop takes none; only the non-blocking ``acquire`` of
    ``Runner.due``, which cannot raise, and only while a call asks."""
    import dis

    called = {i.argval for i in dis.get_instructions(harness._watch) if i.opname in ("LOAD_FAST", "LOAD_DEREF")}
    assert not {"acquire", "release", "lock"} & called
    watchdog = harness.Watchdog()
    assert type(watchdog.lock) is type(_thread.allocate_lock())  # not reentrant: no owner a student can set


def test_the_ready_made_interrupt_is_out_of_the_collector_s_sight():
    """What the watchdog keeps of its interrupt is in no list gc hands out, nor reachable from one: the student's
    code cannot give the function an ``errcheck`` or a ``restype`` of theirs, nor let go of the state's pin."""
    raiser = _runner._async_raiser()
    if raiser is None:
        pytest.skip("no ctypes interrupt here")
    import array

    made = raiser[1](0, KeyboardInterrupt, array.array("d", [0.0] * 5))
    _KEPT.append(made)
    function, arguments, pinned = made
    for made in (function, arguments, *arguments, pinned):
        assert not gc.is_tracked(made)
    found = {id(o) for o in gc.get_objects()}
    assert not {id(function), id(arguments), id(pinned)} & found
    assert function(*arguments) == 0  # no thread has ident 0: nothing raised anywhere


def test_the_watchdog_s_loop_makes_no_argument_tuple_and_builds_nothing():
    """Static half of the same rule, for what a free list can hide from the test above: in the loop, no call passes
    arguments one by one (a builtin that takes a tuple of them makes one for each such call), but ``sleep`` (which
    takes its one argument as it is); a call with a tuple of arguments gives one made before the loop; nothing is
    built (no tuple, list, dict or string)."""
    import dis

    instructions = list(dis.get_instructions(harness._watch))
    # The loop starts at the first instruction of the ``while True`` body: the jump back's target
    back = max((i for i in instructions if i.opname.startswith("JUMP_BACKWARD")), key=lambda i: i.offset)
    body = [i for i in instructions if back.argval <= i.offset <= back.offset]
    built = [(i.opname, i.positions.lineno) for i in body if i.opname.startswith(("BUILD_", "LIST_", "DICT_",
                                                                                   "FORMAT_VALUE"))]
    assert built == []
    calls = []
    for index, instruction in enumerate(body):
        if instruction.opname == "CALL" and instruction.arg:
            callee = next(i.argval for i in reversed(body[:index]) if i.opname == "LOAD_FAST"
                          and i.offset < instruction.offset and i.argval in ("sleep", "wall", "acquire", "release",
                                                                            "interrupt_main", "make_due", "exit_",
                                                                            "cpu_time", "interrupt"))
            calls.append((callee, instruction.arg))
    assert all(callee == "sleep" and count == 1 for callee, count in calls), calls


def test_nothing_lets_another_thread_in_between_the_look_and_the_interrupt():
    """No lock guards the watchdog's look at the runner's status and its act: CPython 3.11 lets another thread run
    only after a call or at a jump back, and there is neither between the look at ``state`` that decides and the
    interrupt (or the ``due`` mark) it makes, but the call of the other branch, ``interrupt_main`` (no runner). A
    call slipped in there would let the runner's status change between the two (an interrupt landing after the
    call ended, in the runner's own loop)."""
    import dis
    import inspect

    lines, first = inspect.getsourcelines(harness._watch)
    look_line = first + next(n for n, text in enumerate(lines) if "if state[0] > 0.0 and state[3] == serial" in text)
    instructions = list(dis.get_instructions(harness._watch))
    start = min(i.offset for i in instructions if i.positions.lineno == look_line)
    acts = [i.offset for i in instructions if i.opname == "CALL_FUNCTION_EX" and i.offset > start]
    assert len(acts) == 2  # the interrupt, the due mark
    between = [i for i in instructions if start <= i.offset < max(acts)]
    switching = [i for i in between if i.opname in ("CALL", "PRECALL", "JUMP_BACKWARD", "RESUME", "CALL_FUNCTION_EX")
                 and i.offset not in acts]
    callees = {i.positions.lineno for i in switching}
    assert all("interrupt_main()" in lines[line - first] for line in callees), [lines[line - first] for line in callees]
