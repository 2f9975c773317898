"""The speed benchmark keeps running: one quick pass, no timing assertions (figures vary by machine)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "check_speed.py"


def test_check_speed_benchmark_runs_once():
    done = subprocess.run([sys.executable, str(SCRIPT), "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "import anytree, hypothesis, jinja2" in out and "(baseline)" in out
    assert re.search(r"check correct .*: +\d+ ms += +[0-9.]+x baseline \(target <= 2\.5x", out), out
    assert re.search(r"check buggy .*: +\d+ ms += +[0-9.]+x baseline \(target <= 5\.0x", out), out


def test_check_speed_benchmark_rejects_zero_runs():
    done = subprocess.run([sys.executable, str(SCRIPT), "--runs", "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--runs" in done.stderr


def test_aind_check_speed_benchmark_runs_once():
    script = SCRIPT.with_name("aind_check_speed.py")
    done = subprocess.run([sys.executable, str(script), "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"check ctp-26 .*: +\d+ ms +\(baseline\)", done.stdout), done.stdout
    assert re.search(r"check aind-isolation .*: +\d+ ms += +[0-9.]+x ctp-26 \(target < 2 s: (met|MISSED)\)", done.stdout)
