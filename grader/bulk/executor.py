"""Where submissions get graded: the one seam between orchestration and compute.

``batch`` hands an executor a ``Job`` (what every submission shares: exercise, seed, sandbox)
and ``Task``s (one per distinct submission), and takes back ``(task, result)`` pairs in
whatever order they finish (a tournament's job, ``kind = "tournament"``, has a game per task and
a game's record per result, through the same seam); results are plain contract dictionaries, so the judge, the
gradebook and the reports never learn where the work ran. ``LocalPool`` is the default: a
few warm worker processes on this machine (``grader.bulk.worker``), each grading one submission
at a time through its own fork server. A distributed engine plugs in by implementing the
same two methods (``grader.bulk.dask_cluster.DaskExecutor`` does, for a Dask cluster).

A worker that dies takes its in-flight tasks with it; they are handed to a fresh worker once
more, and a task that kills two workers comes back as ``None`` (the grader failed, not the
student), never as a made-up verdict.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from dataclasses import asdict, dataclass
from typing import Iterable, Iterator, Protocol

IN_FLIGHT = 2  # tasks queued per worker, so a worker never waits for the next one

# The folder this very grader package is in (site-packages, or a source checkout run without installing)
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A worker starts with ``-P``: Python would otherwise put the working folder first on its path, and an instructor who
# grades from inside the class's folder (``minimax-grader grade .``) had every file there importable in every worker,
# ahead of the standard library: a submission named ``json.py`` ran as the grader, outside any sandbox, in every
# worker (each then died, and no student got a result). The package's own folder goes first only where the
# interpreter would not find the package otherwise (a checkout run in place): never the working folder.
WORKER_START = ("import sys\nroot = sys.argv[1]\nif root not in sys.path:\n    sys.path.insert(0, root)\n"
                "from grader.bulk.worker import main\nsys.exit(main())")


def worker_argv() -> list[str]:
    """How a local worker process starts: this Python, the working folder kept off its path (see WORKER_START)."""
    return [sys.executable, "-P", "-c", WORKER_START, PACKAGE_ROOT]
RETRIES = 1


@dataclass(frozen=True)
class Job:
    exercise: str
    seed: int
    examples: int | None = None
    exercises_dirs: tuple[str, ...] = ()
    sandbox: str | None = None
    warm: bool = True  # use the fork server where the platform and sandbox allow
    # "grade": a task is a submission and its result a contract result; "tournament": a task is one
    # game (its path field the game's plain spec as JSON) and its result the game's record.
    kind: str = "grade"


@dataclass(frozen=True)
class Task:
    key: str      # the submission's content hash: its result comes back under it
    path: str     # what to grade: a .py file or a folder
    display: str  # what the result calls it


class Executor(Protocol):
    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[tuple[Task, dict | None]]:
        """Yield each task with its result dict (None: the grader itself failed on it), as they finish."""

    def close(self) -> None:
        ...


class _Worker:
    """One worker process; a thread turns its answers into messages on the pool's queue (any OS)."""

    def __init__(self, job: Job, inbox: queue.Queue, wait: bool = False):
        """``wait``: the job's case bank is not on disk yet; the worker starts (its imports, the exercise, the
        sandbox probe) and waits for ``go`` before it reads the bank."""
        self.process = subprocess.Popen(
            worker_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None, env=dict(os.environ),  # buffered: an unbuffered pipe reads a line one byte per call
        )
        self.job = job
        self.waiting = wait
        self.in_flight: deque[Task] = deque()
        self.send({"job": asdict(job), "wait": True} if wait else {"job": asdict(job)})
        threading.Thread(target=self._read, args=(inbox,), daemon=True, name="minimax-grader-worker-reader").start()

    def _read(self, inbox: queue.Queue) -> None:
        try:
            for line in self.process.stdout:
                if line.strip():
                    try:
                        inbox.put((self, json.loads(line)))
                    except ValueError:
                        break  # a worker that prints garbage is treated as dead
        except (OSError, ValueError):
            pass
        inbox.put((self, None))

    def send(self, message: dict) -> bool:
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def hang_up(self) -> None:
        """End of input: the worker finishes, stops its fork server and exits."""
        try:
            self.process.stdin.close()
        except OSError:
            pass

    def go(self) -> None:
        """The bank is on disk: the worker reads it and starts grading."""
        if self.waiting:
            self.waiting = False
            self.send({"go": True})

    def give(self, task: Task) -> bool:
        self.in_flight.append(task)
        return self.send({"task": asdict(task)})

    def stop(self) -> None:
        self.hang_up()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def default_jobs() -> int:
    """One worker per CPU this process may use (its affinity: a container's or ``taskset``'s share).

    A session pairs a worker with its sandboxed child on one CPU while they talk (every
    evaluation is a question the worker answers; ``launch.pin_to_this_cpu``), so each pair
    keeps a CPU busy by itself; a spare worker only makes two pairs take turns on one CPU and
    costs a worker's start-up (its exercise, bank and fork server). On the 2-core development
    machine, idle, a class of 30 ctp-26 submissions took 1.9 s with 2 workers against 2.2 s
    with 3 (60: 3.2 s against 3.7 s); with both cores kept busy by other processes, the same.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


class LocalPool:
    """Warm worker processes on this machine; the caller's thread stays the only writer."""

    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or default_jobs())
        self.workers: list[_Worker] = []
        self.inbox: queue.Queue = queue.Queue()

    def start_early(self, job: Job, count: int) -> None:
        """Start up to ``count`` workers for ``job`` before its case bank is built: while the grader draws the
        bank (hypothesis, a few tenths of a second, on one core) each worker imports the grader, loads the
        exercise and probes the sandbox on the other; ``run`` tells them to go once the bank is on disk. A
        batch's start-up then costs the longer of the two, not their sum."""
        while len(self.workers) < min(self.jobs, count):
            self.workers.append(_Worker(job, self.inbox, wait=True))

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[tuple[Task, dict | None]]:
        waiting = deque(tasks)
        if not waiting:
            return
        inbox = self.inbox
        tries: dict[str, int] = {}
        try:
            for worker in list(self.workers):  # started early: for this very job, or of no use
                if worker.job == job:
                    worker.go()
                else:
                    self.workers.remove(worker)
                    worker.hang_up()
                    worker.stop()
            while len(self.workers) < min(self.jobs, len(waiting)):
                self.workers.append(_Worker(job, inbox))
            self._feed(waiting)
            while any(w.in_flight for w in self.workers) or waiting:
                worker, message = inbox.get()
                if worker not in self.workers:
                    continue  # a late word from a worker already written off
                if message is not None:
                    if "result" in message and worker.in_flight:
                        yield worker.in_flight.popleft(), message["result"]
                else:  # the worker is gone: its tasks go to a fresh one
                    self.workers.remove(worker)
                    worker.stop()
                    # Only the task it was working on (the oldest) is charged a try; the
                    # ones queued behind it did nothing wrong and simply go back in line.
                    in_flight = list(worker.in_flight)
                    for task in reversed(in_flight[1:]):
                        waiting.appendleft(task)
                    if in_flight:
                        running = in_flight[0]
                        tries[running.key] = tries.get(running.key, 0) + 1
                        if tries[running.key] > RETRIES:
                            yield running, None
                        else:
                            waiting.appendleft(running)
                    if waiting and len(self.workers) < self.jobs:
                        self.workers.append(_Worker(job, inbox))
                self._feed(waiting)
        finally:
            self.close()

    def _feed(self, waiting: deque) -> None:
        for worker in sorted(self.workers, key=lambda w: len(w.in_flight)):
            while waiting and len(worker.in_flight) < IN_FLIGHT:
                worker.give(waiting.popleft())

    def close(self) -> None:
        for worker in self.workers:
            worker.hang_up()  # all at once: each takes a moment to stop its fork server
        for worker in self.workers:
            worker.stop()
        self.workers = []
