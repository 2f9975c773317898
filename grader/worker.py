"""One grading worker of the local pool: ``python -m grader.worker``, JSON lines in and out.

The first line names the job; the worker loads the exercise and its case bank once and, where
the platform allows, starts a warm fork server for them. Each further line is a task; each
answer is one line ``{"key": ..., "result": {...contract...}}``. End of input (the batch is
done, or the grader died, even by ``kill -9``) stops the worker and its fork server. Anything
printed by libraries goes to stderr: stdout carries nothing but answers.
"""

from __future__ import annotations

import copy
import gc
import json
import os
import sys
from pathlib import Path


def _load(job: dict):
    from grader import bank as banks
    from grader import exercise as exercises
    from grader.sandbox import launch

    dirs = [Path(d) for d in job.get("exercises_dirs") or ()]
    exercise = exercises.load(job["exercise"], dirs)
    bank = banks.build(exercise, seed=int(job["seed"]), examples=job.get("examples"))
    launcher = launch.choose(job.get("sandbox"))
    return exercise, bank, launcher


def remember_reference(exercise, bank) -> None:
    """The reference's answer for each bank case, computed once per worker instead of once per submission.

    Only the bank's own case inputs (the very objects, alive as long as the bank) are
    remembered; anything else (a shrinking candidate) goes to the reference as before. The
    answers stay in this process: they never travel to a child.
    """
    reference_of = exercise.hook("reference")
    if reference_of is None:
        return
    bank_inputs = {id(case.input): case.input for case in bank.cases}
    answers: dict[int, object] = {}

    def remembered(case_input, module):
        key = id(case_input)
        if bank_inputs.get(key) is not case_input or module is not exercise.reference:
            return reference_of(case_input, module)
        if key not in answers:
            answers[key] = reference_of(case_input, module)
        value = answers[key]
        return value if type(value) in (int, float, str, bool, type(None)) else copy.deepcopy(value)

    exercise.hooks.reference = remembered


def _warm(launcher, exercise, bank):
    from grader.sandbox import forkserver

    try:
        return forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    except forkserver.ZygoteError as exc:
        print(f"minimax-grader worker: no fork server ({exc}); starting one child per submission", file=sys.stderr)
        return None


def main() -> int:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints from any library land on stderr, not in the answers
    sys.stdout = sys.stderr
    first = sys.stdin.readline()
    if not first:
        return 0
    job = json.loads(first)["job"]
    from grader import judge, submissions
    from grader.batch import content_key
    from grader.sandbox import forkserver, frozen

    exercise, bank, launcher = _load(job)
    remember_reference(exercise, bank)
    warm = _warm(launcher, exercise, bank) if job.get("warm", True) else None
    # The bank, the exercise and the libraries live as long as this process: keep the collector
    # from walking them again and again while it grades hundreds of submissions.
    gc.collect()
    gc.freeze()
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            task = json.loads(line)["task"]
            submission = submissions.load(task["path"])
            submission.display = task["display"]
            try:
                if submission.problem is None and content_key(submission) != task["key"]:
                    submission.problem = frozen.CHANGED  # graded as an error, never as someone else's work
                try:
                    result = judge.grade(submission, exercise, bank, warm or launcher)
                except forkserver.ZygoteError:
                    # The fork server broke: grade this one the slow way, start afresh.
                    warm.close()
                    result = judge.grade(submission, exercise, bank, launcher)
                    warm = _warm(launcher, exercise, bank)
            except Exception as exc:  # noqa: BLE001 - one submission's failure must not take its neighbours down
                result = judge.internal_error(submission, exercise, bank, f"{type(exc).__name__}: {exc}")
            answers.write(json.dumps({"key": task["key"], "result": result.to_dict()}) + "\n")
            answers.flush()
    finally:
        if warm is not None:
            warm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
