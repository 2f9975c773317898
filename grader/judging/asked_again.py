"""Running a few of a failing submission's cases again with every evaluation asked of the grading process.

A declared exercise whose checks do not judge evaluations lets the child evaluate positions itself
(``KitHooks.evaluations_are_evidence``): no round trip per evaluation, and no record of which positions the
student's search evaluated. When naming the mistake of a failing submission is ambiguous between families whose
answers agree (a search without an end-of-game test and one with the wrong start value both find every move
as good), what was evaluated tells them apart. Only then, and only for a few cases, does the diagnosis open a
second sandbox session with the kit's asking driver (the tournament's, ``driver_path(asking=True)``) and read
the grading process's log of the evaluations asked. A correct submission, and one named without ambiguity,
never pays for it. The log is what the grader was asked, never what the child says it did.
"""

from __future__ import annotations

import time
from pathlib import Path

CASES_ASKED = 4  # failing cases run again: a handful tells the families apart, or nothing will


class _Asking:
    """The exercise as the second session sees it: the kit's asking driver and an oracle logging every case."""

    def __init__(self, exercise, seconds: float):
        import dataclasses

        self._exercise = exercise
        # The diagnosis's own budget, not a whole submission's: a slow search gives no trace, never a long wait.
        limits = exercise.limits
        self.limits = dataclasses.replace(limits, submission_timeout=min(limits.submission_timeout,
                                                                         limits.load_timeout + seconds))

    def __getattr__(self, name):
        return getattr(self._exercise, name)

    @property
    def driver_path(self):
        return self._exercise.kit.driver_path(asking=True)

    def hook(self, name, default=None):
        kit = self._exercise.kit
        if name == "loading_oracle":
            return lambda: kit.loading_oracle(asking=True)
        if name == "oracle":
            return kit.asking_oracle
        if name == "child_values":
            return default
        return self._exercise.hook(name, default)


def available(exercise, session) -> bool:
    """Whether a second run can show evaluations not shown already: a declared exercise whose grading lets the
    child evaluate by itself, and a submission whose session was open."""
    kit = getattr(exercise, "kit", None)
    return (kit is not None and session is not None and getattr(session, "submission", None) is not None
            and not kit.evaluations_are_evidence)


def searches(files) -> bool:
    """Whether the submission's source (read with ``ast``, never run) has a function that calls itself, directly or
    through others: a recursive search. A log with no evaluation in it says "this search evaluates nothing" only
    of code that searches; code that returns the first move, or scores positions itself, asks nothing either."""
    import ast
    from grader import python_source

    calls: dict[str, set] = {}
    for path in files:
        try:
            tree = python_source.parse(Path(path).read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):  # as every other reader of sources
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                called = calls.setdefault(node.name, set())
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call):
                        target = inner.func
                        name = target.id if isinstance(target, ast.Name) else (
                            target.attr if isinstance(target, ast.Attribute) else None)
                        if name is not None:
                            called.add(name)
    for start in calls:
        seen, todo = set(), list(calls[start])
        while todo:
            name = todo.pop()
            if name == start:
                return True
            if name in calls and name not in seen:
                seen.add(name)
                todo.extend(calls[name])
    return False


def _files(submission) -> list:
    if isinstance(submission, (str, Path)):
        return [Path(submission)]
    files = list(getattr(submission, "files", None) or [])
    path = getattr(submission, "path", None)
    return files or ([Path(path)] if path is not None and Path(path).suffix == ".py" else [])


def evaluation_runner(exercise, session, deadline: float):
    """``run(inputs) -> [trace or None, ...]`` (None for every input when it could not run), or None when no second
    run is possible. The session is opened on the first call, used once, and closed."""
    if not available(exercise, session):
        return None

    def run(inputs: list) -> list:
        from grader.judging.bank import Case
        from grader.sandbox import launch
        from grader.sandbox.session import SandboxFailure, Session

        inputs = list(inputs)[:CASES_ASKED]
        if not inputs or time.monotonic() + 0.5 > deadline:
            return [None] * len(inputs)
        second = Session(session.submission, _Asking(exercise, deadline - time.monotonic()),
                         launch.choose_like(getattr(session, "launcher", None)))
        try:
            second.open()
            cases = [Case(id=f"asked-again-{i}", group="asked-again", input=case_input).to_request()
                     for i, case_input in enumerate(inputs)]
            raws = second.run(cases, evidence=True)
        except SandboxFailure:
            return [None] * len(inputs)
        finally:
            second.close()
        if second.violation:
            return [None] * len(inputs)
        return [raw.get("trace") if isinstance(raw, dict) and "skipped" not in raw and not raw.get("raised")
                and not raw.get("timed_out") else None for raw in raws]

    run.searches = searches(_files(session.submission))
    return run
