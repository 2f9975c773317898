"""The attack battery: hostile submissions get nothing, and change nothing around them.

Every fixture in ``fixtures/submissions/hostile/`` is graded next to the honest samples, two
at a time: under bubblewrap, with bubblewrap switched off (posix: only attacks that need a
filesystem view may come out differently, and the fallback must be announced), in one bulk
run of a class folder (warm fork server), and by a grader running as an unprivileged user: every
attack as ``check`` grades it, by one Python as uid 65534 (with the sandbox it chooses), a few key
attacks by the ``check`` command line with bwrap off, and a whole class by ``grade`` with bwrap off.
Each attack must score 0 with the status and reason its manifest names; the honest samples must keep
full marks; and a canary folder (copies of the submissions, a fake home, an output folder) must be
byte-identical afterwards.

Limits are shortened through the environment so the looping and sleeping attacks cost
seconds, not half a minute each: with 1 s of CPU a process, a spinning attack is killed by the CPU
limit before its call's own limit (1 s) is reached, and the manifest accepts either (the call's limit
alone is tried under the default limits in tests/test_evidence.py). An honest sample uses about a
tenth of that second.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT, SUBMISSIONS

HOSTILE = SUBMISSIONS / "hostile"
MANIFEST = tomllib.loads((HOSTILE / "expected.toml").read_text(encoding="utf-8"))
HONEST = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))
LIMITS = {"MINIMAX_GRADER_CALL_TIMEOUT": "1.0", "MINIMAX_GRADER_LOAD_TIMEOUT": "2",
          "MINIMAX_GRADER_SUBMISSION_TIMEOUT": "8", "MINIMAX_GRADER_CPU_SECONDS": "1"}
EXAMPLES = 40
NOBODY = 65534


def _bwrap_problem() -> str | None:
    if not sys.platform.startswith("linux"):
        return "bubblewrap is Linux-only"
    from grader.sandbox import bwrap

    return bwrap.problem()


needs_bwrap = pytest.mark.skipif(_bwrap_problem() is not None, reason=f"bubblewrap unusable here: {_bwrap_problem()}")


def _fenced(sandbox: str | None) -> bool:
    """Does this sandbox keep the child's files to its own (bwrap's view, or Landlock under posix)?"""
    from grader.sandbox import landlock

    if sandbox == "bwrap":
        return True
    return sandbox in (None, "posix") and landlock.abi() > 0 and sys.platform.startswith("linux")


@pytest.fixture
def limits(monkeypatch):
    for key, value in LIMITS.items():
        monkeypatch.setenv(key, value)


# -- the canary ------------------------------------------------------------------------

def make_canary() -> Path:
    """A world-traversable folder the attacks aim at: submissions with neighbours, a home, an output folder."""
    canary = Path(tempfile.mkdtemp(prefix="minimax-canary-"))
    os.chmod(canary, 0o755)
    subs = canary / "submissions"
    shutil.copytree(HOSTILE, subs / "hostile")
    shutil.copytree(SUBMISSIONS / "ctp-26" / "correct", subs / "honest")
    for folder in (subs / "hostile", subs / "honest"):
        (folder / "notes.txt").write_text("a file next to the submissions\n")
        (folder / "results.json").write_text('{"status": "failed", "score": 0.0}\n')
    home = canary / "home"
    home.mkdir()
    (home / ".bashrc").write_text("export PS1='$ '\n")
    (home / "thesis.md").write_text("years of work\n")
    out = canary / "out"
    out.mkdir()
    (out / "results.json").write_text('{"submissions": []}\n')
    (out / "grades.csv").write_text("student,score\nalice,10\n")
    (out / "gradebook.sqlite").write_bytes(b"SQLite format 3\x00" + bytes(range(256)))
    (out / "report.html").write_text("<html>report</html>\n")
    for path in canary.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return canary


def digest(folder: Path) -> str:
    """Names, modes and contents of everything under ``folder``."""
    hasher = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        hasher.update(f"{path.relative_to(folder)}|{stat.S_IMODE(info.st_mode):o}|{info.st_uid}\n".encode())
        if path.is_file():
            hasher.update(path.read_bytes())
    return hasher.hexdigest()


# -- judging the outcomes ----------------------------------------------------------------

def verdict_text(status: str, error: str | None, messages: list[str]) -> str:
    return error or " | ".join(messages)


def assert_attack_lost(name: str, status: str, score: float, text: str, *, strict: bool = True) -> None:
    entry = MANIFEST[name]
    if not strict and entry["needs_bwrap"]:
        return  # contained only by the filesystem view this run does not have
    assert score <= entry.get("at_most", 0), f"{name} scored {score}: {text[:300]}"
    allowed = entry["status"] if isinstance(entry["status"], list) else [entry["status"]]
    assert status in allowed, f"{name}: {status}, expected {entry['status']}: {text[:300]}"
    reasons = list(entry["reason"])
    if any(reason.startswith("tampered with the grader's harness") for reason in reasons):
        # The same detection, made at the harness's first look after "done": where the runner's loop is not at one
        # of its waits the student's code still runs, and the process ends at once (the sixty-sixth red team)
        reasons.append(HARNESS_ENDED)
    assert any(reason in text for reason in reasons), f"{name}: verdict {text[:400]!r} names none of {reasons}"


HARNESS_ENDED = "exited before answering (exit code 4)"


def runnable(paths: list[Path], sandbox: str) -> list[Path]:
    """The attacks safe to run here: all, unless neither bwrap nor a uid drop confines them.

    Run unconfined by an ordinary user, the vandals would really wipe that user's home and
    files; those attacks are then left out (the warning says why they would not be contained).
    """
    if _fenced(sandbox) or os.geteuid() == 0:
        return paths
    return [p for p in paths if not MANIFEST[p.name]["needs_bwrap"]]


def grade_batch(paths: list[Path], sandbox: str) -> dict[str, object]:
    from grader.doors import api

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda p: api.check(p, "ctp-26", examples=EXAMPLES, sandbox=sandbox), paths)
        return {str(p): r for p, r in zip(paths, results)}


def run_battery(sandbox: str, *, strict: bool):
    canary = make_canary()
    try:
        before = digest(canary)
        hostile = runnable(sorted((canary / "submissions" / "hostile").glob("*.py")), sandbox)
        honest = sorted((canary / "submissions" / "honest").glob("*.py"))
        # Interleaved, so attacks and honest work run side by side in the pool.
        order = [p for pair in zip(hostile, honest * 3) for p in pair] + hostile[len(honest) * 3:]
        results = grade_batch(order, sandbox)
        after = digest(canary)
    finally:
        shutil.rmtree(canary, ignore_errors=True)
    for path in honest:
        result = results[str(path)]
        assert result.status == "passed" and result.score == result.max_score, \
            f"honest {path.name} was harmed: {result.status} {result.score} {result.error}"
    for path in hostile:
        result = results[str(path)]
        text = verdict_text(result.status, result.error, [c.message for c in result.checks if c.status != "passed"])
        assert_attack_lost(path.name, result.status, result.score, text, strict=strict)
    assert before == after, "a file in the canary folder (submissions, home or output) changed"
    return results


# -- the tests ---------------------------------------------------------------------------

def test_manifest_names_every_attack_and_each_explains_itself():
    files = sorted(p.name for p in HOSTILE.glob("*.py"))
    assert len(files) >= 20
    assert sorted(MANIFEST) == files
    for name in files:
        source = (HOSTILE / name).read_text(encoding="utf-8")
        assert source.lstrip().startswith('"""'), f"{name} has no docstring saying what it attacks"
        statuses = MANIFEST[name]["status"]
        assert set(statuses if isinstance(statuses, list) else [statuses]) <= {"failed", "error"}
        assert MANIFEST[name]["reason"]


@needs_bwrap
def test_battery_under_bwrap(limits):
    results = run_battery("bwrap", strict=True)
    assert {r.sandbox["mode"] for r in results.values()} == {"bwrap"}
    assert all(not r.sandbox["warning"] for r in results.values())


def test_battery_without_bwrap_warns_once_and_still_contains(limits, capfd):
    from grader.sandbox import launch

    launch._warned.clear()
    results = run_battery("posix", strict=_fenced("posix"))  # with Landlock even the vandals must lose
    assert {r.sandbox["mode"] for r in results.values()} == {"posix"}
    assert all("not using the bubblewrap sandbox" in (r.sandbox["warning"] or "") for r in results.values())
    assert capfd.readouterr().err.count("WARNING: not using the bubblewrap sandbox") == 1


def test_battery_in_one_bulk_run_next_to_honest_work(limits):
    """``grade`` of a whole class folder (warm fork server, two workers): attackers get 0, the rest full marks."""
    from grader.bulk import batch

    canary = make_canary()
    out = Path(tempfile.mkdtemp(prefix="minimax-bulk-out-"))
    try:
        klass = canary / "submissions" / "class"
        klass.mkdir()
        sandbox = "bwrap" if _bwrap_problem() is None else "posix"
        attacks = runnable(sorted((canary / "submissions" / "hostile").glob("*.py")), sandbox)
        for path in attacks:
            shutil.copyfile(path, klass / path.name)
        for path in sorted((canary / "submissions" / "honest").glob("*.py")):
            shutil.copyfile(path, klass / f"honest_{path.name}")
        os.chmod(klass, 0o755)
        before = digest(canary)
        outcome = batch.grade([klass], "ctp-26", out, seed=26, jobs=2, sandbox=sandbox)
        after = digest(canary)
        document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    finally:
        shutil.rmtree(canary, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    assert outcome.failures == []
    students = {entry["student"]: entry for entry in document["submissions"]}
    assert len(students) == len(attacks) + len(HONEST)
    for student, data in students.items():
        if student.startswith("honest_"):
            assert (data["status"], data["score"]) == ("passed", data["max_score"]), (student, data["error"])
            continue
        messages = [c["message"] for c in data["checks"] if c["status"] != "passed"]
        text = verdict_text(data["status"], data["error"], messages)
        assert_attack_lost(f"{student}.py", data["status"], data["score"], text, strict=_fenced(sandbox))
    assert before == after, "a file in the canary folder (submissions, home or output) changed"


def _missing(why: str) -> None:
    """CI must run the unprivileged battery: there a missing tool fails the test; elsewhere it skips."""
    if os.environ.get("CI"):
        pytest.fail(f"cannot run the grader as an unprivileged user: {why}")
    pytest.skip(why)


def _unprivileged_python(workdir: Path) -> tuple[list[str], dict]:
    """A command prefix that runs this Python as uid 65534, and the environment it needs."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir), "LANG": "C.UTF-8",
           "MINIMAX_GRADER_CACHE": str(workdir / "cache"), **LIMITS}
    if os.geteuid() != 0:
        return [sys.executable], {**env, "PYTHONPATH": str(ROOT)}
    if shutil.which("setpriv") is None:
        _missing("setpriv (util-linux) is not installed")
    drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    import sysconfig

    site_packages = sysconfig.get_paths()["purelib"]
    probe = subprocess.run(drop + [sys.executable, "-c", "import anytree, click, jinja2, sys; print(sys.base_prefix)"],
                           capture_output=True, text=True, env={**env, "PYTHONPATH": f"{ROOT}{os.pathsep}{site_packages}"})
    # The same interpreter, really: a venv whose base Python the user cannot read starts, but
    # as some other Python (it falls back to the system's), and then cannot start its children.
    if probe.returncode == 0 and probe.stdout.strip() == sys.base_prefix:
        return drop + [sys.executable], {**env, "PYTHONPATH": f"{ROOT}{os.pathsep}{site_packages}"}
    # The interpreter lives where nobody may look (a pyenv under a private /root): show it to
    # the unprivileged user through a bind mount in a mount namespace of the test's own.
    if shutil.which("unshare") is None:
        _missing("this Python is unreadable for uid 65534 and unshare (util-linux) is missing")
    prefix = Path(sys.base_prefix).resolve()
    view = workdir / "python"
    view.mkdir()
    inner_python = view / Path(sys.executable).resolve().relative_to(prefix)
    site_path = Path(site_packages).resolve()  # a venv's packages live outside the base prefix, readable as they are
    inner_site = view / site_path.relative_to(prefix) if site_path.is_relative_to(prefix) else site_path
    script = f'mount --make-rprivate / && mount --bind "{prefix}" "{view}" && exec "$@"'
    command = ["unshare", "--mount", "sh", "-c", script, "sh"] + drop + [str(inner_python)]
    return command, {**env, "PYTHONPATH": f"{ROOT}{os.pathsep}{inner_site}"}


# One unprivileged Python grading many files as ``check`` does, one at a time per thread: the
# battery then pays for one interpreter and one import of the grader, not one per file (124 of
# them cost about 30 s of CPU). The command line itself is tried by the tests that name it.
ONE_PROCESS_BATTERY = """
import concurrent.futures, json, sys
from grader.doors import api

def grade(path):
    return path, json.loads(api.check(path, "ctp-26", examples=int(sys.argv[1])).to_json())

with concurrent.futures.ThreadPoolExecutor(max_workers=int(sys.argv[2])) as pool:
    for path, data in pool.map(grade, sys.argv[3:]):
        print(json.dumps({"path": path, "result": data}), flush=True)
"""


def grade_unprivileged(attacks: list[str] | None, honest_count: int, sandbox: str | None = None,
                       workers: int = 2, one_process: bool = False) -> dict:
    """Each file graded as by ``check``, running as uid 65534 (two at a time), from a world-readable copy:
    by the CLI, one process a file, or (``one_process``) by one Python that grades them all."""
    workdir = Path(tempfile.mkdtemp(prefix="minimax-unprivileged-"))
    try:
        os.chmod(workdir, 0o755)
        shutil.copytree(HOSTILE, workdir / "hostile")
        honest = workdir / "honest"
        shutil.copytree(SUBMISSIONS / "ctp-26" / "correct", honest)
        (workdir / "cache").mkdir()
        for path in [workdir, *workdir.rglob("*")]:
            if os.geteuid() == 0:
                os.chown(path, NOBODY, NOBODY)
        command, env = _unprivileged_python(workdir)
        hostile = sorted((workdir / "hostile").glob("*.py"))
        if (sandbox == "posix" or _bwrap_problem() is not None) and not _fenced("posix"):
            hostile = [p for p in hostile if not MANIFEST[p.name]["needs_bwrap"] or os.geteuid() == 0]
        if attacks is not None:
            hostile = [p for p in hostile if p.name in attacks]
        paths = hostile + sorted(honest.glob("*.py"))[:honest_count]
        extra = ["--sandbox", sandbox] if sandbox else []

        def grade(path: Path):
            done = subprocess.run(command + ["-m", "grader", "check", str(path), "-e", "ctp-26", "-f", "json",
                                             "--examples", str(EXAMPLES)] + extra,
                                  capture_output=True, env=env, cwd=workdir, timeout=120)
            try:
                return json.loads(done.stdout), done.stderr.decode("utf-8", "replace")
            except ValueError:
                raise AssertionError(f"{path.name}: no JSON from the CLI: {done.stderr.decode()[-800:]}") from None

        if one_process:
            assert not sandbox, "the one-process battery grades with the sandbox check would choose"
            done = subprocess.run(command + ["-c", ONE_PROCESS_BATTERY, str(EXAMPLES), str(workers)] + [str(p) for p in paths],
                                  capture_output=True, env=env, cwd=workdir, timeout=900)
            stderr = done.stderr.decode("utf-8", "replace")
            assert done.returncode == 0, stderr[-1500:]
            lines = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines() if line.startswith("{")]
            by_path = {line["path"]: line["result"] for line in lines}
            assert sorted(by_path) == sorted(str(p) for p in paths), stderr[-800:]
            return {path: (by_path[str(path)], stderr) for path in paths}
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            return dict(zip(paths, pool.map(grade, paths)))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def check_outcomes(outcomes: dict, *, strict: bool) -> None:
    for path, (data, stderr) in outcomes.items():
        if path.parent.name == "honest":
            assert data["status"] == "passed", f"honest {path.name}: {data['error']} {stderr[-300:]}"
            continue
        messages = [c["message"] for c in data["checks"] if c["status"] != "passed"]
        text = verdict_text(data["status"], data["error"], messages)
        assert_attack_lost(path.name, data["status"], data["score"], text, strict=strict)


def test_battery_as_an_unprivileged_user():
    """Every attack graded as ``check`` grades it (a cold child each, the sandbox it chooses), by a grader
    running as uid 65534: the laptop case, where nothing of the grader's is root's."""
    outcomes = grade_unprivileged(None, honest_count=3, one_process=True)
    modes = {data["sandbox"]["mode"] for data, _ in outcomes.values()}
    check_outcomes(outcomes, strict=modes == {"bwrap"} or _fenced("posix"))
    if _bwrap_problem() is None:
        assert modes == {"bwrap"}, "bwrap works for root here, it should for an unprivileged user too"


def test_unprivileged_without_bwrap_the_filter_and_limits_still_hold():
    """No root to drop, no namespaces: the process limit counts on top of the user's own processes,
    and the seccomp filter alone keeps signals (kill -1 would reach the grader), sockets, and chmod,
    chown and utime on files outside the scratch (which Landlock does not cover) away."""
    attacks = ["fork_bomb.py", "kill_everyone.py", "network.py", "os_exit_in_call.py", "memory_bomb.py",
               "read_grader_memory.py", "chmod_outside_scratch.py"]
    # One grader at a time: two graders of one uid, each with its children, share everything but
    # a child's first milliseconds (before it becomes undumpable), which this test does not race.
    outcomes = grade_unprivileged(attacks, honest_count=2, sandbox="posix", workers=1)
    assert {data["sandbox"]["mode"] for data, _ in outcomes.values()} == {"posix"}
    assert all("WARNING: not using the bubblewrap sandbox" in stderr for _, stderr in outcomes.values())
    check_outcomes(outcomes, strict=True)


@pytest.mark.parametrize("sandbox", ["posix", pytest.param("bwrap", marks=needs_bwrap)])
def test_a_class_graded_by_an_unprivileged_user(sandbox):
    """``grade`` of a whole class as an ordinary user, the laptop case, under a fork server: with bubblewrap
    (whose children are the grader's own uid outside their sandbox) and with it off (``--sandbox posix``).
    Every attack loses, every honest neighbour keeps full marks, and the class folder, the user's home and
    an earlier output folder are byte-identical afterwards. Under posix without Landlock the grader must
    refuse to start (the policy for a class graded unconfined)."""
    work = Path(tempfile.mkdtemp(prefix="minimax-unprivileged-class-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        shutil.copytree(HOSTILE, klass, ignore=shutil.ignore_patterns("*.toml"))
        for path in HONEST:
            shutil.copyfile(path, klass / f"honest_{path.name}")
        (klass / "notes.txt").write_text("a file next to the submissions\n")
        home = work / "home"
        home.mkdir()
        (home / ".bashrc").write_text("export PS1='$ '\n")
        (home / "thesis.md").write_text("years of work\n")
        previous = work / "previous-results"
        previous.mkdir()
        (previous / "results.json").write_text('{"submissions": []}\n')
        (previous / "gradebook.sqlite").write_bytes(b"SQLite format 3\x00" + bytes(range(256)))
        (work / "cache").mkdir()
        for path in [work, *work.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
            if os.geteuid() == 0:
                os.chown(path, NOBODY, NOBODY)
        command, env = _unprivileged_python(work)
        env["HOME"] = str(home)
        before = {name: digest(work / name) for name in ("class", "home", "previous-results")}
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                         "--sandbox", sandbox, "--examples", str(EXAMPLES), "-j", "2"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=1800)
        after = {name: digest(work / name) for name in ("class", "home", "previous-results")}
        if not _fenced(sandbox):
            assert done.returncode == 2 and "refusing to grade" in done.stderr, done.stderr[-800:]
            assert before == after
            return
        assert done.returncode == 0, done.stderr[-1500:]
        document = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    if sandbox == "posix":
        assert "Landlock (ABI" in done.stderr
    students = {entry["student"]: entry for entry in document["submissions"]}
    assert len(students) == len(MANIFEST) + len(HONEST)
    assert {entry["sandbox"]["mode"] for entry in students.values()} == {f"{sandbox}+fork-server"}
    for student, data in students.items():
        if student.startswith("honest_"):
            assert (data["status"], data["score"]) == ("passed", data["max_score"]), (student, data["error"])
            continue
        messages = [c["message"] for c in data["checks"] if c["status"] != "passed"]
        assert_attack_lost(f"{student}.py", data["status"], data["score"], verdict_text(data["status"], data["error"], messages))
    for name in before:
        assert before[name] == after[name], f"{name} changed while the class was graded"
