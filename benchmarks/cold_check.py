"""A student's first check on a fresh machine against the next one, for every exercise.

The first `minimax-grader check` used to build the exercise's case bank with hypothesis (and
compile the report templates, copy the child's library) before grading: about three times
the wait of every later check. This script measures, in the same run, for every exercise
`minimax-grader exercises` lists and a correct sample of it:

  * cold: `check` with MINIMAX_GRADER_CACHE pointing to a new, empty folder,
  * warm: `check` again with that same folder (everything cached),

each as the median wall time of N pairs in fresh subprocesses (cold and warm alternate, so the
machine's load touches both alike), and prints the ratio cold / warm against the target 1.5x.

    python benchmarks/cold_check.py [--runs 5] [--exercise ID ...]

Exit status 0 whether or not the target is met (it reports; it does not judge), unless a run
itself fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import grader_command, timed  # noqa: E402  (the same way of timing a run)

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5
SAMPLES = {  # a correct sample per exercise: every check runs, nothing to shrink
    "ctp-26": "ctp-26/correct/published_style.py",
    "alphabeta": "alphabeta/correct/textbook.py",
    "aima-isolation": "aima-isolation/correct/one_file_textbook.py",
    "tictactoe": "tictactoe/correct/published_style.py",
    "best-move": "best-move/correct/seed_style.py",
}  # any other exercise: its first correct sample (see sample_of)


def listed_exercises() -> list[str]:
    """Every exercise `minimax-grader exercises` lists (so a new one is measured without an edit here)."""
    sys.path.insert(0, str(ROOT))
    from grader.doors import api

    return sorted(exercise_id for exercise_id, _ in api.list_exercises())


def sample_of(exercise_id: str) -> Path:
    """The exercise's correct sample: the one named above, else the first in fixtures/submissions/ID/correct/."""
    submissions = ROOT / "fixtures" / "submissions"
    if exercise_id in SAMPLES:
        return submissions / SAMPLES[exercise_id]
    found = sorted((submissions / exercise_id / "correct").glob("*.py"))
    if not found:
        raise SystemExit(f"cold_check: {exercise_id} has no correct sample in {submissions / exercise_id / 'correct'}")
    return found[0]


def measure(exercise_id: str, runs: int, scratch: Path) -> tuple[float, float]:
    sample = sample_of(exercise_id)
    argv = grader_command() + ["check", str(sample), "--exercise", exercise_id]
    cold, warm = [], []
    for i in range(runs):
        cache = scratch / f"{exercise_id}-{i}"  # new and empty: nothing built, compiled or copied yet
        env = {**os.environ, "MINIMAX_GRADER_CACHE": str(cache)}
        cold.append(timed(argv, env, scratch, {0}))
        warm.append(timed(argv, env, scratch, {0}))
    return statistics.median(cold), statistics.median(warm)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold/warm pairs per exercise (default 5)")
    parser.add_argument("--exercise", action="append", help="only these exercises (default: every one listed)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    listed = listed_exercises()
    unknown = sorted(set(args.exercise or ()) - set(listed))
    if unknown:
        parser.error(f"unknown exercise {', '.join(unknown)} (listed: {', '.join(listed)})")
    print(f"first check with an empty cache against the next one (median of {args.runs}, target <= {TARGET}x)")
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="minimax-grader-cold-") as scratch:
        for exercise_id in args.exercise or listed:
            cold, warm = measure(exercise_id, args.runs, Path(scratch))
            ratio = cold / warm
            worst = max(worst, ratio)
            verdict = "ok" if ratio <= TARGET else "over target"
            print(f"{exercise_id:<16} cold {cold * 1000:6.0f} ms   warm {warm * 1000:6.0f} ms   "
                  f"= {ratio:4.2f}x ({verdict})")
    print(f"worst ratio {worst:.2f}x (target <= {TARGET}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
