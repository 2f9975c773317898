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
    return data["cases"]


def write(exercise, seed: int, examples: int, cases: list[dict]) -> Path:
    import hypothesis

    FOLDER.mkdir(exist_ok=True)
    data = {"exercise": exercise.id, "fingerprint": exercise.fingerprint, "grader_version": __version__,
            "hypothesis_version": hypothesis.__version__, "seed": seed, "examples": examples, "cases": cases}
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
        written.append(write(loaded, built.seed, built.examples, [c.__dict__ for c in built.cases]))
    return written


def main() -> None:
    import sys

    for path in regenerate(sys.argv[1:] or None):
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
