"""How long a student waits for `minimax-grader check`, against the cost of merely importing its libraries.

A student runs `check` again and again while fixing their code, so it should cost little
more than starting Python with the libraries the grader is built on. This script measures,
in the same run and on the same machine (so the load of the machine cancels out):

  * the bare `python -c "import anytree, hypothesis, jinja2"` (the baseline),
  * `minimax-grader check` on a correct sample (every check runs, nothing to shrink),
  * `minimax-grader check` on a buggy sample (failures are shrunk to a smallest tree),

each as the median wall time of N runs in a fresh subprocess, after one warm-up run that
fills the case-bank cache (as a student's first run does). It prints the three medians and
the two ratios against the targets: correct within 2.5x the baseline, buggy within 5x.

    python benchmarks/check_speed.py [--runs 7] [--correct PATH] [--buggy PATH] [--exercise ID]

Exit status 0 whether or not the targets are met (it reports; it does not judge), unless a
run itself fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "ctp-26"
TARGETS = {"correct": 2.5, "buggy": 5.0}


def grader_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m grader``."""
    script = Path(sys.executable).with_name("minimax-grader" + (".exe" if os.name == "nt" else ""))
    if script.exists():
        return [str(script)]
    found = shutil.which("minimax-grader")
    return [found] if found else [sys.executable, "-m", "grader"]


def timed(argv: list[str], env: dict, cwd: Path, expect: set[int]) -> float:
    """Wall time of one run in a fresh process; a run that ends the wrong way stops the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if done.returncode not in expect:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    parser.add_argument("--correct", type=Path, default=SAMPLES / "correct" / "published_style.py")
    parser.add_argument("--buggy", type=Path, default=SAMPLES / "buggy" / "always_max.py")
    parser.add_argument("--exercise", default="ctp-26", help="the exercise the samples are for (default ctp-26)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    import throwaway
    scratch = Path(throwaway.folder("minimax-grader-bench-"))
    try:
        env = dict(os.environ)
        env.setdefault("MINIMAX_GRADER_CACHE", str(scratch / "cache"))
        env.pop("NO_COLOR", None)
        command = grader_command()
        check_correct = command + ["check", str(args.correct.resolve()), "--exercise", args.exercise]
        check_buggy = command + ["check", str(args.buggy.resolve()), "--exercise", args.exercise]
        baseline = [sys.executable, "-c", "import anytree, hypothesis, jinja2"]

        # Warm-up: build and cache the case bank, compile the templates, fill the OS file cache.
        timed(check_correct, env, scratch, {0})
        timed(check_buggy, env, scratch, {1})
        timed(baseline, env, scratch, {0})

        # Interleave the three so a burst of load elsewhere hits them alike.
        samples = {"import": [], "correct": [], "buggy": []}
        for _ in range(args.runs):
            samples["import"].append(timed(baseline, env, scratch, {0}))
            samples["correct"].append(timed(check_correct, env, scratch, {0}))
            samples["buggy"].append(timed(check_buggy, env, scratch, {1}))
        medians = {name: statistics.median(values) for name, values in samples.items()}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    base = medians["import"]
    print(f"runs per command: {args.runs} (median wall time, warm case-bank cache)")
    print(f"  import anytree, hypothesis, jinja2 : {base * 1000:7.0f} ms  (baseline)")
    for name in ("correct", "buggy"):
        ratio = medians[name] / base
        ok = ratio <= TARGETS[name]
        sample = args.correct if name == "correct" else args.buggy
        print(f"  check {name:<7} ({sample.name}){'':<{max(0, 21 - len(sample.name))}}: {medians[name] * 1000:7.0f} ms"
              f"  = {ratio:4.2f}x baseline (target <= {TARGETS[name]}x: {'met' if ok else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
