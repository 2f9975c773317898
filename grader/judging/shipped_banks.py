"""The public case banks (seed 26, the default number of random cases), shipped in the package.

A student's first check on a fresh machine used to build the bank with hypothesis first, about
three times the cost of every later check. The built-in exercises' public banks are therefore
built once, at release, and shipped gzipped beside this module (``grader/judging/banks/``). Each file
says which exercise fingerprint, grader version and hypothesis version it was built from, and
is used only when the fingerprint and grader version match: an exercise that changed, or an
instructor's own exercise, is built as before, so a stale file can cost time, never a verdict.

Regenerate after changing an exercise: ``python -m grader.judging.shipped_banks`` (the test suite
fails until then: ``tests/test_shipped_banks.py``); building and writing them is ``bank_release``'s,
so that this module, which ``bank`` and ``diagnose`` read, imports neither.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from grader.version import __version__

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
    # The object route's modules (kit/agent_*.py) run no mistake model (their MODELS are empty): left out, so
    # editing them leaves every other exercise's shipped predictions good.
    kit = [p for p in sorted((here.parent / "kit").glob("*.py")) if not p.name.startswith("agent_")]
    for path in kit + [here / "predictions.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


if __name__ == "__main__":  # the release step lives in bank_release.py, which builds on this module
    from grader.judging.bank_release import main

    main()
