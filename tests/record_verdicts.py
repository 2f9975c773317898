"""Record the verdict and score of every sample of the exercises, as the grader gives them now.

Run once before a change that must not move any sample's verdict (``python tests/record_verdicts.py
OUT.json``); the exercise test modules compare every sample with the table through
``samples.assert_as_recorded``. A sample is every ``.py`` file or multi-file folder under
``fixtures/submissions/<exercise>/{correct,buggy,hostile}``.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ["ctp-26", "alphabeta", "best-move", "tictactoe", "aima-isolation", "nim", "connect-four"]


def samples(exercise_id: str) -> list[str]:
    folder = ROOT / "fixtures" / "submissions" / exercise_id
    found = [p for p in folder.glob("*/*") if p.parent.name in ("correct", "buggy", "hostile")
             and (p.suffix == ".py" or p.is_dir())]
    return sorted(f"{p.parent.name}/{p.name}" for p in found)


def verdict(job: tuple[str, str]) -> tuple[str, str, dict]:
    from grader.doors import api

    exercise_id, relative = job
    result = api.check(ROOT / "fixtures" / "submissions" / exercise_id / relative, exercise_id)
    return exercise_id, relative, {"status": result.status, "score": result.score, "max_score": result.max_score}


def main(out: str) -> None:
    jobs = [(e, s) for e in EXERCISES for s in samples(e)]
    table: dict = {e: {} for e in EXERCISES}
    with ProcessPoolExecutor(2) as pool:
        for exercise_id, relative, found in pool.map(verdict, jobs):
            table[exercise_id][relative] = found
    Path(out).write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(jobs)} samples recorded in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
