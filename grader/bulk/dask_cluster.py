"""The Dask executor: grade on a Dask cluster behind the same seam as the local pool.

``DaskExecutor(scheduler="tcp://host:8786")`` connects to a running cluster;
``DaskExecutor()`` starts a ``LocalCluster`` of single-threaded worker processes on this
machine. ``run(job, tasks)`` registers the job once (a worker plugin, ``on_worker.GradingJob``),
submits one task per distinct submission carrying that submission's content, and yields
``(task, result)`` ``as_completed``: ``batch`` stays the only writer of the gradebook.

Faults, in Dask's terms: a worker that dies has the tasks it held rescheduled on others by the
scheduler; the driving process sees each future complete once, so each submission is recorded
once. A task whose workers keep dying (a submission that kills its worker's process tree)
ends, after the scheduler's ``allowed-failures``, as ``KilledWorker``: that submission comes
back as ``None``, exactly like a submission that killed two local workers (the grader failed
on it, it is listed as an error, not stored, and the next run tries it again), and the batch
goes on.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sys
import threading
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Iterable, Iterator

from grader.bulk.executor import Job, Task, default_jobs
from grader.bulk import shipping

MISSING = 'the Dask executor needs Dask: pip install "minimax-grader[dask]"'
JOB_PREFIX = "minimax-grader-job-"  # then the job's content digest, "-", and the driving client's id (DaskExecutor.run)
CONNECT_TIMEOUT = 10  # seconds: a scheduler that does not answer a handshake by then is not one
ADDRESS = re.compile(r"^(?:(?:tcp|tls|inproc|ucx)://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
# A LocalCluster's scheduler: a worker holds only the task it runs (so a worker killed by a
# submission charges that submission alone a failure, as the local pool does), and a
# submission gets three workers killed under it before it is given up as KilledWorker.
LOCAL_SCHEDULER_CONFIG = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.scheduler.allowed-failures": 2,
}


class DaskUnavailable(Exception):
    """Dask (the ``dask`` extra) is not installed here."""


def require() -> None:
    """Raise ``DaskUnavailable`` with the one line to say when ``distributed`` cannot be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise DaskUnavailable(MISSING) from None


def _client_within(address: str, seconds: float):
    """A client of the scheduler at ``address``, or ConnectionError with one line that says what to do. The address
    is read first (a typo is said at once, not after a minute and a traceback), and the connection is given
    ``seconds`` on a thread of its own: Dask's own timeout did not cover a server that accepts the connection and
    never speaks Dask's protocol (the dashboard's port, 8787: ten minutes of silence), and an unroutable address
    ended in a traceback (the 133rd helper)."""
    from distributed import Client

    address = address.strip()
    found = ADDRESS.match(address)
    if found is None or not 0 < int(found.group(2)) < 65536:
        raise ConnectionError(f"{address!r} is not a Dask scheduler address: write it as tcp://HOST:PORT "
                              "(a scheduler listens on 8786 unless told otherwise)")
    hint = " (8787 is usually the dashboard's port; the scheduler's is 8786)" if found.group(2) == "8787" else ""
    problem = _handshake_problem(address, seconds)
    if problem is not None:  # no Client was made: nothing left to close at exit (a failed one took 20 s and a traceback)
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {problem}{hint}")
    try:
        return Client(address, timeout=f"{seconds}s", set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - it answered a moment ago: whatever Dask raises now is one line too
        said = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {said}{hint}") from None


def _handshake_problem(address: str, seconds: float) -> str | None:
    """Why a Dask comm to ``address`` cannot be opened and greeted within ``seconds`` (None: it can), tried on a
    thread of its own with its own event loop, so that nothing of a failed attempt outlives it."""
    import asyncio

    from distributed.comm import connect

    said: list = []

    async def greet():
        comm = await asyncio.wait_for(connect(address, timeout=seconds), seconds + 1)
        await comm.close()

    def attempt():
        try:
            asyncio.run(greet())
            said.append(None)
        except (asyncio.TimeoutError, TimeoutError):
            said.append(f"nothing answered as a Dask scheduler within {seconds:g} s")
        except BaseException as exc:  # noqa: BLE001 - whatever the network or Dask raised, one line
            text = " ".join(str(exc).split())[:200]
            said.append(text if text and not isinstance(exc, MemoryError) else
                        f"the connection failed ({type(exc).__name__}); is the address right and the scheduler up?")

    thread = threading.Thread(target=attempt, name="dask-handshake", daemon=True)
    thread.start()
    thread.join(seconds + 3)
    return said[0] if said else f"nothing answered as a Dask scheduler within {seconds:g} s"


class DaskExecutor:
    """Futures on a Dask cluster, consumed as they complete by the caller's thread."""

    def __init__(self, scheduler: str | None = None, jobs: int | None = None, *, client=None, stream=None):
        require()
        self.address = scheduler
        self.jobs = max(1, jobs or default_jobs())
        self.stream = stream or sys.stderr
        self.client = client
        self.owns_client = client is None
        self.cluster = None
        self._said: set[str] = set()
        self._registered: set[str] = set()

    def connect(self):
        """The client, connected now (a bad address is said before any grading starts)."""
        if self.client is not None:
            return self.client
        from distributed import Client

        if self.address:
            self.client = _client_within(self.address, CONNECT_TIMEOUT)
        else:
            import dask
            from distributed import LocalCluster

            with dask.config.set(LOCAL_SCHEDULER_CONFIG):
                # No dashboard, and the scheduler's small HTTP server on a free port (not 8787, maybe taken).
                self.cluster = LocalCluster(n_workers=self.jobs, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR,
                                            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
            self.client = Client(self.cluster, set_as_default=False)
        return self.client

    def run(self, job: Job, tasks: Iterable[Task]) -> Iterator[tuple[Task, dict | None]]:
        tasks = list(tasks)
        if not tasks:
            return
        from distributed import as_completed

        from grader.bulk import on_worker

        client = self.connect()
        if self.address and not client.scheduler_info().get("workers"):
            self._say(f"{self.address}: no worker is connected yet; the tasks wait for one (start `dask worker {self.address}`)")
        plugin = job_plugin(job)
        # Named after its content and this driver's client: two runs of the same class on one cluster each keep their
        # own (one name for both, the first to end took the job from under the other: its student in mid-grade was
        # stored as "crashed: signal 9 (killed)", and the other run failed everyone: the 133rd helper). A driver that
        # died leaves its job behind: the next one takes back every job of a client the scheduler no longer knows.
        plugin.name = f"{plugin.name}-{client.id}"
        _take_back_leftovers(client)
        client.register_plugin(plugin)
        self._registered.add(plugin.name)
        try:
            if job.kind == "tournament":
                yield from self._play(client, plugin.name, tasks)
                return
            sent, parcels = [], []
            for task in tasks:
                try:
                    parcels.append(shipping.pack_submission(task.path))
                    sent.append(task)
                except shipping.ShippingError as exc:
                    self._say(f"{task.display}: {exc}")
                    yield task, None
            # One message for the whole class: submitting task by task costs the driver a round trip each.
            grade = functools.partial(on_worker.grade_parcel, plugin.name)
            keys = [f"grade-submission-{uuid.uuid4().hex}" for _ in sent]
            futures = dict(zip(client.map(grade, [t.display for t in sent], parcels, key=keys, pure=False), sent))
            del parcels  # the tasks hold the content now
            for future in as_completed(list(futures), loop=client.loop):
                task = futures.pop(future)
                result, why = collect(future)
                if why is not None:
                    self._say(f"{task.display}: {why}")
                future.release()
                yield task, result
        finally:
            self._unregister(plugin.name)

    def _play(self, client, plugin_name: str, tasks: list[Task]) -> Iterator[tuple[Task, dict | None]]:
        """A tournament's games: each task's spec with every sandboxed agent's file sent as content."""
        from distributed import as_completed

        from grader.bulk import on_worker

        specs, sent = [], []
        for task in tasks:
            spec = json.loads(task.path)
            try:
                for agent in spec["agents"].values():
                    if "path" in agent:
                        agent["parcel"] = shipping.pack_submission(agent.pop("path"))
            except shipping.ShippingError as exc:
                self._say(f"{task.display}: {exc}")
                yield task, None
                continue
            specs.append(spec)
            sent.append(task)
        play = functools.partial(on_worker.play_game, plugin_name)
        keys = [f"play-game-{uuid.uuid4().hex}" for _ in sent]
        futures = dict(zip(client.map(play, specs, key=keys, pure=False), sent))
        for future in as_completed(list(futures), loop=client.loop):
            task = futures.pop(future)
            result, why = collect(future)
            if why is not None:
                self._say(f"{task.display}: {why}")
            future.release()
            yield task, result

    def _unregister(self, name: str) -> None:
        """Take the job (and its seed) back from the cluster; a cluster already gone has nothing to tidy."""
        if name not in self._registered or self.client is None:
            return
        self._registered.discard(name)
        try:
            self.client.unregister_worker_plugin(name)
        except Exception:  # noqa: BLE001 - the scheduler went away or the job was never set up
            pass

    def _say(self, line: str) -> None:
        """One line on stderr per distinct reason (a broken worker would otherwise say it for every task)."""
        reason = line.split(": ", 1)[-1]
        if reason not in self._said:
            self._said.add(reason)
            print(f"minimax-grader: dask: {line}", file=self.stream, flush=True)

    def close(self) -> None:
        # Belt and braces: a run whose generator was never closed (kept alive by a reference) still
        # takes its job back here.
        for name in list(self._registered):
            self._unregister(name)
        if self.owns_client and self.client is not None:
            self.client.close()
        self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


def _take_back_leftovers(client) -> None:
    """Unregister every job some worker still holds for a client the scheduler no longer has (its driver was killed
    before it could take the job back). A job of a driver still connected is left alone, whatever it grades."""
    try:
        held = client.run(lambda dask_worker, prefix=JOB_PREFIX: [n for n in dask_worker.plugins if n.startswith(prefix)])
        connected = set(client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.clients)))
    except Exception:  # noqa: BLE001 - a cluster that cannot say keeps its leftovers; grading goes on
        return
    for name in sorted({n for names in held.values() for n in names}):
        owner = name[len(JOB_PREFIX) + shipping.DIGEST_LENGTH + 1:]
        if owner and owner not in connected:
            try:
                client.unregister_worker_plugin(name)
            except Exception:  # noqa: BLE001 - gone meanwhile
                pass


def job_plugin(job: Job):
    """The job as a worker plugin, named after its content (a restarted driver replaces its own leftover)."""
    from grader.version import __version__
    from grader.judging import exercise as exercises
    from grader.bulk.on_worker import GradingJob

    exercise = exercises.load(job.exercise, [Path(d) for d in job.exercises_dirs])
    zips = [shipping.zip_folder(root) for root in shipped_roots(job)]
    description = asdict(job)
    description["exercises_dirs"] = []  # driver paths mean nothing to a worker
    limits = asdict(exercise.limits)
    name = JOB_PREFIX + shipping.digest(
        [json.dumps([description, limits, exercise.fingerprint, __version__], sort_keys=True).encode(), *zips])
    return GradingJob(name=name, job=description, version=__version__, fingerprint=exercise.fingerprint,
                      limits=limits, exercise_zips=zips)


def shipped_roots(job: Job) -> list[Path]:
    """Every exercises folder the driver searches but a worker may not have: all except the built-in ones."""
    from grader.judging import exercise as exercises
    from grader import paths

    built_in = paths.data_root().resolve()
    roots = exercises._search_roots([Path(d) for d in job.exercises_dirs])
    return [root for root in roots if root.resolve() != built_in]


RECOMPUTE_WAIT = 600.0  # seconds: far beyond one submission's own limits


def collect(future) -> tuple:
    """(the result, None) or (None, why there is none).

    A result held by a worker that dies after finishing it is computed again by the scheduler while
    this client holds its future: by the time ``as_completed`` hands the future over it may be
    pending again, so it is waited for, never given up as dropped (a worker killed mid-run lost a
    finished submission's result this way).
    """
    try:
        return future.result(timeout=RECOMPUTE_WAIT), None
    except Exception as exc:  # noqa: BLE001 - erred, cancelled, its worker killed every time, or timed out
        return None, _why(exc)


def _why(exc: BaseException | None) -> str:
    name = type(exc).__name__ if exc is not None else "lost"
    if name == "KilledWorker":
        return ("its worker process died every time it was graded (a submission that kills its worker, "
                "or a worker out of memory); listed as an error, tried again on the next run")
    if name == "TimeoutError":
        return (f"no result within {RECOMPUTE_WAIT:.0f} s of its worker going away; listed as an error, "
                "tried again on the next run")
    if name == "CancelledError" or exc is None:
        return "the cluster dropped this task (the scheduler went away?); run grade again to finish"
    return f"{name}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
