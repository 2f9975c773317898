"""How much a report tells, decided when it is rendered, never when the submission is judged.

Three levels: ``score`` (each check passed or not, and the points), ``hints`` (adds the named
mistake's explanation and a leading question), ``full`` (adds messages, counterexamples,
localisation and the evidence behind a diagnosis). The judge always produces everything;
``redact`` makes a copy of the ``SubmissionResult`` (``dataclasses.replace``, the original is
never changed) with what the level does not show blanked, keeping every field so that
templates and JSON readers see one shape at every level. That copy is what every renderer,
exporter and door is handed: a report, a JUnit file and an Actions annotation cannot show
more than one another, and nothing goes through a dictionary and back to get there.

Two audiences: an instructor always sees everything. A student sees the chosen level, with
checks the exercise marks ``hidden`` reduced to their name, status and points, and nothing
that comes from them (their messages, counterexamples, or a mistake only they reveal).

This is about what a report shows, not a secret: a student who runs the grader on their own
machine can choose the level themselves. Keeping counterexamples back before a deadline means
grading on a machine the students do not control.
"""

from __future__ import annotations

from dataclasses import replace

from grader.judging.result import CheckResult, SubmissionResult

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


def redact(result: SubmissionResult, level: str = "full", audience: str = "student") -> SubmissionResult:
    """A copy of ``result`` showing only what the level allows, its ``feedback`` saying which level.

    The copy shares the values it leaves as they are (a counterexample kept at ``full``, the
    sandbox and parts records) with the original: renderers and exporters only read them.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown feedback level {level!r} (choose {', '.join(LEVELS)})")
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r} (choose {', '.join(AUDIENCES)})")
    student = audience == "student"
    hidden = {c.name for c in result.checks if student and c.hidden}
    checks = []
    for check in result.checks:
        if check.name in hidden:
            check = replace(check, title=HIDDEN_TITLE, message="", counterexample=None, failed_cases=0, total_cases=0,
                            unanswered_cases=0)
        elif level != "full":
            check = replace(check, counterexample=None, message=_summary(check) if level == "hints" else "")
        else:
            check = replace(check)
        checks.append(check)
    mistakes = []
    if level != "score":
        for mistake in result.mistakes:
            sources = set(mistake.checks or ())
            if sources and sources <= hidden:
                continue  # only a hidden check shows this mistake: naming it would reveal the check
            evidence = "" if level != "full" or sources & hidden else mistake.evidence
            mistakes.append(replace(mistake, evidence=evidence,
                                    checks=[name for name in mistake.checks or () if name not in hidden]))
    output = result.output
    if student and (level != "full" or hidden) and isinstance(output, dict):
        # What the code printed can spell out the trees it was asked about, hidden ones included.
        output = {**output, "stdout": "", "stderr": ""}
    return replace(result, checks=checks, mistakes=mistakes, output=output,
                   feedback={"level": level, "audience": audience})


def _summary(check: CheckResult) -> str:
    """A failed check at the hints level: how often, never on what."""
    if check.status == "failed" and check.total_cases:
        return f"fails on {check.failed_cases} of {check.total_cases} cases"
    if check.status == "skipped":
        return check.message
    return ""
