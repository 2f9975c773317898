"""What runs inside a Dask worker process: the job, received once, and one grading context per thread.

The driving process registers a ``GradingJob`` worker plugin: the scheduler hands it to every
worker now connected and to every worker that joins later (a nanny's restart included), so the
job (exercise id, secret seed, number of cases, sandbox, limits, the instructor's exercise
folders as zips) travels once per worker, not once per submission. Each task then carries only
one submission's content.

A grading context is what ``python -m grader.bulk.worker`` keeps for a whole batch: the exercise,
its case bank (built once, or read from this machine's cache), the reference's remembered
answers, the sandbox launcher and a warm fork server. Contexts are lent to one task at a time
(a worker with several threads grows one per thread) and closed when the job is unregistered.

The sandbox runs below this process exactly as below a pool worker: the launchers start their
children with ``subprocess`` (and the fork server is a ``subprocess`` too), never with
``multiprocessing``, so Dask's daemonic worker processes may start them. If the worker process
dies, its fork servers and children see their pipes close and exit.
"""

from __future__ import annotations

import gc
import shutil
import threading
from pathlib import Path

from distributed.diagnostics.plugin import WorkerPlugin

from grader.bulk import shipping


class WorkerMismatch(Exception):
    """This worker would not grade as the driving machine does (another grader version or exercise)."""


class GradingJob(WorkerPlugin):
    """The batch's job on one worker: unpacks the shipped exercise folders and lends grading contexts."""

    def __init__(self, name: str, job: dict, version: str, fingerprint: str, limits: dict, exercise_zips: list[bytes]):
        self.name = name                  # Dask keys plugins by this: one registration per batch
        self.job = job
        self.version = version
        self.fingerprint = fingerprint
        self.limits = limits
        self.exercise_zips = exercise_zips

    def setup(self, worker=None):
        self.lock = threading.Lock()
        self.idle: list[Context] = []
        self.contexts: list[Context] = []
        parent = getattr(worker, "local_directory", None)
        self.home = shipping.private_folder(parent, "minimax-grader-job-")
        self.dirs = [str(shipping.unzip_folder(data, self.home / f"exercises-{i}"))
                     for i, data in enumerate(self.exercise_zips)]

    def teardown(self, worker=None):
        with self.lock:
            contexts, self.contexts, self.idle = self.contexts, [], []
        for context in contexts:
            context.close()
        shutil.rmtree(self.home, ignore_errors=True)

    def borrow(self) -> "Context":
        with self.lock:
            if self.idle:
                return self.idle.pop()
        context = Context(self)  # built outside the lock: a first bank can take seconds
        with self.lock:
            self.contexts.append(context)
        return context

    def holds(self, context: "Context") -> bool:
        """Whether ``context`` is still one of this job's (not closed by a teardown since it was lent)."""
        with self.lock:
            return context in self.contexts

    def give_back(self, context: "Context") -> None:
        with self.lock:
            if context in self.contexts:
                self.idle.append(context)
                return
        context.close()  # the job was torn down meanwhile


class Context:
    """One thread's exercise, bank and sandbox launchers, as a pool worker keeps them."""

    def __init__(self, plugin: GradingJob):

        from grader.version import __version__
        from grader.bulk import worker as pool_worker

        if __version__ != plugin.version:
            raise WorkerMismatch(f"this worker runs minimax-grader {__version__}, the driving machine {plugin.version}; "
                                 "install the same version on every worker")
        from grader.version import changed_since_loaded

        changed = changed_since_loaded()
        if changed is not None:
            raise WorkerMismatch(f"the grader's code on this worker changed on disk after the worker loaded it ({changed}): "
                                 "restart the worker, so that it grades with the code the driving machine has")
        job = dict(plugin.job, exercises_dirs=plugin.dirs)
        if job.get("kind") == "tournament":  # a game per task: the exercise and a launcher, no bank
            from grader.bulk.tournament import Arena

            self.arena = Arena(job)
            self.exercise, self.warm = self.arena.exercise, None
            self.scratch = Path(shipping.private_folder(plugin.home, "agents-"))
            if self.exercise.fingerprint != plugin.fingerprint:
                raise WorkerMismatch(f"exercise {self.exercise.id} on this worker differs from the driving machine's")
            return
        self.exercise, self.bank, self.launcher = pool_worker._load(job, pool_worker._prepare(job))
        if self.exercise.fingerprint != plugin.fingerprint:
            raise WorkerMismatch(f"exercise {self.exercise.id} on this worker differs from the driving machine's "
                                 f"(fingerprint {self.exercise.fingerprint}, expected {plugin.fingerprint}); "
                                 "install the same grader version, or pass the exercise with --exercises-dir")
        from grader.judging.exercise import Limits

        self.exercise.limits = Limits(**plugin.limits)  # the driver's limits, its MINIMAX_GRADER_* overrides included
        pool_worker.remember_reference(self.exercise, self.bank)
        self.warm = pool_worker._warm(self.launcher, self.exercise, self.bank) if job.get("warm", True) else None
        self.scratch = Path(shipping.private_folder(plugin.home, "submissions-"))
        # As a pool worker does: the bank, the exercise and Dask's own heap live as long as this
        # context; keep the collector from walking them again for every submission.
        gc.collect()
        gc.freeze()

    def grade(self, parcel: shipping.Parcel, display: str) -> dict | None:
        from grader.judging import submissions
        from grader.bulk import worker as pool_worker

        folder = shipping.private_folder(self.scratch, "s-")
        try:
            submission = submissions.load(shipping.unpack_submission(parcel, folder))
            submission.display = display
            result, self.warm = pool_worker.grade_one(submission, self.exercise, self.bank, self.launcher, self.warm)
            return None if result is None else result.to_dict()  # None: the grader failed, nothing is stored
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def play(self, spec: dict) -> dict | None:
        """One game of a tournament; the agents' files arrive as content and are written privately first."""
        folder = shipping.private_folder(self.scratch, "g-")
        try:
            for number, agent in enumerate(spec["agents"].values()):
                parcel = agent.pop("parcel", None)
                if parcel is not None:
                    (folder / str(number)).mkdir()
                    agent["path"] = str(shipping.unpack_submission(parcel, folder / str(number)))
            return self.arena.play(spec)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None
        # What this job froze goes back to the collector: a long-lived worker would otherwise keep every
        # finished job's exercise, bank and tables (the cycles among them are the collector's to free).
        gc.unfreeze()


def grade_parcel(plugin_name: str, display: str, parcel: shipping.Parcel) -> dict:
    """The Dask task: grade one submission sent as content with the job this worker holds."""
    from distributed import get_worker

    plugin = get_worker().plugins.get(plugin_name)
    if plugin is None:
        raise WorkerMismatch(f"this worker has not received the grading job {plugin_name}")
    context = plugin.borrow()
    try:
        result = context.grade(parcel, display)
    finally:
        plugin.give_back(context)
    if not plugin.holds(context):
        # the job was taken back from this worker while it graded: its sandboxes were killed under the submission,
        # whose "crashed: signal 9" was stored as its grade (the 133rd helper). No result: the next run grades it.
        raise WorkerMismatch(f"the grading job {plugin_name} was taken back from this worker while it graded {display}")
    return result


def play_game(plugin_name: str, spec: dict) -> dict | None:
    """The Dask task of a tournament: one game, with the job (exercise, seed, sandbox) this worker holds."""
    from distributed import get_worker

    plugin = get_worker().plugins.get(plugin_name)
    if plugin is None:
        raise WorkerMismatch(f"this worker has not received the tournament job {plugin_name}")
    context = plugin.borrow()
    try:
        return context.play(spec)
    finally:
        plugin.give_back(context)
