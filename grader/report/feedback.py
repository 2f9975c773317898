"""One check's feedback as plain text: the words a student reads wherever the check failed.

JUnit failures, Gradescope test output, pytest failure reports and Actions annotations all
show the same few lines (message, smallest counterexample, likely mistakes), so they live here
once instead of drifting apart in every exporter.
"""

from __future__ import annotations

import re

from grader.judging.result import CheckResult, SubmissionResult
from grader.report import markdown as md

LABELS = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP", "error": "ERROR"}


def evidence_label(code: str) -> str:
    """What a mistake's evidence line is headed by, in every format: what the grader saw where nothing is named."""
    return "What the grader saw" if code == "no-known-mistake" else "Why the grader thinks so"


def _field(item, key: str):
    """``item``'s ``key``, where ``item`` is a result's object (``Counterexample``, ``Mistake``) or its dict (the
    templates render the dicts): the filters below read either."""
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)


def titled(counterexample) -> str:
    """A hand-made case's title, as the reports put it after "on which it goes wrong" (``', "a single node"'``), or
    nothing: the instructor wrote it to say what the position is about (docs/writing-exercises.md)."""
    title = _field(counterexample, "title")
    return f', "{title}"' if title else ""


def answer_right_words(counterexample) -> str:
    """What follows "your answer here, X," where the answer itself was right and the check is about something else
    (a trace, a mutation, a type, the clock), in every format (a ``Counterexample`` or its dict in the templates).
    Where the check's own message quotes that answer as what is wrong ("returned (1, 2) once the time was up: raise
    SearchTimeout instead"), calling it "a right answer on its own" read as a contradiction (the 125th helper)."""
    actual, note = _field(counterexample, "actual"), _field(counterexample, "note") or ""
    if actual is not None and str(actual) and re.search(rf"\breturned {re.escape(str(actual))}(?![\w.])", note):
        return "is the answer the message above is about: what is wrong with it is said there"
    return "is a right answer on its own: what goes wrong is how your code got it, said above"


def history_note(mistakes, noun: str = "tree") -> str:
    """Said under every counterexample where the likely mistake is state-across-calls: the answer shown came after
    the other questions of the run, which the code remembers, so the drawn case alone need not reproduce it (a
    one-node tree, "expected: 4  yours: 2", left the 125th helper looking for a bug in a tree with nothing to get
    wrong). Empty otherwise. ``mistakes``: ``Mistake`` objects or their dicts (the templates')."""
    codes = {_field(m, "code") for m in mistakes or ()}
    if "state-across-calls" not in codes:
        return ""
    return (f"this answer came after other questions, which your code remembers (the likely mistake below): "
            f"asked about this {noun} alone, it may answer otherwise")


def check_text(result: SubmissionResult, check: CheckResult, *, mistakes: bool = True, markdown: bool = False) -> str:
    """What went wrong with ``check`` (empty for a passed check without a message)."""
    # In Markdown, what the submission chose (its exception's text, its answer) is made inert (report.markdown).
    words, code = (md.text, md.code) if markdown else (str, str)
    lines: list[str] = []

    def own_paragraph(text: str) -> None:
        """A line that follows the answers' line: in Markdown a paragraph of its own, or the two run on into one
        (the 125th and 126th helpers)."""
        if markdown:
            lines.append("")
        lines.append(text)
    if check.message:
        lines.append(words(check.message))
    cx = check.counterexample
    if cx is not None:
        lead = ("Smallest " if cx.shrunk else "A ") + cx.noun
        lines += ["", f"{lead} on which it goes wrong{titled(cx)}, {code(cx.call)}:"]
        lines += [md.fence(cx.picture)] if markdown else ["    " + line for line in cx.picture.splitlines()]
        if cx.answer_right:  # a trace, the tree or the type went wrong: never "expected: 0  yours: 0"
            lines.append(f"your answer here, {code(cx.actual)}, {answer_right_words(cx)}")
        else:
            lines.append(f"expected: {code(_shown(cx.expected))}    yours: {code(_shown(cx.actual))}")
        history = history_note(result.mistakes, cx.noun)
        if history:
            own_paragraph(history)
        # What the text and Markdown reports say under the tree, here too: every machine format (Gradescope, JUnit,
        # Classroom, the pytest plugin, Actions annotations) reads this function, and dropped it (the 120th helper)
        where = cx.localisation.get("text") if isinstance(cx.localisation, dict) else None
        if where:
            own_paragraph(f"where it first goes wrong: {words(where)}")
    if mistakes and check.status in ("failed", "error") and result.mistakes:
        lines += ["", "Likely mistake" + ("s:" if len(result.mistakes) > 1 else ":")]
        for m in result.mistakes:
            hint = f" Ask yourself: {m.question}" if m.question else ""
            lines.append(f"- {m.code}: {m.explanation}{hint}")
            if m.evidence:
                lines.append(f"  {evidence_label(m.code)}: {words(m.evidence)}")
    return "\n".join(lines).strip("\n")


def _shown(value) -> str:
    """Text as it is (the exercise already wrote it in the statement's shape), anything else as Python shows it."""
    return value if isinstance(value, str) else repr(value)


def error_text(result: SubmissionResult) -> str:
    """Why a submission could not be graded at all."""
    return f"the submission could not be graded: {result.error}"
