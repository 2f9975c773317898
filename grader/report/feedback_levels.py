"""How much a report tells, decided when it is rendered, never when the submission is judged.

Three levels: ``score`` (each check passed or not, and the points), ``hints`` (adds the named
mistake's explanation and a leading question), ``full`` (adds messages, counterexamples,
localisation and the evidence behind a diagnosis). The judge always produces everything; this
module takes the result's plain dictionary and blanks what the level does not show, keeping
every key so that templates and JSON readers see one shape at every level.

Two audiences: an instructor always sees everything. A student sees the chosen level, with
checks the exercise marks ``hidden`` reduced to their name, status and points, and nothing
that comes from them (their messages, counterexamples, or a mistake only they reveal).

This is about what a report shows, not a secret: a student who runs the grader on their own
machine can choose the level themselves. Keeping counterexamples back before a deadline means
grading on a machine the students do not control.
"""

from __future__ import annotations

import copy

LEVELS = ("score", "hints", "full")
AUDIENCES = ("student", "instructor")
HIDDEN_TITLE = "hidden check"


def resolve(level: str | None, exercise_default: str | None = None, audience: str = "student") -> str:
    """The level a report uses: full for instructors, else the one asked for, else the exercise's default."""
    if audience == "instructor":
        return "full"
    chosen = level or exercise_default or "full"
    if chosen not in LEVELS:
        raise ValueError(f"unknown feedback level {chosen!r} (choose {', '.join(LEVELS)})")
    return chosen


def view(data: dict, level: str = "full", audience: str = "student") -> dict:
    """A copy of a result dictionary (``SubmissionResult.to_dict()``) showing only what the level allows."""
    if level not in LEVELS:
        raise ValueError(f"unknown feedback level {level!r} (choose {', '.join(LEVELS)})")
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r} (choose {', '.join(AUDIENCES)})")
    out = copy.deepcopy(data)
    student = audience == "student"
    hidden = {c["name"] for c in out.get("checks", []) if student and c.get("hidden")}
    for check in out.get("checks", []):
        if check["name"] in hidden:
            check["title"] = HIDDEN_TITLE
            check["message"] = ""
            check["counterexample"] = None
            check["failed_cases"] = check["total_cases"] = 0
        elif level != "full":
            check["counterexample"] = None
            check["message"] = _summary(check) if level == "hints" else ""
    mistakes = []
    if level != "score":
        for mistake in out.get("mistakes", []):
            sources = set(mistake.get("checks") or ())
            if sources and sources <= hidden:
                continue  # only a hidden check shows this mistake: naming it would reveal the check
            if level != "full" or sources & hidden:
                mistake["evidence"] = ""
            mistake["checks"] = [name for name in mistake.get("checks") or () if name not in hidden]
            mistakes.append(mistake)
    out["mistakes"] = mistakes
    if student and (level != "full" or hidden) and isinstance(out.get("output"), dict):
        # What the code printed can spell out the trees it was asked about, hidden ones included.
        out["output"] = {**out["output"], "stdout": "", "stderr": ""}
    out["feedback"] = {"level": level, "audience": audience}
    return out


def _summary(check: dict) -> str:
    """A failed check at the hints level: how often, never on what."""
    if check.get("status") == "failed" and check.get("total_cases"):
        return f"fails on {check['failed_cases']} of {check['total_cases']} cases"
    if check.get("status") == "skipped":
        return check.get("message", "")
    return ""
