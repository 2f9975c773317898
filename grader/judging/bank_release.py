"""Building the shipped public banks at release: ``python -m grader.judging.shipped_banks`` runs ``main``.

Each built-in exercise's public bank is built afresh (``bank.build``), every mistake model's
prediction on every case is computed (forwards, and backwards in a second process, shipped only when
both agree) and the file is written beside ``shipped_banks``, which reads it. Kept apart from
``shipped_banks`` because it needs the bank builder and the diagnosis, which read the shipped files.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from grader.judging.shipped_banks import FOLDER, path_of, predictions_fingerprint
from grader.version import __version__


def predictions_of(exercise, cases) -> dict | None:
    """Every mistake model's prediction on every case, in the shape ``load_with_predictions`` returns;
    None for an exercise without models, or whose models answer differently when asked in another order
    (a search cut off by its budget can depend on what was searched before): those are computed when used."""
    import subprocess
    import sys

    forward = _predict_all(exercise.id, cases)
    if forward is None:
        return None
    script = ("import json, sys\nfrom grader.judging import bank_release\n"
              "data = json.load(sys.stdin)\n"
              "print(json.dumps(bank_release._predict_all(data['id'], data['cases'], backwards=True)))")
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
