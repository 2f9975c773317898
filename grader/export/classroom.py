"""GitHub Classroom's autograding runner result: the ``result`` output its reporter reads.

Classroom's grading reporter takes, for each runner step, a base64-encoded JSON object
(``version``, ``status`` pass/fail/error, ``max_score``, ``tests`` with ``name``, ``status``,
``message``, ``score``...) and adds up the tests' scores as the student's points. Giving each
rubric check its own test with its own points makes the reporter's table match the rubric.
"""

from __future__ import annotations

import base64
import json

from grader.report.feedback import check_text, error_text
from grader.judging.result import SubmissionResult

STATUS = {"passed": "pass", "failed": "fail", "error": "error", "skipped": "fail"}


def to_classroom(result: SubmissionResult) -> dict:
    tests = [{
        "name": check.name,
        "status": STATUS.get(check.status, "error"),
        "message": check_text(result, check) or check.title,
        "score": check.score,
        "line_no": 0,
        "filename": "",
        "test_code": check.title,
        "duration": 0,
    } for check in result.checks]
    if result.status == "error" and not tests:
        tests.append({"name": "grading", "status": "error", "message": error_text(result), "score": 0,
                      "line_no": 0, "filename": "", "test_code": "", "duration": 0})
    return {"version": 1, "status": STATUS.get(result.status, "error"), "max_score": result.max_score, "tests": tests}


def encode(result: SubmissionResult) -> str:
    """The value of the step output ``result``: compact JSON, UTF-8, base64 (no line breaks)."""
    data = json.dumps(to_classroom(result), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(data).decode("ascii")
