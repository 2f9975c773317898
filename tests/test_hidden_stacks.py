"""No way back to another thread's stack for the student's code (the twenty-fourth red team).

``runner.hide_other_threads`` takes ``sys._current_frames`` (and its kin) from ``sys`` and from the copy of
``sys`` the interpreter keeps from start-up, which ``_imp.create_builtin`` fills ``sys`` from again; where that
copy cannot be found, ``_imp``'s two filling functions refuse "sys" instead (forced here with ``scrub=False``).
And the harness's own look at the runner's stack keeps no such function in Python (``runner.frame_reader``).

Each case runs in a fresh interpreter: hiding changes ``sys`` for good."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

REFILLS = {
    "create_builtin": "import _imp\nfrom importlib.machinery import ModuleSpec\n"
                      "_imp.create_builtin(ModuleSpec('sys', None))",
    "create_dynamic": "import _imp\nfrom importlib.machinery import ModuleSpec\n"
                      "_imp.create_dynamic(ModuleSpec('sys', None, origin='sys'))",
    "import_again": "del sys.modules['sys']\nimport sys as again\nsys = again",
}


def _run(script: str) -> str:
    done = subprocess.run([sys.executable, "-I", "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=60, cwd=ROOT / "grader" / "sandbox")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("refill", sorted(REFILLS))
@pytest.mark.parametrize("scrub", [True, False], ids=["start-up copy scrubbed", "stand-ins forced"])
def test_sys_cannot_be_filled_again_with_a_stack_reader(refill, scrub):
    before = _run("import sys\nprint(hasattr(sys, '_current_frames'))")
    assert before == "True"  # the interpreter has one: the test below could find it
    attempt = textwrap.indent(REFILLS[refill], "    ")
    found = _run("import sys\nsys.path.insert(0, '.')\nimport runner\n"
                 f"scrubbed = runner.hide_other_threads(sys, scrub={scrub})\n"
                 f"try:\n{attempt}\n"
                 "except ImportError:\n    print('refused', scrubbed)\n"
                 "else:\n    print(sorted(name for name in runner.HIDDEN_FROM_SYS if hasattr(sys, name)), scrubbed)\n")
    if scrub:
        assert found == "[] True"  # CPython 3.11's copy is scrubbed; the refill brings nothing back
    else:
        assert found in ("refused False", "[] False")  # import_again's import fails; the others refused


def test_the_stand_ins_still_import_other_modules():
    """Forced stand-ins, then a built-in module and an extension module imported for the first time."""
    out = _run("""
        import sys
        sys.path.insert(0, '.')
        import runner
        runner.hide_other_threads(sys, scrub=False)
        fresh = [name for name in ('_tracemalloc', 'faulthandler', 'atexit') if name not in sys.modules][:1]
        for name in fresh + ['_decimal', '_json']:
            __import__(name)
        print('ok', len(fresh))
        """)
    assert out == "ok 1"


def test_the_harness_reads_the_runner_s_stack_without_a_python_stack_reader():
    """The reader is the C function made callable from its address for the moment of the look: no
    function object of the harness's hands out stacks between two looks."""
    out = _run("""
        import sys, gc, threading
        sys.path.insert(0, '.')
        import runner
        make, argument = runner.frame_reader(sys)
        frames = make(argument)()
        runner.hide_other_threads(sys)
        builtin = type(len)
        readers = [o for o in gc.get_objects() if type(o) is builtin and o.__name__ == '_current_frames']
        print(type(argument).__name__, threading.get_ident() in frames, len(readers))
        """)
    assert out == "int True 0"


def test_the_runner_s_waits_are_its_read_its_write_and_its_jump_back():
    """runner.SAFE_WAITS, read from the loop's own bytecode: the calls to ``read`` and ``write`` (each with 3.11's
    PRECALL) and the jump back, not the taking of the hold (after a "done" the runner waits there only for a
    "go" the harness did not write); code it cannot read that way gets every position (no look)."""
    out = _run("""
        import dis, sys
        sys.path.insert(0, '.')
        import runner
        named = {}
        for instruction in dis.get_instructions(runner._loop):
            if instruction.offset in runner.SAFE_WAITS:
                named.setdefault(instruction.opname, 0)
                named[instruction.opname] += 1
        everything = runner._safe_waits(runner._serve_job.__code__)
        print(named.get("CALL"), named.get("JUMP_BACKWARD"), len(everything) > 50)
        """)
    assert out == "2 1 True"


def test_a_second_lock_walks_the_classes_again_only_after_an_import():
    """runner.lock_types in a warm child: its fork server walked every class already, and walking them all again
    copied some 330 of the server's pages for each child (1.4 ms of a 9 ms start). A C module's own types are made
    when it is imported, so the walk is made again only when a module was imported since the last one; the types
    named are closed either way, and a module imported since has its types closed too."""
    out = _run("""
        import ctypes, sys
        sys.path.insert(0, '.')
        import runner
        runner.lock_types()
        walks = runner._walked[1]
        prototype = ctypes.PYFUNCTYPE(ctypes.c_int)
        runner.lock_types((prototype,))
        walked_for_the_named = runner._walked[1] - walks
        import _lsprof  # a C module not imported before: its struct sequences are made as it is imported
        runner.lock_types()
        walked_after_the_import = runner._walked[1] - walks
        refused = []
        for klass in (prototype, _lsprof.profiler_entry):
            try:
                setattr(klass, "__del__", lambda self: None)
            except TypeError:
                refused.append(klass.__name__)
        print(walked_for_the_named, walked_after_the_import, refused)
        """)
    assert out == "0 1 ['CFunctionType', 'profiler_entry']"


LOCK_IN_THE_CHILD = ("        _runner.lock_types(tuple(kind for kind in (prototype, interrupter) "
                     "if isinstance(kind, type)))\n")


@pytest.mark.parametrize("exercise_id", ["ctp-26", "tictactoe"])
def test_a_warm_child_leaves_nothing_for_a_whole_walk_to_close(tmp_path, exercise_id):
    """What the skipped walk rests on (runner._modules_mark), checked in a real warm child: on a copy of the grader
    whose harness, right after its own ``lock_types`` call, forces a whole walk and writes what that walk closed.
    The child must not have walked (it inherited its fork server's walk: one in all) and the forced walk must find
    nothing left open. A C type made on the child's way to the student's first line without a module imported
    (a failed import, a module loaded by spec, a library that makes its types late: the review of 461053f) would
    show here as a number above 0."""
    import shutil

    copy = tmp_path / "tree"
    for folder in ("grader", "exercises", "reference"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    harness = copy / "grader" / "sandbox" / "harness.py"
    text = harness.read_text(encoding="utf-8")
    assert text.count(LOCK_IN_THE_CHILD) == 1
    harness.write_text(text.replace(LOCK_IN_THE_CHILD, LOCK_IN_THE_CHILD
                                    + "        _walks = _runner._walked[1]\n        _runner._walked[0] = None\n"
                                    + "        os.write(2, b'WALKS %d LEFT %d\\n' % (_walks, _runner.lock_types()))\n"),
                       encoding="utf-8")
    sample = sorted((ROOT / "fixtures" / "submissions" / exercise_id / "correct").glob("*.py"))[0]
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(copy)!r})
        from grader.bulk import worker
        from grader.judging import submissions
        job = {{"exercise": {exercise_id!r}, "seed": 26}}
        prepared = worker._prepare(job, start_server=True)
        exercise, bank, launcher = worker._load(job, prepared)
        warm = worker._warm(launcher, exercise, bank, prepared[2])
        assert warm is not None, "no fork server"
        submission = submissions.load({str(sample)!r})
        submission.display = "sample.py"
        result, warm = worker.grade_one(submission, exercise, bank, launcher, warm)
        warm.close()
        print([line for line in result.output["stderr"].splitlines() if line.startswith("WALKS")], result.status)
        """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    walks, status = done.stdout.strip().rsplit(" ", 1)
    assert walks == "['WALKS 1 LEFT 0']" and status in ("passed", "failed"), done.stdout + done.stderr[-2000:]


def test_the_types_a_c_module_made_are_closed_to_setattr_and_class_statements_stay_open():
    """runner.lock_types: ``setattr`` of a special method on json's C scanner (the harness parses every request
    with it) or on the ctypes prototype of its look at the runner's stack made it the type's C slot, run on the
    harness's thread (the lookup probe's "slots" kind). Every type a C module made, and the types named, are
    immutable after it; a class made by a ``class`` statement (the student's, anytree's) is not, and what the
    types do is unchanged."""
    out = _run("""
        import ctypes, json, json.scanner, os, sys
        sys.path.insert(0, '.')
        import runner
        prototype = ctypes.PYFUNCTYPE(ctypes.py_object)
        class Mine:
            pass
        locked = runner.lock_types((prototype,))
        refused = []
        for klass, name in ((json.scanner.c_make_scanner, "__call__"), (prototype, "__init__"),
                            (os.statvfs_result, "__del__"), (Mine, "__init__")):
            try:
                setattr(klass, name, lambda *args: None)
            except TypeError:
                refused.append(klass.__name__)
        address = ctypes.cast(ctypes.pythonapi["_PyThread_CurrentFrames"], ctypes.c_void_p).value
        print(locked > 3, refused, json.loads('{"a": [1, 2.5]}'), type(prototype(address)()).__name__,
              os.statvfs('.').f_bsize > 0)
        """)
    assert out == "True ['Scanner', 'CFunctionType', 'statvfs_result'] {'a': [1, 2.5]} dict True"
