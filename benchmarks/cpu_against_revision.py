"""Whose CPU a graded submission costs, this checkout against an earlier revision: the grading process's and the rest.

``against_revision.py`` says by how much a class got slower and that the difference is per submission; this says
on which side of the sandbox it is. Each revision grades the same class one submission after the other in a
process of its own, set up as a pool worker is (its own worker functions, its warm fork server), with the grader of
that revision (``PYTHONPATH``). Per submission it measures:

  * the grading process's CPU time (serving the child's frames, judging, shrinking, naming the mistake);
  * the machine's CPU time, every process (Linux: ``/proc/stat``; run it on a quiet machine), so that the rest,
    machine minus grading process, is the child's and the fork server's, the kernel's included;
  * the wall time.

Each figure is the median of ``--rounds`` passes over the class, each after one warm-up pass, the two revisions
alternating pass by pass so that the machine's load falls on both alike.

    python benchmarks/cpu_against_revision.py REVISION [--size 20] [--rounds 3]

REVISION: a revision of this git checkout, or a folder holding an earlier grader (see ``against_revision.py``).

Prints figures and ratios (now / before: below 1 is cheaper now), judges nothing; exit status 0 unless a pass
fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from against_revision import ROOT, SUBMISSIONS, build_class, check_out, compile_bytecode  # noqa: E402

# Run with the revision's own grader on sys.path. Revisions before the worker split its start in two (``_prepare``,
# then ``_load``) load and warm in one go; both are set up as their own pool worker does.
PASS = r"""
import json, os, sys, time
from pathlib import Path
from grader.bulk import worker
from grader.judging import submissions

def busy():
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:8]
    user, nice, system, _idle, _iowait, irq, softirq = (int(v) for v in fields)
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")

job = {"exercise": "ctp-26", "seed": 26}
if hasattr(worker, "_prepare"):
    prepared = worker._prepare(job, start_server=True)
    exercise, bank, launcher = worker._load(job, prepared)
    worker.remember_reference(exercise, bank)
    warm = worker._warm(launcher, exercise, bank, prepared[2])
else:
    exercise, bank, launcher = worker._load(job)
    worker.remember_reference(exercise, bank)
    warm = worker._warm(launcher, exercise, bank)
files = sorted(Path(sys.argv[1]).glob("*.py"))

def grade_all(warm):
    for path in files:
        submission = submissions.load(str(path))
        submission.display = path.name
        result, warm = worker.grade_one(submission, exercise, bank, launcher, warm)
        if result is None:
            raise SystemExit(f"the grader failed on {path.name}")
    return warm

try:
    warm = grade_all(warm)  # warm-up: caches, the fork server's pool
    machine, cpu, wall = busy(), time.process_time(), time.perf_counter()
    warm = grade_all(warm)
    wall, cpu, machine = time.perf_counter() - wall, time.process_time() - cpu, busy() - machine
finally:
    if warm is not None:
        warm.close()
print(json.dumps({"grading": cpu * 1000 / len(files), "machine": machine * 1000 / len(files),
                  "wall": wall * 1000 / len(files)}))
"""


def one_pass(tree: Path, folder: Path, cache: Path) -> dict:
    """One timed pass of ``tree``'s grader over the class in ``folder``: milliseconds per submission."""
    env = {**os.environ, "PYTHONPATH": str(tree), "MINIMAX_GRADER_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", PASS, str(folder)], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: a pass failed: {done.stderr.strip()[-600:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision")
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if not Path("/proc/stat").exists():
        raise SystemExit("this benchmark reads the machine's CPU time from /proc/stat (Linux)")

    work = Path(tempfile.mkdtemp(prefix="minimax-cpu-against-"))
    try:
        before, let_go = check_out(args.revision, work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    trees = {"before": before, "now": ROOT}
    figures: dict[str, list[dict]] = {"before": [], "now": []}
    try:
        for tree in trees.values():
            compile_bytecode(tree)
        old_samples = before / "fixtures" / "submissions"
        build_class(work / "class", args.size, old_samples if (old_samples / "ctp-26").is_dir() else SUBMISSIONS)
        for _ in range(args.rounds):
            for name, tree in trees.items():
                figures[name].append(one_pass(tree, work / "class", work / f"cache-{name}"))
    finally:
        let_go()
        shutil.rmtree(work, ignore_errors=True)

    def median(name, figure):
        return statistics.median(figure(passed) for passed in figures[name])

    rows = (("grading process CPU", lambda f: f["grading"]),
            ("the rest: the child, the fork server, the kernel", lambda f: f["machine"] - f["grading"]),
            ("machine CPU, every process", lambda f: f["machine"]),
            ("wall", lambda f: f["wall"]))
    print(f"ctp-26, a class of {args.size} (half correct, half buggy) graded one after the other, this checkout "
          f"against {args.revision}; ms per submission, the median of {args.rounds} passes; ratio = now / before:")
    for label, figure in rows:
        old, new = median("before", figure), median("now", figure)
        ratio = f"x{new / old:.2f}" if old > 0 else "-"
        print(f"  {label:<50} before {old:7.1f}   now {new:7.1f}   {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
