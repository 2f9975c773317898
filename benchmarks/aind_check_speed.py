"""How long `minimax-grader check` takes on an aind-isolation agent, against a ctp-26 check in the same run.

The object route asks the grading process about every expansion, score and clock read, so an agent
check makes thousands of small round trips; this prints what that costs next to the cheapest kit
check (ctp-26), each the median wall time of N fresh `check` processes after one warm-up each,
interleaved so that load elsewhere on the machine hits both alike. Target: an aind-isolation check
in under 2 s.

    python benchmarks/aind_check_speed.py [--runs 5]

Exit status 0 whether or not the target is met (it reports; it does not judge), unless a run fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_speed import grader_command, timed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"
TARGET_SECONDS = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per command (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    scratch = Path(tempfile.mkdtemp(prefix="minimax-grader-aind-bench-"))
    try:
        env = dict(os.environ)
        env.setdefault("MINIMAX_GRADER_CACHE", str(scratch / "cache"))
        command = grader_command()
        checks = {
            "ctp-26": command + ["check", str(SUBMISSIONS / "ctp-26" / "correct" / "published_style.py"),
                                 "--exercise", "ctp-26"],
            "aind-isolation": command + ["check", str(SUBMISSIONS / "aind-isolation" / "correct" / "textbook.py"),
                                         "--exercise", "aind-isolation"],
        }
        for argv_ in checks.values():  # warm-up: the case banks, the templates, the OS file cache
            timed(argv_, env, scratch, {0})
        samples: dict[str, list[float]] = {name: [] for name in checks}
        for _ in range(args.runs):
            for name, argv_ in checks.items():
                samples[name].append(timed(argv_, env, scratch, {0}))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    base = medians["ctp-26"]
    aind = medians["aind-isolation"]
    print(f"runs per command: {args.runs} (median wall time, warm case-bank cache)")
    print(f"  check ctp-26 (published_style.py)     : {base * 1000:7.0f} ms  (baseline)")
    print(f"  check aind-isolation (textbook.py)    : {aind * 1000:7.0f} ms  = {aind / base:4.2f}x ctp-26 "
          f"(target < {TARGET_SECONDS:g} s: {'met' if aind < TARGET_SECONDS else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
