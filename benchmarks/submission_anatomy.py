"""Where one graded submission's time goes: its requests, cases, the frames its child wrote, and the CPU of each side.

``against_revision.py`` says whether grading got slower; this says where the time is, so a change can be aimed at
it. It grades a class of ctp-26 samples (half correct, half buggy, as ``against_revision.py`` builds it) one after
the other in this process, the way a pool worker does (the worker's own functions, its warm fork server), and
prints per submission:

  * the requests and the cases they carried (the first pass, the consistency pass, the audit, shrinking);
  * the frames the child wrote besides its replies: questions (each a round trip: the child waits for the answer)
    and notes (one way: the harness's "case N begins", a helper's expansion), which the grading process serves;
  * the grading process's CPU time, all of it and the part spent inside requests (serving those frames);
  * the machine's CPU time (Linux: ``/proc/stat``, every process, so run it on a quiet machine), and the wall time.

The frames are counted by wrapping ``Session._serve`` in this process: the figures are the grader's own, nothing
the child says. Each measure is the median of ``--rounds`` passes over the class after one warm-up pass.

    python benchmarks/submission_anatomy.py [--size 20] [--rounds 3] [--exercise ctp-26]

Prints figures, judges nothing; exit status 0.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import throwaway  # noqa: E402
throwaway.private_cache("minimax-bench-cache-")

from against_revision import build_class  # noqa: E402
from worker_pass import grade_class, machine_busy_seconds, warm_worker  # noqa: E402
from grader.sandbox import session as sessions  # noqa: E402


class Counting:
    """Counts what the grading process serves and times its requests, by wrapping two Session methods."""

    def __init__(self):
        self.counts = collections.Counter()
        self.request_cpu = 0.0
        self._serve, self._request = sessions.Session._serve, sessions.Session.request

    def install(self) -> None:
        counting = self

        def serve(session, kind, number, message, question=None):
            counting.counts["questions" if kind == sessions.QUESTION else "notes"] += 1
            return counting._serve(session, kind, number, message, question)

        def request(session, message, timeout):
            counting.counts["requests"] += 1
            counting.counts["cases"] += len(message.get("cases") or ())
            started = time.thread_time()
            try:
                return counting._request(session, message, timeout)
            finally:
                counting.request_cpu += time.thread_time() - started

        sessions.Session._serve, sessions.Session.request = serve, request

    def reset(self) -> None:
        self.counts.clear()
        self.request_cpu = 0.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--exercise", default="ctp-26")
    args = parser.parse_args(argv)

    folder = Path(throwaway.folder("minimax-anatomy-")) / "class"
    build_class(folder, args.size)
    files = sorted(folder.glob("*.py"))
    exercise, bank, launcher, warm = warm_worker(args.exercise)
    counting = Counting()
    counting.install()
    rows = collections.defaultdict(list)
    try:
        warm = grade_class(files, exercise, bank, launcher, warm)  # warm-up: caches, the fork server's pool
        for _ in range(args.rounds):
            counting.reset()
            machine, cpu, wall = machine_busy_seconds(), time.process_time(), time.perf_counter()
            warm = grade_class(files, exercise, bank, launcher, warm)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            for name, count in counting.counts.items():
                rows[name].append(count / len(files))
            rows["grading process CPU, ms"].append(cpu * 1000 / len(files))
            rows["  of which inside requests, ms"].append(counting.request_cpu * 1000 / len(files))
            if machine is not None:
                rows["machine CPU, every process, ms"].append((machine_busy_seconds() - machine) * 1000 / len(files))
            rows["wall, ms"].append(wall * 1000 / len(files))
    finally:
        if warm is not None:
            warm.close()
    print(f"{args.exercise}, a class of {len(files)} (half correct, half buggy), graded one after the other with "
          f"{launcher.name}; per submission, the median of {args.rounds} passes:")
    for name in ("requests", "cases", "questions", "notes", "grading process CPU, ms", "  of which inside requests, ms",
                 "machine CPU, every process, ms", "wall, ms"):
        if rows.get(name):
            print(f"  {name:<34} {statistics.median(rows[name]):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
