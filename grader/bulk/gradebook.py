"""The gradebook: an SQLite file in the output folder that outlives crashes and re-runs.

One row per (submission content hash, exercise, grader version, seed) holds that
submission's result as the contract's JSON. Each row is committed on its own as it arrives
(WAL journal), so a grader killed at any moment loses at most the submissions it was still
grading, and the same command run again grades only what has no row yet: nothing lost,
nothing graded twice. A row written for an older version of the exercise's data (its
fingerprint) or another number of random cases is stale and gets replaced.

Only students' results are stored: a submission the grader itself failed on has no row, so
the next run grades it again. The fingerprint is the exercise's (its folder, fixtures and
reference): an edited reference makes every row stale.

The gradebook also keeps the instructor's secret seed per exercise, so a re-run (and a
regrade after a fix) asks every submission about the same cases.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    sha256 TEXT NOT NULL,
    exercise TEXT NOT NULL,
    grader_version TEXT NOT NULL,
    seed INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    examples INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT NOT NULL,
    graded_at REAL NOT NULL,
    PRIMARY KEY (sha256, exercise, grader_version, seed)
);
CREATE TABLE IF NOT EXISTS seeds (
    exercise TEXT PRIMARY KEY,
    seed INTEGER NOT NULL,
    chosen_at REAL NOT NULL
);
"""


class Gradebook:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # with WAL: a killed process loses nothing committed
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the seed ------------------------------------------------------------------------

    def seed(self, exercise: str) -> int | None:
        row = self.db.execute("SELECT seed FROM seeds WHERE exercise = ?", (exercise,)).fetchone()
        return None if row is None else int(row[0])

    def remember_seed(self, exercise: str, seed: int) -> None:
        with self.db:
            self.db.execute("INSERT INTO seeds (exercise, seed, chosen_at) VALUES (?, ?, ?) "
                            "ON CONFLICT(exercise) DO UPDATE SET seed = excluded.seed, chosen_at = excluded.chosen_at",
                            (exercise, int(seed), time.time()))

    # -- results -------------------------------------------------------------------------

    def done(self, exercise: str, version: str, seed: int, fingerprint: str, examples: int) -> dict[str, dict]:
        """Every current result for this grading configuration, by content hash."""
        rows = self.db.execute(
            "SELECT sha256, result FROM results WHERE exercise = ? AND grader_version = ? AND seed = ? "
            "AND fingerprint = ? AND examples = ?", (exercise, version, int(seed), fingerprint, int(examples)))
        return {sha: json.loads(text) for sha, text in rows}

    def record(self, sha256: str, exercise: str, version: str, seed: int, fingerprint: str, examples: int,
               result: dict) -> None:
        """Store one result; committed before this returns (one transaction per result).

        Only a result of the contract goes in: a grader failure is never a student's result."""
        if not isinstance(result, dict) or result.get("status") not in ("passed", "failed", "error"):
            raise ValueError(f"not a submission result: {str(result)[:80]!r}")
        with self.db:
            self.db.execute(
                "INSERT INTO results (sha256, exercise, grader_version, seed, fingerprint, examples, status, result, graded_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(sha256, exercise, grader_version, seed) DO UPDATE SET fingerprint = excluded.fingerprint, "
                "examples = excluded.examples, status = excluded.status, result = excluded.result, graded_at = excluded.graded_at",
                (sha256, exercise, version, int(seed), fingerprint, int(examples), result.get("status", "error"),
                 json.dumps(result, ensure_ascii=False, sort_keys=False), time.time()))

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
