"""Grading on a real Dask cluster on loopback: the same verdicts as the local pool, and the faults.

A ``dask scheduler`` and two ``dask worker`` processes (one single-threaded worker each,
under a nanny) are started as subprocesses for this module. A class of 74 distinct
submissions is graded once by the local pool and once on the cluster, with one worker's
whole process group killed in the middle of the Dask run; every verdict and score must
match, and every submission must come back exactly once. Then: the driving process killed
with SIGKILL and started again finishes from the gradebook; a submission that kills its
worker process every time is an error for itself alone; an instructor's exercise folder
reaches a worker as content; without Dask the options say in one line what to install.
No speed is asserted (the machine is shared).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bulk_class import build_class, samples
from grader.bulk import batch
from grader.bulk.gradebook import Gradebook
from loopback_cluster import LoopbackCluster

SEED = 4343
CLASS = samples("correct") + samples("buggy")  # 37 samples, two students each: 74 distinct files and folders
VOLATILE = ("duration_seconds", "sandbox", "submission", "student", "report")
# Like a LocalCluster of ours: a worker holds only the task it runs, and a task is given up
# once two workers have died under it (keeps the killer test short).
SCHEDULER_CONFIG = {"distributed.scheduler.worker-saturation": 1.0, "distributed.scheduler.allowed-failures": 1}
KILL_AFTER = 15


def comparable(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in VOLATILE}


def results_of(out: Path) -> dict[str, dict]:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["student"]: s for s in document["submissions"]}


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    base = tmp_path_factory.mktemp("dask-class")
    students = build_class(base / "class", CLASS, copies=2, unique=True)
    assert len(students) >= 70
    # A backslash is a character of a POSIX file name: the local pool grades this file, and so must a worker
    # (shipping refused it on every system once, and the student was one line short on Dask alone).
    (base / "class" / "we\\ird.py").write_bytes(CLASS[0].read_bytes() + b"\n# handed in by we\\\\ird\n")
    return base


@pytest.fixture(scope="module")
def local(klass):
    outcome = batch.grade([klass / "class"], "ctp-26", klass / "local", seed=SEED, jobs=2)
    assert not outcome.failures
    return results_of(klass / "local")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with LoopbackCluster(tmp_path_factory.mktemp("cluster"), workers=2, scheduler_config=SCHEDULER_CONFIG) as running:
        yield running


class Recording:
    """The executor under test, with every (task, result) it hands back written down."""

    def __init__(self, inner):
        self.inner = inner
        self.yielded: list[str] = []

    def run(self, job, tasks):
        for task, result in self.inner.run(job, tasks):
            self.yielded.append(task.key)
            yield task, result

    def close(self):
        self.inner.close()


class KillingProgress(batch.Progress):
    """Kills the first worker's process group when the KILL_AFTER-th result has been written."""

    def __init__(self, cluster):
        super().__init__(open(os.devnull, "w"))
        self.cluster = cluster
        self.killed_at = None

    def count(self, status, student=None, fresh=True, n=1):
        super().count(status, student, fresh, n)
        if fresh and self.done >= KILL_AFTER and self.killed_at is None:
            self.cluster.kill_worker(0)
            self.killed_at = self.done


@pytest.fixture(scope="module")
def on_dask(klass, cluster):
    from grader.bulk.dask_cluster import DaskExecutor

    executor = Recording(DaskExecutor(scheduler=cluster.address))
    progress = KillingProgress(cluster)
    outcome = batch.grade([klass / "class"], "ctp-26", klass / "dask", seed=SEED, executor=executor, progress=progress)
    cluster.add_worker()  # the other tests want two workers again
    cluster.wait_for_workers(2)
    return {"outcome": outcome, "executor": executor, "progress": progress, "results": results_of(klass / "dask")}


def test_every_verdict_and_score_equals_the_local_pool(local, on_dask):
    results = on_dask["results"]
    assert len(results) == len(local) >= 70
    assert set(results) == set(local)
    for student, expected in local.items():
        assert comparable(results[student]) == comparable(expected), student
        assert results[student]["sandbox"]["mode"] == expected["sandbox"]["mode"], student
    statuses = {r["status"] for r in results.values()}
    assert {"passed", "failed"} <= statuses


def test_a_worker_killed_mid_run_loses_nothing_and_doubles_nothing(klass, on_dask):
    outcome, executor, progress = on_dask["outcome"], on_dask["executor"], on_dask["progress"]
    assert progress.killed_at == KILL_AFTER < outcome.total  # killed while most of the class was still to grade
    assert outcome.failures == []
    assert len(executor.yielded) == len(set(executor.yielded)) == outcome.graded_now == outcome.total
    with Gradebook(klass / "dask" / batch.GRADEBOOK) as book:
        assert book.count() == outcome.total


def _grade_command(klass: Path, out: Path, cluster, *extra) -> list[str]:
    return [sys.executable, "-m", "grader", "grade", str(klass / "half"), "--exercise", "ctp-26", "--out", str(out),
            "--seed", str(SEED), "--scheduler", cluster.address, *extra]


def test_the_driving_process_killed_and_restarted_resumes_from_the_gradebook(klass, local, cluster, on_dask):
    build_class(klass / "half", CLASS[:20], copies=2, unique=True)  # the same bytes as those students' in the class
    out = klass / "restarted"
    temporary = klass / "driver-tmp"  # a driver killed with -9 cannot remove its folders: here, not in /tmp
    temporary.mkdir(exist_ok=True)
    driver = subprocess.Popen(_grade_command(klass, out, cluster), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, start_new_session=True, env={**os.environ, "CI": "1", "TMPDIR": str(temporary)})
    try:
        for line in driver.stderr:  # one plain line per result (not a terminal): kill after the fifth
            if line.startswith("[5/"):
                break
        else:
            pytest.fail(f"the driver ended before five results (exit {driver.wait()})")
        os.killpg(driver.pid, signal.SIGKILL)
    finally:
        driver.wait(timeout=60)
        driver.stderr.close()
    with Gradebook(out / batch.GRADEBOOK) as book:
        kept = book.count()
    assert 5 <= kept < 40
    again = subprocess.run(_grade_command(klass, out, cluster), capture_output=True, text=True, timeout=600,
                           env={**os.environ, "CI": "1"})
    assert again.returncode == 0, again.stderr[-2000:]
    assert f", {kept} already in the gradebook," in again.stderr
    assert re.search(rf"{40 - kept} graded now, {kept} from the gradebook", again.stderr), again.stderr[-500:]
    results = results_of(out)
    assert len(results) == 40
    for student, result in results.items():
        assert comparable(result) == comparable(local[student]), student


def test_executor_dask_without_an_address_grades_on_a_local_cluster(klass, local):
    """``--executor dask`` starts (and stops) a LocalCluster of its own: same verdicts, exit 0."""
    build_class(klass / "few", CLASS[:5], copies=2, unique=True)
    out = klass / "localcluster"
    command = [sys.executable, "-m", "grader", "grade", str(klass / "few"), "--exercise", "ctp-26", "--out", str(out),
               "--seed", str(SEED), "--executor", "dask", "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env={**os.environ, "CI": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    results = results_of(out)
    assert len(results) == 10
    for student, result in results.items():
        assert comparable(result) == comparable(local[student]), student


KILLER = '''\
import os, signal
os.kill(os.getppid(), signal.SIGKILL)  # the process that started this one: the Dask worker


def minimax(node, max_depth, player_a_moves):
    return 0
'''


def test_a_submission_that_kills_its_worker_is_an_error_for_itself_alone(tmp_path, cluster, on_dask):
    """With the weakest sandbox (spawn: a plain child of the worker), a submission can kill the worker process.

    The nanny restarts it, the scheduler tries the task on another worker, which dies too, and
    after ``allowed-failures`` the task ends as ``KilledWorker``: that student is listed as an
    error (the grader failed on it, so it is tried again next run); everyone else is graded.
    """
    from grader.bulk.dask_cluster import DaskExecutor

    folder = tmp_path / "class"
    build_class(folder, samples("correct")[:2] + samples("buggy")[:2], unique=True)
    (folder / "zz-killer.py").write_text(KILLER, encoding="utf-8")
    outcome = batch.grade([folder], "ctp-26", tmp_path / "out", seed=SEED, sandbox="spawn", warm=False,
                          executor=DaskExecutor(scheduler=cluster.address))
    assert outcome.failures == [f"{folder / 'zz-killer.py'}: the grader itself failed on this submission "
                                "(not stored; the next run grades it again)"]
    results = results_of(tmp_path / "out")
    assert results["zz-killer"]["status"] == "error" and results["zz-killer"]["error"] == batch.GRADER_FAILED
    graded = {student: r["status"] for student, r in results.items() if student != "zz-killer"}
    assert sorted(graded.values()) == ["failed", "failed", "passed", "passed"]
    assert outcome.graded_now == 4
    cluster.wait_for_workers(2)  # the nannies brought both workers back


def test_an_instructors_exercise_reaches_the_worker_as_content(tmp_path):
    """The job carries the exercise folder as a zip: the worker grades after the original is gone."""
    from test_external_exercise import BUGGY, CORRECT, build_worked_example

    from grader.judging import exercise as exercises
    from grader.bulk.executor import Job
    from grader.bulk import shipping
    from grader.bulk.dask_cluster import job_plugin

    folder = build_worked_example(tmp_path / "instructor")
    fingerprint = exercises.load("ctp-26-scores", [folder]).fingerprint
    job = Job(exercise="ctp-26-scores", seed=SEED, examples=20, exercises_dirs=(str(folder),))
    plugin = job_plugin(job)
    assert str(folder) not in json.dumps(plugin.job)  # no driver path travels
    for name, text in (("correct.py", CORRECT), ("always_max.py", BUGGY)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    parcels = {name: shipping.pack_submission(tmp_path / name) for name in ("correct.py", "always_max.py")}
    shutil.rmtree(folder)  # from here on, only the shipped content exists
    plugin.setup(worker=None)
    try:
        context = plugin.borrow()
        assert context.exercise.fingerprint == plugin.fingerprint == fingerprint
        verdicts = {name: context.grade(parcel, name)["status"] for name, parcel in parcels.items()}
        plugin.give_back(context)
    finally:
        plugin.teardown(worker=None)
    assert verdicts == {"correct.py": "passed", "always_max.py": "failed"}
    assert not plugin.home.exists()


@pytest.mark.parametrize("option", [["--executor", "dask"], ["--scheduler", "tcp://127.0.0.1:9"]])
def test_without_dask_the_options_say_what_to_install(tmp_path, monkeypatch, option):
    from grader.doors.cli import cli

    monkeypatch.setitem(sys.modules, "distributed", None)  # what an install without the extra sees
    (tmp_path / "alice.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    result = CliRunner().invoke(cli, ["grade", str(tmp_path / "alice.py"), "--exercise", "ctp-26",
                                      "--out", str(tmp_path / "out"), *option])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert errors == ['Error: the Dask executor needs Dask: pip install "minimax-grader[dask]"']
    assert not (tmp_path / "out").exists()


def test_after_a_batch_no_worker_keeps_the_job(cluster, on_dask):
    """The job (and with it the seed, the banks and the fork servers) is unregistered when the batch ends."""
    from distributed import Client

    with Client(cluster.address, set_as_default=False) as client:
        # A lambda travels by value (the workers cannot import this test module).
        held = client.run(lambda dask_worker: sorted(n for n in dask_worker.plugins if n.startswith("minimax-grader-job-")))
    assert len(held) == 2 and all(names == [] for names in held.values())


def test_a_killed_worker_leaves_no_named_semaphores_behind(cluster):
    """The test cluster's SIGKILL takes multiprocessing's resource tracker with the worker, which would have unlinked
    the nanny's named semaphores: each killed worker left its ``/dev/shm/sem.mp-*`` files there for good (282 on the
    development machine). ``kill_worker`` unlinks the ones its processes had mapped."""
    import loopback_cluster

    if not sys.platform.startswith("linux"):
        pytest.skip("/proc and /dev/shm/sem.* are Linux's")
    cluster.wait_for_exactly(2)  # a worker killed by an earlier test may still be counted
    index = len(cluster.workers)
    cluster.add_worker()
    try:
        cluster.wait_for_exactly(3)
        mapped = loopback_cluster._named_semaphores(cluster.workers[index].pid)
        assert mapped, "a Dask nanny maps named semaphores of multiprocessing's"
        cluster.kill_worker(index)
        assert [path for path in mapped if os.path.exists(path)] == []
    finally:
        if cluster.workers[index].poll() is None:
            cluster.kill_worker(index)
        cluster.wait_for_exactly(2)  # the tests after this one count the workers


def test_a_worker_with_another_grader_version_refuses_to_grade():
    from grader.bulk.executor import Job
    from grader.bulk.dask_cluster import job_plugin
    from grader.bulk.on_worker import Context, WorkerMismatch

    plugin = job_plugin(Job(exercise="ctp-26", seed=SEED, examples=5))
    plugin.version = "0.0.0-elsewhere"
    plugin.setup(worker=None)
    try:
        with pytest.raises(WorkerMismatch, match="install the same version"):
            Context(plugin)
        plugin.version = __import__("grader").__version__
        plugin.fingerprint = "0" * 16
        with pytest.raises(WorkerMismatch, match="differs from the driving machine"):
            Context(plugin)
    finally:
        plugin.teardown(worker=None)


def test_a_worker_whose_code_changed_on_disk_after_it_loaded_it_refuses_to_grade(monkeypatch):
    """A long-lived worker kept the code it had loaded while the checkout changed under it: the same version, the
    same fingerprint (read from disk), another score for the same file (the 133rd helper)."""
    import grader.version
    from grader.bulk.executor import Job
    from grader.bulk.dask_cluster import job_plugin
    from grader.bulk.on_worker import Context, WorkerMismatch

    monkeypatch.setattr(grader.version, "LOADED_AT", 0.0)  # as if loaded before every file of it was written
    assert grader.version.changed_since_loaded() is not None
    plugin = job_plugin(Job(exercise="ctp-26", seed=SEED, examples=5))
    plugin.setup(worker=None)
    try:
        with pytest.raises(WorkerMismatch, match="changed on disk after the worker loaded it .*restart the worker"):
            Context(plugin)
    finally:
        plugin.teardown(worker=None)


def test_a_finished_job_gives_what_it_froze_back_to_the_collector():
    """A worker freezes the collector's view of a job's exercise and bank while it grades; a long-lived worker
    serving many classes must not keep every finished job's objects (and their cycles) for its whole life."""
    import gc

    from grader.bulk.executor import Job
    from grader.bulk.dask_cluster import job_plugin
    from grader.bulk.on_worker import Context

    plugin = job_plugin(Job(exercise="nim", seed=SEED, examples=0, warm=False))
    plugin.setup(worker=None)
    try:
        context = Context(plugin)
        assert gc.get_freeze_count() > 0
        context.close()
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        plugin.teardown(worker=None)


def test_a_cluster_without_workers_is_said_and_the_batch_waits_for_one(tmp_path):
    from grader.bulk.dask_cluster import DaskExecutor

    class StartsAWorkerWhenTold:
        """stderr of the executor: once it says there is no worker, one is started."""

        def __init__(self, cluster):
            self.cluster, self.lines = cluster, []

        def write(self, text):
            self.lines.append(text)
            if "no worker is connected" in text and not self.cluster.workers:
                self.cluster.add_worker()

        def flush(self):
            pass

    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 7\n")
    with LoopbackCluster(tmp_path / "cluster", workers=0) as empty:
        stream = StartsAWorkerWhenTold(empty)
        outcome = batch.grade([tmp_path / "class"], "ctp-26", tmp_path / "out", seed=SEED,
                              executor=DaskExecutor(scheduler=empty.address, stream=stream))
    assert any("no worker is connected yet" in line for line in stream.lines)
    assert outcome.graded_now == 1 and outcome.failures == []


def test_a_scheduler_with_the_local_executor_is_a_usage_error(tmp_path):
    from grader.doors.cli import cli

    (tmp_path / "alice.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 0\n")
    result = CliRunner().invoke(cli, ["grade", str(tmp_path / "alice.py"), "--exercise", "ctp-26", "--out",
                                      str(tmp_path / "out"), "--executor", "local", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2 and "cannot go with --executor local" in result.output
    assert not (tmp_path / "out").exists()


def test_an_interrupted_batch_takes_its_job_back_from_the_cluster(tmp_path, cluster, on_dask):
    """Ctrl-C in the middle: the job (and its seed) is taken back from every worker, the rows written stay."""
    from distributed import Client

    from grader.bulk.dask_cluster import DaskExecutor

    class Interrupting(batch.Progress):
        def count(self, status, student=None, fresh=True, n=1):
            super().count(status, student, fresh, n)
            if self.done >= 2:
                raise KeyboardInterrupt

    build_class(tmp_path / "class", samples("correct")[:6], unique=True)
    with pytest.raises(KeyboardInterrupt):
        batch.grade([tmp_path / "class"], "ctp-26", tmp_path / "out", seed=SEED + 1,
                    executor=DaskExecutor(scheduler=cluster.address), progress=Interrupting(open(os.devnull, "w")))
    with Client(cluster.address, set_as_default=False) as client:
        held = client.run(lambda dask_worker: sorted(n for n in dask_worker.plugins if n.startswith("minimax-grader-job-")))
    assert held and all(names == [] for names in held.values())
    with Gradebook(tmp_path / "out" / batch.GRADEBOOK) as book:
        assert book.count() >= 2  # what was written before the interruption stays


class _Future:
    """What ``as_completed`` hands over: a status at that moment, and the result (or its failure) when asked."""

    def __init__(self, status, outcome):
        self.status, self.outcome, self.waited = status, outcome, None

    def result(self, timeout=None):
        self.waited = timeout
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome


def test_a_result_lost_with_its_worker_is_waited_for_while_the_scheduler_computes_it_again():
    """A worker killed just after finishing a submission takes the result with it; the scheduler computes it
    again for the client that holds the future, so the future is pending again when it is collected. It must
    be waited for: giving it up said "the cluster dropped this task" and cost the student a run."""
    from concurrent.futures import CancelledError

    from grader.bulk.dask_cluster import collect

    recomputed = _Future("pending", {"status": "passed", "score": 10.0})
    assert collect(recomputed) == ({"status": "passed", "score": 10.0}, None) and recomputed.waited > 60
    assert collect(_Future("finished", {"status": "failed"})) == ({"status": "failed"}, None)
    result, why = collect(_Future("cancelled", CancelledError()))
    assert result is None and why.startswith("the cluster dropped this task")
    killed = type("KilledWorker", (Exception,), {})("grade-submission-1")
    result, why = collect(_Future("erred", killed))
    assert result is None and why.startswith("its worker process died every time it was graded")


def test_a_wrong_scheduler_address_is_one_line_soon(tmp_path, monkeypatch):
    """A typo in the address took a minute and a traceback; a server that accepts the connection and never speaks
    Dask's protocol (the dashboard's port, 8787, an easy mistake) kept grade silent for ten minutes (the 133rd
    helper). Each is one line, the typo at once, the silent server within the connection's limit."""
    import http.server
    import threading as threads

    import time

    from grader.bulk import dask_cluster
    from grader.bulk.dask_cluster import DaskExecutor

    monkeypatch.setattr(dask_cluster, "CONNECT_TIMEOUT", 2)  # the limit itself, 10 s, is the module's
    CONNECT_TIMEOUT = 2
    with pytest.raises(ConnectionError, match="is not a Dask scheduler address: write it as tcp://HOST:PORT"):
        DaskExecutor(scheduler="127.0.0.1:8786x").connect()
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threads.Thread(target=server.serve_forever, daemon=True).start()
    try:
        started = time.monotonic()
        with pytest.raises(ConnectionError, match="nothing answered as a Dask scheduler") as raised:
            DaskExecutor(scheduler=f"tcp://127.0.0.1:{server.server_address[1]}").connect()
        assert time.monotonic() - started < CONNECT_TIMEOUT + 10
        assert "\n" not in str(raised.value)
    finally:
        server.shutdown()


def test_two_runs_of_the_same_class_on_one_cluster_keep_their_own_jobs(tmp_path, cluster, on_dask):
    """Both named the job after its content: the first to end took it back from under the other, whose student in
    mid-grade was stored as "crashed: signal 9 (killed)" and whose later tasks all failed (the 133rd helper). Run
    B starts and ends while run A is in the middle: A's remaining submissions are graded all the same."""
    from grader.bulk.dask_cluster import DaskExecutor
    from grader.bulk.executor import Job, Task

    build_class(tmp_path / "class", samples("correct")[:4], unique=True)
    tasks = [Task(key=p.name, path=str(p), display=p.name) for p in sorted((tmp_path / "class").glob("*.py"))]
    job = Job(exercise="ctp-26", seed=SEED + 7, examples=5)
    first, second = DaskExecutor(scheduler=cluster.address), DaskExecutor(scheduler=cluster.address)
    try:
        running = first.run(job, tasks)
        results = [next(running)]
        other = list(second.run(job, tasks))
        results += list(running)
    finally:
        first.close()
        second.close()
    assert all(result is not None and result.get("status") == "passed" for _, result in other), other
    assert len(results) == len(tasks)
    assert all(result is not None and result.get("status") == "passed" for _, result in results), results


def test_a_dead_drivers_job_is_taken_back_by_the_next_driver(tmp_path, cluster, on_dask):
    from distributed import Client

    from grader.bulk.dask_cluster import DaskExecutor, JOB_PREFIX, job_plugin
    from grader.bulk.executor import Job, Task

    job = Job(exercise="ctp-26", seed=SEED + 8, examples=5)
    with Client(cluster.address, set_as_default=False) as gone:  # a driver that registers its job, then dies
        leftover = job_plugin(job)
        leftover.name = f"{leftover.name}-{gone.id}"
        gone.register_plugin(leftover)
    build_class(tmp_path / "class", samples("correct")[:1], unique=True)
    tasks = [Task(key=p.name, path=str(p), display=p.name) for p in sorted((tmp_path / "class").glob("*.py"))]
    executor = DaskExecutor(scheduler=cluster.address)
    try:
        assert [r["status"] for _, r in executor.run(job, tasks)] == ["passed"]
    finally:
        executor.close()
    with Client(cluster.address, set_as_default=False) as client:
        held = client.run(lambda dask_worker: sorted(n for n in dask_worker.plugins if n.startswith("minimax-grader-job-")))
    assert all(names == [] for names in held.values()), (held, JOB_PREFIX)


def test_a_submission_graded_while_its_job_was_taken_back_has_no_result(monkeypatch):
    """Its sandboxes were killed under it by the teardown: its "crashed: signal 9" was stored as its grade (the
    133rd helper). grade_parcel sees the job no longer holds the context it graded with and gives no result."""
    from grader.bulk import on_worker
    from grader.bulk.executor import Job
    from grader.bulk.dask_cluster import job_plugin

    plugin = job_plugin(Job(exercise="ctp-26", seed=SEED, examples=5, warm=False))
    plugin.setup(worker=None)

    class Worker:
        plugins = {plugin.name: plugin}

    class TornDownWhileGrading:
        def grade(self, parcel, display):
            plugin.teardown(worker=None)  # what unregistering the job does, meanwhile
            return {"status": "error", "error": "crashed: signal 9 (killed)"}

        def close(self):
            pass

    context = TornDownWhileGrading()
    monkeypatch.setattr(plugin, "borrow", lambda: plugin.contexts.append(context) or context)
    monkeypatch.setitem(sys.modules, "distributed", type(sys)("distributed"))
    sys.modules["distributed"].get_worker = lambda: Worker()
    with pytest.raises(on_worker.WorkerMismatch, match="taken back from this worker while it graded alice.py"):
        on_worker.grade_parcel(plugin.name, "alice.py", None)
