"""What one question of the child costs the grader, against a bare pipe round trip measured in the same run.

Every evaluation whose call is evidence is a round trip child -> grading process over the session's
channel (issue 21): the child's helper asks (``MMGQ``), blocks, and the grading process answers from
its oracle and logs the question. This prints, per question, the wall time and the CPU time of each
side in a real session (the launcher this machine chooses; a submission that asks ``get_value``
2,000 times per call, so nothing but questions is measured), and the round trip of two bare
processes writing one byte to each other over pipes, each in a session of its own as the sandbox's
child is (``setsid``), in the same run. The difference is the harness's and the session's own work;
what is common to both is the machine's: two wake-ups per question, which a loaded machine
stretches (every question waits for a CPU twice).

    python benchmarks/question_round_trip.py [--runs 5]

Prints figures, judges nothing; exit status 0.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))  # noqa: E402 - this folder's helpers
import throwaway  # noqa: E402
throwaway.private_cache("minimax-bench-cache-")

from grader.judging import exercise as exercises  # noqa: E402
from grader.judging.bank import build  # noqa: E402
from grader.sandbox import launch  # noqa: E402
from grader.sandbox.session import Session  # noqa: E402
from worker_pass import descendants_seconds  # noqa: E402

QUESTIONS = 2000
ASKER = f"""
def minimax(node, max_depth, player_a_moves):
    total = 0
    for _ in range({QUESTIONS}):
        total += get_value(node)
    return total
"""


def session_questions(runs: int) -> dict:
    exercise = exercises.load("ctp-26")
    case = build(exercise, examples=0).cases[0].to_request()
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "asker.py"
        source.write_text(ASKER, encoding="utf-8")
        with Session(source, exercise, launch.choose()) as session:
            assert session.open().get("ok"), "the asking submission did not load"
            session.run([case])  # warm
            pid = getattr(session.process, "pid", None)
            child = descendants_seconds(pid, with_root=True) if pid else None
            own, walls = time.process_time(), []
            for _ in range(runs):
                started = time.perf_counter()
                session.run([case])
                walls.append(time.perf_counter() - started)
            own = time.process_time() - own
            child = (descendants_seconds(pid, with_root=True) - child) if child is not None else None
    count = runs * QUESTIONS
    return {"wall": statistics.median(walls) / QUESTIONS * 1e6, "grader_cpu": own / count * 1e6,
            "child_cpu": child / count * 1e6 if child is not None else None}


def bare_round_trip(count: int = 5000) -> float | None:
    """Microseconds per round trip of one byte between two processes in sessions of their own (POSIX)."""
    if not hasattr(os, "fork"):
        return None
    to_child, from_child = os.pipe(), os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            for _ in range(count):
                os.read(to_child[0], 1)
                os.write(from_child[1], b"a")
        finally:
            os._exit(0)
    started = time.perf_counter()
    for _ in range(count):
        os.write(to_child[1], b"q")
        os.read(from_child[0], 1)
    elapsed = time.perf_counter() - started
    os.waitpid(pid, 0)
    for fd in (*to_child, *from_child):
        os.close(fd)
    return elapsed / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bare_before = bare_round_trip()
    found = session_questions(args.runs)
    bare_after = bare_round_trip()
    bare = None if bare_before is None else (bare_before + bare_after) / 2
    try:
        load = Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        load = "?"
    print(f"per question ({QUESTIONS} a call, median of {args.runs} calls; load {load}):")
    print(f"  wall                 {found['wall']:7.1f} us")
    print(f"  grading process CPU  {found['grader_cpu']:7.1f} us")
    if found["child_cpu"] is not None:
        print(f"  child CPU            {found['child_cpu']:7.1f} us")
    if bare is not None:
        print(f"  bare pipe round trip {bare:7.1f} us (same run): a question costs x{found['wall'] / bare:.1f} of it")


if __name__ == "__main__":
    main()
