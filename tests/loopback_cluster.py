"""A real Dask cluster on loopback for tests and benchmarks: ``dask scheduler`` and ``dask worker`` subprocesses.

Each component is its own process group (a worker's nanny, its worker process and the
sandboxes below them), bound to 127.0.0.1 on ports the system picks; the scheduler's address
is read from its scheduler file. ``kill_worker`` kills a whole worker group with SIGKILL, as
a machine that vanishes would; ``close`` kills everything that was started, and only that.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

START_TIMEOUT = 180.0  # a loaded two-core machine takes its time to import distributed


class LoopbackCluster:
    def __init__(self, folder: Path, workers: int = 2, scheduler_config: dict | None = None):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.scheduler_file = self.folder / "scheduler.json"
        self.scheduler_config = scheduler_config or {}
        self.wanted = workers
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def _spawn(self, argv: list[str], log: str, env: dict | None = None) -> subprocess.Popen:
        out = open(self.folder / log, "ab")
        try:
            return subprocess.Popen([sys.executable, "-m", "dask", *argv], stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=out, env=env or dict(os.environ), start_new_session=True)
        finally:
            out.close()

    def start(self) -> None:
        env = dict(os.environ)
        for key, value in self.scheduler_config.items():  # distributed.scheduler.x-y -> DASK_DISTRIBUTED__SCHEDULER__X_Y
            env["DASK_" + key.upper().replace(".", "__").replace("-", "_")] = str(value)
        self.scheduler = self._spawn(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                      "--scheduler-file", str(self.scheduler_file)], "scheduler.log", env)
        deadline = time.monotonic() + START_TIMEOUT
        while not self.address:
            if self.scheduler.poll() is not None:
                raise RuntimeError(f"dask scheduler exited: {self.log('scheduler.log')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"dask scheduler did not start: {self.log('scheduler.log')}")
            try:
                self.address = json.loads(self.scheduler_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        for _ in range(self.wanted):
            self.add_worker()
        if self.wanted:
            self.wait_for_workers(self.wanted)

    def add_worker(self) -> subprocess.Popen:
        n = len(self.workers)
        # The worker's temporary folders (the grader's session folders among them) in the cluster's own folder: a
        # test that kills a worker on purpose left them in /tmp, where nobody removed them
        temporary = self.folder / "tmp"
        temporary.mkdir(exist_ok=True)
        worker = self._spawn(["worker", self.address, "--nworkers", "1", "--nthreads", "1", "--host", "127.0.0.1",
                              "--no-dashboard", "--name", f"w{n}", "--local-directory", str(self.folder / f"w{n}")],
                             f"worker-{n}.log", {**os.environ, "TMPDIR": str(temporary)})
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout="60s", set_as_default=False) as client:
            client.wait_for_workers(count, timeout=START_TIMEOUT)

    def wait_for_exactly(self, count: int) -> None:
        """Until the scheduler counts ``count`` workers: after a kill it counts the dead one a while longer."""
        from distributed import Client

        deadline = time.monotonic() + START_TIMEOUT
        with Client(self.address, timeout="60s", set_as_default=False) as client:
            while len(client.scheduler_info()["workers"]) != count:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the scheduler does not count {count} workers")
                time.sleep(0.1)

    def kill_worker(self, index: int) -> None:
        """SIGKILL the worker's whole process group (nanny, worker, sandboxes): a machine gone at once."""
        worker = self.workers[index]
        leaked = _named_semaphores(worker.pid)
        try:
            os.killpg(worker.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        worker.wait(timeout=60)
        # Their resource tracker, of the same group, died with them: its semaphores would stay in /dev/shm for good
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _group_alive(worker.pid):
            time.sleep(0.05)
        for path in leaked:
            try:
                os.unlink(path)
            except OSError:
                pass

    def log(self, name: str) -> str:
        try:
            return (self.folder / name).read_text(errors="replace")[-2000:]
        except OSError:
            return "(no log)"

    def close(self) -> None:
        """Each component stopped as its user would (SIGTERM to the group), then what is left of it killed.

        Its group is given a few seconds to empty on its own first: multiprocessing's resource tracker
        (a nanny's) ignores SIGTERM and unlinks the named semaphores its clients leaked once they are gone;
        killed with them, it left six ``/dev/shm/sem.mp-*`` files behind every run of the Dask tests."""
        for process in [*self.workers, self.scheduler]:
            if process is None:
                continue
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=20)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and _group_alive(process.pid):
                time.sleep(0.05)
            try:
                os.killpg(process.pid, signal.SIGKILL)  # anything of its group left behind
            except (ProcessLookupError, PermissionError):
                pass
            process.wait(timeout=20)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _named_semaphores(group: int) -> set[str]:
    """The ``/dev/shm/sem.mp-*`` files mapped by the processes of ``group``: multiprocessing's named semaphores,
    which its resource tracker unlinks when their owners are gone, unless it is killed with them."""
    found = set()
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    for pid in pids:
        try:
            if os.getpgid(pid) != group:
                continue
            with open(f"/proc/{pid}/maps") as maps:
                found.update(line.split()[-1] for line in maps if "/dev/shm/sem.mp-" in line)
        except (OSError, IndexError):
            continue
    return {path for path in found if path.startswith("/dev/shm/sem.mp-")}
