"""No lookup of the harness ever runs student code on its thread: the lookup probe.

Every route the red teams found to the harness's main thread was a lookup by key (a colliding key planted in a
dict, a method swapped in a type's dict, a name in a module's namespace, a function made between two calls,
which reads its module's ``__builtins__``), a function of theirs written into a closure's cell the harness
called, or a special method set on a class whose objects the harness makes or calls (json's C scanner, a ctypes
prototype: ``setattr`` turns it into the type's C slot). ``fixtures/probes/lookup_probe_head.py`` opens all of them at once,
around a correct solution, at one moment (as the file loads, after its second call, in the first flush of its
stdout), and notes every run of its code on the main thread outside its own. Derived, not listed: it plants in
every class and every module ``gc`` and ``sys.modules`` reach, so a type the harness's guard forgot shows here.

The verdict is the harness's business (tampering, or full marks where nothing it relies on was touched); this
test asks only that nothing of the student's ran on the main thread, at any time: the files load on the runner
thread, as the calls run (the probe's notes from inside the load, there, are its proof that it works).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import forkserver, launch

ROOT = Path(__file__).resolve().parent.parent
PROBES = ROOT / "fixtures" / "probes"
SAMPLES = ROOT / "fixtures" / "submissions"

MOMENTS = ("load", "call:2", "flush")
# What the probe plants, and where: "values", "keys" and "globals" in everything and in what the harness's guards
# leave alone; "cells" in every closure (the closures the seal covers too: the harness's check after each call
# finds those, and a closure it uses without that check shows); "slots" by ``setattr`` on every class that allows
# it, and outside what the seal covers (it finds those changed first, and serves no more); "errors" in what C code
# fetches from a module only when something goes wrong (exception classes, the warnings functions); "weakrefs" a
# weak reference with a callback on everything that takes one (it runs where its object dies)
PLANTINGS = [*itertools.product(MOMENTS, ("values", "keys", "globals", "slots", "errors"), ("all", "unguarded")),
             *((where, "cells", "all") for where in MOMENTS), *((where, "weakrefs", "all") for where in MOMENTS)]
# (exercise, a correct sample, random examples (0: an object-route exercise asks its own positions))
EXERCISES = [
    ("ctp-26", "ctp-26/correct/alpha_beta.py", 12),
    ("alphabeta", "alphabeta/correct/bounds_first.py", 12),
    ("nim", "nim/correct/textbook.py", 12),
    ("connect-four", "connect-four/correct/textbook.py", 6),
    ("aind-isolation", "aind-isolation/correct/textbook.py", 0),
    ("multiagent", "multiagent/correct/correct.py", 0),
]


def _probe(tmp_path, exercise, sample, where, kind, scope) -> Path:
    head = (PROBES / "lookup_probe_head.py").read_text(encoding="utf-8")
    head = head.replace('_P_WHERE = "load"', f'_P_WHERE = "{where}"').replace(
        '_P_KIND = "values"', f'_P_KIND = "{kind}"').replace('_P_SCOPE = "all"', f'_P_SCOPE = "{scope}"')
    text = (head + f"\n_P_ENTRY = {exercise.entry_point!r}\n" + (SAMPLES / sample).read_text(encoding="utf-8")
            + (PROBES / "lookup_probe_tail.py").read_text(encoding="utf-8"))
    path = tmp_path / f"probe_{where.replace(':', '')}_{kind}_{scope}.py"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("warm", [False, True], ids=["posix", "posix+fork-server"])
@pytest.mark.parametrize("exercise_id, sample, examples", EXERCISES, ids=[e[0] for e in EXERCISES])
def test_no_lookup_of_the_harness_runs_student_code_on_its_thread(exercise_id, sample, examples, warm, tmp_path):
    exercise = exercises.load(exercise_id)
    bank = banks.build(exercise, seed=11, examples=examples)
    if exercise.agent is not None:  # the object route's own positions: one of each group makes every kind of call (62 -> 14)
        firsts = {}
        for case in bank.cases:
            firsts.setdefault(case.group, case)
        bank = banks.Bank(bank.exercise_id, bank.seed, bank.examples, list(firsts.values()))
    launcher = launch.choose("posix")
    if warm:
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    ran_outside, seen_inside, verdicts = [], 0, []
    try:
        for where, kind, scope in PLANTINGS:
            result = judge.grade(submissions.load(_probe(tmp_path, exercise, sample, where, kind, scope)), exercise,
                                 bank, launcher)
            lines = result.output["stderr"].splitlines()
            ran_outside += [(where, kind, scope, line[:300]) for line in lines if line.startswith("MAIN-CALL")]
            seen_inside += sum(line.startswith("LOAD-CALL") for line in lines)
            verdicts.append((where, kind, scope, result.score, result.max_score, result.error))
    finally:
        if warm:
            launcher.close()
    assert ran_outside == [], sorted({r[:3] + (" < ".join(r[3].split(" < ")[:6]),) for r in ran_outside})
    # Each probe was graded: full marks, or a verdict of tampering (never a grader failure, never a timeout)
    for where, kind, scope, score, max_score, error in verdicts:
        assert (score == max_score == exercise.max_score) or (score == 0 and "tampered" in (error or "")), (
            where, kind, scope, score, max_score, error)
    # The probe works: planted as the file loads, its notes from inside the load (the loader's own lookups, on the
    # runner thread the files load on) show
    assert seen_inside > 0
