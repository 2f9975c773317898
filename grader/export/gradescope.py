"""Gradescope's ``results.json``, written from one SubmissionResult.

Field names and allowed values follow Gradescope's published autograder specification;
``gradescope.schema.json`` beside this file encodes them and the tests validate every export
against it. Choices made here:

* every rubric check is one Gradescope test, numbered in rubric order, with Markdown output;
* ``status`` is Gradescope's binary passed/failed, so a skipped or errored check is "failed"
  and its output says why;
* a hidden check stays hidden from students until the instructor publishes the grades
  (``after_published``): it still counts towards the total, which a ``hidden`` test must not;
* the top-level score is given explicitly, so it is exactly the grader's score.
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.report import markdown as md
from grader.report.feedback import LABELS, check_text, error_text
from grader.judging.result import SubmissionResult

SCHEMA_PATH = Path(__file__).with_name("gradescope.schema.json")
HIDDEN_VISIBILITY = "after_published"


def to_gradescope(result: SubmissionResult) -> dict:
    tests = []
    for number, check in enumerate(result.checks, start=1):
        label = LABELS.get(check.status, check.status.upper())
        body = check_text(result, check, markdown=True)
        output = f"**{label}**: {check.title}" + (f"\n\n{body}" if body else "")
        tests.append({
            "name": check.name,
            "number": str(number),
            "score": check.score,
            "max_score": check.max_score,
            "status": "passed" if check.status == "passed" else "failed",
            "output": output,
            "output_format": "md",
            "visibility": HIDDEN_VISIBILITY if check.hidden else "visible",
        })
    return {
        "score": result.score,
        "execution_time": round(result.duration_seconds, 3),
        "output": _summary(result),
        "output_format": "md",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        # No seed: Gradescope hands a submission's earlier results to its later runs (submission_metadata.json),
        # and the bundle's seed is its secret (the 123rd helper); the instructor has it from gradescope-bundle
        "extra_data": {"exercise": result.exercise, "status": result.status, "max_score": result.max_score,
                       "grader_version": result.grader_version,
                       "mistakes": [m.code for m in result.mistakes]},
    }


def to_json(result: SubmissionResult) -> str:
    return json.dumps(to_gradescope(result), indent=2, ensure_ascii=False) + "\n"


def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _summary(result: SubmissionResult) -> str:
    if result.status == "error":
        return f"**ERROR**: {md.text(error_text(result))}"  # the error quotes the submission (its exception, its file)
    lines = [f"**{result.status.upper()}**: {result.score:g} / {result.max_score:g} points on {result.exercise}."]
    if result.mistakes:
        lines.append("")
        lines.append("Likely mistake" + ("s:" if len(result.mistakes) > 1 else ":"))
        lines += [f"- `{m.code}`: {m.explanation}" for m in result.mistakes]
    if (result.sandbox or {}).get("warning"):
        lines += ["", f"> Warning: {md.text(result.sandbox['warning'])}"]
    return "\n".join(lines)
