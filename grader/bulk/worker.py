"""One grading worker of the local pool: ``python -m grader.bulk.worker``, JSON lines in and out.

The first line names the job; the worker loads the exercise and its case bank once and, where
the platform allows, starts a warm fork server for them. Each further line is a task; each
answer is one line ``{"key": ..., "result": {...contract...}}``, or ``"result": null`` with a
``"failure"`` when the grader itself failed on that submission (never a verdict). End of input (the batch is
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


def _prepare(job: dict, start_server: bool = False):
    """What needs no case bank, done while the grader may still be drawing it: the grader's modules imported, the
    exercise loaded, the sandbox chosen and, with ``start_server``, the fork server's process started (``_warm``
    gives it the bank). ``(exercise, launcher, server or None)``."""
    from grader.sandbox import launch

    launch.start_choosing(job.get("sandbox"))  # the sandbox probe runs while the exercise loads
    from grader.judging import exercise as exercises
    from grader.judging import bank as banks  # noqa: F401 - imported while the grader may still draw the bank
    from grader.judging import judge  # noqa: F401 - likewise

    dirs = [Path(d) for d in job.get("exercises_dirs") or ()]
    exercise = exercises.load(job["exercise"], dirs)
    launcher = launch.choose(job.get("sandbox"))
    server = None
    if start_server:
        from grader.sandbox import forkserver

        try:
            server = forkserver.ZygoteLauncher.start_server(launcher, exercise)
        except forkserver.ZygoteError:
            server = None  # said by _warm, which tries again the usual way
    return exercise, launcher, server


def _load(job: dict, prepared):
    """``prepared`` (``_prepare``'s) and the job's case bank: ``(exercise, bank, launcher)``."""
    from grader.judging import bank as banks

    exercise, launcher, _server = prepared
    bank = banks.build(exercise, seed=int(job["seed"]), examples=job.get("examples"))
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


def _warm(launcher, exercise, bank, server=None):
    """The fork server for ``bank``: ``server`` (started by ``_prepare``) made ready, or one started now."""
    from grader.sandbox import forkserver

    try:
        if server is not None:
            return forkserver.ZygoteLauncher.around(server, launcher, bank)
        return forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    except forkserver.ZygoteError as exc:
        print(f"minimax-grader worker: no fork server ({exc}); starting one child per submission", file=sys.stderr)
        return None


def grade_one(submission, exercise, bank, launcher, warm):
    """Grade one loaded submission; returns its result and the fork server to use next.

    Shared by this pool worker and the Dask one (``grader.bulk.on_worker``), so both
    grade with the same fallbacks: a broken fork server grades this one the slow way and is
    started afresh. Any other failure is the grader's, not the student's: the result is None
    (said on stderr), which is never stored, so the next run grades this submission again.
    """
    from grader.judging import judge
    from grader.sandbox import forkserver

    try:
        try:
            result = judge.grade(submission, exercise, bank, warm or launcher)
        except forkserver.ZygoteError:
            warm.close()
            result = judge.grade(submission, exercise, bank, launcher)
            warm = _warm(launcher, exercise, bank)
    except Exception as exc:  # noqa: BLE001 - one submission's failure must not take its neighbours down
        reason = f"{type(exc).__name__}: {exc}"[:400]
        from grader.file_names import for_terminal

        print(for_terminal(f"minimax-grader worker: the grader failed on {submission.display}: {reason}"),
              file=sys.stderr, flush=True)
        result = None
    return result, warm


def main() -> int:
    from grader.file_names import warnings_as_text

    warnings_as_text()  # parsing a student's file may warn, naming it: as text on the shared terminal
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints from any library land on stderr, not in the answers
    sys.stdout = sys.stderr
    first = sys.stdin.readline()
    if not first:
        return 0
    first = json.loads(first)
    job = first["job"]
    if job.get("kind") == "tournament":  # a game per task (grader.bulk.tournament)
        from grader.bulk import tournament

        tournament.serve(job, sys.stdin, answers)
        return 0
    prepared = _prepare(job, start_server=job.get("warm", True))
    # Started before the grader had drawn the case bank (executor.LocalPool.start_early): "go" says it is on
    # disk now; end of input, that the batch ended first (the bank could not be built)
    if first.get("wait") and not sys.stdin.readline():
        if prepared[2] is not None:
            prepared[2].close()
        return 0
    exercise, bank, launcher = _load(job, prepared)
    from grader.judging import submissions
    from grader.bulk.batch import content_key
    from grader.sandbox import frozen

    remember_reference(exercise, bank)
    warm = _warm(launcher, exercise, bank, prepared[2]) if job.get("warm", True) else None
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
            if submission.problem is None and content_key(submission) != task["key"]:
                submission.problem = frozen.CHANGED  # graded as an error, never as someone else's work
            result, warm = grade_one(submission, exercise, bank, launcher, warm)
            if result is None:
                # The grader failed, not the student: no verdict is made up (a None result is
                # never stored, so the next run grades this submission again).
                answers.write(json.dumps({"key": task["key"], "result": None}) + "\n")
                answers.flush()
                continue
            answers.write(json.dumps({"key": task["key"], "result": result.to_dict()}) + "\n")
            answers.flush()
    finally:
        if warm is not None:
            warm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
