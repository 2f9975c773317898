"""What naming the mistake costs: grading buggy submissions with and without diagnosis.

Diagnosis (matching the answers against the exercise's mistake models, the state probe and
the localisation calls through the open sandbox) runs only for failing submissions, so it is
measured on buggy ones. For each sample this script grades the submission N times with
diagnosis and N times without, alternating the two so that the machine's load falls on both
alike, and prints the median wall time of each, the ratio, and the ratio over all samples
(the sum of the medians with, over the sum without). The target is at most 1.30.

On a busy machine the two medians wobble by more than diagnosis costs, so the script also
times the diagnosis step itself inside the runs with it, and prints that time over the rest
of the same run: the share diagnosis adds, free of the noise between runs.

    python benchmarks/diagnosis_cost.py [--runs 7] [SAMPLE.py ...]

The bank is built (or read from the cache) once before timing: a student's or an
instructor's repeated runs never pay for it. Exit status 0 whether or not the target is met.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUGGY = ROOT / "fixtures" / "submissions" / "ctp-26" / "buggy"
DEFAULT_SAMPLES = ["min_max_swapped.py", "no_alternation.py", "depth_off_by_one.py", "missing_terminal_check.py",
                   "state_across_calls.py", "hardcoded_answer.py", "own_value_table.py", "mutates_tree.py"]
TARGET = 1.30


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("samples", nargs="*", type=Path)
    args = parser.parse_args()
    import throwaway
    throwaway.private_cache("minimax-grader-bench-")
    sys.path.insert(0, str(ROOT))

    from grader.judging import bank as banks
    from grader.judging import exercise as exercises
    from grader.judging import judge, submissions
    from grader.sandbox import launch

    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise)
    launcher = launch.choose()
    samples = args.samples or [BUGGY / name for name in DEFAULT_SAMPLES]

    spent = [0.0]
    diagnose_step = judge._diagnose

    def measured(*args, **kwargs):
        start = time.perf_counter()
        try:
            return diagnose_step(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    judge._diagnose = measured

    def timed(path: Path, diagnose: bool, inside: list | None = None) -> float:
        spent[0] = 0.0
        start = time.perf_counter()
        result = judge.grade(submissions.load(path), exercise, bank, launcher, diagnose=diagnose)
        elapsed = time.perf_counter() - start
        if inside is not None:
            inside.append(spent[0] / max(elapsed - spent[0], 1e-9))
        if result.status != "failed":
            raise SystemExit(f"{path.name}: expected a failing submission, got {result.status} ({result.error})")
        return elapsed

    print(f"sandbox {launcher.name}, {len(bank.cases)} cases, {args.runs} runs each, medians in seconds")
    print(f"{'sample':<28} {'without':>8} {'with':>8} {'ratio':>6} {'step share':>11}")
    total_without = total_with = 0.0
    shares = []
    for path in samples:
        timed(path, True)  # warm-up: imports, template and module caches
        without, with_, inside = [], [], []
        for _ in range(args.runs):
            without.append(timed(path, False))
            with_.append(timed(path, True, inside))
        a, b = statistics.median(without), statistics.median(with_)
        total_without += a
        total_with += b
        shares.append(statistics.median(inside))
        print(f"{path.name:<28} {a:8.3f} {b:8.3f} {b / a:6.2f} {shares[-1]:10.1%}")
    ratio = total_with / total_without
    print(f"{'all samples':<28} {total_without:8.3f} {total_with:8.3f} {ratio:6.2f}   "
          f"(target <= {TARGET:.2f}: {'met' if ratio <= TARGET else 'NOT met'})")
    worst = max(shares)
    print(f"diagnosis step itself: median share {statistics.median(shares):.1%} of the rest of the run, "
          f"worst sample {worst:.1%} (target <= {TARGET - 1:.0%}: {'met' if worst <= TARGET - 1 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
