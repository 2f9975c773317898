"""What the pytest plugin costs a project that does not use it (it loads in every pytest run).

Runs pytest on a small plain project with the plugin loaded (as installed) and with it
disabled (``-p no:minimax-grader``), alternating, and prints the medians and their ratio; also
the plugin module's import time next to pytest's own. Usage: python benchmarks/pytest_plugin_overhead.py [rounds]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(cmd: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def main(rounds: int = 7) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / "pyproject.toml").write_text('[project]\nname = "plain"\nversion = "0"\n', encoding="utf-8")
        (project / "test_plain.py").write_text("".join(f"def test_{i}():\n    assert {i} == {i}\n\n" for i in range(20)),
                                               encoding="utf-8")
        base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        with_plugin, without = [], []
        for _ in range(rounds):
            with_plugin.append(timed(base, project))
            without.append(timed(base + ["-p", "no:minimax-grader"], project))
        imports = [sys.executable, "-X", "importtime", "-c", "import pytest, grader.doors.pytest_plugin"]
        report = subprocess.run(imports, capture_output=True, text=True, cwd=project).stderr
    cumulative = {line.rsplit("|", 1)[1].strip(): int(line.split("|")[1]) for line in report.splitlines() if "|" in line
                  and line.split("|")[1].strip().isdigit()}
    a, b = statistics.median(with_plugin), statistics.median(without)
    print(f"pytest on a plain project, median of {rounds}: with the plugin {a * 1000:.0f} ms, "
          f"without {b * 1000:.0f} ms, ratio {a / b:.3f}")
    plugin_us, pytest_us = cumulative.get("grader.doors.pytest_plugin", 0), cumulative.get("pytest", 1)
    print(f"import: grader.doors.pytest_plugin {plugin_us / 1000:.1f} ms, pytest {pytest_us / 1000:.1f} ms, "
          f"ratio {plugin_us / pytest_us:.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
