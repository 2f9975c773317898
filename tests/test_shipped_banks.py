"""The public case banks ship in the package, so a first check costs what the next one does;
they are exactly what building gives, and never used for an exercise that changed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.judging import bank, shipped_banks
from grader.judging import exercise as exercises

BUILT_IN = ["aima-isolation", "aind-isolation", "aind-isolation-custom-player", "alphabeta", "best-move", "coin-row",
            "connect-four", "ctp-26", "multiagent", "nim", "tictactoe", "twin-heaps"]


def test_every_built_in_exercise_ships_its_bank():
    """A new exercise in the package is listed above, so the test below checks its shipped bank."""
    from grader import paths

    assert sorted(p.parent.name for p in paths.exercises_dir().glob("*/exercise.toml")) == BUILT_IN


@pytest.mark.parametrize("exercise_id", BUILT_IN)
def test_the_shipped_bank_is_exactly_the_built_one(exercise_id):
    loaded = exercises.load(exercise_id)
    shipped = shipped_banks.load(loaded, bank.PUBLIC_SEED, loaded.random_examples)
    assert shipped is not None, (f"grader/judging/banks/{exercise_id}.json.gz is missing or stale (the exercise changed): "
                                 f"regenerate it with `python -m grader.judging.shipped_banks {exercise_id}`")
    built = [c.to_data() for c in bank.build(loaded, use_cache=False, use_shipped=False).cases]
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
    done = subprocess.run([sys.executable, str(script), "--runs", "1", "--exercise", "ctp-26", "--exercise", "nim"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for exercise_id in ("ctp-26", "nim"):
        assert re.search(exercise_id + r" +cold +\d+ ms +warm +\d+ ms += +[0-9.]+x", done.stdout), done.stdout


def test_the_cold_check_benchmark_covers_every_listed_exercise():
    """Every exercise `minimax-grader exercises` lists has a correct sample the benchmark runs."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import cold_check

    from grader.doors import api

    listed = sorted(exercise_id for exercise_id, _ in api.list_exercises())
    assert cold_check.listed_exercises() == listed and len(listed) >= 7
    for exercise_id in listed:
        assert cold_check.sample_of(exercise_id).is_file(), exercise_id


@pytest.mark.parametrize("exercise_id", ["nim", "connect-four"])
def test_a_first_check_of_a_kit_exercise_reads_the_shipped_bank(exercise_id, tmp_path, monkeypatch):
    """The kit exercises too: nothing is enumerated or drawn on a fresh machine."""
    from grader.kit import bank as kit_bank

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "empty-cache"))
    loaded = exercises.load(exercise_id)

    def refuse(*args, **kwargs):
        pytest.fail("the bank was built, not read")

    for name in ("fixture_cases", "reachable_cases"):
        monkeypatch.setattr(kit_bank, name, refuse)
    monkeypatch.setattr(bank, "random_inputs", refuse)
    built = bank.build(loaded)
    assert built.cases and {c.group for c in built.cases} <= {"fixtures", "reachable", "random"}


WITH_MODELS = ["aima-isolation", "alphabeta", "ctp-26"]  # the exercises whose mistakes are value models


@pytest.mark.parametrize("exercise_id", WITH_MODELS)
def test_the_shipped_predictions_are_exactly_what_the_models_answer(exercise_id):
    """Every model's shipped prediction on every public case is what the model answers now, and was made by
    this grader's kit and diagnosis (else: regenerate)."""
    from grader.judging import diagnose

    loaded = exercises.load(exercise_id)
    found = shipped_banks.load_with_predictions(loaded, bank.PUBLIC_SEED, loaded.random_examples)
    assert found is not None and found[1] is not None, f"no predictions shipped for {exercise_id}"
    cases, predictions = found
    assert predictions["fingerprint"] == shipped_banks.predictions_fingerprint(), (
        f"the shipped predictions of {exercise_id} were made by other kit or diagnosis code: regenerate them with "
        f"`python -m grader.judging.shipped_banks {exercise_id}`")
    models = diagnose.model_keys(diagnose.mistakes_of(loaded).MODELS)
    assert sorted(predictions["by_model"]) == sorted(models)
    for key, model in models.items():
        assert predictions["by_model"][key] == [list(diagnose._predict(model, c["input"])) for c in cases], key


def _predicted_inputs(monkeypatch):
    from grader.judging import diagnose

    asked = []
    real = diagnose._predict
    monkeypatch.setattr(diagnose, "_predict", lambda model, case_input: asked.append(case_input) or real(model, case_input))
    monkeypatch.setattr(diagnose, "_PREDICTIONS", {})
    return asked


def test_a_failing_check_reads_the_models_predictions_and_a_stale_table_is_not_read(monkeypatch):
    """A failing check of a public case reads what each model answers from the shipped table (the
    localisation's own questions are still asked of the models); a table made by other code is ignored,
    and the mistake named is the same either way."""
    from grader.doors import api
    from grader.judging import diagnose

    sample = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "ctp-26" / "buggy" / "always_max.py"
    loaded = exercises.load("ctp-26")
    public = {json_key(c.input) for c in bank.build(loaded).cases}
    asked = _predicted_inputs(monkeypatch)
    read = api.check(sample, "ctp-26", sandbox="posix")
    assert read.mistakes and not [i for i in asked if json_key(i) in public]

    diagnose._shipped_predictions_hold.cache_clear()
    monkeypatch.setattr(shipped_banks, "predictions_fingerprint", lambda: "0" * 16)
    try:
        asked = _predicted_inputs(monkeypatch)
        computed = api.check(sample, "ctp-26", sandbox="posix")
        assert len([i for i in asked if json_key(i) in public]) > 100
    finally:
        diagnose._shipped_predictions_hold.cache_clear()
    assert [m.code for m in computed.mistakes] == [m.code for m in read.mistakes] == ["always-max"]


def json_key(value) -> str:
    import json

    return json.dumps(value, sort_keys=True)
