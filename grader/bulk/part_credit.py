"""An instructor's grade counts every part of an exercise made of parts.

``check`` grades only what a student handed in: a part the grader supplied leaves the
maximum, so a student can see how the parts they wrote do (the report says which were
supplied). An instructor's grade cannot work that way: a student who hands in one part
of three, right, is not "passed" against a smaller maximum. ``count_every_part`` turns a
result dict of the first kind into the second, from plain data and the exercise's rubric:
each check of a supplied part counts 0 of its points, the maximum is the exercise's, and
the status follows the score. It is idempotent, so a result stored by any version of the
grader can go through it again.
"""

from __future__ import annotations

NOT_HANDED_IN = "not handed in: the submission has no {part} part, so this check counts 0 of {points:g}"


def count_every_part(result: dict, exercise) -> dict:
    """A copy of ``result`` in which parts not handed in count as zero (unchanged when none is missing)."""
    supplied = set(((result.get("parts") or {}).get("supplied")) or [])
    if not supplied or not exercise.parts:
        return result
    part_of = {spec.name: spec.params.get("part") for spec in exercise.checks}
    points = {spec.name: spec.points for spec in exercise.checks}
    checks = []
    for check in result.get("checks") or []:
        part = part_of.get(check.get("name"))
        if part in supplied:
            check = {**check, "status": "failed", "score": 0.0, "max_score": points[check["name"]],
                     "message": NOT_HANDED_IN.format(part=part, points=points[check["name"]])}
        checks.append(check)
    out = {**result, "checks": checks, "max_score": exercise.max_score}
    if out.get("status") == "passed" and out.get("score", 0.0) < exercise.max_score:
        out["status"] = "failed"
    return out
