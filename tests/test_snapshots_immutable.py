"""Every driver's "before" snapshot is immutable all the way down.

The harness keeps the snapshot while the student's code runs, and that code can find it with
``gc``: a list or dict inside could be rewritten in place to match a tree the call changed (the
review's ``forge_callseal_slots`` did exactly that). Tuples, strings, numbers and bytes cannot be,
and neither can a weak reference point elsewhere (the tree driver holds the root it walks from so).
"""

from __future__ import annotations

import importlib.util

import pytest

from grader.judging import bank as banks
from grader.judging import exercise as exercises

import weakref

IMMUTABLE = (tuple, str, int, float, bool, bytes, type(None), weakref.ref)


def _mutable_part(value, path="snapshot"):
    kind = type(value)
    frozen_tuple = issubclass(kind, tuple) and all(vars(k).get("__slots__", ()) == () for k in kind.__mro__[:-2])
    if kind not in IMMUTABLE and not frozen_tuple:
        return f"{path} is a {kind.__name__}"
    if frozen_tuple:
        for index, item in enumerate(value):
            found = _mutable_part(item, f"{path}[{index}]")
            if found:
                return found
    return None


@pytest.mark.parametrize("exercise_id", ["ctp-26", "alphabeta", "tictactoe", "best-move", "connect-four", "nim"])
def test_snapshots_hold_nothing_mutable(exercise_id):
    exercise = exercises.load(exercise_id)
    bank = banks.build(exercise, seed=5, examples=6)
    spec = importlib.util.spec_from_file_location(f"_snapshot_probe_{exercise_id.replace('-', '_')}",
                                                  exercise.driver_path)
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    cases = bank.cases[:8]
    assert cases
    for case in cases:
        built = driver.build(case.to_request()["input"])
        snapshot = driver.snapshot(built)
        assert _mutable_part(snapshot) is None, (exercise_id, _mutable_part(snapshot))
        assert driver.snapshot(built) == snapshot
