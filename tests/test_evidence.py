"""Forged evidence never earns more than honest code, under every launcher.

The evidence of what the helpers were asked is the grading process's own log of the child's
questions (values live there and are given only in answer to a logged question), so a forger has
nothing to read around and no record to rewrite; what the child still observes itself (the tree
left as it was) is judged from the root it was handed and a "before" held out of reach. Each
forging fixture below does one of the classes of forgery found against the earlier design, in
which the records were kept in the child; its honest twin (the same code without the forging
step, made here) shows what the code earns by itself, so the checks are not simply failing
everything. Against the earlier design the first four beat their twins (10 against 9 or 7); here
each earns at most its twin's score.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import SUBMISSIONS
from samples import flag_twin, graded_under, honest_twin
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import forkserver, launch
from grader.sandbox.session import HARNESS_TAMPERED, TAMPERED

# How the harness ending the process at once (exit 4) on finding tampering reads in a result
HARNESS_ENDED = "exited before answering (exit code 4)"

HOSTILE = SUBMISSIONS / "hostile"
# fixture, exercise, the honest twin's score and the checks it loses
FORGERS = [
    ("forge_values_from_closures.py", "ctp-26", 9.0, {"evaluation-discipline"}),
    ("forge_tree_clones.py", "ctp-26", 9.0, {"tree-unchanged"}),
    ("forge_alphabeta_order.py", "alphabeta", 7.0, {"no-under-pruning", "no-over-pruning"}),
    # the earlier design's own forgers: emptying the records through the stack or a closure
    ("forge_evidence_stack.py", "ctp-26", 8.0, {"evaluation-discipline", "tree-unchanged"}),
    ("forge_evidence_closure.py", "ctp-26", 8.0, {"evaluation-discipline", "tree-unchanged"}),
]


def _bwrap_problem():
    from test_hostile import _bwrap_problem as problem

    return problem()


LAUNCHERS = [
    pytest.param("posix", False, id="posix"),
    pytest.param("spawn", False, id="spawn"),
    pytest.param("posix", True, id="posix+fork-server",
                 marks=pytest.mark.skipif(not forkserver.available(), reason="no fork() here")),
    pytest.param("bwrap", False, id="bwrap",
                 marks=pytest.mark.skipif(_bwrap_problem() is not None, reason="bubblewrap unusable here")),
    pytest.param("bwrap", True, id="bwrap+fork-server",
                 marks=pytest.mark.skipif(_bwrap_problem() is not None or not forkserver.available(),
                                          reason="bubblewrap or fork() unusable here")),
]


_graded = graded_under


@pytest.fixture(scope="module")
def small_banks():
    made = {}

    def bank_of(exercise_id):
        if exercise_id not in made:
            exercise = exercises.load(exercise_id)
            made[exercise_id] = (exercise, banks.build(exercise, seed=11, examples=20))
        return made[exercise_id]

    return bank_of


@pytest.fixture(scope="module")
def ctp26_small(small_banks):
    return small_banks("ctp-26")


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
@pytest.mark.parametrize("name, exercise_id, honest_score, honest_lost", FORGERS)
def test_forged_evidence_never_beats_the_honest_score(sandbox, warm, name, exercise_id, honest_score, honest_lost,
                                                        small_banks, tmp_path):
    exercise, bank = small_banks(exercise_id)
    launcher = launch.choose(sandbox)
    if warm:
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    try:
        honest = judge.grade(submissions.load(honest_twin(HOSTILE / name, tmp_path)), exercise, bank, launcher)
        forged = judge.grade(submissions.load(HOSTILE / name), exercise, bank, launcher)
    finally:
        if warm:
            launcher.close()
    assert honest.score == honest_score, (name, honest.score, honest.error)
    assert {c.name for c in honest.checks if c.score < c.max_score} == honest_lost
    assert forged.score <= honest.score, (name, forged.score, forged.error)
    assert forged.error in (None, HARNESS_TAMPERED), forged.error
    assert forged.sandbox["mode"] == launcher.name


@pytest.mark.slow
def test_a_timeout_is_never_reported_as_tampering(monkeypatch):
    """A correct search that runs past a tight call timeout, 30 times over: every call that ran too
    long is a timeout, never tampering. (The watchdog's interrupt used to land between a record's
    item and its hash; now it must never cut a question to the grader from its answer, and a call
    asking when its time is up is interrupted as soon as its answer is in.)

    The bank is the twelve biggest of ctp-26's published and hand-made trees, where the limit bites: a
    session sees as many calls cut short with them as with all 47 (two a request: the first pass and the
    three requests that re-ask what it left unrun), and the small trees, which never time out, would only
    make each run longer (1.15 s against 0.42 s), not the interrupts more varied."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.02")
    exercise = exercises.load("ctp-26")
    assert exercise.limits.call_timeout == 0.02
    public = banks.build(exercise)
    trees = public.group("published") + public.group("fixtures")
    size = exercise.hook("size")  # nodes: a search's cost grows with them
    biggest = sorted(trees, key=lambda case: size(case.input), reverse=True)[:12]
    bank = banks.Bank(public.exercise_id, public.seed, 0, [case for case in trees if case in biggest])
    slow = Path(__file__).with_name("fixtures") / "slow_correct.py"
    timed_out = 0
    for _ in range(30):
        result = judge.grade(submissions.load(slow), exercise, bank, launch.choose("posix"))
        assert "tamper" not in (result.error or ""), result.error
        assert not any("tamper" in (c.message or "") for c in result.checks)
        timed_out += any("timed out" in (c.message or "") for c in result.checks)
    # Every run has calls far past the limit (a deep tree, 300 questions a leaf): each must time out, even
    # though the call spends nearly all its time asking the grader (an interrupt that waited for a tick to
    # land between two questions let such calls run on: 5 of 30 timed out on an idle machine).
    assert timed_out == 30, timed_out


def test_a_swapped_method_or_function_breaks_the_seal():
    from grader.sandbox import seal

    class Worker:
        def work(self):
            return 1

    def helper():
        return 2

    worker = Worker()
    sealed = seal.Seal(namespaces=[{"helper": helper}], objects=[worker], classes=[Worker])
    assert not sealed.broken()
    worker.work = lambda: 3  # an instance attribute shadowing the method
    assert sealed.broken()
    del worker.work
    assert not sealed.broken()
    helper.__code__ = (lambda: 4).__code__
    assert sealed.broken()


def test_a_helper_counting_in_its_closure_is_not_tampering():
    """Drivers may keep counters in their helpers' closures (``nonlocal``); swapping what a helper holds is caught."""
    from grader.sandbox import seal

    def make(link):
        calls = 0

        def get_value(node):
            nonlocal calls
            calls += 1
            return link["ask"](node)

        return get_value

    helper = make({"ask": lambda node: node})
    before = ("snapshot", [1, 2])
    evidence_of, call_broken = seal.call_seal()
    evidence = evidence_of([helper], before)
    helper(3)
    assert not call_broken(evidence, before)
    before[1].append(3)  # the snapshot rewritten in place
    assert call_broken(evidence, before)
    before[1].pop()
    assert not call_broken(evidence, before)
    helper.__closure__[1].cell_contents = {"ask": lambda node: 0}  # the way to ask swapped for a dummy
    assert call_broken(evidence, before)


def test_a_weak_reference_in_a_snapshot_is_left_out_of_what_it_is_compared_by():
    """The tree driver keeps the root it walks from as a weak reference: its hash or text would look
    into the referent (student code could run there), and nothing can point it elsewhere."""
    import weakref

    from grader.sandbox import seal

    class Root:
        def __getattribute__(self, name):
            raise AssertionError("looked into the root")

        def __hash__(self):
            raise AssertionError("hashed the root")

    root = Root()
    before = ("fingerprint", ("description",), weakref.ref(root))
    evidence_of, call_broken = seal.call_seal()
    evidence = evidence_of([], before)
    assert evidence[6] == hash(("fingerprint", ("description",)))
    assert not call_broken(evidence, before)


def test_a_calls_evidence_is_immutable():
    """What a call is checked against is an exact tuple of immutable parts: gc finds it, cannot change it."""
    from grader.sandbox import seal

    def helper(node):
        return node

    before = ("snapshot", (1, 2))
    evidence_of, call_broken = seal.call_seal()
    evidence = evidence_of([helper], before)
    assert type(evidence) is tuple
    assert all(type(item) in (int, tuple, str, type(helper)) for part in evidence[:4] for item in part)
    assert evidence[4] is before and evidence[5] is tuple and type(evidence[6]) is int
    assert not call_broken(evidence, before)


def test_a_snapshot_given_a_class_of_the_students_breaks_the_calls_seal():
    """``__class__`` can be assigned between tuple subclasses of one layout: a class whose ``__iter__`` is
    the student's would show the driver's comparison whatever they chose. The class is part of the
    call's seal, and the snapshot is read by tuple's own iteration (hole found in review: a forger
    showed the seal the old items and the driver a fresh snapshot of the changed tree)."""
    from grader.sandbox import seal

    class Snapshot(tuple):
        __slots__ = ()

    class Theirs(tuple):
        __slots__ = ()

        def __iter__(self):
            raise AssertionError("iterated by the student's class")

    before = Snapshot(("fingerprint", ("description",)))
    evidence_of, call_broken = seal.call_seal()
    evidence = evidence_of([], before)
    before.__class__ = Theirs
    assert call_broken(evidence, before)
    assert evidence_of([], before)[6] == hash(("fingerprint", ("description",)))  # read by tuple's own iteration


def test_the_seal_check_reads_no_global_name():
    """The harness verifies ``check``'s code object and trusts the rest: nothing it calls may come from
    a namespace the student can write (a global or a builtin swapped through ``gc``)."""
    import dis

    from grader.sandbox import seal

    lookups = [i.argval for i in dis.get_instructions(seal.check) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")]
    assert lookups == []
    assert seal.check.__closure__ is None and seal.check.__defaults__ is None


def test_a_driver_counting_in_a_global_is_not_tampering_but_a_swapped_function_is():
    from grader.sandbox import seal

    driver = {"calls": 0, "helper": lambda: 1, "cache": {}}
    sealed = seal.Seal(lenient=[driver])
    driver["calls"] += 5
    driver["cache"]["x"] = 1
    assert not sealed.broken()
    driver["helper"] = lambda: 2
    assert sealed.broken()



def _careful_only(anchor):
    """The same anchor with the quick ways taken out (the dicts' versions, and the passes over every key and value
    at once): ``check`` must decide every namespace and class the careful way."""
    loose = tuple(entry[:1] + (None,) + entry[2:] for entry in anchor[3])
    return anchor[:3] + (loose, anchor[4], (anchor[5][0], None)) + anchor[6:-2] + (None, anchor[-1])


def _without_versions(anchor):
    """The same anchor as made where this Python keeps no dict versions (``seal._version_reader`` gave None)."""
    return anchor[:-2] + (None, anchor[-1])


class _Sealed:
    def method(self):
        return 1


def _plant_unhashable_key(space):
    class Key(str):
        __hash__ = str.__hash__

    space[Key("planted")] = 1


NAMESPACE_CHANGES = {
    "nothing": (lambda space, klass: None, True),
    "a counter counts": (lambda space, klass: space.__setitem__("calls", 7), True),
    "a new name, even a plain value (a builtin shadowed)": (lambda space, klass: space.__setitem__("str", 0), False),
    "a counter deleted": (lambda space, klass: space.pop("calls"), False),
    "the same function put back at the end": (lambda space, klass: space.__setitem__("helper", space.pop("helper")), True),
    "a counter made an object": (lambda space, klass: space.__setitem__("calls", object()), False),
    "a new function": (lambda space, klass: space.__setitem__("added", lambda: 0), False),
    "a function swapped": (lambda space, klass: space.__setitem__("helper", lambda: 2), False),
    "a function deleted": (lambda space, klass: space.pop("helper"), False),
    "a key that is no plain string": (lambda space, klass: _plant_unhashable_key(space), False),
    "copy's cache on the class": (lambda space, klass: setattr(klass, "__slotnames__", []), True),
    "a method put back as it was": (lambda space, klass: setattr(klass, "method", klass.__dict__["method"]), True),
    "a method swapped": (lambda space, klass: setattr(klass, "method", lambda self: 2), False),
    "a method added": (lambda space, klass: setattr(klass, "other", lambda self: 2), False),
    "a method deleted": (lambda space, klass: delattr(klass, "method"), False),
}


@pytest.mark.parametrize("change", list(NAMESPACE_CHANGES))
def test_the_quick_check_says_what_the_careful_one_says(change):
    """``check`` first asks whether a driver's namespace and the sealed classes hold the very keys and
    values they held (one pass each, no lookups); only when they do not does it decide the careful way,
    key by key. The two must agree on every change: counters may count, nothing may be swapped, added or
    removed (found by the tenth session's red team: a new global ``str = 0`` in the driver's namespace made
    every name in the tree's description read alike, before and after a call that renamed them)."""
    from grader.sandbox import seal

    def helper():
        return 1

    space = {"calls": 0, "helper": helper, "NAME": "tree", "table": {}}
    klass = type("Sealed", (_Sealed,), {"method": lambda self: 1, "__module__": __name__})
    sealed = seal.Seal(lenient=[space], classes=[klass])
    assert sealed.anchor[-2] is not None, "this CPython keeps dict versions: the first look must read them"
    careful, quick = _careful_only(sealed.anchor), _without_versions(sealed.anchor)
    mutate, intact = NAMESPACE_CHANGES[change]
    mutate(space, klass)
    for way, anchor in (("versions", sealed.anchor), ("quick", quick), ("careful", careful)):
        found, collecting = seal.check(anchor)
        seal.release(collecting)
        assert found is intact, (change, way)


def test_the_quick_check_decides_alone_when_nothing_changed():
    """Nothing changed: the quick way says so by itself (the careful data is never read), which is where
    the per-call check saves its time."""
    from grader.sandbox import seal

    space = {"calls": 0, "helper": lambda: 1}
    klass = type("Sealed", (), {"method": lambda self: 1})
    sealed = seal.Seal(lenient=[space], classes=[klass])
    anchor = sealed.anchor
    wrong = (object(),)
    blinded = anchor[:3] + (tuple(entry[:2] + (("helper",), wrong) + entry[4:] for entry in anchor[3]), anchor[4],
                            (tuple(k[:3] + (wrong,) for k in anchor[5][0]), anchor[5][1])) + anchor[6:]
    assert not _careful_verdict(_careful_only(blinded))
    found, collecting = seal.check(_without_versions(blinded))
    seal.release(collecting)
    assert found


def test_unchanged_versions_decide_alone_and_a_changed_one_never_does():
    """Every dict the check reads (the builtin types', the namespaces', the classes') at the version it had when
    the seal was made: the check says so from the versions alone, without a pass over their keys and values
    (blinded below: both passes would fail); that is where the per-call check saves most of its time. One dict
    changed, even back to what it held, and its version differs: the passes decide (blinded, they fail)."""
    from grader.sandbox import seal

    space = {"calls": 0, "helper": lambda: 1}
    klass = type("Sealed", (), {"method": lambda self: 1})
    anchor = seal.Seal(lenient=[space], classes=[klass]).anchor
    wrong = (object(),)
    blinded = anchor[:3] + (tuple(entry[:1] + (None, ("helper",), wrong) + entry[4:] for entry in anchor[3]),
                            anchor[4], (tuple(k[:3] + (wrong,) for k in anchor[5][0]), None)) + anchor[6:]
    assert _careful_verdict(blinded)
    assert not _careful_verdict(_without_versions(blinded))
    space["helper"] = space["helper"]  # the very same value: no change, no new version
    assert _careful_verdict(blinded)
    helper = space.pop("helper")
    space["helper"] = helper  # put back as it was: a new version all the same
    assert not _careful_verdict(blinded)
    assert _careful_verdict(anchor)  # the passes find it whole


def test_a_released_version_view_is_tampering():
    """The views the versions are read through are reachable with ``gc``; one released by the student's code
    cannot be read: the check fails (a harness that could not look is a harness tampered with)."""
    from grader.sandbox import seal

    anchor = seal.Seal(lenient=[{"calls": 0}]).anchor
    assert _careful_verdict(anchor)
    anchor[-2][1][-1].release()
    assert not _careful_verdict(anchor)


def test_without_dict_versions_the_seal_makes_anchors_without_them(monkeypatch):
    """A Python whose dicts keep no version the way the check needs (``_version_reader`` says None: another
    implementation, a 32-bit build, CPython 3.14's watcher tag): anchors carry no versions, and the passes decide
    alone, as they did before versions were read. Forced here, as such a Python would make it."""
    from grader.sandbox import seal

    monkeypatch.setattr(seal, "_VIEW", None)
    space = {"calls": 0, "helper": lambda: 1}
    sealed = seal.Seal(lenient=[space])
    assert sealed.anchor[-2] is None
    assert not sealed.broken()
    space["helper"] = lambda: 2
    assert sealed.broken()


def _careful_verdict(anchor):
    from grader.sandbox import seal

    found, collecting = seal.check(anchor)
    seal.release(collecting)
    return found


STACK_PROBE = '''
import os
import sys


def minimax(node, max_depth, player_a_moves):
    frame, files = sys._getframe(), []
    while frame is not None:
        files.append(os.path.basename(frame.f_code.co_filename))
        frame = frame.f_back
    raise RuntimeError("STACK[" + ",".join(files) + "] other threads visible: " + str(hasattr(sys, "_current_frames")))
'''


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_the_students_stack_holds_no_harness_frame(sandbox, warm, ctp26_small, tmp_path):
    exercise, bank = ctp26_small
    probe = tmp_path / "stack_probe.py"
    probe.write_text(STACK_PROBE, encoding="utf-8")
    result = _graded(probe, exercise, bank, sandbox, warm)
    text = " ".join(c.message for c in result.checks)
    stack = text.split("STACK[", 1)[1].split("]", 1)[0].split(",")
    assert stack[0] == "stack_probe.py" and "driver.py" in stack
    assert not {"harness.py", "zygote.py", "seal.py"} & set(stack), stack
    assert "other threads visible: False" in text


# Forgeries found by the security review: each reached the evidence without touching the stack or
# any sealed object (the harness's copy of the builtins, the node class's ``__dict__`` attribute,
# the "before" snapshot's insides and the seal's cached text). Honestly each earns 9/10.
REVIEWED_FORGERS = {
    "forge_pristine_builtins.py": "evaluation-discipline",
    "forge_dict_property.py": "tree-unchanged",
    "forge_callseal_slots.py": "tree-unchanged",
    # found in the ninth session's review: the snapshot given a class of the student's; the checks' own
    # code swapped; a swap that lasts one call and is put back by the next (the seal was looked at once
    # per request)
    "forge_snapshot_class.py": "tree-unchanged",
    "forge_seal_code.py": "tree-unchanged",
    "forge_swap_and_restore.py": "tree-unchanged",
    # code no seal covers (the student's own modules: random, anytree's methods) run by the harness between
    # two calls, before the next tree's "before" is taken: the next tree renamed before it is looked at
    "forge_seed_hook.py": "tree-unchanged",
    "forge_build_hook.py": "tree-unchanged",
    # found by the red team of the ninth session: a trace function on the harness's thread (set while the
    # file loads, or in a flush of the student's stream) rewriting the harness's variables; an audit
    # hook renaming the next tree; keys whose hash collides with a name, planted in a class or the
    # driver's namespace (their __eq__ ran inside the seal's own lookups); a warm child's inputs renamed
    # and its pool emptied; a thread holding the channel's lock to run inside the harness's window
    "forge_settrace_at_load.py": "tree-unchanged",
    "forge_settrace_in_flush.py": "tree-unchanged",
    "forge_audit_hook.py": "tree-unchanged",
    "forge_colliding_class_key.py": "tree-unchanged",
    "forge_colliding_driver_key.py": "tree-unchanged",
    "forge_warm_inputs.py": "tree-unchanged",
    "forge_lock_window.py": "tree-unchanged",
    # found by the second red team: a call that never returns and answers every request itself
    "forge_runner_takeover.py": "tree-unchanged",
    # suspected by the second red team, made here: the runner's loop played by the student's call, which
    # releases "done" before it renames the tree
    "forge_runner_reports_early.py": "tree-unchanged",
    # found by the third red team: a __del__ of the student's run on the harness's thread (a planted builtin
    # the restore dropped, a signal handler replaced after loading), setting a trace function there
    "forge_del_planted_builtin.py": "tree-unchanged",
    "forge_del_signal_handler.py": "tree-unchanged",
    # found by the tenth session's red team: student code run on the harness's thread between a call and its
    # check, setting a trace function that rewrote the harness's variables (a children list of a list
    # subclass measured by the tree driver; the loaded module swapped for one whose __dict__ is a property;
    # a garbage collection on the harness's thread running a __del__); and a new global `str = 0` in the
    # driver's namespace, under which every name in the tree's description read alike
    "forge_lenhook.py": "tree-unchanged",
    "forge_module_swap.py": "tree-unchanged",
    "forge_gc_del.py": "tree-unchanged",
    "forge_shadow_str.py": "tree-unchanged",
    # found by the session's second red team: collection left on when "done" is written (the runner loop's
    # variables rewritten by the student's trace function on that thread; a thread of theirs turning it on
    # as the runner writes), so a collection on the harness's thread ran a __del__ of theirs
    "forge_loop_locals.py": "tree-unchanged",
    "forge_thread_gc.py": "tree-unchanged",
    # found by the twelfth red team: student code run on the harness's thread by a lookup, through
    # the warm pool (a pair planted in a spare list, whose class's __dict__ property ``vars()`` ran; a key whose
    # hash collides with a case's id, planted first in the pool's dict, whose __eq__ the lookup ran); and the
    # same through the channel's own dict (a key colliding with "told"), setting a trace function there
    "forge_pool_dict_property.py": "tree-unchanged",
    "forge_pool_colliding_key.py": "tree-unchanged",
    "forge_channel_key.py": "tree-unchanged",
    # found by the thirteenth red team: the same planted keys after a wait that lets the
    # student's threads run (a flood of notes written out; the watchdog's lock held by a thread of theirs),
    # after the flush that follows the last check of a request, and in the link the helpers are made with
    "forge_flood_gauss.py": "tree-unchanged",
    "forge_watchdog_lock.py": "tree-unchanged",
    "forge_flush_told.py": "tree-unchanged",
    "forge_link_key.py": "tree-unchanged",
    "forge_link_class_key.py": "tree-unchanged",
    # and in the dicts of builtin types, reached through gc: object's (an instance attribute the driver sets
    # between calls), the function type's (``f.__code__`` in the harness's own checks, after a flush, with the
    # interpreter's type cache evicted)
    "forge_object_dict_key.py": "tree-unchanged",
    "forge_type_cache.py": "tree-unchanged",
    # found by the fifty-third red team: a function written under "get" in dict's real dict, looked up once (the
    # interpreter caches it), the dict put back as it was: every pass over the dict found it whole, and the tree
    # driver's fingerprint called the function, which showed the harness each sorted children list unsorted
    "forge_typecache_restored.py": "tree-unchanged",
    # found by the fifty-fifth red team: the tree driver's Snapshot (cold) or the warm harness's class re-based
    # through __bases__ (no dict written), so that their __new__ or __getattribute__ ran student code on the
    # harness's thread and struck the "mutated" mark from the replies
    "forge_bases_rebased.py": "tree-unchanged",
    # found by the fifty-sixth red team: the re-sorted children kept in a property of the student's put on anytree's
    # NodeMixin.children (the variant: new names in a data descriptor on Node), the nodes' own dicts untouched
    "forge_library_property.py": "tree-unchanged",
    "forge_shadowed_name.py": "tree-unchanged",
    # found by the sixtieth red team: dict.copy of a sparse namespace of the student's (their module's, the builtins)
    # compared a planted key with the others, on the harness's thread, which then rewrote the serving frame
    "forge_namespace_copy.py": "tree-unchanged",
    "forge_builtins_copy.py": "tree-unchanged",
    # found by the sixty-first red team: a frozenset of bytes subclasses slipped into a call's report (a tracer on the
    # runner's frame), whose __eq__ marshal's sort of the set ran on the harness's thread
    "forge_marshal_set_sort.py": "tree-unchanged",
    # found by the fourteenth red team: the same key in the dict of a type the guard did not cover, read by
    # attribute on the harness's thread (statvfs_result's fields in the scratch test; chain.from_iterable in the
    # tree driver's comparison)
    "forge_statvfs.py": "tree-unchanged",
    "forge_chain.py": "tree-unchanged",
    # found by the lookup probe (every route by lookup at once, tests/test_lookup_probe.py): a method swapped
    # in a builtin type's dict rather than a key planted (the guard compared keys only); and a key planted at load
    # in the signal module's globals, run when the harness quieted the file's handlers after the load had ended
    "forge_type_value.py": "tree-unchanged",
    "forge_load_tail.py": "tree-unchanged",
    # found by the fifteenth red team: a request of the student's making in the channel's list of requests read
    # early, whose sequence number was an object whose __int__ ran where the reply is formatted
    "forge_pending_seq.py": "tree-unchanged",
    # found by the sixteenth red team: a thread that held the watchdog's lock while the harness waited for it planted a
    # key in the link's dict (read by the next case's helpers) or the random generator's: after that wait only the
    # window and the watchdog's dict were looked at again
    "forge_watchdog_wait_link.py": "tree-unchanged",
    "forge_watchdog_wait_gauss.py": "tree-unchanged",
    # found by the seventeenth red team: a key colliding with "op" planted in the memo dict json's C scanner keeps
    # between parses, run by the next request's parse after every check of _receive
    "forge_scanner_memo.py": "tree-unchanged",
    # found by the eighteenth red team: ``Node.__abstractmethods__`` set, so that the tree driver's
    # ``object.__new__(Node)`` iterated it between two calls (anytree's classes were checked once per request only)
    "forge_abstract_node.py": "tree-unchanged",
    # found by the nineteenth red team: the random generator's or the link's ``__class__`` set to a subclass of the
    # student's whose property ran where the harness set ``gauss_next`` or the driver read ``ask``, between calls
    "forge_generator_class.py": "tree-unchanged",
    "forge_link_class.py": "tree-unchanged",
    # found by the twentieth red team: the student's code plays the harness, writing the init reply (unsigned, then)
    # while it loads or in the first flush of its stdout, then reading the next request, which carried the reply
    # key, and serving the session with replies signed by it (the thread variant: test_a_thread_started_at_load_...)
    "forge_load_takeover.py": "tree-unchanged",
    "forge_flush_takeover.py": "tree-unchanged",
    # found by the twenty-first red team: KeyboardInterrupt raised on the harness's thread (``_thread.interrupt_main``,
    # SIGINT's default handler) with a "done" of the call's own; the harness took it for the call's outcome and kept
    # it, and its traceback's frames led up to the reply key: the call then served the session itself
    "forge_sigint_key.py": "tree-unchanged",
    # found by the twenty-second red team: threads of the student's broke the interpreter's hold on the harness's
    # thread and found a generator of the driver's running there, whose frame led up to the reply key
    "forge_genexpr_key.py": "tree-unchanged",
    # found by the twenty-third red team: a property on the Watchdog class ran the student's code on the watchdog's
    # thread, which held the watchdog's lock while the harness waited for it and put the tree back meanwhile
    "forge_watchdog_property.py": "tree-unchanged",
    # found by the twenty-fourth red team: ``sys._current_frames``, kept by the harness for its look at the runner's
    # stack (found through sys.modules), or filled into ``sys`` again from the interpreter's start-up copy by
    # ``_imp.create_builtin``: called on the runner, it handed out the harness's running frames and the reply key
    "forge_current_frames_key.py": "tree-unchanged",
    "forge_imp_restores_sys.py": "tree-unchanged",
    # found by the twenty-fifth red team: the runner loop's wait for "go" (a functools.partial) rewritten in place
    # with __setstate__ into a short sleep and a function of theirs, which ran while the harness worked, turned
    # collection on, and had a collection on the harness's thread run their gc callback there, up to the key
    "forge_loop_partial.py": "tree-unchanged",
    # found by the twenty-sixth red team: a __del__ run by a drop in the runner's loop after it cleared the trace
    # functions set a tracer there; a "go" of a forked process woke the loop while the harness worked
    "forge_loop_tracer_wakeup.py": "tree-unchanged",
    # found by the twenty-seventh red team: the runner's loop killed (its "go" pipe made non-blocking), and a copy
    # made of its code object run by sys.unraisablehook in its place, which passed a look at the top frame's code
    "forge_fake_runner_loop.py": "tree-unchanged",
    # found by the twenty-eighth red team: an object planted in the watchdog's state list, dropped on the watchdog's
    # thread when it overwrote that item; its __del__ set a tracer there and kept the thread
    "forge_watchdog_dropped_state.py": "tree-unchanged",
    # found by the twenty-ninth red team: a forked process swallowed the runner's "done"; the call had left a job of
    # its own, a spare "go" and the hold let go of, so the runner ran that job too and its "done" was the one read
    "forge_pipe_queue_jumper.py": "tree-unchanged",
    # found by the thirtieth red team: json's C scanner, given "{" the file left where the harness read requests
    # from (the channel's list of requests, its buffer), called the file's "JSONDecodeError" on the harness's thread
    "forge_json_error_hook.py": "tree-unchanged",
    # found by the thirty-first red team: a weak reference's callback on an object a frame of the harness's held
    # across the calls (``"".join`` bound per request, the signal stand-in's closure), run where that frame let go
    "forge_weakref_join.py": "tree-unchanged",
    "forge_weakref_load_kit.py": "tree-unchanged",
    # found by the thirty-second red team: the namespace loop's variable, the last reference to a value of the
    # student's once the grave was emptied, dropped by the next case's loop on the harness's thread
    "forge_loop_item_del.py": "tree-unchanged",
    # found by the thirty-third red team: Harness.run's variable the last owner of the request's list of cases (the
    # call took it out of the request), which it dropped on the harness's thread as it returned
    "forge_run_cases_local.py": "tree-unchanged",
    # found by the thirty-fifth red team: _thread.interrupt_main(32) from the call tripped a signal Python has no
    # handler entry for; the harness's thread, the main one, reported it through the file's sys.unraisablehook
    "forge_signal32_unraisable.py": "tree-unchanged",
    # found by the thirty-seventh red team: the watchdog's loop made to raise (its state array emptied), so that its
    # thread ran the file's sys.unraisablehook, which held the runner's lock and put the tree back before "done"
    "forge_watchdog_unraisable.py": "tree-unchanged",
    # found by the thirty-ninth red team: each call re-sorted the trees of earlier calls, which the harness had looked
    # at once, right after their own call, and never again
    "forge_deferred_mutation.py": "tree-unchanged",
    # found by the fortieth red team: the same change deferred to the flush before the grader's audit, whose reply
    # the file then turned into "memory limit" (the harness's flag) or never let the harness read (a non-blocking
    # request pipe): an audit that does not come back used to leave every input counted as unchanged
    "forge_memory_flag.py": "tree-unchanged",
    "forge_audit_nonblock.py": "tree-unchanged",
}


# forgers caught another way: what they reach for is not there, or their replies are not signed
CAUGHT_WHILE_LOADING = {"forge_audit_hook.py": "has no attribute 'addaudithook'",
                        # its first call empties the watchdog's state: the watchdog's loop ends the process
                        "forge_watchdog_unraisable.py": HARNESS_ENDED,
                        # the request awaited with bytes left in the channel: a reply the grader does not take
                        "forge_json_error_hook.py": "tampered with the result channel",
                        "forge_runner_takeover.py": "tampered with the result channel",
                        # the planted key is still in the channel's dict when the reply goes out: the reply is
                        # written without reading that dict by key, under a nonce the grader refuses
                        "forge_channel_key.py": "tampered with the result channel",
                        "forge_flush_told.py": "tampered with the result channel",
                        "forge_object_dict_key.py": "tampered with the result channel",
                        "forge_type_cache.py": "tampered with the result channel",
                        "forge_type_value.py": "tampered with the result channel",
                        # statvfs_result's dict is in the type guard now: its planted key is found there first
                        "forge_statvfs.py": "tampered with the result channel",
                        # an item of any other shape in the channel's pending requests: the child stops at once
                        "forge_pending_seq.py": HARNESS_ENDED,
                        # a key in the scanner's memo: no request is decoded, and the reply answers none the grader sent
                        "forge_scanner_memo.py": "tampered with the result channel",
                        # the key comes with init now, before any student code runs: the forged init reply is unsigned
                        "forge_load_takeover.py": "tampered with the result channel",
                        "forge_flush_takeover.py": "tampered with the result channel",
                        # SIGINT is ignored, and an exception on the harness's thread while it waits for "done" is
                        # dropped at once: the forged "done" is found (the runner is not back in its loop)
                        "forge_sigint_key.py": "tampered with the grader's harness",
                        # its trace on the runner's loop takes the watchdog's lock for good (the thread it planted
                        # with is refused now): the harness stops waiting for the lock after a call's wall-clock limit
                        "forge_watchdog_wait_link.py": "tampered with the grader's harness",
                        # the runner refuses threads: the file cannot start its own as it loads
                        "forge_genexpr_key.py": "can't start new thread",
                        # the runner's loop ends the process on any error: its "go" pipe made non-blocking; and since
                        # the sixty-fifth red team the filter refuses that (not under spawn, which has no filter)
                        "forge_fake_runner_loop.py": (HARNESS_ENDED,
                                                      "raised PermissionError: [Errno 1] Operation not permitted"),
                        # the watchdog's state is an array of doubles: the object cannot be stored
                        "forge_watchdog_dropped_state.py": "must be real number",
                        # its "done" comes while its code still runs: the process ends at once (sixty-sixth red team)
                        "forge_runner_reports_early.py": HARNESS_ENDED}


def _twin_without_forging(tmp_path, name):
    return flag_twin(HOSTILE / name, tmp_path)


@pytest.fixture(scope="module")
def reviewed_twins(ctp26_small, tmp_path_factory):
    """Each reviewed forger's honest twin, graded once (posix, through a fork server): honest code scores alike
    under every launcher (tests/test_forkserver.py, tests/test_batch.py), and grading the sixty twins again
    under each of the five launchers was a sixth of the suite's time."""
    exercise, bank = ctp26_small
    folder = tmp_path_factory.mktemp("twins")
    launcher = forkserver.ZygoteLauncher.wrap(launch.choose("posix"), exercise, bank) if forkserver.available() \
        else launch.choose("posix")
    try:
        return {name: judge.grade(submissions.load(_twin_without_forging(folder, name)), exercise, bank, launcher)
                for name in REVIEWED_FORGERS}
    finally:
        if hasattr(launcher, "close"):
            launcher.close()


def test_every_reviewed_forger_s_twin_loses_exactly_its_check(reviewed_twins):
    for name, lost in REVIEWED_FORGERS.items():
        honest = reviewed_twins[name]
        assert (honest.score, {c.name for c in honest.checks if c.score < c.max_score}) == (9.0, {lost}), \
            (name, honest.score, honest.error)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_reviewed_forgeries_never_beat_the_honest_score(sandbox, warm, ctp26_small, reviewed_twins):
    exercise, bank = ctp26_small
    launcher = launch.choose(sandbox)
    if warm:
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    try:
        for name, lost in REVIEWED_FORGERS.items():
            honest = reviewed_twins[name]
            forged = judge.grade(submissions.load(HOSTILE / name), exercise, bank, launcher)
            assert forged.score <= honest.score == 9.0, (name, forged.score, forged.error)
            lost_checks = {c.name for c in forged.checks if c.score < c.max_score}
            # HARNESS_ENDED: the harness ended the process at its first look after a
            # "done" that came while the student's code still ran (the sixty-sixth red team)
            caught = forged.error in (HARNESS_TAMPERED, TAMPERED, HARNESS_ENDED) \
                or lost in lost_checks or \
                (name in CAUGHT_WHILE_LOADING and any(text in (forged.error or "") for text in (
                    (CAUGHT_WHILE_LOADING[name],) if isinstance(CAUGHT_WHILE_LOADING[name], str)
                    else CAUGHT_WHILE_LOADING[name])))
            assert caught, (name, forged.error, lost_checks)
    finally:
        if warm:
            launcher.close()


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_a_thread_started_at_load_cannot_take_the_key(warm, tmp_path, monkeypatch):
    """The twentieth red team's thread variant: a thread the file starts as it loads reads the requests' pipe
    ahead of the harness, to take the request that carried the reply key. The key now comes with init, read
    before any student code runs: whatever the thread takes, no reply of its making is signed, and the
    forger never beats its twin (it loses the session, or the harness serves it as the twin's)."""
    monkeypatch.setenv("MINIMAX_GRADER_SUBMISSION_TIMEOUT", "5")
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=20)
    name = "forge_load_thread_takeover.py"
    launcher = launch.choose("posix")
    if warm:
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    try:
        honest = judge.grade(submissions.load(_twin_without_forging(tmp_path, name)), exercise, bank, launcher)
        forged = judge.grade(submissions.load(HOSTILE / name), exercise, bank, launcher)
    finally:
        if warm:
            launcher.close()
    assert (honest.score, honest.error) == (9.0, None)
    assert forged.score <= honest.score, (forged.score, forged.error)


# alphabeta borrows ctp-26's trees and helpers from a module of its own: its classes must be sealed
# like the driver's own. This one makes every helper call record the root, whatever it was asked.
ALPHABETA_INDEX_FORGER = '''
import math


def _forge():
    for cell in get_value.__closure__ or ():
        value = cell.cell_contents
        if type(value).__name__ == "Built":
            type(value).index = lambda self, node, helper, _real=type(value).index: (_real(self, node, helper), 0)[1]
            return


_done = []


def alphabeta(node, max_depth, alpha, beta, player_a_moves):
    if not _done:
        _done.append(_forge())
    if max_depth == 0 or not node.children:
        return get_value(node)
    values = [alphabeta(c, max_depth - 1, alpha, beta, not player_a_moves) for c in get_next_valid_moves(node)]
    return max(values) if player_a_moves else min(values)
'''


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_borrowed_driver_class_is_sealed_too(sandbox, warm, tmp_path):
    exercise = exercises.load("alphabeta")
    bank = banks.build(exercise, seed=4, examples=6)
    forger = tmp_path / "index_forger.py"
    forger.write_text(ALPHABETA_INDEX_FORGER, encoding="utf-8")
    result = _graded(forger, exercise, bank, sandbox, warm)
    assert (result.status, result.score, result.error) == ("error", 0.0, HARNESS_TAMPERED), (result.score, result.error)


def test_a_library_class_s_attribute_plumbing_is_sealed_but_not_its_methods():
    """A ``__dict__`` property slipped into a node class through ``gc`` breaks the seal; a student
    giving the class a method of their own (``Node.__lt__`` to sort nodes) does not."""
    import gc

    from grader.sandbox import seal

    class Base:
        pass

    class Leaf(Base):
        pass

    sealed = seal.Seal(plumbing=[Leaf, Base])
    Leaf.__lt__ = lambda self, other: True
    Base.helper = staticmethod(len)
    assert not sealed.broken()
    Leaf.__abstractmethods__ = frozenset({"x"})  # object.__new__(Leaf) would iterate it (the eighteenth red team)
    assert sealed.broken()
    del Leaf.__abstractmethods__
    assert not sealed.broken()

    class Colliding(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            return False

    gc.get_referents(Base.__dict__)[0][Colliding("helper")] = None  # a key of another kind: found by the count
    assert sealed.broken()
    gc.get_referents(Leaf.__dict__)[0]["__dict__"] = property(lambda self: {})
    assert sealed.broken()


CLASS_FORGERS = {
    "ctp-26": [HOSTILE / "forge_values_from_closures.py", HOSTILE / "forge_tree_clones.py", HOSTILE / "forge_evidence_stack.py"],
    "alphabeta": [HOSTILE / "forge_alphabeta_order.py"],
    "connect-four": [SUBMISSIONS / "hostile-kit" / "forge_kit_evaluate_unseen.py"],
}


@pytest.mark.parametrize("exercise_id", sorted(CLASS_FORGERS))
@pytest.mark.parametrize("sandbox,user", [("bwrap", "root"), ("bwrap", "nobody"), ("posix", "root"), ("posix", "nobody")])
def test_forgers_graded_with_a_class_never_beat_their_twins(sandbox, user, exercise_id):
    """``grade`` (fork server, one worker) of a class holding forgers and their honest twins, under
    bubblewrap and posix + Landlock, as root and as an ordinary user (uid 65534): each forger's
    stored score is at most its twin's, and ``grade`` exits 0."""
    import json
    import os
    import shutil
    import subprocess
    import tempfile

    from test_walls import _as, _usable, hand_over

    _usable(sandbox, landlock_on=True)
    work = Path(tempfile.mkdtemp(prefix="minimax-forgers-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        klass.mkdir()
        (work / "cache").mkdir()
        for path in CLASS_FORGERS[exercise_id]:
            shutil.copyfile(path, klass / path.name)
            honest_twin(path, klass)
        hand_over(work)
        command, env = _as(user, work)
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", exercise_id, "--out", str(work / "out"),
                                         "--sandbox", sandbox, "--examples", "10", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=300)
        assert done.returncode == 0, done.stderr[-1500:]
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    scores = {entry["student"]: (entry["score"], entry["error"]) for entry in document["submissions"]}
    for path in CLASS_FORGERS[exercise_id]:
        forged, twin = scores[path.stem], scores["honest_" + path.stem]
        assert twin[1] is None and twin[0] < 10, (name, twin)
        assert forged[0] <= twin[0], (name, forged, twin)


@pytest.mark.parametrize("forger", ["timeout_fired_cleared.py", "timeout_watchdog_disarmed.py"])
def test_clearing_the_watchdog_on_the_heap_does_not_undo_a_timeout(forger, monkeypatch):
    """The watchdog's flags are on the child's heap, where gc finds them: a submission that clears them
    (or disarms the watchdog) must still be timed out, as its honest twin is, and earn no more. Whether
    a call ran too long is decided from a start time kept in the harness's own frame. Every call of both
    spends 30 ms of CPU at a leaf, past the 20 ms limit, so each one times out on any machine, idle or busy (with
    2 ms naps a busy machine let either one finish some calls in time, at random)."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.02")
    exercise = exercises.load("ctp-26")
    public = banks.build(exercise)
    bank = banks.Bank(public.exercise_id, public.seed, 0, public.group("published") + public.group("fixtures"))
    fixtures = Path(__file__).with_name("fixtures")
    launcher = launch.choose("posix")
    honest = judge.grade(submissions.load(fixtures / "timeout_honest_slow.py"), exercise, bank, launcher)
    forged = judge.grade(submissions.load(fixtures / forger), exercise, bank, launcher)
    assert any("timed out" in (c.message or "") for c in honest.checks), honest.checks
    # The watchdog keeps its state in a list now: the attributes these files set are new ones on the watchdog, which
    # the seal finds (tampering); either way the clearing undoes nothing
    assert forged.error == HARNESS_TAMPERED or any("timed out" in (c.message or "") for c in forged.checks), \
        (forged.error, [c.message for c in forged.checks])
    assert forged.score <= honest.score, (forged.score, honest.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_request_cut_by_the_student_reaches_nothing(sandbox, warm, ctp26_small):
    """The cases of a request are frozen as it arrives; cutting the decoded list during a call changes
    nothing the harness reads: every case is answered and the correct code inside earns full marks."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS / "harmless" / "answer_first_case_only.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score)


def _between_calls_code(checked):
    """``(file, dotted path, code object)`` of each function named in ``checked`` (``{file: (path, ...)}``, files of
    grader/sandbox; a comprehension's code counts as its function's); fails if one is not found."""
    import dis  # noqa: F401 - the callers read the instructions
    from pathlib import Path

    source = Path(__file__).resolve().parent.parent / "grader" / "sandbox"

    def code_objects(code, path):
        for constant in code.co_consts:
            if hasattr(constant, "co_code"):
                inner = path + ("" if constant.co_name.startswith("<") else "." + constant.co_name)
                yield from code_objects(constant, inner.lstrip("."))
        yield path, code

    found = []
    for filename, wanted in checked.items():
        module = compile((source / filename).read_text(encoding="utf-8"), filename, "exec")
        found += [(filename, path, code) for path, code in code_objects(module, "") if path in wanted]
    assert {(f, p) for f, p, _ in found} == {(f, p) for f, names in checked.items() for p in names}
    return found


def test_the_code_between_two_calls_reads_no_global_name():
    """Between a call's seal check and the next call, and after a blocking read or a flush of the student's
    streams, the harness runs only code whose code object it has verified and C-level calls. A global or
    builtin name looked up there could have been swapped by the student since the check; so these
    functions (and the comprehensions inside them) must take everything as arguments, or as closures whose cells
    the check covers (a closure's cells are writable: the lookup probe's "cells" kind finds one it does not)."""
    import dis

    checked = {
        "harness.py": ("_serve_cases", "_receive", "_send", "_scratch_full", "_flush_streams", "_load_on_runner",
                       "_builtins_restorer.restore", "_finish", "_plain_data", "_runner_back", "_quiet_signals",
                       "Harness._serve_requests"),
        "seal.py": ("check", "call_seal.token_of", "call_seal.parts_of", "call_seal.evidence", "call_seal.broken"),
        "zygote.py": ("_made_as_reader.made_as", "WarmHarness.pool.take", "WarmHarness.pool.put"),
    }
    for filename, path, code in _between_calls_code(checked):
        lookups = [i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")]
        assert lookups == [], (filename, path, lookups)
        # Nor an import: it looks ``__import__`` up in the builtins and reads the module's spec (``_initializing``)
        # from ``sys.modules``, where the student's code can put an object of its own (the sixty-ninth red team's
        # suggestion; none is there today)
        imports = [i.argval for i in dis.get_instructions(code) if i.opname in ("IMPORT_NAME", "IMPORT_FROM")]
        assert imports == [], (filename, path, imports)
    # The serving thread's other frames after the student's first line: none imports either
    for filename, path, code in _between_calls_code({"harness.py": ("Harness._serve_from_init", "_served_here")}):
        imports = [i.argval for i in dis.get_instructions(code) if i.opname in ("IMPORT_NAME", "IMPORT_FROM")]
        assert imports == [], (filename, path, imports)


# The variables of ``_serve_cases`` that neither come from the kit (which keeps its items for good) nor are kept by
# its ``finally``, each holding what the student's code cannot have reached: numbers, flags, clocks, bytes and
# strings the harness made, the harness's own dicts, a frame let go of at once, a driver's helper names.
PLAIN_LOCALS_OF_SERVE_CASES = frozenset({
    "_", "at", "case_id", "checked", "collecting", "cpu_started", "cpu_used", "ended", "handed", "intact", "number",
    "ok", "started", "timed_out", "timeouts",  # numbers, flags and clocks
    "data", "digest", "last_seed", "last_state", "note", "payload", "results", "signal", "text", "told",  # made here
    "attrs", "own_dicts", "switch",  # the harness's own dicts, and the kit's switch
    "exc", "top",  # the watchdog's interrupt and the runner's frame, let go of at once
    "name",  # the driver's helper names
    "module_attrs",  # each namespace of the submission in turn, all held by ``bound`` (serve keeps it)
    "numbered", "differs", "late", "reply", "longest", "key",  # the inputs looked at again: a count, a flag, bytes, a time; an id
    "words",  # where the input changed, the driver's text (tree_driver.change_of): a str or None, let go of at once
})


def test_every_variable_of_the_cases_loop_is_kept_or_plain():
    """A variable of ``_serve_cases`` that still holds an object of the student's after the grave was emptied drops
    it on the harness's thread when it is rebound, and its ``__del__`` (or a weak reference's callback) runs there:
    the thirty-second red team's ``item``, the namespace loop's variable, holding a value of theirs. Each variable
    the frame stores is the kit's, kept by the ``finally``, or one of the plain ones named above."""
    import ast
    import dis

    source = (Path(__file__).resolve().parent.parent / "grader" / "sandbox" / "harness.py").read_text(encoding="utf-8")
    function = next(node for node in ast.walk(ast.parse(source))
                    if isinstance(node, ast.FunctionDef) and node.name == "_serve_cases")
    kit = next(node for node in function.body if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
               and node.value.id == "kit")
    from_kit = {name.id for target in kit.targets for name in ast.walk(target) if isinstance(name, ast.Name)}
    kept = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Try) and node.finalbody:
            for call in ast.walk(ast.Module(body=node.finalbody, type_ignores=[])):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "keep":
                    kept |= {name.id for name in ast.walk(call.args[0]) if isinstance(name, ast.Name)}
    [code] = [code for _, _, code in _between_calls_code({"harness.py": ("_serve_cases",)})
              if code.co_name == "_serve_cases"]
    stored = {i.argval for i in dis.get_instructions(code) if i.opname == "STORE_FAST"}
    arguments = set(code.co_varnames[:code.co_argcount])
    assert {"item", "plain", "built"} <= kept
    assert sorted(stored - from_kit - kept - arguments - PLAIN_LOCALS_OF_SERVE_CASES) == []


def test_run_keeps_nothing_of_the_request_in_its_frame():
    """``Harness.run`` outlives the calls of its request: a variable of its holding a container of the request's
    is the last owner once a call takes that container out of the request (gc reaches it), and whatever the call
    put in it died on the harness's thread as ``run`` returned (the thirty-third red team's ``cases``). Each
    variable it stores is plain, the loaded submission's (kept by ``serve``), or handed to the grave and let go."""
    import ast
    import dis

    [code] = [code for _, _, code in _between_calls_code({"harness.py": ("Harness.run",)}) if code.co_name == "run"]
    stored = {i.argval for i in dis.get_instructions(code) if i.opname == "STORE_FAST"}
    plain = {"frozen", "limit", "tell_cases", "audit", "within", "stop_at", "tampered",
             "encoded"}  # bytes, numbers, flags, our list
    loaded = {"entry", "module_spaces", "submission_files"}  # ``bound``'s, kept by serve's guard
    source = (Path(__file__).resolve().parent.parent / "grader" / "sandbox" / "harness.py").read_text(encoding="utf-8")
    function = next(node for node in ast.walk(ast.parse(source))
                    if isinstance(node, ast.FunctionDef) and node.name == "run")
    handed = {node.args[0].id for node in ast.walk(function) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "keep" and isinstance(node.args[0], ast.Name)}
    assert sorted(stored - plain - loaded - handed) == [] and "cases" in handed


def test_the_code_between_two_calls_makes_no_function():
    """Making a function object (a comprehension, a generator expression, a lambda) reads ``__builtins__`` and
    ``__name__`` from its module's globals by key; a key planted there whose hash collides with either would
    have its ``__eq__`` run on the harness's thread (found by the lookup probe, which plants in every module's
    namespace, in ``call_seal.token_of``). The seal's and the harness's own modules are not in the per-call check,
    so the code that runs between two calls, and after the files load, makes none."""
    import dis

    checked = {
        "harness.py": ("_serve_cases", "_receive", "_send", "_scratch_full", "_flush_streams", "_load_on_runner",
                       "_builtins_restorer.restore", "_finish", "_plain_data", "_runner_back", "_quiet_signals",
                       "Harness._serve_requests",
                       "Harness.run", "Answered.__init__"),
        "seal.py": ("check", "call_seal.token_of", "call_seal.parts_of", "call_seal.evidence", "call_seal.broken"),
        "zygote.py": ("_made_as_reader.made_as", "WarmHarness.pool.take", "WarmHarness.pool.put"),
    }
    for filename, path, code in _between_calls_code(checked):
        made = [i.positions.lineno for i in dis.get_instructions(code) if i.opname == "MAKE_FUNCTION"]
        assert made == [], (filename, path, made)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
@pytest.mark.parametrize("name", ["alarm_set_while_loading.py", "profiler_left_on.py", "unclosed_debug_log.py",
                                  "warns_with_stacklevel.py", "colliding_keys.py", "patches_json.py",
                                  "patches_random_class.py", "extends_node_class.py"])
def test_honest_code_with_signals_or_a_profiler_is_not_tampering(sandbox, warm, name, ctp26_small):
    """A correct file that sets a raising SIGALRM handler and an alarm as it loads (the handler would run the
    student's code on the harness's thread, where it hung the child: it becomes "ignore" after loading),
    or that leaves a profile function on (it ran above the runner's loop, where the harness expects the
    loop alone once a call is done: the runner clears it), or that leaves a debug log unclosed or warns its
    caller (``warnings`` then added ``__warningregistry__`` to the driver's namespace: the seal makes it
    first), or that keeps keys colliding with a helper's and a builtin's name in its namespace and the builtins
    (the harness's lookups of those names would run their ``__eq__`` on its thread: the namespace is made again
    of its plain-string names, the builtins emptied and filled again), or that teaches json to write its own
    objects (json's Python layers were sealed; the harness's thread uses json's C functions only), or that gives
    ``random.Random`` a method of its own (the class was sealed whole among the builtin types; its plumbing and
    ``gauss_next`` alone are, now), or that gives anytree's ``Node`` an ordering and a new property (its data
    descriptors and the nodes' own names are sealed, nothing else): full marks, no "tampered"."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS / "harmless" / name, exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score)



@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_nothing_the_student_planted_is_dropped_on_the_harness_s_thread(sandbox, warm, ctp26_small):
    """The harness's cases, results and requests are dicts the student reaches through gc; an object with a
    ``__del__`` planted in one ran on the harness's main thread when the harness dropped it (a case or result
    rebound, a request replaced, a frame left early: the fifteenth red team). They go to the grave, which the
    runner empties on its own thread: ``fixtures/probes/del_on_main.py`` answers wrong once one has run there."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "del_on_main.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), [c.message for c in result.checks
                                                                       if c.score < c.max_score]

@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_no_frame_the_loading_code_can_read_holds_the_reply_key(sandbox, warm, monkeypatch, ctp26_small):
    """The reply key comes with init and the harness's frames hold it; the submission's files load on the runner
    thread (where there is one), as the calls run, so no frame of the student's stack reaches those, and nothing
    gc hands out holds the key: the probe looks up its own stack, through every frame object and every dict, list
    and tuple gc knows of, as it loads and in every call, and answers wrong once it has seen the key."""
    import secrets

    from grader.sandbox import session

    import dataclasses

    exercise, bank = ctp26_small
    # The probe walks every object gc knows of in every call: on a busy machine its 30 s for the whole
    # submission ran out before the consistency pass was over (9.5 of 10, nothing about the key). Twelve
    # trees and a random one make every kind of call (load, first pass, asked again, audit) at a fifth of the cost.
    monkeypatch.setattr(exercise, "limits", dataclasses.replace(exercise.limits, submission_timeout=180.0, cpu_seconds=180))
    bank = banks.Bank(bank.exercise_id, bank.seed, 1, bank.cases[:12] + bank.group("random")[-1:])
    real = secrets.token_bytes
    monkeypatch.setattr(session.secrets, "token_bytes", lambda n=None: b"\xcd" * 16 if n == 16 else real(n))
    result = _graded(SUBMISSIONS / "harmless" / "reads_loading_frames.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), [c.message for c in result.checks if c.message]


@pytest.mark.parametrize("sandbox, warm", [p for p in LAUNCHERS if p.id != "spawn"])
def test_no_thread_of_the_student_s_can_be_started(sandbox, warm, ctp26_small, tmp_path):
    """The runner thread refuses threads for itself and all it starts (allowlist.no_threads, on that thread alone):
    neither a file as it loads nor a call can start one (a process still can), and the feedback says why. The
    harness's own threads (the watchdog, the runner) were started before and are untouched: the sample is graded."""
    exercise, bank = ctp26_small
    path = tmp_path / "starts_a_thread.py"
    path.write_text("import os, threading\n\n"
                    "def minimax(node, max_depth, player_a_moves):\n"
                    "    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n"
                    "    threading.Thread(target=print).start()\n    return 0\n")
    result = _graded(path, exercise, bank, sandbox, warm)
    assert result.error is None
    messages = [c.message or "" for c in result.checks if c.score < c.max_score]
    assert any("can't start new thread (the grader runs submissions without threads" in m for m in messages), messages[:2]
    loading = tmp_path / "starts_a_thread_as_it_loads.py"
    loading.write_text("import threading\nthreading.Thread(target=print).start()\n\n"
                       "def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    result = _graded(loading, exercise, bank, sandbox, warm)
    assert "can't start new thread" in (result.error or ""), result.error


def test_every_thread_of_the_harness_refuses_threads(ctp26_small, tmp_path, monkeypatch):
    """Each of the harness's working threads (the serving one, the watchdog's, the runner's) installs the filter that
    refuses threads on itself before any student code runs (a filter is inherited only by threads made after it):
    each has as many filters as the others, and one more than the allowlist's (read from /proc, which Landlock
    would hide: switched off for this one probe). The main thread handed the session over before the lock-down
    and waits for good with every signal blocked (harness._hand_over): it runs no code, and it is there."""
    monkeypatch.setenv("MINIMAX_GRADER_LANDLOCK", "off")
    exercise, bank = ctp26_small
    path = tmp_path / "counts_filters.py"
    path.write_text("import os\n\ndef minimax(node, max_depth, player_a_moves):\n    counts = []\n"
                    "    for tid in sorted(os.listdir('/proc/self/task')):\n"
                    "        with open(f'/proc/self/task/{tid}/status') as f:\n"
                    "            counts += [(int(tid) == os.getpid(), int(l.split()[1])) for l in f"
                    " if l.startswith('Seccomp_filters')]\n"
                    "    raise ValueError('FILTERS %r' % (counts,))\n")
    result = _graded(path, exercise, bank, "posix", False)
    found = [c.message for c in result.checks if "FILTERS" in (c.message or "")]
    assert found, [c.message for c in result.checks][:2]
    counts = eval(found[0].split("FILTERS ", 1)[1].split("]", 1)[0] + "]")  # noqa: S307 - our own probe's list
    working = [count for is_main, count in counts if not is_main]
    assert [is_main for is_main, _ in counts].count(True) == 1, counts
    assert len(working) == 3 and len(set(working)) == 1 and working[0] >= 2, counts


def test_the_stand_in_for_signal_signal_lasts_the_load_only(ctp26_small, tmp_path):
    """While the files load (on the runner thread) ``signal.signal`` is a stand-in that sets nothing; in a call it is
    the real one again, which says it works on the main thread only, as it always did for calls."""
    exercise, bank = ctp26_small
    path = tmp_path / "sets_a_handler_in_a_call.py"
    path.write_text("import signal\n\ndef minimax(node, max_depth, player_a_moves):\n"
                    "    signal.signal(signal.SIGALRM, lambda *a: None)\n    return 0\n")
    result = _graded(path, exercise, bank, "posix", False)
    assert result.error is None
    assert any("signal only works in main thread" in (c.message or "") for c in result.checks), \
        [c.message for c in result.checks][:2]


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_sigint_of_the_student_s_raises_nothing_on_the_harness_s_thread(sandbox, warm, ctp26_small):
    """SIGINT's default handler raises KeyboardInterrupt on the main thread: sent by a call to its own process, it
    landed in the harness's code (the session ended "tampered"), and its traceback made the harness's frames, which
    hold the reply key, objects that gc hands out. Where the calls run on a runner thread SIGINT is ignored: the
    probe's call goes on as if nothing happened, finds no key anywhere up any frame's chain, and earns full marks."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "sigint_then_look.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), [c.message for c in result.checks][:2]


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_no_trace_or_profile_function_of_the_student_s_runs_in_the_runner_s_loop(sandbox, warm, ctp26_small):
    """The twenty-fifth red team's first half: a trace function set on the runner's loop frame rewrote that
    loop's variables once the call returned (its wait for "go" made a short sleep, then a function of theirs),
    so code of the student's ran while the harness worked. The loop runs each call, and clears the call's
    trace and profile functions, through ``sys.call_tracing``: the probe's functions never see the loop."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "trace_on_runner_loop.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), [c.message for c in result.checks][:2]


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_go_of_the_student_s_runs_no_job_on_the_runner(sandbox, warm, ctp26_small):
    """The twenty-sixth red team's wake-up: a process the call forks keeps the hand-over's pipes and writes "go"
    while the harness works; the runner woke and ran whatever job was in its mailbox (the probe leaves one of its
    own there after every call). The runner takes a job only with the harness's hold, so the probe's never runs;
    and a runner found waiting for the hold after a "done" read a "go" the harness did not write: tampering
    (runner.SAFE_WAITS leaves the taking of the hold out). Since the sixty-seventh red team that look
    (harness._runner_back) ends the process at once instead of replying (exit 4); a "done" read before the probe's
    "go" lands still gets the "tampered" reply of the checks after it."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "wake_the_runner.py", exercise, bank, sandbox, warm)
    assert (result.error or "").startswith((HARNESS_TAMPERED, HARNESS_ENDED)), (result.error, result.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_case_s_values_list_taken_by_the_call_dies_on_the_runner(sandbox, warm, ctp26_small):
    """The thirty-third red team's probe: in the re-asking pass a call takes the case's "values" list out of the
    case's dict and plants an object with a ``__del__`` in it; the harness's variable was then its last owner and
    dropped it on the harness's thread at the next case (the probe ends the child there, exit code 7). The list goes
    to the grave with the rest of the case's: the probe scores as the tree-changing file it is. Since the forty-first
    red team the re-asking pass's calls are looked at as the first pass's are, seal included, and the probe's
    repointed closure cell is found there first: tampering, which is as good (never the exit code 7)."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "values_list_del.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, 9.0) or (result.error or "").startswith(HARNESS_TAMPERED), \
        (result.error, result.score)
    assert "exit code 7" not in (result.error or "")


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_load_outcome_swapped_after_the_job_is_tampering(sandbox, warm, ctp26_small):
    """The thirty-third red team's other probe: a trace function the file sets on ``_serve_job``'s frame as it
    loads swaps the load's outcome after the job stored it, with a namespace of a dict subclass whose
    ``__iter__`` then ran on the harness's thread before every call (exit code 7). The harness takes the outcome
    only of the exact types the loader made."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "load_outcome_swap.py", exercise, bank, sandbox, warm)
    assert (result.error or "").startswith(HARNESS_TAMPERED), (result.error, result.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_the_runner_must_be_found_at_one_of_its_waits(sandbox, warm, ctp26_small):
    """After "done" the runner's top frame is its loop's, and the loop's frame alone, also where a hook of the
    student's blocks in C inside the loop's clearing of the trace functions (a dropped trace object raising in
    its __del__, sys.unraisablehook made of C callables), "done" written by a forked process: a look at the top
    frame passes there. The harness also wants the loop at one of its waits (runner.SAFE_WAITS): tampering, at
    once (without that look the session waits for the stuck runner until its time is up); since the sixty-sixth red
    team, the first look after "done" finds the loop elsewhere and ends the process at once (exit 4)."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "blocked_in_the_clearing.py", exercise, bank, sandbox, warm)
    assert (result.error or "").startswith((HARNESS_TAMPERED, HARNESS_ENDED)), \
        (result.error, result.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_the_hand_over_pipes_are_closed_only_where_no_filter_guards_them(sandbox, warm, ctp26_small):
    """Each call goes to the runner thread over two pipes. The system-call filter guards them as it guards
    the channel (posix and bwrap: the close is refused, the student's call raises); where nothing guards
    them (the spawn sandbox, other platforms) the harness finds its pipe gone at the next hand-over and
    says the submission tampered with it, or the runner's loop finds its end gone first and ends the process
    (runner._loop ends it on any error), instead of waiting for ever or taking a stray byte for "done"."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS / "hostile" / "closes_handover_pipe.py", exercise, bank, sandbox, warm)
    if sandbox == "spawn":
        assert result.error in (HARNESS_TAMPERED, HARNESS_ENDED), result.error
        assert result.score == 0.0
    else:
        assert result.error is None and result.score == 0.0
        shown = " ".join(c.message or "" for c in result.checks)
        assert "PermissionError" in shown, shown


ASYNC_MINIMAX = """
async def minimax(node, max_depth, player_a_moves):
    kids = get_next_valid_moves(node)
    if max_depth == 0 or not kids:
        return get_value(node)
    return max([await minimax(k, max_depth - 1, not player_a_moves) for k in kids])
"""


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_coroutine_answer_is_a_wrong_answer_not_tampering(sandbox, warm, ctp26_small, tmp_path):
    """``async def minimax``, a student's mistake: every answer is a coroutine never awaited. Its object died on
    the harness's thread when a later call's answer took its place in the harness's variables, and its
    "never awaited" warning then added a key to the harness's own namespace: "tampered" (found by the tenth
    session's red team). Now nothing of a call's outlives the grave, and the answers are simply wrong."""
    exercise, bank = ctp26_small
    source = tmp_path / "async_minimax.py"
    source.write_text(ASYNC_MINIMAX, encoding="utf-8")
    result = _graded(source, exercise, bank, sandbox, warm)
    assert result.error is None and result.score == 0.0
    assert any("coroutine" in (c.message or "") for c in result.checks), [c.message for c in result.checks]


DIES_WHERE = """
import threading

SEEN = []


class Answer(float):
    def __del__(self):
        SEEN.append(threading.current_thread() is threading.main_thread())


def minimax(node, max_depth, player_a_moves):
    if any(SEEN):
        raise RuntimeError("a value of mine died on the harness's thread")
    return Answer(0.0)
"""


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_nothing_a_call_returns_dies_on_the_harness_thread(sandbox, warm, ctp26_small, tmp_path):
    """Everything a call leaves goes to the grave the runner thread empties as the next call starts, and no
    variable of the harness keeps any of it alive past that: a ``__del__`` of the student's never runs on the
    harness's thread (where it could set a trace function), whatever the student returns."""
    exercise, bank = ctp26_small
    source = tmp_path / "dies_where.py"
    source.write_text(DIES_WHERE, encoding="utf-8")
    result = _graded(source, exercise, bank, sandbox, warm)
    assert result.error is None
    shown = " ".join(c.message or "" for c in result.checks)
    assert "died on the harness's thread" not in shown and "of type Answer" in shown, shown


def test_the_builtins_restorer_reads_a_version_first_and_still_restores_every_patch():
    """Between two calls the harness puts the builtins back as they were before the submission loaded. Untouched
    (the common case), the builtins dict's version says so in one read; patched, the patch is undone and what
    the dict held goes to the grave, version or not (a released view included: the passes decide then)."""
    import builtins

    from grader.sandbox import harness

    restore = harness._builtins_restorer()
    held = [cell.cell_contents for cell in restore.__closure__ if cell.cell_contents is not None]
    views = [item for item in held if type(item) is memoryview]
    assert views, "this CPython keeps dict versions: the restorer must read one"
    grave = []
    restore(grave)
    assert grave == []
    real_len = len
    try:
        builtins.len = lambda value: 0
        restore(grave)
        assert builtins.len is real_len and len(grave) == 1
        restore(grave)  # whole again, at a new version: the passes find it so, nothing more to the grave
        assert len(grave) == 1
        views[0].release()
        builtins.len = lambda value: 0
        restore(grave)
        assert builtins.len is real_len and len(grave) == 2
    finally:
        builtins.len = real_len


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_a_stale_cache_of_a_sealed_class_is_forgotten(sandbox, warm, ctp26_small):
    """The fifty-third red team's probe writes its own ``__init__`` into the tree driver's ``Built`` (its real
    dict), has the interpreter cache it, and puts the dict back: the harness's next ``Built()`` ran the probe's
    code on the harness's thread, which the probe reports by failing its next call. The per-call check, finding
    the class's dict moved and whole again, makes the interpreter forget the class's caches: the probe's code
    never runs there, and the probe (a correct search) scores full marks."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "typecache_class.py", exercise, bank, sandbox, warm)
    assert result.error is None and result.score == result.max_score, \
        (result.error, [c.message for c in result.checks if c.score < c.max_score][:2])


def test_a_builtin_type_s_dict_written_and_put_back_is_tampering():
    """No Python code may set an attribute of a builtin type; its dict written through ``gc`` and put back exactly
    as it was leaves the interpreter's caches on what was written (the fifty-third red team): a moved version of
    such a dict is tampering, whatever the passes would find."""
    import gc
    import types

    from grader.sandbox import seal

    sealed = seal.Seal(lenient=[{"calls": 0}])
    assert not sealed.broken()
    real = gc.get_referents(vars(types.MappingProxyType))[0]
    real["zz_written"] = 1
    del real["zz_written"]
    assert sealed.broken()
    assert not seal.Seal(lenient=[{"calls": 0}]).broken()  # a seal made now takes the dict as it is


def test_a_class_s_dict_written_and_put_back_has_its_caches_forgotten():
    """A sealed class whose real dict was written (a function of the student's looked up once, so cached) and put
    back: the passes find the dict whole, and the check makes the interpreter forget the class's caches, so the
    next lookup finds the sealed method again, not the cached one."""
    import gc

    from grader.sandbox import seal

    klass = type("Sealed", (), {"method": lambda self: "sealed", "__module__": __name__})
    sealed = seal.Seal(classes=[klass])
    real = gc.get_referents(vars(klass))[0]
    original = real["method"]
    planted = lambda self: "planted"  # noqa: E731 - kept alive: the interpreter's cache holds it without a reference
    real["method"] = planted
    assert klass().method() == "planted"  # looked up once: cached
    real["method"] = original
    assert klass().method() == "planted"  # the cache still says so
    assert not sealed.broken()
    assert klass().method() == "sealed"
    del planted


def test_a_sealed_class_re_based_breaks_the_seal():
    """``__bases__`` assigned writes no dict (no version moves, every pass finds the dicts whole) and puts the
    student's methods in the class's way: the fifty-fifth red team re-based the tree driver's ``Snapshot`` and the
    warm harness's class, and ran its code on the harness's thread. Every sealed class's method resolution order is
    anchored, the very tuple: re-based, even back to the old bases, the seal is broken."""
    from grader.sandbox import seal

    class Base(tuple):
        __slots__ = ()

    class Other(tuple):
        __slots__ = ()

    klass = type("Sealed", (Base,), {"__slots__": (), "__module__": __name__})
    sealed = seal.Seal(classes=[klass])
    assert not sealed.broken()
    klass.__bases__ = (Other,)
    assert sealed.broken()
    klass.__bases__ = (Base,)
    assert sealed.broken()


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_the_generator_s_class_is_open_to_methods_not_to_the_harness_s_names(sandbox, warm, ctp26_small):
    """``random.Random``, the class of the harness's generator, is sealed as plumbing with ``gauss_next``: a method
    a student adds to it is honest (``harmless/patches_random_class.py`` scores full marks), a data descriptor under
    the name the harness sets between calls is not: its setter would run on the harness's thread (the probe then
    answers wrong). Tampering, found before the harness sets the name."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "generator_setter.py", exercise, bank, sandbox, warm)
    assert result.error in (HARNESS_TAMPERED, TAMPERED), \
        (result.error, result.score, [c.message for c in result.checks if c.score < c.max_score][:2])


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_the_moves_handed_out_are_the_tree_s_own_whatever_anytree_s_code_says(sandbox, warm, ctp26_small):
    """anytree's code is the student's to change (a module global of its own, a property's getter rewritten in
    place, a property re-initialised: the fifty-seventh red team's three forgers), and ``get_next_valid_moves``
    read ``node.children`` through it: every reader then saw the tree re-sorted while the nodes' dicts, all the
    tree-unchanged check compares, stayed as they were (10 against 9). The driver now reads the moves from the
    nodes' own dicts: the probe, whose anytree hands every children list back reversed, gets the tree's own moves
    and full marks (it answers wrong on any node where it does not)."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "anytree_read_changed.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), \
        (result.error, [c.message for c in result.checks if c.score < c.max_score][:2])


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_refused_load_outcome_never_dies_on_the_harness_s_thread(sandbox, warm, ctp26_small):
    """The sixty-second review's probe swaps the load's outcome for an object of its own, whose ``__del__`` exits
    with code 77 when it runs anywhere but where the file loaded: the harness refused the outcome and dropped it on
    its own thread. Every outcome it reads is kept now (``harness._LOAD_OUTCOMES``): tampering, never exit 77."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "load_outcome_drop.py", exercise, bank, sandbox, warm)
    assert (result.error or "").startswith(HARNESS_TAMPERED), (result.error, result.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
@pytest.mark.parametrize("name", ["report_holds_itself.py", "load_reply_holds_itself.py"])
def test_a_report_that_holds_itself_is_tampering_at_once(sandbox, warm, name, ctp26_small, tmp_path):
    """A list that holds itself, slipped by a tracer into a call's report or the load's reply, was walked on the
    harness's thread until the submission's time ran out (the sixty-second review's note): the plain-data walk has
    an item budget (``harness._plain_data``), so it is tampering well within one call's time. The twin (LOOP =
    False), the same correct search, keeps full marks."""
    exercise, bank = ctp26_small
    probe = SUBMISSIONS.parent / "probes" / name
    result = _graded(probe, exercise, bank, sandbox, warm)
    assert (result.error or "").startswith(HARNESS_TAMPERED), (result.error, result.score)
    twin = tmp_path / name
    twin.write_text(probe.read_text(encoding="utf-8").replace("\nLOOP = True\n", "\nLOOP = False\n"), encoding="utf-8")
    result = _graded(twin, exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_gc_callback_never_runs_on_the_watchdog_s_thread(sandbox, warm, ctp26_small, tmp_path):
    """The sixty-third red team's route: a call that runs past its limit with collection at every allocation and a
    gc callback of the student's; the watchdog's interrupt was an allocation, the collection ran on its thread, and
    the callback kept that thread (exit 77 from the probe: its callback ran on a thread not the runner's). Now the
    watchdog allocates nothing: the probe scores exactly what its twin, the same slow first call, scores."""
    exercise, bank = ctp26_small
    probe = SUBMISSIONS.parent / "probes" / "watchdog_gc_callback.py"
    result = _graded(probe, exercise, bank, sandbox, warm)
    twin = tmp_path / probe.name
    twin.write_text(probe.read_text(encoding="utf-8").replace("\nCALLBACK = True\n", "\nCALLBACK = False\n"),
                    encoding="utf-8")
    honest = _graded(twin, exercise, bank, sandbox, warm)
    assert "exit code 77" not in (result.error or ""), result.error
    assert (result.error, result.score) == (honest.error, honest.score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_no_lock_game_makes_the_watchdog_raise(sandbox, warm, ctp26_small):
    """The sixty-fourth red team's route: the watchdog's lock, found through the runner, handed to the watchdog's
    thread with a count about to wrap, the watchdog armed past its deadline: its ``acquire`` raised (exit 4, or 77
    from the file's gc callback on that thread). The loop takes no lock now: the probe, which then searches
    correctly, keeps full marks."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "watchdog_lock_games.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), result.error


@pytest.mark.parametrize("sandbox, warm", [LAUNCHERS[0], *LAUNCHERS[2:]])
def test_the_serving_thread_s_wait_cannot_be_made_to_fail(sandbox, warm, ctp26_small):
    """The sixty-fifth red team's route: the hand-over's "done" pipe made non-blocking, the serving thread's wait
    for it cut short by a signal, and the error it then raised made on that thread while the file's call had
    collection on: the file's gc callback ran there (exit 77). The probe tries every way to those flags it knows
    and the signals, then searches correctly: full marks. Not under ``spawn``, which has no system-call filter
    (the flags stay the file's to set there, as everything the user may do: docs/security.md's table)."""
    exercise, bank = ctp26_small
    result = _graded(SUBMISSIONS.parent / "probes" / "serving_wait_cut_short.py", exercise, bank, sandbox, warm)
    assert (result.error, result.score) == (None, result.max_score), result.error


def _probe_and_its_twin(name, switch, ctp26_small, sandbox, warm, tmp_path):
    """A probe of ``fixtures/probes`` graded, then its twin: the same file with ``switch`` False (the same correct
    search, nothing tried)."""
    exercise, bank = ctp26_small
    probe = SUBMISSIONS.parent / "probes" / name
    result = _graded(probe, exercise, bank, sandbox, warm)
    twin = tmp_path / name
    twin.write_text(probe.read_text(encoding="utf-8").replace(f"\n{switch} = True\n", f"\n{switch} = False\n"),
                    encoding="utf-8")
    return result, _graded(twin, exercise, bank, sandbox, warm)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_a_done_written_by_the_student_s_code_ends_the_process_at_once(sandbox, warm, ctp26_small, tmp_path):
    """The sixty-sixth red team's route: "done" written by the call itself (the runner's loop frame holds the pipe),
    the call going on beside the serving thread with collection on, and the serving thread's next allocation
    running the file's gc callback (exit 77). The serving thread now looks where the runner's loop is before
    anything else, and ends the process at once (exit 4): never 77, never a reply. The twin keeps full marks."""
    result, honest = _probe_and_its_twin("early_done.py", "EARLY", ctp26_small, sandbox, warm, tmp_path)
    assert result.error == HARNESS_ENDED, result.error
    assert (honest.error, honest.score) == (None, honest.max_score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_a_go_stolen_by_a_forked_process_ends_the_process_at_once(sandbox, warm, ctp26_small, tmp_path):
    """The sixty-seventh red team's route: a process the call forked reads the harness's "go" ahead of the runner and
    writes "done", the runner still parked at its read (a wait, so the first look passed) with the job in the
    mailbox and the hold let go of, then a "go" of its own starts that job beside the serving thread, which was on
    its way to a "tampered" reply. A job left in the mailbox (or the hold free, or the count off) now ends the
    process at once (exit 4): never 77, never a reply composed while the student's code may run. The twin keeps
    full marks."""
    result, honest = _probe_and_its_twin("stolen_go.py", "STEAL", ctp26_small, sandbox, warm, tmp_path)
    assert result.error == HARNESS_ENDED, result.error
    assert (honest.error, honest.score) == (None, honest.max_score)


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS[:3])
def test_a_child_that_ended_is_seen_though_a_process_it_forked_keeps_its_pipe(sandbox, warm, ctp26_small, tmp_path):
    """The grader read a child's end from its reply pipe's end alone; a process the child forked keeps the pipe's
    write end, so a harness that ended at once on finding tampering (exit 4), or a file that ended itself, was
    reported as "timed out" a whole call's limit later, the worker held that long (the twenty-ninth red team's
    forked readers, once the harness stopped replying "tampered" to them). The session now asks whether the child
    has ended whenever a wait for the pipe comes back empty. (Under bubblewrap the forked process dies with the
    sandbox's pid namespace anyway.)"""
    exercise, bank = ctp26_small
    source = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[0].read_text(encoding="utf-8")
    submission = tmp_path / "orphan_keeps_the_pipe.py"
    submission.write_text(source + '''

import os as _os
import time as _time


def minimax(node, max_depth, player_a_moves):
    if _os.fork() == 0:  # keeps every descriptor, the reply pipe's write end among them, for a minute
        _time.sleep(60)
        _os._exit(0)
    _os._exit(3)
''', encoding="utf-8")
    result = _graded(submission, exercise, bank, sandbox, warm)
    assert result.error == "exited before answering (exit code 3)", result.error


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_the_main_thread_cannot_be_woken(sandbox, warm, ctp26_small, tmp_path):
    """The sixty-eighth red team's route: the main thread's lock for good let go of by the student's code (found
    through gc), the main thread woken to handle a signal ``interrupt_main`` left pending, through the file's
    ``sys.unraisablehook``, with ``serve``'s frame and the reply key above it (exit 77). The lock is now out of the
    collector's sight: the probe finds nothing to let go of and scores as its twin."""
    result, honest = _probe_and_its_twin("wake_the_main_thread.py", "WAKE", ctp26_small, sandbox, warm, tmp_path)
    assert (honest.error, honest.score) == (None, honest.max_score)
    assert (result.error, result.score) == (None, honest.score), result.error


def test_the_main_thread_is_locked_down_before_it_hands_the_session_over():
    """Landlock binds the thread that sets it up and the threads it starts afterwards: locked down on the serving
    thread, the main thread (which waits for good after the hand-over) had no file fence, and the sixty-eighth red
    team, having woken it, read a neighbour's file under posix. ``serve`` now runs the lock-down on the main thread
    before ``_hand_over`` starts the serving thread, and ``load`` uses what it found."""
    import ast

    source = (Path(__file__).resolve().parent.parent / "grader" / "sandbox" / "harness.py").read_text(encoding="utf-8")
    serve = next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef) and node.name == "serve")
    handing = next(node for node in ast.walk(serve) if isinstance(node, ast.If)
                   and "_may_hand_over" in ast.unparse(node.test))
    calls = [ast.unparse(node.func) for statement in handing.body for node in ast.walk(statement)
             if isinstance(node, ast.Call)]
    assert "self._prepare_child_or_say_why" in calls and "_hand_over" in calls
    assert calls.index("self._prepare_child_or_say_why") < calls.index("_hand_over")
    load = next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef) and node.name == "load")
    assert "self.prepared[0] if self.prepared is not None" in ast.unparse(load)
