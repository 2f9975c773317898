"""A student's first check on a fresh machine against the next one, for every exercise.

The first `minimax-grader check` used to build the exercise's case bank with hypothesis (and
compile the report templates, copy the child's library) before grading: about three times
the wait of every later check. This script measures, in the same run, for each built-in
exercise and a correct sample of it:

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
}


def measure(exercise_id: str, runs: int, scratch: Path) -> tuple[float, float]:
    sample = ROOT / "fixtures" / "submissions" / SAMPLES[exercise_id]
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
    parser.add_argument("--exercise", action="append", choices=sorted(SAMPLES), help="only these exercises")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print(f"first check with an empty cache against the next one (median of {args.runs}, target <= {TARGET}x)")
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="minimax-grader-cold-") as scratch:
        for exercise_id in args.exercise or sorted(SAMPLES):
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
