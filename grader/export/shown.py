"""Back from the contract's dictionary to result objects, so exporters can honour feedback levels.

``check`` decides what a student may see (``feedback_levels.view`` blanks messages,
counterexamples, hidden checks...) on the plain dictionary. The exporters work on result
objects; rebuilding one from the filtered dictionary means JUnit, Gradescope, the Actions
summary and the Classroom output show exactly what the text report shows, never more.
"""

from __future__ import annotations

from dataclasses import fields

from grader.judging.result import CheckResult, Counterexample, Mistake, SubmissionResult


def result_from_dict(data: dict) -> SubmissionResult:
    checks = []
    for check in data.get("checks", []):
        cx = check.get("counterexample")
        checks.append(_build(CheckResult, {**check, "counterexample": _counterexample(cx) if cx else None}))
    mistakes = [_build(Mistake, m) for m in data.get("mistakes", [])]
    return _build(SubmissionResult, {**data, "checks": checks, "mistakes": mistakes})


def _counterexample(data: dict) -> Counterexample:
    return _build(Counterexample, {**data, "picture": data.get("tree", data.get("picture", ""))})


def _build(kind, data: dict):
    """Only the keys the dataclass knows: extras in the dictionary (``feedback``...) are ignored."""
    known = {f.name for f in fields(kind)}
    return kind(**{key: value for key, value in data.items() if key in known})
