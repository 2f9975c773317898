"""Pinned verdicts of a kit exercise's samples: status, score and mistake, each graded once.

Shared by the nim and connect-four test modules (each exercise has its own expected.toml).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def table(exercise_id: str) -> tuple[Path, dict]:
    folder = ROOT / "fixtures" / "submissions" / exercise_id
    return folder, tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))


def assert_pinned(result, pinned: dict) -> None:
    """The status and score exactly as pinned, and the pinned mistake among those named."""
    codes = [m.code for m in result.mistakes]
    assert result.status == pinned["status"], (result.error, [(c.name, c.status, c.message) for c in result.checks])
    assert result.score == pinned["score"], [(c.name, c.score, c.message) for c in result.checks]
    if "mistake" in pinned:
        assert pinned["mistake"] in codes, codes
    if "error" in pinned:
        assert result.error == pinned["error"]
