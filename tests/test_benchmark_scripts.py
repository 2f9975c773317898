"""The benchmark scripts still run against the code they measure (one went stale unseen: it called a runner
method that had been renamed, and crashed after a harness in its own process refused new threads)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_sandbox_cost_benchmark_measures_the_seal_and_the_hand_over():
    script = ("import sys; sys.path.insert(0, 'benchmarks'); import sandbox_cost\n"
              "from grader.judging import exercise\n"
              "sandbox_cost.seal_cost(exercise.load('ctp-26'), 3)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "the per-call check" in done.stdout and "handing each call to the runner thread" in done.stdout, done.stdout


def test_the_submission_anatomy_benchmark_counts_what_the_grading_process_served():
    """benchmarks/submission_anatomy.py: the frames it counts are the ones ``Session._serve`` is handed, so a
    rename there, or a class whose questions it no longer sees, shows here as zero questions, not as a quiet
    figure."""
    done = subprocess.run([sys.executable, "benchmarks/submission_anatomy.py", "--size", "2", "--rounds", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = {}
    for line in done.stdout.splitlines()[1:]:
        name, _, value = line.strip().rpartition(" ")
        figures[name.strip()] = float(value)
    assert figures["requests"] >= 3 and figures["cases"] > 200, done.stdout  # first pass, consistency pass, audit
    assert figures["questions"] > figures["notes"] > 200, done.stdout  # a case's note, its leaves' questions
    assert 0 < figures["of which inside requests, ms"] < figures["grading process CPU, ms"], done.stdout


def test_the_revision_benchmark_splits_a_class_s_time_into_once_and_per_submission():
    """benchmarks/against_revision.py, against this very commit: the grade figure comes with its split (to the first
    result, the rate from the first to the last, after the last), read from the progress lines the batch prints. A
    change to those lines shows here as a failed run, not as a split that quietly says nothing. In a git checkout
    (CI's) the earlier tree is HEAD checked out into a worktree; in a copy with no history (a release unpacked), this
    very folder, which the script takes as it is."""
    revision = "HEAD" if (ROOT / ".git").exists() else str(ROOT)
    done = subprocess.run([sys.executable, "benchmarks/against_revision.py", revision, "--exercises", "none",
                           "--size", "4", "--runs", "2"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = {}
    for line in done.stdout.splitlines():
        if " before " in line and " ratio x" in line:
            name, rest = line.split(" before ", 1)
            figures[name.strip()] = [float(part.split()[0]) for part in (rest, rest.split(" now ", 1)[1])]
    assert set(figures) == {"grade a class of 4", "of which: to the first result",
                            "of which: rate from the first result to the last", "of which: after the last result"}, \
        done.stdout
    for before, now in figures.values():
        assert before > 0 and now > 0, done.stdout
    # the first result comes after the run starts and before it ends: the split is of the same runs
    assert figures["of which: to the first result"][1] < 4 / figures["grade a class of 4"][1], done.stdout


def test_the_cpu_benchmark_splits_a_submission_s_cpu_between_the_grading_process_and_its_descendants():
    """benchmarks/cpu_against_revision.py, against this very commit: each revision grades the class in a process of
    its own (benchmarks/worker_pass.py), and a submission's CPU is split into the grading process's and its
    descendants' (the fork server, the children), read from /proc, and the rest of the machine's. A pass that measured
    nothing (the class not graded, the wrong process timed) shows as a zero; one that summed the wrong processes (the
    whole machine since boot) as a figure far past the wall time. The earlier tree is this very folder, given as a
    folder: no git history needed."""
    done = subprocess.run([sys.executable, "benchmarks/cpu_against_revision.py", str(ROOT), "--size", "2", "--rounds",
                           "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = {}
    for line in done.stdout.splitlines():
        if " before " in line and " now " in line:
            name, rest = line.split(" before ", 1)
            figures[name.strip()] = [float(rest.split()[0]), float(rest.split(" now ", 1)[1].split()[0])]
    assert set(figures) == {"grading process CPU", "its descendants: the fork server, the children",
                            "other processes (near 0 on a quiet machine)", "machine CPU, every process", "wall"}, \
        done.stdout
    assert "+fork-server" in done.stdout.splitlines()[0], done.stdout  # both passes graded with the warm fork server
    for side in (0, 1):
        wall = figures["wall"][side]
        assert wall > 0, done.stdout
        assert 0 < figures["grading process CPU"][side] < 4 * wall, done.stdout
        assert 0 < figures["its descendants: the fork server, the children"][side] < 4 * wall, done.stdout


def test_a_revision_the_benchmarks_cannot_check_out_is_one_line_and_leaves_nothing_behind(tmp_path):
    """Neither a revision of this checkout nor a folder: one line saying what to give, no traceback, and no temporary
    folder or worktree left over."""
    import os

    for script in ("against_revision.py", "cpu_against_revision.py"):
        done = subprocess.run([sys.executable, f"benchmarks/{script}", "no-such-revision-3f9c", "--size", "1"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "TMPDIR": str(tmp_path)})  # its temporary folders, and only its
        assert done.returncode != 0, done.stdout
        assert "cannot check out 'no-such-revision-3f9c'" in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not list(tmp_path.iterdir())
    elsewhere = tmp_path / "not-a-grader"
    elsewhere.mkdir()
    done = subprocess.run([sys.executable, "benchmarks/cpu_against_revision.py", str(elsewhere), "--size", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode != 0 and "without a grader in it" in done.stderr and "Traceback" not in done.stderr, \
        done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["not-a-grader"]


def test_the_question_cost_benchmark_grades_a_twin_that_asks_more():
    """benchmarks/question_cost.py: the twin asks its extra questions through the grading process (counted by
    ``Session._serve``), so the margin it divides by is real questions; the CPU figures are the machine's and are
    only printed (a busy CI machine says nothing about them)."""
    done = subprocess.run([sys.executable, "benchmarks/question_cost.py", "--size", "1", "--rounds", "1",
                           "--extra", "5"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    questions = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] in ("plain", "asking"):
            questions[parts[0]] = float(parts[2])
    assert questions["plain"] > 200, done.stdout  # an alpha-beta search's leaves over the bank
    extra = questions["asking"] - questions["plain"]
    assert extra > 0 and extra % 5 == 0, done.stdout  # five more for every call the twin answers
    assert "CPU per extra question" in done.stdout, done.stdout


def test_the_folders_benchmarks_and_tests_make_for_themselves_are_removed_when_they_end(tmp_path):
    """A benchmark's private cache and class folders (``benchmarks/throwaway.py``), and the test session's private
    cache (``tests/conftest.py``), are removed as the process that made them ends: each was left in /tmp, hundreds
    of them after a few days of work."""
    import os

    env = {key: value for key, value in os.environ.items() if key != "MINIMAX_GRADER_CACHE"}
    script = ("import os, sys; sys.path.insert(0, 'benchmarks'); import throwaway; throwaway.private_cache(); "
              "print(os.environ['MINIMAX_GRADER_CACHE']); print(throwaway.folder('minimax-test-throwaway-'))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-800:]
    made = done.stdout.split()
    assert len(made) == 2 and not any(os.path.exists(path) for path in made)
    probe = tmp_path / "test_probe.py"
    probe.write_text("import os\n\ndef test_cache():\n    print('CACHE=' + os.environ['MINIMAX_GRADER_CACHE'])\n",
                     encoding="utf-8")
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    session = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-n", "0",
                              str(probe)], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert session.returncode == 0, session.stdout[-800:]
    (cache,) = [line.split("=", 1)[1] for line in session.stdout.splitlines() if line.startswith("CACHE=")]
    assert "minimax-grader-test-cache-" in cache and not os.path.exists(cache)
