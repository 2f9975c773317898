"""Whose CPU a graded submission costs, this checkout against an earlier revision: the grading process's and the rest.

``against_revision.py`` says by how much a class got slower and that the difference is per submission; this says
on which side of the sandbox it is. Each revision grades the same class one submission after the other in a
process of its own, set up as a pool worker is (its own worker functions, its warm fork server), with the grader of
that revision (``PYTHONPATH``; ``worker_pass.py`` run as a script). Per submission it measures:

  * the grading process's CPU time (serving the child's frames, with the system calls that takes; judging,
    shrinking, naming the mistake);
  * its descendants' CPU time: the fork server and the children it forks, their system time included;
  * the machine's CPU time, every process (Linux: ``/proc/stat``), and what of it is neither: other processes, which
    a quiet machine keeps near zero (load adds to both revisions' figures and pulls their ratios toward 1);
  * the wall time.

Each figure is the median of ``--rounds`` passes over the class, each after one warm-up pass, the two revisions
alternating pass by pass. The CPU figures come in ticks of 10 ms (``SC_CLK_TCK``) per pass: for a class of 20,
half a millisecond a submission.

    python benchmarks/cpu_against_revision.py REVISION [--size 20] [--rounds 3]

REVISION: a revision of this git checkout, or a folder holding an earlier grader (see ``against_revision.py``); the
earliest it can measure is one with ``grader.bulk.worker``. Prints figures and ratios (now / before: below 1 is
cheaper now), judges nothing; exit status 0 unless a pass fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from against_revision import RUN_LIMIT, ROOT, build_class, checked_out, compile_bytecode, samples_of  # noqa: E402

PASS = Path(__file__).resolve().with_name("worker_pass.py")


def one_pass(tree: Path, folder: Path, cache: Path) -> dict:
    """One timed pass of ``tree``'s grader over the class in ``folder``: milliseconds per submission."""
    env = {**os.environ, "PYTHONPATH": str(tree), "MINIMAX_GRADER_CACHE": str(cache)}
    try:
        done = subprocess.run([sys.executable, str(PASS), str(folder)], cwd=tree, env=env, capture_output=True,
                              text=True, timeout=RUN_LIMIT)
    except subprocess.TimeoutExpired as exc:
        tail = (exc.stderr or b"")[-300:]
        tail = tail.decode(errors="replace") if isinstance(tail, bytes) else tail
        raise SystemExit(f"{tree}: a pass ran past {RUN_LIMIT} s: {tail.strip()}") from None
    if done.returncode != 0:
        raise SystemExit(f"{tree}: a pass failed: {done.stderr.strip()[-600:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def described(tree: Path) -> str:
    """The tree's commit, ``-dirty`` when it has uncommitted changes (``git describe``), or its folder's name."""
    try:
        done = subprocess.run(["git", "-C", str(tree), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return tree.name
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else tree.name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision")
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if not Path("/proc/stat").exists():
        raise SystemExit("this benchmark reads CPU times from /proc (Linux)")

    figures: dict[str, list[dict]] = {"before": [], "now": []}
    with checked_out(args.revision, "minimax-cpu-against-") as (before, work):
        trees = {"before": before, "now": ROOT}
        names = {name: described(tree) for name, tree in trees.items()}
        for tree in trees.values():
            compile_bytecode(tree)
        build_class(work / "class", args.size, samples_of(before))
        for _ in range(args.rounds):
            for name, tree in trees.items():
                figures[name].append(one_pass(tree, work / "class", work / f"cache-{name}"))

    def median(name, figure):
        return statistics.median(figure(passed) for passed in figures[name])

    rows = (("grading process CPU", lambda f: f["grading"]),
            ("its descendants: the fork server, the children", lambda f: f["descendants"]),
            ("other processes (near 0 on a quiet machine)", lambda f: f["machine"] - f["grading"] - f["descendants"]),
            ("machine CPU, every process", lambda f: f["machine"]),
            ("wall", lambda f: f["wall"]))
    launchers = {name: sorted({f["launcher"] for f in figures[name]}) for name in figures}
    print(f"ctp-26, a class of {args.size} (half correct, half buggy) graded one after the other; this checkout "
          f"({names['now']}, {', '.join(launchers['now'])}) against {args.revision} ({names['before']}, "
          f"{', '.join(launchers['before'])}); ms per submission, each row the median of {args.rounds} passes on its "
          "own; ratio = now / before:")
    for label, figure in rows:
        old, new = median("before", figure), median("now", figure)
        ratio = f"x{new / old:.2f}" if old > 0 else "-"
        print(f"  {label:<50} before {old:7.1f}   now {new:7.1f}   {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
