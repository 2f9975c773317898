"""Grading one submission: sandbox answers in, verdicts out, decided here from plain data.

The order matters and is the trust boundary: the child answers every case first; only then
does this process compute the reference's answers and compare. Checks run in rubric order;
a check whose dependencies did not pass is skipped, so an answer that is simply wrong can
never collect points for good behaviour. The first failing property gets its counterexample
shrunk by hypothesis through the same sandbox session.
"""

from __future__ import annotations

import collections
import os
import time
from pathlib import Path

from grader.version import __version__
from grader.judging import checks as kinds
from grader.judging import parts
from grader.judging.bank import Bank
from grader.judging.checks import Outcome
from grader.judging.result import CheckResult, SubmissionResult
from grader.sandbox import launch
from grader.sandbox.session import (OUT_OF_TIME, TIMED_OUT_BEFORE, SandboxFailure, Session, call_wall_limit,
                                    output_exceeded)
from grader.judging.submissions import Submission, choose_entry, definition_line

CONSISTENCY_SAMPLE = 40
SHRINK_BUDGET = 4.0
DIAGNOSIS_BUDGET = 2.0
# Seconds kept for the audit after the consistency pass's last call (Session.audit): the audit takes milliseconds;
# the rest is room for a last call a little longer than the longest before it (a much longer one, where the time
# is this short, can still use it up: the process is then gone before the audit, and no input counts as unchanged)
AUDIT_RESERVE = 2.5
RESENDS = 3  # requests for the cases a pass left after two calls cut short (_run_the_rest): each costs up to two more


def grade(submission: Submission, exercise, bank: Bank, launcher: launch.Launcher | None = None,
          shrink: bool = True, diagnose: bool = True) -> SubmissionResult:
    launcher = launcher or launch.choose()
    started = time.monotonic()
    choose_entry(submission, exercise.entry_point)
    entry_file = submission.entry_file or submission.path  # what the doors point at (Actions annotations)
    result = SubmissionResult(
        submission=submission.display, exercise=exercise.id, status="error", score=0.0,
        max_score=exercise.max_score, seed=bank.seed, examples=bank.examples,
        sandbox={"mode": launcher.name, "warning": launcher.warning}, grader_version=__version__,
        default_feedback=getattr(exercise, "default_feedback", None), entry_point=exercise.entry_point,
        entry_file=str(entry_file),
        # Never looked into when the submission was refused: its "file" may be a link out of the class, or to a
        # device or a FIFO (discovery said so; reading it here took the grader past 20 GB, or hung it)
        entry_line=None if submission.problem else definition_line(entry_file, exercise.entry_point),
    )
    if submission.problem:
        result.error = submission.problem
        return _finish(result, started)
    # A launcher may speak a richer protocol (the warm fork server does): it names its own Session.
    session = (getattr(launcher, "session_class", None) or Session)(submission, exercise, launcher)
    try:
        _grade_in_session(session, exercise, bank, result, shrink, diagnose, files=submission.files)
    finally:
        session.close()
        result.output = {"stdout": _own_paths(session.output.stdout, session),
                         "stderr": _own_paths(session.output.stderr, session), "truncated": session.output.truncated}
    if getattr(session, "violation", None):  # tampering at any point, even after the last reply
        _disqualify(result, session.violation)
    return _finish(result, started)


def _own_paths(text: str, session) -> str:
    """Python names the sandbox's copy of the file in warnings and tracebacks ("/tmp/minimax-grader-
    x1y2/submission/warn.py:3: SyntaxWarning"): a student knows their file by its own name."""
    staged = getattr(session, "staged", None)
    if not text or staged is None:
        return text
    return text.replace(str(staged.entry.parent) + os.sep, "")


def _disqualify(result: SubmissionResult, reason: str) -> None:
    """No points at all: answers that came with a tampered channel cannot be trusted."""
    result.status, result.score, result.error = "error", 0.0, reason
    for check in result.checks:
        check.score = 0.0
        if check.status == "passed":
            check.status, check.message = "error", reason


def _finish(result: SubmissionResult, started: float) -> SubmissionResult:
    result.duration_seconds = time.monotonic() - started
    return result


def _grade_in_session(session: Session, exercise, bank: Bank, result: SubmissionResult, shrink: bool,
                      diagnose: bool = True, files=()) -> None:
    from grader.judging import api_mismatch

    try:
        loaded = session.open()
        if not loaded.get("ok"):
            error = str(loaded.get("error") or "the submission could not be loaded")
            result.error = api_mismatch.explain_load_error(exercise, files, error)[:600]
            return
        if exercise.parts:
            result.parts = parts.from_reply(loaded, exercise)
            if not result.parts["graded"]:  # never a 0/0 "pass"
                result.error = api_mismatch.explain_load_error(
                    exercise, files, "the submission defines none of the parts of this exercise")[:600]
                return
            result.max_score = parts.graded_max_score(exercise, result.parts)
        first_raw = session.run([c.to_request() for c in bank.cases])
        worth = _worth_of_replies(exercise, bank)
        if not _verdicts_settled(exercise, bank, first_raw, worth):
            _run_the_rest(session, bank, first_raw, exercise.hook("size", None), _read_by_a_check(exercise), worth)
    except SandboxFailure as failure:
        result.error = failure.reason
        return
    try:
        _judge_replies(session, exercise, bank, result, shrink, diagnose, first_raw, files)
    except Exception as exc:  # noqa: BLE001 - whatever a reply makes a check trip on is this submission's, not the run's
        if _in_exercise_code(exercise, exc):
            raise  # the exercise's own reference or rules failed: the grader's failure, never stored, tried again
        _unjudgeable(result, exc)


def _verdicts_settled(exercise, bank: Bank, first_raw: list, worth=None) -> bool:
    """Whether no case left unrun could change a verdict: every check that reads one has failed already, on a case
    that ended or on a call cut short (a failure stays whatever the rest answers), or depends on one that has, so it
    is skipped. Then the requests for the rest are not made: a search without a depth limit, wrong on the cases it
    ended and slow on the others, cost a self-check 30.9 s of requests whose answers could change no score (the
    127th helper's). Where any check could still change, or the exercise is made of parts, or a check cannot be
    read yet (the consistency check, an unknown kind), the rest is asked as before. A check's failures found here
    are found again when it is judged: the same replies, the same reference, and the passes after this one only add
    changes. ``worth``: ``_worth_of_replies``'s, where the caller keeps it for the requests after."""
    unrun = [at for at, raw in enumerate(first_raw) if raw.get("skipped") == TIMED_OUT_BEFORE]
    if not unrun or exercise.parts:
        return False
    keep = (worth or _worth_of_replies(exercise, bank))(first_raw)
    left = {bank.cases[at].group: bank.cases[at] for at in unrun}.values()  # one case of each group left
    return not any(keep(case) for case in left)


def _worth_of_replies(exercise, bank: Bank):
    """replies -> ``_worth_running``'s answer for them, worked out again only where a reply has been replaced since
    (the replies are one list, changed in place by each request): ``_verdicts_settled`` and the first request for
    the rest read the same replies, and each worked out the reference of every case that ended."""
    seen: list = [None, None]  # the replies last read (held, so no id is reused), and what they gave

    def worth(first_raw: list):
        if seen[0] is None or len(seen[0]) != len(first_raw) or any(a is not b for a, b in zip(seen[0], first_raw)):
            seen[0], seen[1] = list(first_raw), _worth_running(exercise, bank, first_raw)
        return seen[1]

    return worth


def _worth_running(exercise, bank: Bank, first_raw: list):
    """Whether a case left unrun could still change a verdict: some check that reads it has not failed already, on
    a case that ended or on one cut short, and depends on no check that has (see ``_verdicts_settled``). Every case
    is, for an exercise made of parts."""
    if exercise.parts:
        return lambda case: True
    reference, reference_of = exercise.reference, exercise.hook("reference")
    ended = [Outcome(case, raw, None) for case, raw in zip(bank.cases, first_raw) if not kinds.not_asked(raw)]
    for outcome in ended:
        try:
            outcome.expected = reference_of(outcome.case.input, reference)
        except Exception:  # noqa: BLE001 - the exercise's own failure: raised where the replies are judged, not here
            continue
    # A call cut short owes its answer everywhere (checks.owed_answers): it fails every check that reads it but one
    # that judges what an unfinished call did; no later request runs it again, so that failure stays too.
    cut_short = [Outcome(case, raw, None) for case, raw in zip(bank.cases, first_raw)
                 if raw.get("timed_out") and "skipped" not in raw]
    failed: set[str] = set()
    for spec in exercise.checks:
        predicate = kinds.predicate_for(spec, exercise) if spec.kind != "consistent" else None
        if predicate is None:
            continue
        if any(kinds.reads(spec, o.case) and not kinds.judges_unfinished(spec, o, exercise) for o in cut_short) \
                or kinds.fails_one(spec, predicate, ended):
            failed.add(spec.name)
    blocked: set[str] = set()
    for spec in exercise.checks:  # the rubric lists a check after the ones it depends on (exercise.load)
        if spec.name in failed or any(dep in blocked for dep in spec.depends):
            blocked.add(spec.name)
    return lambda case: any(spec.name not in blocked and kinds.reads(spec, case) for spec in exercise.checks)


def _read_by_a_check(exercise):
    """Whether some check of the rubric reads a case."""
    return lambda case: any(kinds.reads(spec, case) for spec in exercise.checks)


def _run_the_rest(session: Session, bank: Bank, first_raw: list, size=None, read=None, worth=None) -> None:
    """The cases a pass did not run because two calls before them were cut short, asked again in requests of
    their own (at most ``RESENDS``, within the submission's time): a case never run is no evidence for any check
    (``checks.per_case_check``), so a search slow on a few trees is still seen on the rest, and a search that
    stalls on purpose to hide the rest (the forty-third red team) is seen on nothing and passes nothing.

    While no call has ended yet (every one so far cut short), the smallest case left that a check reads (``size``,
    the exercise's measure; ``read``, the rubric's groups) is asked first, alone: a search that does not end even
    there is asked nothing more (an endless loop cost a student's self-check eight limits, some 9 s, where three
    tell the same, and its smallest case is the one the report names). That case fails the check that reads it, so
    every check depending on that one is skipped whatever the rest would show; what the rest is no longer asked
    for is the checks that depend on none (their cases not run fail them, as after any stall). One that ends there
    is asked the rest as before, the probe not counted among the requests. A case no check reads is never the
    probe: a search that loops only on finished games, where no check asks one, was left unasked on the rest
    (the 128th helper's review).

    ``worth`` (the replies so far -> whether a case could still change a verdict, ``_worth_running``) is asked before
    each request, which carries only those cases: the ones of a class whose checks have all failed already cost two
    more limits a request for nothing (40 s of a self-check at 5 s a call, for the 130th helper's ivan, looping in
    one of his two classes; 10 s now). Cases left out stay unrun, and fail what reads them, as before."""
    limits = session.limits
    resends, probed = 0, False
    while resends < RESENDS:
        rest = [at for at, raw in enumerate(first_raw) if raw.get("skipped") == TIMED_OUT_BEFORE]
        if not rest or session.budget_left() <= AUDIT_RESERVE + call_wall_limit(limits.call_timeout):
            return
        if not probed and all(kinds.not_asked(raw) for raw in first_raw):
            # the probe is chosen among every case left that a check reads, before ``worth`` narrows them: narrowed
            # first, it was a random tree of one node worth 0, where an honest search looping on values <= 0
            # stopped, and the published cases it ends on were never asked (2 of 10 before, 0 after: the 132nd
            # helper's red team)
            probed = True
            read_rest = [at for at in rest if read is None or read(bank.cases[at])] or rest
            at = min(read_rest, key=lambda at: size(bank.cases[at].input)) if size is not None else read_rest[0]
            [first_raw[at]] = session.run([bank.cases[at].to_request()], within=session.budget_left() - AUDIT_RESERVE)
            if kinds.not_asked(first_raw[at]):
                return
            continue
        if worth is not None:
            keep = worth(first_raw)
            rest = [at for at in rest if keep(bank.cases[at])]
            if not rest:
                return
        resends += 1
        # The cases of the groups that have had the fewest calls cut short first, each group in the bank's order: a
        # search that loops in one class of an exercise made of several (the 130th helper's ivan: MinimaxAgent loops,
        # AlphaBetaAgent is correct) spent every resend on two more of its looping cases, first in the bank, and its
        # correct class was never asked (0 of 19.5). Not the smallest first across groups: a position's size is not
        # what its call costs (a full game from the empty board is the smallest position and the longest case: with
        # the student's own score looping, the games went first and took the submission's time, and a correct
        # alpha-beta went from 19 to 8.5 of 23: the 133rd helper). What is never run still fails what reads it.
        cut_short = collections.Counter(bank.cases[at].group for at, raw in enumerate(first_raw) if raw.get("timed_out"))
        rest.sort(key=lambda at: cut_short[bank.cases[at].group])
        again = session.run([bank.cases[at].to_request() for at in rest], within=session.budget_left() - AUDIT_RESERVE)
        for at, raw in zip(rest, again):
            first_raw[at] = raw


def _in_exercise_code(exercise, exc: BaseException) -> bool:
    """Whether the exception came out of the exercise's own code (its reference, hooks or game rules: files in
    its folder or its reference module), which fails the same way for every submission: that is the grader's
    failure (``grade`` stores nothing and exits 3), not one student's error."""
    import traceback

    own = [str(exercise.folder.resolve())]
    try:
        reference = exercise.reference
        if reference is not None and getattr(reference, "__file__", None):
            own.append(str(Path(reference.__file__).resolve()))
    except Exception:  # noqa: BLE001 - a reference that cannot even load is the exercise's failure too
        return True
    frames = traceback.extract_tb(exc.__traceback__)
    return any(str(Path(frame.filename).resolve()).startswith(tuple(own)) for frame in frames)


def _unjudgeable(result: SubmissionResult, exc: Exception) -> None:
    """A reply the checks could not read (an exception while judging it): this submission's one-line error,
    never a traceback, never a failure of the whole run (``grade`` would stop on it at every re-run)."""
    result.checks, result.mistakes = [], []
    result.status, result.score = "error", 0.0
    said = " ".join(str(exc).split())
    result.error = f"the grader could not judge the replies of this submission ({type(exc).__name__}: {said})"[:300]


def _judge_replies(session: Session, exercise, bank: Bank, result: SubmissionResult, shrink: bool, diagnose: bool,
                   first_raw: list, files=()) -> None:
    from grader.judging import api_mismatch

    # Asking again costs a second pass over every fixed case: only when the rubric has a check for it. It
    # judges the answers alone, so its helpers' questions are no evidence: where the exercise can, the child
    # gets their answers with the cases and asks nothing (Session.run). Everything evidence rests on was
    # asked in the first pass, before the child could hold any of these answers. Its inputs are looked at as
    # the first pass's are: a call that changes its input only when asked again (the forty-first red team's
    # forger, which told the two passes apart) changes it all the same. It leaves the audit time enough: no
    # case starts that the longest call of the pass so far would take past the audit's reserve.
    again_cases = _consistency_sample(bank) if any(s.kind == "consistent" for s in exercise.checks) else []
    # Only positions answered the first time are asked again: one cut short then has no answer to compare, and
    # asking it again would only use up the time (two calls cut short end a pass), while a position answered the
    # first time and not again counts as a changed answer (checks.consistency_check). One never run or cut short
    # the first time is in the pass all the same, unasked: the check counts it as not known to answer alike
    # (where no answer check covers the position, nothing else judges it: coin-row's finished positions)
    answered_first = {case.id for case, raw in zip(bank.cases, first_raw) if not kinds.not_asked(raw)}
    sample = {case.id for case in again_cases}
    never_run = [{"id": case.id, "skipped": "not run the first time" if "skipped" in raw else "cut short the first time"}
                 for case, raw in zip(bank.cases, first_raw) if kinds.not_asked(raw) and case.id in sample]
    again_cases = [case for case in again_cases if case.id in answered_first]
    again_failure = None
    limits = getattr(session, "limits", exercise.limits)
    try:
        again_raw = session.run([c.to_request() for c in again_cases], evidence=False,
                                within=session.budget_left() - AUDIT_RESERVE) if again_cases else []
    except SandboxFailure as failure:
        again_raw, again_failure = [], failure.reason
    again_raw = again_raw + never_run  # never run the first time: nothing asked again, and no answer to keep
    if any(raw.get("skipped") == OUT_OF_TIME for raw in again_raw):
        again_failure = (f"the submission's time ({limits.submission_timeout:g} s) ran out before every "
                         "position was asked again")
    # Every input seen unchanged after its own call looked at once more, now that no call of the student's is
    # left to run before the checks: a later call (or a thread of theirs) may have changed it since (see
    # Session.audit; where the process has ended, no input counts as unchanged). Tampering found here
    # disqualifies, as anywhere.
    try:
        session.audit()
    except SandboxFailure:
        pass
    if output_exceeded(getattr(session, "failure", None)):
        # Output over the cap while asked again or looked at again zeroes the submission as it does in the first
        # pass: a file that printed 3,600 characters a call passed its first pass and lost only the checks these
        # feed, named "mutates-tree" for a tree the audit could not look at (the false-positive hunt of
        # 2026-11-28); at 4,300 it was the whole submission's error. Every submission gets these passes alike.
        # Not the runs that come after (shrinking a failure, diagnosis): how many there are depends on the
        # mistake and the machine, and a search with a flaw that printed as much as a correct one was zeroed
        # where the correct one passed (the fifty-seventh red team). Those runs end where the output does.
        result.status, result.score, result.error = "error", 0.0, session.failure
        return

    # A call of the consistency pass that changed its input (right after it, or later, as the audit saw) changed
    # that case's position: it counts against the case's first-pass result, which the checks read
    first_by_id = {case.id: raw for case, raw in zip(bank.cases, first_raw)}
    for raw in again_raw:
        first = first_by_id.get(raw.get("id"))
        if raw.get("mutated") and first is not None and not first.get("mutated"):
            first["mutated"] = True
            if raw.get("unverified"):
                first["unverified"] = raw["unverified"]
            else:
                first["changed_when_asked_again"] = True
                if raw.get("change"):
                    first["change"] = raw["change"]

    # Only now, with every answer in hand, does the reference speak.
    reference = exercise.reference
    reference_of = exercise.hook("reference")
    outcomes = [Outcome(case, raw, reference_of(case.input, reference)) for case, raw in zip(bank.cases, first_raw)]
    by_id = {o.case.id: o for o in outcomes}
    # Written against another API (node.value, other helper names, other parameters): one line, not
    # the same crash in every check.
    mismatch = api_mismatch.explain_replies(exercise, files, outcomes)
    if mismatch is not None:
        result.error = mismatch[:600]
        return

    predicates = {spec.name: kinds.predicate_for(spec, exercise) for spec in exercise.checks if spec.kind != "consistent"}
    # (the checks of a part the grader supplies are left out: their predicates judge nothing of the student's)
    owed = kinds.owed_answers(exercise, outcomes, [(spec, predicates[spec.name]) for spec in exercise.checks
                                                   if predicates.get(spec.name) is not None
                                                   and parts.not_graded(spec, result.parts) is None])
    shrink_targets = []
    for spec in exercise.checks:
        left_out = parts.not_graded(spec, result.parts)
        if left_out is not None:
            result.checks.append(left_out)
            continue
        failed_deps = [d for d in spec.depends if _status(result.checks, d) != "passed"]
        if failed_deps:
            result.checks.append(kinds.skipped(spec, failed_deps))
            continue
        if spec.kind == "consistent":
            result.checks.append(kinds.consistency_check(spec, exercise, by_id, again_raw, again_failure))
            continue
        predicate = predicates[spec.name]
        if predicate is None:
            result.checks.append(CheckResult(spec.name, spec.title, "error", 0.0, spec.points, hidden=spec.hidden,
                                             message=f"the exercise names an unknown check kind {spec.kind!r}"))
            continue
        check, failures = kinds.per_case_check(spec, exercise, outcomes, predicate, owed)
        check.sandbox_evidence = kinds.rests_on_sandbox_records(spec, exercise)
        result.checks.append(check)
        if failures:
            shrink_targets.append((check, predicate, failures))

    shrink_deadline = time.monotonic() + SHRINK_BUDGET
    # Smallest failing outcomes found so far (one tree often breaks several checks), each with whether its run
    # kept evidence: one shrunk without (a check on answers alone) has no log of questions, and a check that
    # reads the log would read "nothing asked" there, whatever the student asked.
    shrunk: list = []
    for check, predicate, failures in shrink_targets if shrink else ():
        if not _generated(failures):
            continue  # a published or hand-made case that fails is shown as itself
        family = _family(failures[0][0].case.input)  # never show a tree for a check about boards
        groups = check_groups(exercise, check)
        reused = next(((o, p) for o in _reusable(exercise, check, shrunk) if _family(o.case.input) == family
                       and kinds.admitted(exercise, o.case.input, groups) and (p := predicate(o))), None)
        if reused is not None:
            _adopt(exercise, check, *reused)
            continue
        budget = min(shrink_deadline - time.monotonic(), session.budget_left() - 1.0)
        if budget <= 0 or session.failure is not None:
            break
        found = _shrink_counterexample(session, exercise, bank, check, predicate, failures, budget=budget)
        if found is not None:
            shrunk.append((found[0], _reads_evidence(exercise, check)))
    # A hand-made check none of whose failing cases was even run (the session gave up on them after timeouts)
    # has nothing of its own to show: a generated case that fails it the same way says what went wrong.
    for check, predicate, failures in shrink_targets if shrink else ():
        if _generated(failures) or not all("skipped" in o.raw for o, _ in failures):
            continue
        family = _family(failures[0][0].case.input)
        reused = next(((o, p) for o in _reusable(exercise, check, shrunk)
                       if _family(o.case.input) == family and (p := predicate(o))), None)
        if reused is not None:
            _adopt(exercise, check, *reused)

    result.score = round(sum(c.score for c in result.checks), 4)
    # The maximum is what was graded: checks of supplied parts and checks with no cases count 0.
    result.max_score = round(sum(c.max_score for c in result.checks), 4)
    result.status = "passed" if result.score >= result.max_score else "failed"
    if diagnose and result.status == "failed":
        _diagnose(session, exercise, outcomes, again_raw, result)


def _diagnose(session: Session, exercise, outcomes, again_raw, result: SubmissionResult) -> None:
    """Name the mistake and localise it, while the sandbox is still open for a few more questions."""
    from grader.judging import diagnose

    budget = min(DIAGNOSIS_BUDGET, session.budget_left() - 1.0)
    usable = session if budget > 0 and session.failure is None else None
    result.mistakes, where = diagnose.diagnose(exercise, outcomes, result.checks, again_raw, usable, max(budget, 0.0))
    for check in result.checks:
        if check.name in where and check.counterexample is not None:
            check.counterexample.localisation = where[check.name]


def check_groups(exercise, check: CheckResult):
    return next((s.groups for s in exercise.checks if s.name == check.name), ())


def _status(done: list[CheckResult], name: str) -> str | None:
    return next((c.status for c in done if c.name == name), None)


def _consistency_sample(bank: Bank):
    """Every fixture case plus some random ones, in reverse order, so other trees come between."""
    fixed = [c for c in bank.cases if c.group != "random"]
    return list(reversed(fixed + bank.group("random")[:CONSISTENCY_SAMPLE]))


def _shrink_counterexample(session: Session, exercise, bank: Bank, check: CheckResult, predicate, failures,
                           budget: float):
    """Shrinks the check's smallest failure; returns the (outcome, problem) it adopted, if any."""
    from grader.judging import shrink

    size = exercise.hook("size", lambda case_input: 0)
    broken: list[str] = []
    # A check that judges answers alone is shrunk in runs that keep no evidence: where the exercise can,
    # the child is handed a candidate's values and asks nothing (a tree's hundred-odd round trips per
    # round, the most of a failing check's time). The scores rest on the first pass, long done by now.
    evidence = _reads_evidence(exercise, check)
    candidates_of = exercise.hook("shrink_candidates")
    # Shrinking starts from generated cases only, and from one the code was asked: a case never run (earlier calls
    # ran out of time) shows nothing of the code, and neither does a smaller one left unrun by the shrinking's own
    # runs (an endless loop's random trees were "shrunk" to a one-node tree marked "not run": the 113th helper)
    failures = [f for f in _generated(failures) if "skipped" not in f[0].raw]
    if not failures:
        return None
    judged = predicate
    predicate = lambda outcome: None if "skipped" in outcome.raw else judged(outcome)  # noqa: E731
    if candidates_of is not None:
        start, problem = min(failures, key=lambda f: ("skipped" in f[0].raw, size(f[0].case.input)))
        group = start.case.group

        def admitted_candidates(case_input):  # a smaller input is one the start's group could have asked
            return [c for c in candidates_of(case_input) if kinds.admitted(exercise, c, (group,))]

        outcome, problem = shrink.greedy(start, problem, admitted_candidates,
                                         shrink.make_batch_runner(session, exercise, broken, group, evidence),
                                         predicate, budget)
    else:
        strategy_of = exercise.hook("strategy")
        if strategy_of is None or not any(o.case.group == "random" for o, _ in failures):
            return None
        found = shrink.with_hypothesis(strategy_of(), bank.seed, bank.examples, shrink.make_judge(session, exercise, broken, evidence),
                                       predicate, budget)
        if found is None:
            return None
        outcome, problem = found
    return (outcome, problem) if _adopt(exercise, check, outcome, problem) else None


def _reads_evidence(exercise, check: CheckResult) -> bool:
    """Whether the check reads the log of questions, so that its shrinking runs keep evidence."""
    spec = next((s for s in exercise.checks if s.name == check.name), None)
    return spec is None or kinds.reads_evidence(spec)


def _reusable(exercise, check: CheckResult, shrunk: list) -> list:
    """The shrunk outcomes the check may show: for a check on the log, only those whose run kept one."""
    needs_log = _reads_evidence(exercise, check)
    return [outcome for outcome, logged in shrunk if logged or not needs_log]


def _generated(failures: list) -> list:
    """The failures on generated cases (random, reachable, a declared group): only those are shrunk."""
    return [f for f in failures if f[0].case.group not in kinds.HAND_MADE_GROUPS]


def _family(case_input) -> object:
    """What kind of input this is (its top-level keys): a shrunk input is reused only within its kind."""
    return tuple(sorted(case_input)) if isinstance(case_input, dict) else type(case_input).__name__


def _adopt(exercise, check: CheckResult, outcome, problem: str) -> bool:
    """Show this shrunk failure as the check's counterexample, unless the one it has is smaller."""
    size = exercise.hook("size", lambda case_input: 0)
    current = check.counterexample
    if current is not None and size(outcome.case.input) > size(current.input):
        return False
    check.counterexample = kinds.describe(exercise, outcome, problem, shrunk=True)
    where = kinds.where_words(exercise, check_groups(exercise, check))
    check.message = kinds.failure_message(exercise, outcome, problem, check.failed_cases, check.total_cases, where,
                                          check.unanswered_cases)
    return True
