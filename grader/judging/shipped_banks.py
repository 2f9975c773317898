"""The public case banks (seed 26, the default number of random cases), shipped in the package.

A student's first check on a fresh machine used to build the bank with hypothesis first, about
three times the cost of every later check. The built-in exercises' public banks are therefore
built once, at release, and shipped gzipped beside this module (``grader/judging/banks/``). Each file
says which exercise fingerprint, grader version and hypothesis version it was built from, and
is used only when the fingerprint and grader version match: an exercise that changed, or an
instructor's own exercise, is built as before, so a stale file can cost time, never a verdict.

Regenerate after changing an exercise: ``python -m grader.judging.shipped_banks`` (the test suite
fails until then: ``tests/test_shipped_banks.py``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from grader import __version__

FOLDER = Path(__file__).with_name("banks")


def path_of(exercise_id: str) -> Path:
    return FOLDER / f"{exercise_id}.json.gz"


def load(exercise, seed: int, examples: int) -> list[dict] | None:
    """The shipped cases of ``exercise`` for exactly this seed and count, or None."""
    found = load_with_predictions(exercise, seed, examples)
    return None if found is None else found[0]


def load_with_predictions(exercise, seed: int, examples: int) -> tuple[list[dict], dict | None] | None:
    """(the shipped cases, what the exercise's mistake models predict on each, or None), or None.

    The predictions (``{"fingerprint": ..., "by_model": {model key: [prediction per case]}}``) are what
    ``grader.judging.diagnose`` would compute for every model on every public case: a failing check
    reads them instead of running some forty wrong searches per case. Whether they still hold is asked
    when they are used (``predictions_fingerprint``), so a passing check pays nothing for them."""
    path = path_of(exercise.id)
    if not path.is_file():
        return None
    try:
        data = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (OSError, ValueError, EOFError):
        return None
    wanted = {"fingerprint": exercise.fingerprint, "grader_version": __version__, "seed": seed, "examples": examples}
    if any(data.get(key) != value for key, value in wanted.items()) or not isinstance(data.get("cases"), list):
        return None
    predictions = data.get("predictions")
    return data["cases"], predictions if isinstance(predictions, dict) else None


def predictions_fingerprint() -> str:
    """The grader code a mistake model's prediction comes from besides the exercise's own folder (which the
    exercise's fingerprint covers): the kit, which the models are written with, and
    ``grader.judging.predictions``, which runs them. Shipped predictions made by other code are never used."""
    import hashlib

    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    for path in sorted((here.parent / "kit").glob("*.py")) + [here / "predictions.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def predictions_of(exercise, cases) -> dict | None:
    """Every mistake model's prediction on every case, in the shape ``load_with_predictions`` returns;
    None for an exercise without models, or whose models answer differently when asked in another order
    (a search cut off by its budget can depend on what was searched before): those are computed when used."""
    import subprocess
    import sys

    forward = _predict_all(exercise.id, cases)
    if forward is None:
        return None
    script = ("import json, sys\nfrom grader.judging import shipped_banks\n"
              "data = json.load(sys.stdin)\n"
              "print(json.dumps(shipped_banks._predict_all(data['id'], data['cases'], backwards=True)))")
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps({"id": exercise.id, "cases": cases}),
                          capture_output=True, text=True, check=True)
    if json.loads(done.stdout) != json.loads(json.dumps(forward)):
        print(f"{exercise.id}: its models answer differently in another order; no predictions shipped")
        return None
    return {"fingerprint": predictions_fingerprint(), "by_model": forward}


def _predict_all(exercise_id: str, cases: list[dict], backwards: bool = False) -> dict | None:
    from grader.judging import diagnose
    from grader.judging import exercise as exercises
    from grader.judging.predictions import model_keys, predict

    models = getattr(diagnose.mistakes_of(exercises.load(exercise_id)), "MODELS", ())
    if not models:
        return None
    inputs = [c["input"] for c in cases]
    order = range(len(inputs) - 1, -1, -1) if backwards else range(len(inputs))
    by_model = {}
    for key, model in model_keys(models).items():
        column = [None] * len(inputs)
        for index in order:
            column[index] = list(predict(model, inputs[index]))
        by_model[key] = column
    return by_model


def write(exercise, seed: int, examples: int, cases: list[dict], predictions: dict | None = None) -> Path:
    import hypothesis

    FOLDER.mkdir(exist_ok=True)
    data = {"exercise": exercise.id, "fingerprint": exercise.fingerprint, "grader_version": __version__,
            "hypothesis_version": hypothesis.__version__, "seed": seed, "examples": examples, "cases": cases}
    if predictions is not None:
        data["predictions"] = predictions
    path = path_of(exercise.id)
    # mtime=0: the same bank gives the same bytes, so regenerating without a change is no diff.
    path.write_bytes(gzip.compress(json.dumps(data, sort_keys=True).encode("utf-8"), mtime=0))
    return path


def regenerate(exercise_ids=None) -> list[Path]:
    """Builds every built-in exercise's public bank afresh and ships it."""
    from grader.judging import bank
    from grader import paths
    from grader.judging import exercise as exercises

    written = []
    for exercise_id, loaded in sorted(exercises.load_all([]).items()):
        if exercise_ids and exercise_id not in exercise_ids:
            continue
        if loaded.folder.resolve().parent != paths.exercises_dir().resolve():
            continue  # only the grader's own exercises ship a bank
        built = bank.build(loaded, bank.PUBLIC_SEED, use_cache=False, use_shipped=False)
        cases = [c.to_data() for c in built.cases]
        written.append(write(loaded, built.seed, built.examples, cases, predictions_of(loaded, cases)))
    return written


def main() -> None:
    import sys

    for path in regenerate(sys.argv[1:] or None):
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
