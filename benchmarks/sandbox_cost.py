"""What the sandbox costs per submission: start the child, load a solution, answer one case, stop.

Measured for each launcher this machine has (spawn: a plain child; posix: limits, uid drop as
root, seccomp; bwrap: all that inside a bubblewrap world), median over several runs, and
printed as milliseconds and as ratios against the plain child measured in the same run.

    python benchmarks/sandbox_cost.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MINIMAX_GRADER_CACHE", tempfile.mkdtemp(prefix="minimax-bench-cache-"))

from grader import exercise as exercises  # noqa: E402
from grader.bank import build  # noqa: E402
from grader.sandbox import launch  # noqa: E402
from grader.sandbox.session import Session  # noqa: E402

SOLUTION = ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "negamax.py"


def one_submission(launcher, exercise, case) -> float:
    started = time.perf_counter()
    session = Session(SOLUTION, exercise, launcher)
    try:
        assert session.open().get("ok"), "the solution did not load"
        session.run([case])
    finally:
        session.close()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    exercise = exercises.load("ctp-26")
    case = build(exercise, examples=0).cases[0].to_request()
    launchers = {"spawn": launch.Launcher("spawn", isolated=False), "posix": launch.Launcher("posix", isolated=True)}
    chosen = launch.choose("bwrap")
    if chosen.name == "bwrap":
        launchers["bwrap"] = chosen
    else:
        print(f"bwrap: not measured ({chosen.warning})")
    medians = {}
    for name, launcher in launchers.items():
        one_submission(launcher, exercise, case)  # warm the page cache and the child library folder
        times = []
        for _ in range(args.runs):
            times.append(one_submission(launcher, exercise, case))
        medians[name] = statistics.median(times)
    base = medians["spawn"]
    print(f"per submission (start, load, one call, stop), median of {args.runs} runs:")
    for name, value in medians.items():
        print(f"  {name:<6} {value:8.1f} ms   x{value / base:5.2f} of spawn   added {value - base:+7.1f} ms")
    from grader.sandbox import identity

    if identity.is_root() and not identity.python_readable_by_others():
        print(f"  (posix here preloads {len(identity.PRELOAD)} standard-library modules before dropping its uid: "
              "this Python is not readable by other uids)")
    if "bwrap" in medians:
        print(f"  bwrap over posix: {medians['bwrap'] - medians['posix']:+.1f} ms (x{medians['bwrap'] / medians['posix']:.2f})")


if __name__ == "__main__":
    main()
