"""Exercises made of parts: a check of a part the grader supplied is not graded.

A student may hand in only some parts of a multi-part exercise (the rules, the helpers,
the decision); the sandbox fills the others with the exercise's own stand-ins and says
which parts were the student's. A check tied to a supplied part (``part = "..."`` in its
``[[checks]]`` entry) would only be grading the grader, so it is reported as not graded
and its points leave the maximum: a student who hands in two of three parts, both right,
has full marks for what they handed in, and the report says plainly what was supplied.
"""

from __future__ import annotations

from grader.judging.result import CheckResult


def supplied(parts: dict | None) -> list[str]:
    return list((parts or {}).get("supplied") or [])


def not_graded(spec, parts: dict | None) -> CheckResult | None:
    """The result for a check of a supplied part, or None when the check is to be graded."""
    part = spec.params.get("part")
    if not part or part not in supplied(parts):
        return None
    return CheckResult(spec.name, spec.title, "skipped", 0.0, 0.0, hidden=spec.hidden,
                       message=f"not graded: the submission has no {part} part, so the grader supplied its own")


def graded_max_score(exercise, parts: dict | None) -> float:
    left_out = set(supplied(parts))
    return sum(c.points for c in exercise.checks if c.params.get("part") not in left_out)


def from_reply(loaded: dict, exercise) -> dict:
    """The harness's word on which parts were graded, reduced to names the exercise declares."""
    known = [p["name"] for p in exercise.parts]
    raw = loaded.get("parts") if isinstance(loaded.get("parts"), dict) else {}
    graded = [n for n in known if n in (raw.get("graded") or [])]
    return {"graded": graded, "supplied": [n for n in known if n not in graded]}
