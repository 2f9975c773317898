"""Where submissions get graded: the one seam between orchestration and compute.

``batch`` hands an executor a ``Job`` (what every submission shares: exercise, seed, sandbox)
and ``Task``s (one per distinct submission), and takes back ``(task, result)`` pairs in
whatever order they finish; results are plain contract dictionaries, so the judge, the
gradebook and the reports never learn where the work ran. ``LocalPool`` is the default: a
few warm worker processes on this machine (``grader.worker``), each grading one submission
at a time through its own fork server. A distributed engine plugs in by implementing the
same two methods.

A worker that dies takes its in-flight tasks with it; they are handed to a fresh worker once
more, and a task that kills two workers comes back as ``None`` (the grader failed, not the
student), never as a made-up verdict.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
from collections import deque
from dataclasses import asdict, dataclass
from typing import Iterable, Iterator, Protocol

IN_FLIGHT = 2  # tasks queued per worker, so a worker never waits for the next one
RETRIES = 1


@dataclass(frozen=True)
class Job:
    exercise: str
    seed: int
    examples: int | None = None
    exercises_dirs: tuple[str, ...] = ()
    sandbox: str | None = None
    warm: bool = True  # use the fork server where the platform and sandbox allow


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
    def __init__(self, job: Job):
        env = dict(os.environ)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grader.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None, env=env, bufsize=0,
        )
        self.buffer = b""
        self.in_flight: deque[Task] = deque()
        self.send({"job": asdict(job)})

    def send(self, message: dict) -> bool:
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            return True
        except (BrokenPipeError, OSError):
            return False

    def give(self, task: Task) -> bool:
        self.in_flight.append(task)
        return self.send({"task": asdict(task)})

    def lines(self) -> tuple[list[dict], bool]:
        """Messages that have arrived, and whether the worker is still there."""
        try:
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
        except OSError:
            chunk = b""
        if not chunk:
            return [], False
        self.buffer += chunk
        *complete, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in complete if line.strip()], True

    def stop(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class LocalPool:
    """Warm worker processes on this machine; the caller's thread stays the only writer."""

    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.workers: list[_Worker] = []

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[tuple[Task, dict | None]]:
        queue = deque(tasks)
        if not queue:
            return
        tries: dict[str, int] = {}
        selector = selectors.DefaultSelector()
        try:
            for _ in range(min(self.jobs, len(queue))):
                self._add(selector, job)
            self._feed(queue)
            while any(w.in_flight for w in self.workers) or queue:
                for key, _ in selector.select(timeout=1.0):
                    worker = key.data
                    messages, alive = worker.lines()
                    for message in messages:
                        if "result" in message and worker.in_flight:
                            task = worker.in_flight.popleft()
                            yield task, message["result"]
                    if not alive:
                        selector.unregister(worker.process.stdout)
                        self.workers.remove(worker)
                        worker.stop()
                        for task in worker.in_flight:
                            tries[task.key] = tries.get(task.key, 0) + 1
                            if tries[task.key] > RETRIES:
                                yield task, None
                            else:
                                queue.appendleft(task)
                        if queue and len(self.workers) < self.jobs:
                            self._add(selector, job)
                        if not self.workers and queue:
                            raise RuntimeError("every grading worker died")
                self._feed(queue)
        finally:
            selector.close()
            self.close()

    def _add(self, selector, job: Job) -> None:
        worker = _Worker(job)
        self.workers.append(worker)
        selector.register(worker.process.stdout, selectors.EVENT_READ, worker)

    def _feed(self, queue: deque) -> None:
        for worker in sorted(self.workers, key=lambda w: len(w.in_flight)):
            while queue and len(worker.in_flight) < IN_FLIGHT:
                worker.give(queue.popleft())

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []
