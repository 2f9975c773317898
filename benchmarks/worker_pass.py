"""A pool worker's grading, timed: what the benchmarks that grade a class one submission after the other share.

Imported, it changes nothing about where ``grader`` is found (no ``sys.path`` edits): a benchmark that puts a tree
first does so itself. Run as a script it grades a class with whichever grader ``PYTHONPATH`` names and prints one
JSON line (``cpu_against_revision.py`` runs it so for an earlier revision and for this checkout):

    PYTHONPATH=TREE python benchmarks/worker_pass.py CLASS_FOLDER

The line holds milliseconds per submission of one timed pass (after a warm-up pass): the grading process's CPU, the
CPU of its descendants (the fork server and the children it forks; their system time included), the machine's CPU
(every process), the wall time and the launcher's name. A pass that loses its fork server fails (it would time the
slow path, one child started per submission, without saying so).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from pathlib import Path


def machine_busy_seconds() -> float | None:
    """Every CPU's busy time so far (user, nice, system, irq, softirq), from /proc/stat; None elsewhere. In ticks of
    ``1 / SC_CLK_TCK`` (10 ms, usually): a pass over a few submissions is only as exact as that."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    user, nice, system, _idle, _iowait, irq, softirq = (int(value) for value in fields[:7])
    return (user + nice + system + irq + softirq) / ticks


def descendants_seconds(root: int | None = None, with_root: bool = False) -> float | None:
    """The CPU of every living descendant of ``root`` (this process by default; ``with_root``: and of ``root``
    itself), with what each has collected from the children it waited for (``cutime``, ``cstime``): the fork server
    and, once it has reaped them, the children it forked. From /proc (Linux), in the same ticks as
    ``machine_busy_seconds``; None elsewhere, or where ``root`` is gone."""
    root = os.getpid() if root is None else root
    try:
        parents, seconds = {}, {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue  # gone meanwhile
                parents[int(entry)] = int(fields[1])
                seconds[int(entry)] = sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    except (OSError, ValueError, IndexError):
        return None
    if root not in seconds:
        return None
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    total, queue = seconds[root] if with_root else 0, [root]
    while queue:
        below = children.get(queue.pop(), [])
        total += sum(seconds[pid] for pid in below)
        queue += below
    return total / (os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100)


def warm_worker(exercise_id: str, seed: int = 26):
    """This process set up as a pool worker is: ``(exercise, bank, launcher, warm fork server or None)``, with the
    worker's own functions of whichever grader is imported (revisions before the worker split its start in two,
    ``_prepare`` then ``_load``, load and warm in one go), the bank and libraries frozen out of the collector's
    reach as the worker freezes them."""
    from grader.bulk import worker

    job = {"exercise": exercise_id, "seed": seed}
    if hasattr(worker, "_prepare"):
        prepared = worker._prepare(job, start_server=True)
        exercise, bank, launcher = worker._load(job, prepared)
        worker.remember_reference(exercise, bank)
        warm = worker._warm(launcher, exercise, bank, prepared[2])
    else:
        exercise, bank, launcher = worker._load(job)
        worker.remember_reference(exercise, bank)
        warm = worker._warm(launcher, exercise, bank)
    gc.collect()
    gc.freeze()
    return exercise, bank, launcher, warm


class Fallback(Exception):
    """A pass graded without its warm fork server (it failed, and the worker fell back to a child per submission):
    its figures would time the slow path."""


def grade_class(files, exercise, bank, launcher, warm):
    """Grade every file once, in order, as the worker does; returns the fork server to use next. Raises on a
    submission the grader failed on (no result) and, with ``Fallback``, when the fork server was replaced."""
    from grader.bulk import worker
    from grader.judging import submissions

    for path in files:
        submission = submissions.load(str(path))
        submission.display = path.name
        result, after = worker.grade_one(submission, exercise, bank, launcher, warm)
        if result is None:
            raise SystemExit(f"the grader failed on {path.name}")
        if after is not warm:
            raise Fallback(f"the fork server failed while grading {path.name}")
        warm = after
    return warm


def main(argv=None) -> int:
    folder = Path((argv or sys.argv[1:])[0])
    files = sorted(folder.glob("*.py"))
    exercise, bank, launcher, warm = warm_worker("ctp-26")
    if warm is None:
        raise SystemExit(f"no fork server with the {launcher.name} sandbox: the pass would time the slow path")
    graded_with = warm.name  # the sandbox's name and the fork server's ("bwrap+fork-server")
    try:
        warm = grade_class(files, exercise, bank, launcher, warm)  # warm-up: caches, the fork server's pool
        machine, cpu, wall = machine_busy_seconds(), time.process_time(), time.perf_counter()
        below = descendants_seconds()
        warm = grade_class(files, exercise, bank, launcher, warm)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        below = descendants_seconds() - below if below is not None else float("nan")
        machine = machine_busy_seconds() - machine if machine is not None else float("nan")
    except Fallback as exc:
        raise SystemExit(str(exc)) from None
    finally:
        if warm is not None:
            warm.close()
    per = 1000 / len(files)
    print(json.dumps({"grading": cpu * per, "descendants": below * per, "machine": machine * per, "wall": wall * per,
                      "launcher": graded_with}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
