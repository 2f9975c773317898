"""How fast `minimax-grader grade` grades a class, against the per-submission pytest loop.

Before this grader, an instructor graded a class with a loop: one `pytest` process per
submission, running a hypothesis property test (200 examples) against the reference. This
script measures both in the same run, on the same machine (so the machine's load falls on
both):

  * a class of SIZE submissions built from the fixture samples, half of them buggy, each
    file made distinct by a comment naming its student (so nothing is graded once for two),
    graded by `minimax-grader grade` with a fixed seed;
  * the same command again on the unchanged class (the gradebook answers everything);
  * the pytest loop on a sample of SAMPLE of those submissions (half buggy), one generated
    test file and one `pytest` process each.

It prints wall-clock rates, CPU seconds per submission (on Linux the whole machine's busy
time during each run, so run it on an otherwise idle machine; elsewhere the process and the
children it waited for), and the ratios. Optionally (``--verify N``) it checks that the verdicts of N graded
submissions equal what `minimax-grader check` gives each alone.

    python benchmarks/bulk_speed.py [--size 200] [--sample 10] [--jobs N] [--examples 200] [--verify 0]

Exit status 0 whether or not the targets (50 submissions/s, 30x the loop) are met: it
reports, it does not judge; non-zero only if a run itself fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from bulk_class import samples  # noqa: E402

SEED = 20260126

PYTEST_FILE = '''
import importlib.util
import sys

from anytree import Node
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, {root!r})
from grader.judging import exercise as exercises  # the same random trees the grader draws from

EXERCISE = exercises.load("ctp-26")
REFERENCE = EXERCISE.reference
PLAIN = EXERCISE.hooks.PlainTree


def load_student():
    spec = importlib.util.spec_from_file_location("student", {student!r})
    module = importlib.util.module_from_spec(spec)
    module.get_value = lambda node: node.value
    module.get_next_valid_moves = lambda node: node.children
    spec.loader.exec_module(module)
    module.get_value = lambda node: node.value  # again: some students define their own stand-ins
    module.get_next_valid_moves = lambda node: node.children
    return module


STUDENT = load_student()


def build(data, parent=None):
    node = Node(data["name"], parent=parent)
    node.value = data["value"]
    for child in data["children"]:
        build(child, node)
    return node


@settings(max_examples={examples}, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(EXERCISE.hooks.strategy())
def test_matches_the_reference(case):
    expected = REFERENCE.minimax(case["tree"], case["max_depth"], case["player_a_moves"], PLAIN)
    root = build(case["tree"])
    assert STUDENT.minimax(root, case["max_depth"], case["player_a_moves"]) == expected
'''


def machine_busy() -> float | None:
    """CPU seconds this machine has spent busy since boot (Linux /proc/stat), None elsewhere.

    The honest CPU figure for `grade`: its sandboxed children are reaped by the fork server,
    which is killed at the end, so no wait4() of ours ever sees their time. On an otherwise
    idle machine, the busy time during the run is the run's.
    """
    try:
        with open("/proc/stat") as handle:
            fields = [int(x) for x in handle.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def timed(command: list[str], **kwargs) -> tuple[float, float, subprocess.CompletedProcess | None, int]:
    """Wall seconds, CPU seconds (machine-wide busy time where known, else the process and what it
    waited for), and the exit status."""
    busy = machine_busy()
    started = time.perf_counter()
    process = subprocess.Popen(command, **kwargs)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    after = machine_busy()
    cpu = after - busy if busy is not None and after is not None else usage.ru_utime + usage.ru_stime
    return wall, cpu, process, process.returncode


def grade(folder: Path, out: Path, jobs: int | None) -> tuple[float, float, list[float]]:
    """Wall and CPU seconds of one `grade` run, and when (seconds from its start) each result came."""
    command = [sys.executable, "-m", "grader", "grade", str(folder), "--exercise", "ctp-26", "--out", str(out),
               "--seed", str(SEED)]
    if jobs:
        command += ["--jobs", str(jobs)]
    results: list[float] = []
    busy = machine_busy()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with open(out.parent / f"{out.name}.log", "w") as log:
        for line in process.stdout:  # plain progress lines: not a terminal
            log.write(line)
            if line.startswith("["):
                results.append(time.perf_counter() - started)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    after = machine_busy()
    cpu = after - busy if busy is not None and after is not None else usage.ru_utime + usage.ru_stime
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"grade failed (exit {os.waitstatus_to_exitcode(status)}); see {out.name}.log")
    return wall, cpu, results


def pytest_loop(students: list[Path], work: Path, examples: int) -> tuple[float, float, int]:
    wall = cpu = 0.0
    passed = 0
    for i, student in enumerate(students):
        test = work / f"loop_{i}" / "test_student.py"
        test.parent.mkdir(parents=True)
        test.write_text(PYTEST_FILE.format(root=str(ROOT), student=str(student), examples=examples))
        w, c, _, code = timed([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", str(test)],
                              cwd=test.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, cpu = wall + w, cpu + c
        passed += code == 0
    return wall, cpu, passed


def verify(out: Path, folder: Path, count: int) -> tuple[int, int]:
    from grader.doors import api

    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    chosen = document["submissions"][:: max(1, len(document["submissions"]) // max(count, 1))][:count]
    same = 0
    for submission in chosen:
        alone = api.check(folder / f"{submission['student']}.py", "ctp-26", seed=SEED).to_dict()
        keys = [k for k in alone if k not in ("duration_seconds", "sandbox", "submission")]
        same += all(alone[k] == submission[k] for k in keys)
    return same, len(chosen)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200, help="submissions in the class (half buggy)")
    parser.add_argument("--sample", type=int, default=10, help="submissions put through the pytest loop")
    parser.add_argument("--jobs", type=int, default=None, help="grade --jobs (default: one per CPU)")
    parser.add_argument("--examples", type=int, default=200, help="hypothesis examples per pytest run")
    parser.add_argument("--verify", type=int, default=0, help="compare N verdicts with `check` each alone")
    parser.add_argument("--keep", action="store_true", help="keep the class and outputs (the path is printed)")
    args = parser.parse_args(argv)
    import throwaway
    throwaway.private_cache("minimax-grader-bench-cache-")

    work = Path(tempfile.mkdtemp(prefix="minimax-grader-bulk-"))
    try:
        correct, buggy = samples("correct"), samples("buggy")
        half = args.size // 2
        chosen = [correct[i % len(correct)] for i in range(args.size - half)] + [buggy[i % len(buggy)] for i in range(half)]
        folder = work / "class"
        folder.mkdir()
        students = {}
        for i, source in enumerate(chosen):
            name = f"s{i:03d}-{source.parent.name}-{source.stem}"
            text = source.read_text(encoding="utf-8") + f"\n# handed in by {name}\n"
            (folder / f"{name}.py").write_text(text, encoding="utf-8")
            students[name] = folder / f"{name}.py"
        # Warm-up: the case bank for this seed is built once (cached on disk, as for any second run).
        from grader.judging import bank, exercise

        bank.build(exercise.load("ctp-26"), seed=SEED)

        first_wall, first_cpu, stamps = grade(folder, work / "out", args.jobs)
        again_wall, _, _ = grade(folder, work / "out", args.jobs)
        n = len(students)

        sample_names = sorted(students)
        buggy_names = [s for s in sample_names if "-buggy-" in s]
        correct_names = [s for s in sample_names if "-correct-" in s]
        k = args.sample // 2

        def spread(names, count):
            return names[:: max(1, len(names) // max(count, 1))][:count]

        loop_students = [students[s] for s in spread(correct_names, args.sample - k) + spread(buggy_names, k)]
        loop_wall, loop_cpu, loop_passed = pytest_loop(loop_students, work, args.examples)
        m = len(loop_students)

        grade_rate = n / first_wall
        loop_rate = m / loop_wall if loop_wall else float("nan")
        print(f"class: {n} submissions ({n - half} correct-style, {half} buggy), all distinct; seed {SEED}; "
              f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
        print(f"grade:        {first_wall:7.2f} s wall  {grade_rate:7.1f} submissions/s   "
              f"{first_cpu / n * 1000:6.1f} ms CPU per submission (machine busy time)")
        if len(stamps) >= 2:
            steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if stamps[-1] > stamps[0] else float("nan")
            print(f"phases:       first result after {stamps[0]:.2f} s; {steady:.1f} submissions/s from the first "
                  f"result to the last; outputs written in {first_wall - stamps[-1]:.2f} s after it")
        print(f"re-run:       {again_wall:7.2f} s wall  ({again_wall / first_wall:.1%} of the first run, nothing to grade)")
        print(f"pytest loop:  {loop_wall:7.2f} s wall  {loop_rate:7.2f} submissions/s   "
              f"{loop_cpu / max(m, 1) * 1000:6.1f} ms CPU per submission ({m} sampled, {loop_passed} passed, "
              f"{args.examples} examples each)")
        print(f"ratio:        {grade_rate / loop_rate:7.1f}x faster (wall)   "
              f"{(loop_cpu / max(m, 1)) / (first_cpu / n):.1f}x less CPU per submission")
        print(f"targets:      >= 50 submissions/s: {'met' if grade_rate >= 50 else 'NOT met'};  "
              f">= 30x the loop: {'met' if grade_rate / loop_rate >= 30 else 'NOT met'}")
        if args.verify:
            same, checked = verify(work / "out", folder, args.verify)
            print(f"verify:       {same} of {checked} verdicts equal to `check` alone")
        if args.keep:
            print(f"kept: {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
