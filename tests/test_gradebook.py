"""The gradebook: one row per key, committed as it arrives, and a kill -9 that loses nothing."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from bulk_class import build_class, samples
from grader.bulk.gradebook import Gradebook

RESULT = {"submission": "a.py", "status": "passed", "score": 10.0, "max_score": 10.0, "checks": [], "mistakes": []}


def test_rows_are_keyed_and_replaced_not_duplicated(tmp_path):
    with Gradebook(tmp_path / "g.sqlite") as book:
        assert book.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        book.record("abc", "ctp-26", "0.1.0", 7, "fp1", 200, RESULT)
        book.record("abc", "ctp-26", "0.1.0", 7, "fp1", 200, {**RESULT, "score": 9.0, "status": "failed"})
        book.record("abc", "ctp-26", "0.1.0", 8, "fp1", 200, RESULT)  # another seed: another row
        assert book.count() == 2
        assert book.done("ctp-26", "0.1.0", 7, "fp1", 200)["abc"]["score"] == 9.0
        assert book.done("ctp-26", "0.1.0", 7, "fp2", 200) == {}  # the exercise's data changed: stale
        assert book.done("ctp-26", "0.2.0", 7, "fp1", 200) == {}  # another grader version
        assert book.done("ctp-26", "0.1.0", 7, "fp1", 50) == {}


def test_each_record_is_committed_at_once(tmp_path):
    book = Gradebook(tmp_path / "g.sqlite")
    book.record("abc", "ctp-26", "0.1.0", 7, "fp", 200, RESULT)
    other = sqlite3.connect(str(tmp_path / "g.sqlite"))  # a second reader sees it while the writer is still open
    assert other.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 1
    other.close()
    book.close()


def test_the_seed_is_remembered(tmp_path):
    with Gradebook(tmp_path / "g.sqlite") as book:
        assert book.seed("ctp-26") is None
        book.remember_seed("ctp-26", 123456789)
    with Gradebook(tmp_path / "g.sqlite") as book:
        assert book.seed("ctp-26") == 123456789
        book.remember_seed("ctp-26", 5)
        assert book.seed("ctp-26") == 5


def _rows(path) -> int:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def _without_timings(path) -> dict:
    document = json.loads(path.read_text(encoding="utf-8"))
    for submission in document["submissions"]:
        submission.pop("duration_seconds", None)
    return document


def test_kill_minus_nine_then_rerun_equals_an_uninterrupted_run(tmp_path):
    folder = tmp_path / "class"
    students = build_class(folder, samples("correct")[:10] + samples("buggy")[:10], unique=True)
    total = len(students)

    def command(out):
        return [sys.executable, "-m", "grader", "grade", str(folder), "--exercise", "ctp-26", "--out", str(out),
                "--seed", "777", "--jobs", "2"]

    clean = subprocess.run(command(tmp_path / "clean"), capture_output=True, text=True, timeout=600)
    assert clean.returncode == 0, clean.stderr

    # (its temporary folders in this test's own: a process killed with -9 cannot remove them, and they were left in
    # /tmp by every run of the suite)
    (tmp_path / "tmp").mkdir()
    victim = subprocess.Popen(command(tmp_path / "killed"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "TMPDIR": str(tmp_path / "tmp")})
    book = tmp_path / "killed" / "gradebook.sqlite"
    deadline = time.monotonic() + 300
    while _rows(book) < 3 and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    graded_before_kill = _rows(book)
    print(f"\nkilled after {graded_before_kill} of {total} submissions were committed")
    assert victim.returncode == -signal.SIGKILL
    assert 0 < graded_before_kill < total, "the kill did not land mid-run"
    assert not (tmp_path / "killed" / "results.json").exists()

    resumed = subprocess.run(command(tmp_path / "killed"), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{total - graded_before_kill} graded now" in resumed.stderr
    assert _rows(book) == total  # nothing lost, nothing graded twice
    assert _without_timings(tmp_path / "killed" / "results.json") == _without_timings(tmp_path / "clean" / "results.json")
