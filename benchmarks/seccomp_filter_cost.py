"""What the system-call allowlist (grader/sandbox/allowlist.py) costs per system call.

Each variant runs in a fresh child: no filter, and the allowlist as shipped. The child times loops
of cheap system calls, each loop on its own: ``os.stat`` of one file and ``os.getppid`` (plainly
allowed: the kernel caches their verdict, Linux 5.11+), and ``os.kill(own pid, 0)`` and
``resource.prlimit(0, ...)`` (calls whose pid argument the filter reads, every time). The figures
are ratios against the unfiltered child of the same run, so a loaded machine shifts them all alike.
Linux on x86_64 or aarch64 only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

SANDBOX = Path(__file__).resolve().parent.parent / "grader" / "sandbox"
CHILD = """
import os, resource, sys, time
sys.path.insert(0, {sandbox!r})
import guard
variant, calls = sys.argv[1], int(sys.argv[2])
if variant != "none":
    assert guard.install_filter(os.getpid())
me, here = os.getpid(), sys.executable
loops = {{
    "stat": lambda: os.stat(here),
    "getppid": os.getppid,
    "kill(self, 0)": lambda: os.kill(me, 0),
    "prlimit(0)": lambda: resource.prlimit(0, resource.RLIMIT_NOFILE),
}}
for name, call in loops.items():
    start = time.perf_counter()
    for _ in range(calls):
        call()
    print(name, (time.perf_counter() - start) / calls * 1e9)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=100_000)
    args = parser.parse_args()
    if not sys.platform.startswith("linux") or os.uname().machine not in ("x86_64", "aarch64"):
        raise SystemExit("the filter exists on Linux x86_64 and aarch64 only")
    code = CHILD.format(sandbox=str(SANDBOX))
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.runs):  # interleaved, best of each: noise from other processes only adds
        for variant in ("none", "allowlist"):
            out = subprocess.run([sys.executable, "-I", "-S", "-c", code, variant, str(args.calls)],
                                 capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                name, value = line.rsplit(" ", 1)
                best[(variant, name)] = min(best.get((variant, name), float("inf")), float(value))
    for name in sorted({name for _, name in best}, key=lambda n: best[("none", n)]):
        bare, filtered = best[("none", name)], best[("allowlist", name)]
        print(f"{name:>14}: {bare:7.1f} ns bare, {filtered:7.1f} ns filtered  x{filtered / bare:.3f}")


if __name__ == "__main__":
    main()
