"""The public case banks ship in the package, so a first check costs what the next one does;
they are exactly what building gives, and never used for an exercise that changed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader import bank, shipped_banks
from grader import exercise as exercises

BUILT_IN = ["aima-isolation", "alphabeta", "best-move", "ctp-26", "tictactoe"]


@pytest.mark.parametrize("exercise_id", BUILT_IN)
def test_the_shipped_bank_is_exactly_the_built_one(exercise_id):
    loaded = exercises.load(exercise_id)
    shipped = shipped_banks.load(loaded, bank.PUBLIC_SEED, loaded.random_examples)
    assert shipped is not None, (f"grader/banks/{exercise_id}.json.gz is missing or stale (the exercise changed): "
                                 f"regenerate it with `python -m grader.shipped_banks {exercise_id}`")
    built = [c.__dict__ for c in bank.build(loaded, use_cache=False, use_shipped=False).cases]
    fixed = [c for c in built if c["group"] != "random"]
    assert [c for c in shipped if c["group"] != "random"] == fixed
    assert len(shipped) == len(built)
    import gzip, json  # noqa: E401
    import hypothesis

    made_with = json.loads(gzip.decompress(shipped_banks.path_of(exercise_id).read_bytes()))["hypothesis_version"]
    if made_with == hypothesis.__version__:  # the random draws are hypothesis's: equal under the same version
        assert shipped == built


def test_a_changed_exercise_builds_its_own_bank():
    loaded = exercises.load("ctp-26")
    changed = SimpleNamespace(id="ctp-26", fingerprint="0" * 16)  # what an edited exercise looks like
    assert shipped_banks.load(changed, bank.PUBLIC_SEED, loaded.random_examples) is None
    assert shipped_banks.load(loaded, bank.PUBLIC_SEED + 1, loaded.random_examples) is None  # another seed
    assert shipped_banks.load(loaded, bank.PUBLIC_SEED, 7) is None  # another number of random cases


def test_a_first_check_reads_the_shipped_bank(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "empty-cache"))
    loaded = exercises.load("ctp-26")
    monkeypatch.setattr(bank, "random_inputs", lambda *a, **k: pytest.fail("the bank was built, not read"))
    built = bank.build(loaded)
    assert len(built.cases) == 4 + 43 + 200


def test_the_cold_check_benchmark_runs_once():
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "cold_check.py"
    done = subprocess.run([sys.executable, str(script), "--runs", "1", "--exercise", "ctp-26"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"ctp-26 +cold +\d+ ms +warm +\d+ ms += +[0-9.]+x", done.stdout), done.stdout
