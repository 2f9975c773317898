"""The bulk-speed benchmark keeps working (run on a tiny class; its figures are not judged here)."""

from __future__ import annotations

import subprocess
import sys

from bulk_class import ROOT


def test_bulk_speed_benchmark_runs_on_a_tiny_class():
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bulk_speed.py"), "--size", "4", "--sample", "1",
                           "--examples", "10", "--jobs", "1", "--verify", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for label in ("grade:", "re-run:", "pytest loop:", "ratio:", "targets:"):
        assert label in done.stdout
    assert "verify:       2 of 2 verdicts equal" in done.stdout
