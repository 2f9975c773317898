"""How long one `check` takes for the game exercises, against ctp-26 measured in the same run.

For each exercise it grades a correct and a buggy sample through ``grader.doors.api.check`` (the
case bank already built, as on a student's second run), REPEAT times each, and prints the
median wall-clock seconds and the ratio to ctp-26's. Both run on the same machine at the same
time, so the machine's load falls on all of them alike.

    python benchmarks/game_exercises_speed.py [--repeat 3]

Exit status 0 always: it reports, it does not judge.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {
    "ctp-26": ("correct/functional.py", "buggy/always_max.py"),
    "tictactoe": ("correct/published_style.py", "buggy/always_max.py"),
    "best-move": ("correct/seed_style.py", "buggy/always_max.py"),
    "nim": ("correct/textbook.py", "buggy/always_max.py"),
    "connect-four": ("correct/textbook.py", "buggy/sign_flip.py"),
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import throwaway
    throwaway.private_cache("minimax-grader-bench-")
    sys.path.insert(0, str(ROOT))
    from grader.doors import api
    from grader.judging import bank, exercise

    medians = {}
    for exercise_id, samples in SAMPLES.items():
        bank.build(exercise.load(exercise_id))  # the bank is cached: time what a second run costs
        for sample in samples:
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                result = api.check(ROOT / "fixtures" / "submissions" / exercise_id / sample, exercise_id)
                times.append(time.perf_counter() - started)
            medians[(exercise_id, sample)] = statistics.median(times)
            print(f"{exercise_id:10} {sample:32} {result.status:7} median {medians[(exercise_id, sample)]:.2f} s")
    for exercise_id, samples in SAMPLES.items():
        for i, sample in enumerate(samples):
            base = medians[("ctp-26", SAMPLES["ctp-26"][i])]
            print(f"{exercise_id:10} {('correct' if i == 0 else 'buggy'):8} {medians[(exercise_id, sample)] / base:.2f}x ctp-26")
    return 0


if __name__ == "__main__":
    sys.exit(main())
