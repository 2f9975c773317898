"""A failing case asked again first, in a process of its own: an answer that depends on what was asked before.

A memo kept from one call to the next (a dict at module level keyed by the position alone, an ``lru_cache`` on a
search whose depth is not in the key, a counter never reset) answers a position from what earlier calls left
behind. Asked again in the same process it answers the same (the memo is still there), so the consistency check
sees nothing, and no wrong search the diagnosis knows gives those answers: it said ``no-known-mistake``. Only
a process that has been asked nothing before tells: the diagnosis asks the smallest wrong case there, first and
alone, when nothing else named the mistake. The right answer there, where the answer given after other cases
was wrong, is the evidence (the grader's own comparison of two replies, each read as every reply is). Its cost, one more child,
is paid only by a failing submission no mistake explained.
"""

from __future__ import annotations

import dataclasses
import time

from grader.vocabulary.findings import Finding


class _Brief:
    """The exercise as the fresh session sees it: the same, with the diagnosis's time left as the whole budget."""

    def __init__(self, exercise, seconds: float):
        self._exercise = exercise
        limits = exercise.limits
        self.limits = dataclasses.replace(limits, submission_timeout=min(limits.submission_timeout,
                                                                         limits.load_timeout + seconds))

    def __getattr__(self, name):
        return getattr(self._exercise, name)


def answer_alone(exercise, session, case_input, deadline: float) -> dict | None:
    """The reply to ``case_input`` asked first in a new session of the same submission, or None (no time left, no
    submission to run again, the session failed, or anything in it looked like tampering)."""
    from grader.judging.bank import Case
    from grader.sandbox import launch
    from grader.sandbox.session import SandboxFailure, Session

    submission = getattr(session, "submission", None)
    seconds = deadline - time.monotonic()
    if submission is None or seconds < exercise.limits.call_timeout:
        return None
    fresh = Session(submission, _Brief(exercise, seconds), launch.choose())
    try:
        loaded = fresh.open()
        if not loaded.get("ok"):
            return None
        [raw] = fresh.run([Case(id="fresh-start", group="fresh-start", input=case_input).to_request()])
    except (SandboxFailure, ValueError):
        return None
    finally:
        fresh.close()
    return None if fresh.violation or not isinstance(raw, dict) else raw


def finding(exercise, facts, session, outcome, deadline: float, did) -> Finding | None:
    """``state-across-calls`` where ``outcome`` (a wrong answer given after other cases) is answered otherwise when
    asked first in a process of its own; None where it is answered alike, or not at all. ``did`` words a reply."""
    from grader.judging.checks import Outcome

    raw = answer_alone(exercise, session, outcome.case.input, deadline)
    if raw is None or "skipped" in raw or raw.get("timed_out") or raw.get("raised") or "answer" not in raw:
        return None
    if raw.get("answer") == outcome.raw.get("answer"):
        return None
    alone = Outcome(outcome.case, raw, outcome.expected)
    if facts.is_wrong(alone):
        # wrong both ways: the mistake is in the search itself (or chance: a move picked at random among ties differs
        # from one process to the next); only a right answer asked first says the history made it wrong
        return None
    noun = exercise.input_noun
    return Finding("state-across-calls",
                   f"{facts.call(outcome)}: asked first, in a process of its own, it {did(facts.reply(alone))}, the right answer; "
                   f"asked after other {noun}s, it {did(facts.reply(outcome))}")
