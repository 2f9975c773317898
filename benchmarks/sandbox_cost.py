"""What the sandbox costs per submission: start the child, load a solution, answer one case, stop.

Measured for each launcher this machine has (spawn: a plain child; posix: limits, uid drop as
root, seccomp; posix+landlock: the same child fencing its files with Landlock; bwrap: all that
inside a bubblewrap world), median over several runs, and printed as milliseconds and as ratios
against the plain child measured in the same run. Then what the harness's seal and records cost
per call (``seal.py``: checked after every call of the student's function), against what one
bank case costs in a child that answers the whole bank, and what handing each call to the
runner thread (``runner.py``) and back costs.

    python benchmarks/sandbox_cost.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # noqa: E402 - this folder's helpers
import throwaway  # noqa: E402
throwaway.private_cache("minimax-bench-cache-")

from grader.judging import exercise as exercises  # noqa: E402
from grader.judging.bank import build  # noqa: E402
from grader.sandbox import launch  # noqa: E402
from grader.sandbox.session import Session  # noqa: E402

SOLUTION = ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "negamax.py"


def one_submission(launcher, exercise, case) -> float:
    started = time.perf_counter()
    session = Session(SOLUTION, exercise, launcher)
    try:
        assert session.open().get("ok"), "the solution did not load"
        session.run([case])
    finally:
        session.close()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    exercise = exercises.load("ctp-26")
    case = build(exercise, examples=0).cases[0].to_request()
    launchers = {"spawn": launch.Launcher("spawn", isolated=False), "posix": launch.Launcher("posix", isolated=True)}
    from grader.sandbox import landlock

    if landlock.abi():
        launchers["posix+landlock"] = launch.Launcher("posix", isolated=True, landlock=landlock.abi())
    else:
        print("posix+landlock: not measured (this kernel offers no Landlock)")
    chosen = launch.choose("bwrap")
    if chosen.name == "bwrap":
        launchers["bwrap"] = chosen
    else:
        print(f"bwrap: not measured ({chosen.warning})")
    times = {name: [] for name in launchers}
    for launcher in launchers.values():
        one_submission(launcher, exercise, case)  # warm the page cache and the child library folder
    for _ in range(args.runs):  # launchers taken in turn, so a change in the machine's load falls on all
        for name, launcher in launchers.items():
            times[name].append(one_submission(launcher, exercise, case))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["spawn"]
    print(f"per submission (start, load, one call, stop), median of {args.runs} runs:")
    for name, value in medians.items():
        print(f"  {name:<14} {value:8.1f} ms   x{value / base:5.2f} of spawn   added {value - base:+7.1f} ms")
    from grader.sandbox import identity

    if identity.is_root() and not identity.python_readable_by_others():
        print(f"  (posix here preloads {len(identity.PRELOAD)} standard-library modules before dropping its uid: "
              "this Python is not readable by other uids)")
    if "bwrap" in medians:
        print(f"  bwrap over posix: {medians['bwrap'] - medians['posix']:+.1f} ms (x{medians['bwrap'] / medians['posix']:.2f})")
    if "posix+landlock" in medians:
        extra = medians["posix+landlock"] - medians["posix"]
        print(f"  Landlock over posix: {extra:+.1f} ms (x{medians['posix+landlock'] / medians['posix']:.2f})")
        landlock_step(args.runs)
    seal_cost(exercise, args.runs)


def landlock_step(runs: int) -> None:
    """The Landlock step alone, timed inside a child (load landlock.py, build and apply the rule set):
    what the layer adds to every child, without the noise of a whole session."""
    import json
    import subprocess

    from grader.sandbox import landlock

    rules = landlock.rules([str(ROOT / "grader" / "sandbox")], [tempfile.gettempdir()])
    script = ("import importlib.util, json, sys, time\n"
              "t = time.perf_counter()\n"
              "spec = importlib.util.spec_from_file_location('ll', sys.argv[1])\n"
              "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
              "problem = m.restrict(json.loads(sys.argv[2]))\n"
              "print(problem or (time.perf_counter() - t) * 1000)\n")
    samples = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", script, str(ROOT / "grader" / "sandbox" / "landlock.py"),
                               json.dumps(rules)], capture_output=True, text=True, check=True)
        samples.append(float(done.stdout))
    print(f"  the Landlock step itself ({len(rules['read']) + len(rules['write']) + len(rules['devices'])} rules, "
          f"module load included): median {statistics.median(samples):.1f} ms per child")


def seal_cost(exercise, runs: int) -> None:
    """The seal's work around one call, timed in this process on the bank's trees, against one case's
    share of a child answering the whole bank (which pays for it): the call's own seal (its helpers
    and "before", the closures of ``seal.call_seal``), the check after every call (the window's anchor:
    the driver and the harness's closures) and the whole seal, checked once per request, both made
    exactly as a child makes them."""
    # The child's share first: the in-process harness below refuses new threads from then on (as a child's does),
    # and a Session needs a thread of its own to watch the child's output.
    bank = build(exercise)
    launcher = launch.choose("posix")
    requests = [case.to_request() for case in bank.cases]
    times = []
    for _ in range(max(3, runs // 5)):
        session = Session(SOLUTION, exercise, launcher)
        try:
            session.open()
            started = time.perf_counter()
            session.run(requests)
            times.append((time.perf_counter() - started) / len(requests) * 1e6)
        finally:
            session.close()
    case_cost = statistics.median(times)
    import _thread

    from grader.sandbox import runner

    # On one CPU, as a session's child runs (launch.pin_to_this_cpu binds the grading thread, and the child
    # inherits it): both threads of the hand-over then share it.
    pinned = None
    if hasattr(os, "sched_setaffinity"):
        pinned = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(pinned)})
    try:
        caller = runner.Runner(_thread.allocate_lock())
        samples = []
        for _ in range(max(3, runs // 5)):
            started = time.perf_counter()
            for _ in range(2000):  # the harness's side of one hand-over (harness._serve_cases), without its checks
                caller.box[0] = (int, ())
                caller.hold.release()
                os.write(caller.go_write, runner.GO)
                os.read(caller.done_read, 1)
            samples.append((time.perf_counter() - started) / 2000 * 1e6)
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)
    handoff = statistics.median(samples)
    import importlib.util

    from grader.sandbox import harness as harness_module
    from grader.sandbox import seal

    spec = importlib.util.spec_from_file_location("_minimax_grader_bench_driver", exercise.driver_path)
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    read, write = os.pipe()
    child_side = harness_module.Harness(harness_module.Channel(read, write))
    child_side.driver = driver
    child_side.start_threads()
    whole = seal.Seal.__new__(seal.Seal)
    child_side.call_timeout = 1.0
    child_side.channel.nonce = "0" * 16
    sealed = child_side.sealed_classes()
    child_side.make_seal(whole, *sealed)
    _kit, window, _restore = child_side.window(whole.anchor, *sealed)
    built = [driver.build(case.input) for case in bank.cases]
    befores = [driver.snapshot(b) for b in built]
    evidence_of, broken = seal.call_seal()
    samples, checks, wholes = [], [], []
    for _ in range(max(3, runs // 5)):
        started = time.perf_counter()
        for tree, before in zip(built, befores):
            helpers = driver.helpers(tree, child_side.link)
            evidence = evidence_of(helpers.values(), before)
            assert not broken(evidence, before)
        samples.append((time.perf_counter() - started) / len(built) * 1e6)
        for anchor, times in ((window, checks), (whole.anchor, wholes)):
            started = time.perf_counter()
            for _ in built:
                intact, collecting = seal.check(anchor)
                seal.release(collecting)
                assert intact
            times.append((time.perf_counter() - started) / len(built) * 1e6)
    per_call, per_check, per_request = statistics.median(samples), statistics.median(checks), statistics.median(wholes)
    print(f"the call's own seal: {per_call:.1f} us; the per-call check (the driver and the harness's closures): "
          f"{per_check:.1f} us; one bank case in a posix child (both included): {case_cost:.1f} us; their share "
          f"x{(per_call + per_check) / case_cost:.2f}; the whole seal, checked once per request: {per_request:.1f} us")
    print(f"handing each call to the runner thread and back (one CPU, as a session's child): {handoff:.1f} us per call; "
          f"x{handoff / case_cost:.2f} of one bank case")


if __name__ == "__main__":
    main()
