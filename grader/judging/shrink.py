"""Finding the smallest input on which a submission is wrong.

Two ways, both driven from the grader's process through the submission's open sandbox:

* ``greedy``: when the exercise knows how to take its inputs apart (``shrink_candidates``),
  start from the smallest failing case hypothesis generated and keep the first simpler
  candidate that still fails, round after round. Each round is one request to the child,
  so a tree shrinks to a handful of nodes in a few dozen milliseconds.
* ``with_hypothesis``: otherwise hypothesis re-runs the exercise's strategy with the bank's
  seed and shrinks the failure itself (general, but about 10 ms of engine time per try).

Inputs the submission already answered are looked up, not re-run; when the time budget is
spent the search stops asking the child and returns the best it has.
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Callable

from grader.judging.bank import Case
from grader.judging.checks import Outcome


def greedy(start: Outcome, problem: str, candidates_of, run_batch, predicate, budget: float, max_rounds: int = 200):
    """Greedy descent from a failing outcome; returns the simplest (outcome, problem) it reached."""
    deadline = time.monotonic() + budget
    best = (start, problem)
    tried: set[str] = {_key(start.case.input)}
    for _ in range(max_rounds):
        if time.monotonic() > deadline:
            break
        failing = _first_failing(_untried(candidates_of(best[0].case.input), tried), run_batch, predicate)
        if failing is None:  # no simpler candidate fails (or the sandbox gave up): done
            break
        best = failing
    return best


def _key(case_input) -> str:
    return json.dumps(case_input, sort_keys=True)


def _untried(candidates, tried: set[str]):
    """The candidates not asked before, each marked as asked when it is taken (lazily: most rounds stop early)."""
    for candidate in candidates:
        key = _key(candidate)
        if key not in tried:
            tried.add(key)
            yield candidate


CHUNKS = (8, 32)


def _first_failing(candidates, run_batch, predicate):
    """The first candidate, in order, that still fails, as (outcome, problem); None if none does.

    The child is asked in growing chunks (8, then 32, then the rest) rather than all at once:
    a buggy submission usually fails on one of the first few simplifications, so most rounds
    stop early, and the answer is the same first failing candidate a single batch would give.
    """
    candidates = iter(candidates)
    for size in (*CHUNKS, None):
        chunk = list(itertools.islice(candidates, size))
        if not chunk:
            return None
        outcomes = run_batch(chunk)
        if outcomes is None:
            return None
        for outcome in outcomes:
            problem = predicate(outcome)
            if problem:
                return outcome, problem
    return None


def with_hypothesis(strategy, seed: int, examples: int, judge: Callable[[dict], Outcome | None], predicate, budget: float):
    """The smallest failing (outcome, problem) hypothesis finds, or None."""
    from grader.judging.hypothesis_setup import hypothesis, settings

    hyp = hypothesis()
    seen: dict[str, tuple[Outcome | None, str | None]] = {}
    deadline = time.monotonic() + budget
    last: list[tuple[Outcome, str]] = []

    def verdict(case_input):
        key = json.dumps(case_input, sort_keys=True)
        if key not in seen:
            if time.monotonic() > deadline:
                return None, None
            outcome = judge(case_input)
            seen[key] = (outcome, predicate(outcome) if outcome is not None else None)
        return seen[key]

    @hyp.seed(seed)
    @settings(max_examples=examples, shrink=True)
    @hyp.given(strategy)
    def holds(case_input):
        outcome, problem = verdict(case_input)
        if problem:
            last.append((outcome, problem))
            raise AssertionError(problem)

    try:
        holds()
    except Exception:  # the falsifying example (or a flaky one): either way `last` says what failed
        pass
    return last[-1] if last else None


def make_batch_runner(session, exercise, failures: list, group: str = "random", evidence: bool = True):
    """Runs inputs through the open sandbox session; the reference answers only afterwards. Each input is
    asked as a case of ``group`` (the group of the case it was made from). ``evidence=False`` for a caller
    that reads the answers alone (the diagnosis): see ``Session.run``."""
    from grader.sandbox.session import SandboxFailure

    reference = exercise.reference
    reference_of = exercise.hook("reference")
    counter = [0]

    def run_batch(inputs: list[dict]) -> list[Outcome] | None:
        cases = []
        for case_input in inputs:
            counter[0] += 1
            cases.append(Case(id=f"shrink-{counter[0]}", group=group, input=case_input))
        try:
            raws = session.run([case.to_request() for case in cases], evidence=evidence)
        except SandboxFailure as failure:
            failures.append(failure.reason)
            return None
        return [Outcome(case, raw, reference_of(case.input, reference)) for case, raw in zip(cases, raws)]

    return run_batch


def make_judge(session, exercise, failures: list, evidence: bool = True) -> Callable[[dict], Outcome | None]:
    """One input at a time, for hypothesis."""
    run_batch = make_batch_runner(session, exercise, failures, evidence=evidence)

    def judge(case_input):
        outcomes = run_batch([case_input])
        return outcomes[0] if outcomes else None

    return judge
