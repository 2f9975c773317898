"""The result contract: what a grading run says about one submission, as plain data.

These objects are the only thing reports, exports and the gradebook ever see. ``to_dict``
produces exactly the contract of the design notes (plus a few clearly named extras), with
keys in a fixed order so that the same run gives byte-identical JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Counterexample:
    """A case on which a check fails (the smallest found, when shrunk): the call, its picture, both answers."""

    call: str
    picture: str
    expected: Any
    actual: Any
    input: dict
    shrunk: bool = False
    note: str = ""
    # Where the student's value first goes wrong: {"node", "depth", "expected", "actual", "children", "text"}.
    localisation: dict | None = None
    noun: str = "tree"  # what the picture shows, in the exercise's words ("tree", "position", "board")
    # The answer itself was right (a trace, a mutation, a type went wrong): reports then show the note,
    # never "expected: 0  yours: 0" as if the values differed.
    answer_right: bool = False
    drawing: dict | None = None  # the picture as plain data for the HTML report's SVG (see grader/report/svg.py)
    svg: str = ""  # the same picture as inline SVG for HTML, when the exercise draws one (kit games do)
    title: str = ""  # a hand-made case's title, as its fixture file gives it ("the textbook two-ply tree")

    def to_dict(self) -> dict:
        return {"call": self.call, "tree": self.picture, "expected": self.expected, "actual": self.actual,
                "shrunk": self.shrunk, "note": self.note, "input": self.input, "localisation": self.localisation,
                "noun": self.noun, "answer_right": self.answer_right, "drawing": self.drawing,
                **({"svg": self.svg} if self.svg else {}), **({"title": self.title} if self.title else {})}


@dataclass
class CheckResult:
    """One rubric check: its status, its points, the message and the counterexample when it failed."""

    name: str
    title: str
    status: str  # passed | failed | error | skipped
    score: float
    max_score: float
    message: str = ""
    counterexample: Counterexample | None = None
    hidden: bool = False
    failed_cases: int = 0
    total_cases: int = 0
    sandbox_evidence: bool = False  # observed inside the child (see checks.SANDBOX_EVIDENCE_KINDS)
    # Of the failed cases, those failed only because the call gave no answer to judge (checks.per_case_check):
    # no mistake is named from them (the diagnosis reads a check failed on these alone as saying nothing).
    unanswered_cases: int = 0

    def to_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "status": self.status, "score": self.score,
                "max_score": self.max_score, "message": self.message,
                "counterexample": self.counterexample.to_dict() if self.counterexample else None,
                "hidden": self.hidden, "failed_cases": self.failed_cases, "total_cases": self.total_cases,
                **({"sandbox_evidence": True} if self.sandbox_evidence else {}),
                **({"unanswered_cases": self.unanswered_cases} if self.unanswered_cases else {})}


@dataclass
class Mistake:
    """A likely mistake named from the evidence: its code, a sentence, a question towards the fix."""

    code: str
    explanation: str
    question: str = ""
    evidence: str = ""
    checks: list[str] = field(default_factory=list)  # the failing checks this mistake explains

    def to_dict(self) -> dict:
        return {"code": self.code, "explanation": self.explanation, "question": self.question, "evidence": self.evidence,
                "checks": list(self.checks)}


@dataclass
class SubmissionResult:
    """Everything a grading run says about one submission: status, score, checks, mistakes, error."""

    submission: str
    exercise: str
    status: str  # passed | failed | error
    score: float
    max_score: float
    checks: list[CheckResult] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    error: str | None = None
    parts: dict | None = None  # multi-part exercises: which parts were graded, which supplied
    seed: int | None = None
    examples: int | None = None
    sandbox: dict = field(default_factory=lambda: {"mode": None, "warning": None})
    output: dict = field(default_factory=lambda: {"stdout": "", "stderr": "", "truncated": False})
    duration_seconds: float = 0.0
    grader_version: str = ""
    # The feedback level this copy was redacted to ({"level", "audience"}), set by
    # ``grader.report.feedback_levels.redact`` only; in ``to_dict`` (last) when set.
    feedback: dict | None = None
    # Recorded when the result is made, for the doors (never in ``to_dict``: the contract is unchanged):
    # the exercise's default feedback level, and where the graded function is, so that no door
    # loads the exercise or the submission again for a result already made.
    default_feedback: str | None = None
    entry_point: str | None = None  # the graded function's (or class's) name
    entry_file: str | None = None  # the file it should be in (a folder submission's entry file)
    entry_line: int | None = None  # the line it is defined on, read with ast (None: not found)

    @property
    def passed(self) -> bool:
        """True only at full score (status ``passed``)."""
        return self.status == "passed"

    def to_dict(self, timings: bool = True) -> dict:
        """The result contract as plain data, keys in a fixed order (``duration_seconds`` left out without timings)."""
        data = {
            "submission": self.submission, "exercise": self.exercise, "status": self.status,
            "score": self.score, "max_score": self.max_score,
            "checks": [c.to_dict() for c in self.checks],
            "mistakes": [m.to_dict() for m in self.mistakes],
            "error": self.error,
            "parts": self.parts,
            "seed": self.seed, "examples": self.examples, "sandbox": self.sandbox,
            "output": self.output, "grader_version": self.grader_version,
        }
        if timings:
            data["duration_seconds"] = round(self.duration_seconds, 3)
        if self.feedback is not None:
            data["feedback"] = dict(self.feedback)
        return data

    def to_json(self, timings: bool = True) -> str:
        """The result contract as JSON: the same seed gives the same text, apart from ``duration_seconds``."""
        return json.dumps(self.to_dict(timings), indent=2, ensure_ascii=False)
