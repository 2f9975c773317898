"""What one question costs: a submission's twin that asks more, graded alike, and the difference per question.

Every value a student's search reads is a question the grading process answers over the session's channel
(evidence by construction), a round trip through two processes that share a CPU. ``submission_anatomy.py`` says
how many a submission asks; this says what each costs, as a margin, so that nothing else a submission does is
counted: a correct ctp-26 sample, and its twin whose entry function asks the root's value EXTRA more times per
call before it searches (same answers, same cases), are graded one after the other in this process, the way a pool
worker does. Printed: the questions and the machine's CPU per submission of each, the CPU per extra question, and
for scale a bare round trip between two Python processes bound to one CPU (a byte each way, nothing parsed).

    python benchmarks/question_cost.py [--extra 20] [--size 10] [--rounds 3]

Prints figures, judges nothing; exit status 0. Linux (``/proc/stat``); run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
import throwaway  # noqa: E402
throwaway.private_cache("minimax-bench-cache-")

from submission_anatomy import Counting  # noqa: E402
from worker_pass import grade_class, machine_busy_seconds, warm_worker  # noqa: E402

SAMPLE = ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "alpha_beta.py"


def build_twins(folder: Path, size: int, extra: int) -> tuple[list[Path], list[Path]]:
    """SIZE copies of the sample and SIZE of its twin, each file distinct (a comment), so no result is reused."""
    folder.mkdir(parents=True)
    text = SAMPLE.read_text(encoding="utf-8")
    # The extra questions are about a node the search may evaluate (the first line of moves down to the depth limit or
    # a leaf), so the twin stays correct: asking about the root failed evaluation discipline, and the shrinking and
    # naming that followed asked questions of their own (the margin stopped being EXTRA per call).
    twin = text + ("\n\n_search = minimax\n\n\ndef minimax(node, max_depth, player_a_moves):\n"
                   "    probe, left = node, max_depth\n"
                   "    while left > 0 and get_next_valid_moves(probe):\n"
                   "        probe, left = get_next_valid_moves(probe)[0], left - 1\n"
                   f"    for _ in range({extra}):\n        get_value(probe)\n"
                   "    return _search(node, max_depth, player_a_moves)\n")
    plain, asking = [], []
    for index in range(size):
        for source, into, name in ((text, plain, "plain"), (twin, asking, "asking")):
            path = folder / f"{name}{index:03d}.py"
            path.write_text(source + f"\n# copy {index}\n", encoding="utf-8")
            into.append(path)
    return plain, asking


def bare_round_trip(count: int = 20000) -> float | None:
    """Microseconds of a byte sent and one sent back between this process and a forked one, both bound to one CPU
    (the way a session binds the grading thread and its child: ``launch.pin_to_this_cpu``); None where unsupported."""
    if not hasattr(os, "fork") or not hasattr(os, "sched_setaffinity"):
        return None
    there_r, there_w = os.pipe()
    back_r, back_w = os.pipe()
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    pid = os.fork()
    if pid == 0:
        try:
            for _ in range(count):
                os.write(back_w, os.read(there_r, 1))
        finally:
            os._exit(0)
    try:
        started = time.perf_counter()
        for _ in range(count):
            os.write(there_w, b"q")
            os.read(back_r, 1)
        return (time.perf_counter() - started) / count * 1e6
    finally:
        os.waitpid(pid, 0)
        os.sched_setaffinity(0, allowed)
        for fd in (there_r, there_w, back_r, back_w):
            os.close(fd)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", type=int, default=20, help="questions the twin adds to every call")
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    plain, asking = build_twins(Path(throwaway.folder("minimax-question-cost-")) / "class", args.size,
                                args.extra)
    exercise, bank, launcher, warm = warm_worker("ctp-26")
    counting = Counting()
    counting.install()
    figures: dict[str, dict[str, list[float]]] = {"plain": {}, "asking": {}}
    try:
        warm = grade_class(plain + asking, exercise, bank, launcher, warm)  # warm-up
        for _ in range(args.rounds):
            for name, files in (("plain", plain), ("asking", asking)):  # interleaved: the machine's load on both
                counting.reset()
                machine = machine_busy_seconds()
                warm = grade_class(files, exercise, bank, launcher, warm)
                machine = (machine_busy_seconds() - machine) if machine is not None else float("nan")
                figures[name].setdefault("questions", []).append(counting.counts["questions"] / len(files))
                figures[name].setdefault("cpu", []).append(machine * 1000 / len(files))
    finally:
        if warm is not None:
            warm.close()
    median = {name: {key: statistics.median(values) for key, values in rows.items()} for name, rows in figures.items()}
    extra_questions = median["asking"]["questions"] - median["plain"]["questions"]
    print(f"ctp-26, {args.size} copies of {SAMPLE.name} and of its twin asking {args.extra} more per call, graded "
          f"one after the other with {launcher.name}; per submission, the median of {args.rounds} passes:")
    for name in ("plain", "asking"):
        print(f"  {name:<8} questions {median[name]['questions']:8.0f}   machine CPU, ms {median[name]['cpu']:7.1f}")
    if extra_questions > 0:
        each = (median["asking"]["cpu"] - median["plain"]["cpu"]) * 1000 / extra_questions
        print(f"  CPU per extra question, µs (both processes)        {each:7.1f}")
    bare = bare_round_trip()
    if bare is not None:
        print(f"  for scale: a bare round trip on one CPU, µs        {bare:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
