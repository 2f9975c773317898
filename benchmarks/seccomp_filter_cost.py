"""What the seccomp filter's longer deny list (chmod, chown, utime, xattrs) costs per system call.

Each variant runs in a fresh child: no filter, the filter without the file-attribute calls (as
before), and the filter as shipped. The child times a loop of cheap system calls (``os.stat`` of
one file and ``os.getppid``); the figures are ratios against the unfiltered child of the same run,
so a loaded machine shifts them all alike. Linux on x86_64 or aarch64 only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

SANDBOX = Path(__file__).resolve().parent.parent / "grader" / "sandbox"
CHILD = """
import os, sys, time
sys.path.insert(0, {sandbox!r})
import guard
variant, calls = sys.argv[1], int(sys.argv[2])
if variant == "before":
    for arch, entry in guard.ARCHES.items():
        for name in guard._ATTRIBUTES[arch]:
            entry[2].pop(name, None)
if variant != "none":
    assert guard.install_filter(os.getpid())
stat, getppid, here = os.stat, os.getppid, sys.executable
start = time.perf_counter()
for _ in range(calls):
    stat(here)
    getppid()
print((time.perf_counter() - start) / (2 * calls) * 1e9)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=100_000)
    args = parser.parse_args()
    if not sys.platform.startswith("linux") or os.uname().machine not in ("x86_64", "aarch64"):
        raise SystemExit("the filter exists on Linux x86_64 and aarch64 only")
    code = CHILD.format(sandbox=str(SANDBOX))
    best = {}
    for _ in range(args.runs):  # interleaved, best of each: noise from other processes only adds
        for variant in ("none", "before", "shipped"):
            out = subprocess.run([sys.executable, "-I", "-S", "-c", code, variant, str(args.calls)],
                                 capture_output=True, text=True, check=True).stdout
            best[variant] = min(best.get(variant, float("inf")), float(out))
    for variant in ("none", "before", "shipped"):
        print(f"{variant:>8}: {best[variant]:7.1f} ns per system call  x{best[variant] / best['none']:.3f}")
    print(f"shipped against before: x{best['shipped'] / best['before']:.3f}")


if __name__ == "__main__":
    main()
