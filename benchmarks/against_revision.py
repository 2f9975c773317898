"""Check latency and bulk throughput of this checkout against an earlier revision, as ratios.

A change that rebuilds the grader's insides (issue 14 rebuilt the exercises on the kit) must
not make a student wait longer or a class take longer. Absolute times on a shared machine say
little, so this script runs both revisions in the same session, alternating run by run, so
the machine's load falls on both alike:

  * ``check`` on one correct and one buggy sample of each exercise the two revisions share
    (the median wall time of N runs each, after one warm-up run per revision that fills the
    case-bank cache, as a student's first run does);
  * ``grade`` of a class of SIZE distinct submissions (ctp-26 samples, half buggy), each run into
    a fresh ``--out`` so nothing is answered from the gradebook; submissions per second, and the
    same runs split into what a run pays once (the time to its first result, the time after its
    last) and the rate between the two, which is what each further submission costs.

The earlier revision is checked out into a temporary worktree (or, where REVISION names a folder, an unpacked
release or another checkout of the grader, that folder is used as it is) and run with ``PYTHONPATH``
pointing at it, with this same Python and its installed libraries. It prints, per measure, both
medians and the ratio (this checkout / the earlier one: below 1 is faster now).

    python benchmarks/against_revision.py REVISION [--runs 5] [--size 60] [--exercises ctp-26,tictactoe]

Exit status 0 whether the ratios are good or bad (it reports, it does not judge), non-zero only
if a run fails.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"


def run(tree: Path, args: list[str], ok=(0, 1)) -> float:
    """Seconds one ``python -m grader ARGS`` takes with the grader of ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree), "MINIMAX_GRADER_NO_COLOR": "1"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "grader", *args], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=RUN_LIMIT)
    elapsed = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"{tree}: grader {' '.join(args)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return elapsed


def grade_timeline(tree: Path, args: list[str], ok=(0, 1)) -> tuple[float, float, float, int]:
    """``python -m grader grade ARGS`` with the grader of ``tree``: ``(seconds in all, seconds to the first result,
    seconds to the last, results)``, each result timed as its progress line (``[k/N] ...`` on stderr) arrives.

    The split says where a slower class comes from: what a run pays once (starting the workers and their fork
    servers, writing the reports at the end) or what it pays per submission (the rate between the first result
    and the last)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "MINIMAX_GRADER_NO_COLOR": "1"}
    start = time.perf_counter()
    stamps, tail, counted, total = [], [], None, None
    with subprocess.Popen([sys.executable, "-m", "grader", *args], cwd=tree, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        limit = threading.Timer(RUN_LIMIT, process.kill)  # a hung run ends the script, as run()'s timeout does
        limit.start()
        try:
            for line in process.stderr:
                found = PROGRESS.match(line)
                if found:
                    stamps.append(time.perf_counter() - start)
                    counted, total = int(found[1]), int(found[2])
                tail = (tail + [line])[-5:]
            code = process.wait()
        except BaseException:
            process.kill()
            raise
        finally:
            limit.cancel()
    elapsed = time.perf_counter() - start
    if code not in ok or not stamps or counted != total:  # the last line counts every submission
        raise SystemExit(f"{tree}: grader {' '.join(args)} exited {code}, its progress at {counted} of {total}: "
                         f"{''.join(tail).strip()[-400:]}")
    return elapsed, stamps[0], stamps[-1], len(stamps)


RUN_LIMIT = 900  # seconds, for one run of the grader
PROGRESS = re.compile(r"\[(\d+)/(\d+)\] ")  # one graded submission, as the batch's progress prints it


@contextlib.contextmanager
def checked_out(revision: str, prefix: str):
    """``(the earlier tree, a temporary folder)`` for the ``with`` block, both let go of however it ends: ``revision``
    checked out into a git worktree in that folder, or, where ``revision`` is a folder holding a grader (a release
    unpacked, another checkout; a copy with no git history), that folder as it is, left alone."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    let_go = None
    try:
        if Path(revision).is_dir():
            if not (Path(revision) / "grader").is_dir():
                raise SystemExit(f"{revision!r} is a folder without a grader in it (no grader/ folder)")
            yield Path(revision).resolve(), work
            return
        before = work / "before"
        try:
            done = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before), revision],
                                  capture_output=True, text=True)
        except OSError as exc:  # no git at all
            done = subprocess.CompletedProcess([], 1, "", str(exc))
        if done.returncode != 0:
            raise SystemExit(f"cannot check out {revision!r}: give a revision of this git checkout or a folder holding "
                             f"an earlier grader ({done.stderr.strip()[-300:]})")
        let_go = ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)]
        yield before, work
    finally:
        if let_go:
            subprocess.run(let_go, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


def compile_bytecode(tree: Path) -> None:
    """Both trees as a student has them after ``pip install`` (which compiles every module): with
    ``PYTHONDONTWRITEBYTECODE`` set, a tree never run before would pay for compiling its modules
    on every run, and the tree with more modules would look slower for it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "grader"), str(tree / "exercises"),
                    str(tree / "reference")], env=env, capture_output=True, check=False)


def first_sample(exercise_id: str, kind: str) -> Path | None:
    found = sorted((SUBMISSIONS / exercise_id / kind).glob("*.py"))
    return found[0] if found else None


def alternate(trees: dict[str, Path], args: list[str], runs: int, ok=(0, 1)) -> dict[str, float]:
    """The median seconds per tree, runs interleaved (before, now, before, now...) after one warm-up each."""
    for tree in trees.values():
        run(tree, args, ok)
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, tree in trees.items():
            times[name].append(run(tree, args, ok))
    return {name: statistics.median(values) for name, values in times.items()}


def samples_of(tree: Path) -> Path:
    """The sample folder a class is built from for a comparison with ``tree``: its own ctp-26 samples where it has
    them, so both revisions grade files both have (see ``build_class``), else this checkout's."""
    own = tree / "fixtures" / "submissions"
    return own if (own / "ctp-26").is_dir() else SUBMISSIONS


def build_class(folder: Path, size: int, samples: Path = SUBMISSIONS) -> None:
    """SIZE distinct files, half correct and half buggy ctp-26 samples, each made unique by a comment.

    ``samples``: the earlier revision's own sample folder, so that both revisions grade files both have. A sample
    added since, which the earlier grader cannot grade (a style it failed on: every call raising, every failure
    shrunk), timed the earlier revision at half its speed (x0.53 where the same class of old samples gave x1.18)."""
    pools = [sorted((samples / "ctp-26" / kind).glob("*.py")) for kind in ("correct", "buggy")]
    folder.mkdir(parents=True)
    for index in range(size):
        pool = pools[index % 2]
        source = pool[(index // 2) % len(pool)]
        text = source.read_text(encoding="utf-8") + f"\n# student s{index:04d}\n"
        (folder / f"s{index:04d}.py").write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", type=int, default=60)
    parser.add_argument("--exercises", default="ctp-26,alphabeta,best-move,tictactoe,aima-isolation")
    args = parser.parse_args(argv)

    with checked_out(args.revision, "minimax-against-") as (before, work):
        trees = {"before": before, "now": ROOT}
        for tree in trees.values():
            compile_bytecode(tree)
        rows = []
        for exercise_id in args.exercises.split(","):
            if not (before / "exercises" / exercise_id).is_dir():
                continue
            for kind in ("correct", "buggy"):
                sample = first_sample(exercise_id, kind)
                if sample is None:
                    continue
                medians = alternate(trees, ["check", str(sample), "--exercise", exercise_id], args.runs)
                rows.append((f"check {exercise_id} {kind} ({sample.name})", medians["before"], medians["now"], "s"))
                print(f"  {rows[-1][0]}: before {medians['before']:.2f} s, now {medians['now']:.2f} s", flush=True)
        build_class(work / "class", args.size, samples_of(before))
        runs: dict[str, list[tuple]] = {"before": [], "now": []}
        for attempt in range(max(1, args.runs // 2)):
            for name, tree in trees.items():
                out = work / f"out-{name}-{attempt}"
                runs[name].append(grade_timeline(tree, ["grade", str(work / "class"), "--exercise", "ctp-26",
                                                        "--out", str(out), "--seed", "26"]))

        def median(name, figure):
            return statistics.median(figure(*timed) for timed in runs[name])

        def overall(total, _first, _last, _count):
            return args.size / total

        def to_first(_total, first, _last, _count):
            return first

        def between(_total, first, last, count):
            return (count - 1) / (last - first) if last > first else float("nan")

        def after_last(total, _first, last, _count):
            return total - last

        # The same runs, split: what a run pays once (to the first result, after the last) and per submission
        for label, figure, unit in ((f"grade a class of {args.size}", overall, "subm./s"),
                                    ("  of which: to the first result", to_first, "s"),
                                    ("  of which: rate from the first result to the last", between, "subm./s"),
                                    ("  of which: after the last result", after_last, "s")):
            rows.append((label, median("before", figure), median("now", figure), unit))

    print(f"\nThis checkout against {args.revision} (same session, runs interleaved); "
          "ratio = now / before for times (below 1 is faster now), before / now for rates (below 1 is faster now):")
    for name, old, new, unit in rows:
        ratio = new / old if unit == "s" else old / new
        print(f"  {name:<55} before {old:8.2f} {unit:<7} now {new:8.2f} {unit:<7} ratio x{ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
