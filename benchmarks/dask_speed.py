"""The local pool against Dask on this machine, and what a ten-machine cluster would reach.

In one run, on one class (SIZE distinct submissions, half buggy, fixed seed):

  * the local pool (``grade``'s default executor, one worker per CPU), and with two
    workers (as many as the scheduler's cluster below);
  * Dask on a ``LocalCluster`` (one single-threaded worker process per CPU, started by
    the executor: its start is part of the time, as it is for an instructor);
  * Dask on a ``dask scheduler`` with two ``dask worker`` processes (``--nthreads 1``) on
    loopback, started beforehand (a cluster is already running when one grades on it).

It prints wall seconds, rates and ratios against the local pool, and the per-task overhead
Dask adds. Then it measures the pieces that do not grow with the cluster: the one writer
(a gradebook commit and a progress line per result), the scheduler's CPU per task and the
driving process's CPU per task (packing, submitting, receiving), from empty tasks that carry
a real submission and return a real result. From the local pool's rate per core it projects
a cluster of MACHINES machines of CORES cores each and names the first limit it meets.

    python benchmarks/dask_speed.py [--size 200] [--machines 10] [--cores N] [--noop 2000]

It reports, it does not judge: exit status 0 unless a run fails. On a shared machine, read
the ratios (measured in the same run) rather than the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bulk_class import samples  # noqa: E402
from loopback_cluster import LoopbackCluster  # noqa: E402

SEED = 20261122
LOOPBACK_CONFIG = {"distributed.scheduler.worker-saturation": 1.0}


def build_class(folder: Path, size: int) -> None:
    correct, buggy = samples("correct"), samples("buggy")
    half = size // 2
    chosen = [correct[i % len(correct)] for i in range(size - half)] + [buggy[i % len(buggy)] for i in range(half)]
    folder.mkdir(parents=True)
    for i, source in enumerate(chosen):
        name = f"s{i:03d}-{source.parent.name}-{source.stem}"
        (folder / f"{name}.py").write_text(source.read_text(encoding="utf-8") + f"\n# handed in by {name}\n",
                                           encoding="utf-8")


def timed_grade(folder: Path, out: Path, executor=None) -> dict:
    """One batch.grade run: wall seconds, when each result came, the driving process's CPU seconds."""
    from grader.bulk import batch

    class Clock(batch.Progress):
        def __init__(self):
            super().__init__(open(os.devnull, "w"))
            self.times: list[float] = []

        def count(self, status, student=None, fresh=True):
            super().count(status, student, fresh)
            if fresh:
                self.times.append(time.perf_counter())

    clock = Clock()
    cpu = time.process_time()
    started = time.perf_counter()
    outcome = batch.grade([folder], "ctp-26", out, seed=SEED, executor=executor, progress=clock)
    wall = time.perf_counter() - started
    if outcome.failures:
        raise SystemExit(f"grading failed: {outcome.failures[:3]}")
    times = clock.times
    steady = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else float("nan")
    return {"wall": wall, "n": outcome.graded_now, "rate": outcome.graded_now / wall, "steady": steady,
            "first": times[0] - started if times else float("nan"), "driver_cpu": time.process_time() - cpu}


def verdicts(out: Path) -> dict:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["student"]: (s["status"], s["score"], [c["status"] for c in s["checks"]]) for s in document["submissions"]}


def _echo(result):
    return result


def _second(parcel, result):
    """An empty task: it receives a submission and answers a result, and does nothing else."""
    return result


def noop_costs(address: str, scheduler_pid: int, parcel, result: dict, count: int) -> dict:
    """Empty tasks carrying a real submission and returning a real result: Dask's own cost per task."""
    import psutil
    from distributed import Client, as_completed

    scheduler = psutil.Process(scheduler_pid)
    with Client(address, set_as_default=False) as client:
        client.submit(_echo, result, pure=False).result()  # warm the connection and the function cache
        before_s = sum(scheduler.cpu_times()[:2])
        before_d = time.process_time()
        started = time.perf_counter()
        futures = [client.submit(_second, parcel, result, pure=False) for _ in range(count)]
        for future in as_completed(futures, loop=client.loop):
            future.result()
            future.release()
        wall = time.perf_counter() - started
        return {"wall_per_task": wall / count, "scheduler_cpu": (sum(scheduler.cpu_times()[:2]) - before_s) / count,
                "driver_cpu": (time.process_time() - before_d) / count}


def writer_cost(result: dict, count: int, folder: Path) -> float:
    """Seconds per result of what the one writer does with it: a committed gradebook row and a progress line."""
    from grader.bulk import batch
    from grader.bulk.gradebook import Gradebook

    progress = batch.Progress(open(os.devnull, "w"))
    progress.start(count, 0, SEED, "ctp-26")
    with Gradebook(folder / "writer.sqlite") as book:
        started = time.perf_counter()
        for i in range(count):
            book.record(f"{i:064x}", "ctp-26", "bench", SEED, "fp", 200, result)
            progress.count(result["status"], f"s{i}")
        return (time.perf_counter() - started) / count


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="distinct submissions in the class (half buggy)")
    parser.add_argument("--machines", type=int, default=10, help="machines in the projected cluster")
    parser.add_argument("--cores", type=int, default=None, help="cores per projected machine (default: this one's)")
    parser.add_argument("--noop", type=int, default=2000, help="empty tasks for Dask's own per-task cost")
    args = parser.parse_args(argv)
    import throwaway
    throwaway.private_cache("minimax-grader-bench-cache-")
    from grader.judging import bank, exercise
    from grader.bulk.executor import LocalPool, default_jobs
    from grader.bulk import shipping
    from grader.bulk.dask_cluster import DaskExecutor

    cores = os.cpu_count() or 1
    work = Path(tempfile.mkdtemp(prefix="minimax-grader-dask-"))
    try:
        folder = work / "class"
        build_class(folder, args.size)
        bank.build(exercise.load("ctp-26"), seed=SEED)  # the bank is on disk for every run alike
        print(f"class of {args.size} distinct submissions, {cores} cores, {default_jobs()} local workers", flush=True)

        local = timed_grade(folder, work / "local")
        print(f"local pool        {local['wall']:6.2f} s  {local['rate']:6.1f}/s  (steady {local['steady']:.1f}/s)", flush=True)
        local2 = timed_grade(folder, work / "local2", LocalPool(2))
        print(f"local pool, 2 wkr {local2['wall']:6.2f} s  {local2['rate']:6.1f}/s  (steady {local2['steady']:.1f}/s)", flush=True)
        on_local_cluster = timed_grade(folder, work / "localcluster", DaskExecutor())
        print(f"Dask LocalCluster {on_local_cluster['wall']:6.2f} s  {on_local_cluster['rate']:6.1f}/s  "
              f"(steady {on_local_cluster['steady']:.1f}/s, cluster start included)", flush=True)
        with LoopbackCluster(work / "cluster", workers=2, scheduler_config=LOOPBACK_CONFIG) as cluster:
            on_cluster = timed_grade(folder, work / "scheduler", DaskExecutor(scheduler=cluster.address))
            print(f"Dask sched+2 wkr  {on_cluster['wall']:6.2f} s  {on_cluster['rate']:6.1f}/s  "
                  f"(steady {on_cluster['steady']:.1f}/s)", flush=True)
            sample = next(folder.glob("*.py"))
            result = json.loads((work / "local" / "results.json").read_text())["submissions"][0]
            noop = noop_costs(cluster.address, cluster.scheduler.pid, shipping.pack_submission(sample), result, args.noop)
        writer = writer_cost(result, 2000, work)

        runs = ("local", "local2", "localcluster", "scheduler")
        same = all(verdicts(work / run) == verdicts(work / "local") for run in runs)
        print(f"\nverdicts equal across the four runs: {same}")
        print("time ratios, Dask to the local pool with as many workers (>1 = slower):")
        print(f"  LocalCluster        {on_local_cluster['wall'] / local['wall']:.2f}x whole run, "
              f"{local['steady'] / on_local_cluster['steady']:.2f}x steady")
        print(f"  scheduler+2 workers {on_cluster['wall'] / local2['wall']:.2f}x whole run, "
              f"{local2['steady'] / on_cluster['steady']:.2f}x steady")
        per_task = 2 * (1 / on_cluster["steady"] - 1 / local2["steady"])
        print(f"  per-task overhead (scheduler+2 workers, steady): {per_task * 1000:+.1f} ms of a worker's time per submission")
        print(f"Dask's own cost per task (empty tasks carrying a submission and a result, {args.noop} of them):")
        print(f"  round trip {noop['wall_per_task'] * 1000:.2f} ms wall per task through 2 workers; "
              f"scheduler {noop['scheduler_cpu'] * 1000:.2f} ms CPU; driving process {noop['driver_cpu'] * 1000:.2f} ms CPU")
        print(f"the one writer: {writer * 1000:.2f} ms per result (gradebook commit + progress line)")

        per_core = local["steady"] / cores
        machine_cores = args.cores or cores
        compute = per_core * args.machines * machine_cores
        limits = {"compute (workers)": compute,
                  "the one writer": 1 / writer,
                  "the scheduler (one CPU)": 1 / noop["scheduler_cpu"] if noop["scheduler_cpu"] > 0 else float("inf"),
                  "the driving process (submit + receive + write)": 1 / (noop["driver_cpu"] + writer)}
        print(f"\nprojection: {args.machines} machines x {machine_cores} cores at {per_core:.1f} submissions/s per core")
        for name, rate in limits.items():
            print(f"  {name:<48} {rate:9.0f} submissions/s")
        bottleneck = min(limits, key=limits.get)
        print(f"  => about {limits[bottleneck]:.0f} submissions/s; the first limit met: {bottleneck}")
        shared = {name: rate for name, rate in limits.items() if name != "compute (workers)"}
        first_shared = min(shared, key=shared.get)
        print(f"  beyond about {shared[first_shared] / per_core:.0f} cores in all, {first_shared} is the limit")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
