"""The kinds of check an exercise's rubric can name, each a small function over plain data.

A check looks at the child's raw results (answers, traces, mutation flags) and the
reference's expected values, and returns a ``CheckResult``. Most kinds are a per-case
predicate, "what is wrong with this case, if anything", which is also what the shrinker
uses to find the smallest failing input. An exercise adds a kind by defining
``check_<kind>`` (a per-case predicate) in its hooks; the core needs no change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from grader.vocabulary.answers import Answer
from grader.judging.bank import Case
from grader.judging.result import CheckResult, Counterexample


@dataclass
class Outcome:
    """One case as the judge sees it: the child's raw result and, afterwards, the reference's."""

    case: Case
    raw: dict
    expected: Any = None

    @property
    def answer(self) -> Answer | None:
        """Decoded once per reply: structured answers are asked about by several checks and the diagnosis."""
        data = self.raw.get("answer")
        if data is None:
            return None
        cached = self.__dict__.get("_decoded")
        if cached is None or cached[0] is not data:
            cached = (data, Answer.decode(data))
            self.__dict__["_decoded"] = cached
        return cached[1]

    def late_change(self, noun: str = "input") -> str | None:
        """Why the input counts as changed where the call itself left it as it found it (``Session.audit``):
        changed later, while other calls ran; or never looked at again before judging, because the child's
        process ended first. None otherwise (unchanged, or changed by the call: each check says that its way)."""
        if self.raw.get("changed_later"):
            return (f"the {noun} was unchanged when the call returned, but changed later, while other calls ran "
                    "(something kept a reference to it and changed it afterwards)")
        if self.raw.get("changed_when_asked_again"):
            change = self.raw.get("change")
            return (f"the {noun} was left unchanged the first time, but changed when the same position was asked "
                    "about again later" + (f": {change}" if change else ""))
        if self.raw.get("unverified"):
            return (f"the grader could not look at the {noun} again before judging ({self.raw['unverified']}), "
                    "so whether later calls left it unchanged is not known")
        return None

    def did_not_answer(self, call_timeout: float) -> str | None:
        if "skipped" in self.raw:
            return str(self.raw["skipped"]) or "not run"
        if self.raw.get("timed_out"):
            return f"timed out after {call_timeout:.1f} s"
        if self.raw.get("raised"):
            raised = str(self.raw["raised"])
            if raised.startswith(NO_KEYBOARD):  # what a student stepping through their search at home left in
                return f"raised {raised}: input() has no keyboard to read from while grading; take it out of your code"
            return f"raised {raised}"
        if self.raw.get("answer") is None:
            return "gave no answer"
        return None


Predicate = Callable[[Outcome], "str | None"]
NO_KEYBOARD = "EOFError: EOF when reading a line"  # input() in the sandbox, whose standard input is empty


def _answers(exercise, call_timeout) -> Predicate:
    verify = exercise.hook("verify", default_verify)
    plain = verify is default_verify

    def predicate(outcome: Outcome):
        if plain and right_number(outcome):
            return None  # the common case, decided without decoding the answer
        problem = outcome.did_not_answer(call_timeout)
        if problem:
            # Say what the call should have given, so a crash reads as "expected vs actual" too.
            if "skipped" in outcome.raw:
                return problem
            shown = show_expected(exercise, outcome.case.input, outcome.expected)  # as the student would return it
            return f"{problem}, expected {shown if isinstance(shown, str) else repr(shown)}"
        return verify(outcome.case.input, outcome.expected, outcome.answer)

    return predicate


def right_number(outcome: Outcome) -> bool:
    """A number equal to the expected number, nothing raised, skipped or cut short: what most replies are.

    Decided straight from the reply's plain data, with exactly the meaning of the full path
    (``default_verify``): exact ints and floats only, 7.0 equal to 7, NaN equal to nothing.
    Asked about each outcome by the answers check and twice by the diagnosis: worked out once.
    """
    known = outcome.__dict__.get("_right_number")
    if known is None:
        known = outcome.__dict__["_right_number"] = _right_number(outcome)
    return known


def _right_number(outcome: Outcome) -> bool:
    raw = outcome.raw
    data = raw.get("answer")
    if type(data) is not dict or "skipped" in raw or raw.get("timed_out") or raw.get("raised"):
        return False
    expected = outcome.expected
    if type(expected) is not int and type(expected) is not float:
        return False
    number = tagged_number(data)
    return number is not None and number == expected  # NaN == anything is False, as it should be


def tagged_number(data: dict):
    """The number an answer's tag carries, exactly as ``Answer.decode`` reads it; None if it is no number."""
    kind, value = data.get("t"), data.get("v")
    if kind == "int":
        return value if type(value) is int else None
    if kind == "float" and type(value) is str:
        try:
            return float.fromhex(value)
        except (ValueError, OverflowError):  # "0x1p99999": too large a float, from a reply the harness never wrote
            return None
    return None


def failure_message(exercise, outcome: Outcome, problem: str, failed: int, total: int, where: str,
                    unanswered: int = 0, not_run: int = 0) -> str:
    """``unanswered``: how many of the ``failed`` cases failed only for want of an answer (said when not all did);
    ``not_run``: how many were never run (earlier calls ran out of time, or the submission's time did): "fails on 200
    of 200 random trees" read as 200 wrong answers where none was asked (the hundred and thirteenth helper)."""
    call = exercise.hook("call_text")(outcome.case.input)
    if not_run and not_run == failed:
        return f"{call}: {problem} (fails on {failed} of {total} {where}, none of them run)"
    without = f", {unanswered} of them without an answer to judge" if 0 < unanswered < failed else ""
    unrun = f", {not_run} of them not run" if not_run else ""
    return f"{call}: {problem} (fails on {failed} of {total} {where}{without}{unrun})"


def default_verify(case_input, expected, answer: Answer):
    if not answer.is_number:
        return f"returned {answer.show()}, expected {expected!r}"
    if not answer.equals_number(expected):
        return f"returned {answer.text}, expected {expected!r}"
    return None


def _numeric(exercise, call_timeout) -> Predicate:
    def predicate(outcome: Outcome):
        data = outcome.raw.get("answer")
        if type(data) is dict and tagged_number(data) is not None:
            return None  # a number, read from its tag (decoded in full only when it is something else)
        answer = outcome.answer
        if answer is not None and not answer.is_number:
            return f"returned {answer.show()}"
        return None

    return predicate


def _trace(exercise, call_timeout) -> Predicate:
    violation = exercise.hook("trace_violation")

    def predicate(outcome: Outcome):
        if "skipped" in outcome.raw:
            return None  # never run: per_case_check fails it (a call cut short or that raised is judged on what it asked)
        return violation(outcome.case.input, outcome.raw.get("trace") or {})

    return predicate


def _changed_input(exercise) -> tuple[str, str]:
    """What the call was handed, and what a change of it is, in the exercise's words: a tree's nodes, a position, or
    (the object route) the board object an agent was handed, where "the tree was different (nodes, their order,
    names or attributes changed)" told the 130th helper's student nothing about the move he played on it."""
    meta = getattr(exercise, "meta", None) or {}
    if "agent" in meta:
        return "board", "a move was played on it, or its state altered"
    noun = getattr(exercise, "input_noun", "tree")
    if noun == "tree":
        return noun, "nodes, their order, names or attributes changed"
    return noun, "changed in place"


def _unchanged(exercise, call_timeout) -> Predicate:
    noun, detail = _changed_input(exercise)

    def predicate(outcome: Outcome):
        late = outcome.late_change(noun)
        if late:
            return late
        if outcome.raw.get("mutated"):
            change = outcome.raw.get("change")  # in words, as the child saw it; the verdict is "mutated"'s
            if change:
                return f"the {noun} was different after the call: {change}"
            return f"the {noun} was different after the call ({detail})"
        return None

    return predicate


PREDICATES = {"answers": _answers, "numeric": _numeric, "trace": _trace, "unchanged": _unchanged}

# The kinds whose predicates judge what a call did up to where it stopped, not what it would have done: the grader's
# own log of the questions a call asked before it raised or was cut short (an inner node it evaluated is in it either
# way), and the input after a call that raised (its own exception left it so; a call the grader cut short may have
# been stopped in the middle of a change it would have undone). On such calls these judge the record, as they judge a
# call that answered wrongly: a crash costs them no more than a wrong answer does (the forty-sixth red team: with
# every check of the case failed for want of an answer, wrapping a search in ``except: return 0`` gained 2.5 points
# over letting it raise, and hid nothing the log did not show either way). Every other check needs the call's whole
# work (its answer, its type, every position a correct search evaluates, the board put back) and fails a case left
# without an answer where the rubric wants one (``owed_answers``).
# An exercise's own kinds join them through its hooks' ``JUDGES_UNFINISHED`` (alphabeta's under-pruning: a node
# evaluated that alpha-beta prunes is in the log of a call that stopped as in any other).
JUDGES_UNFINISHED = {"trace": ("raised", "timed_out"), "unchanged": ("raised",)}


def judges_unfinished(spec, outcome: Outcome, exercise=None) -> bool:
    """Whether ``spec`` judges ``outcome``, a call that raised or was cut short, on what it did (see JUDGES_UNFINISHED)."""
    hows = JUDGES_UNFINISHED.get(spec.kind)
    if hows is None and exercise is not None:
        own = exercise.hook("JUDGES_UNFINISHED") if hasattr(exercise, "hook") else None
        hows = own.get(spec.kind) if isinstance(own, dict) else None
    return any(outcome.raw.get(how) for how in hows or ())


def fails_one(spec, predicate: Predicate, outcomes) -> bool:
    """Whether ``predicate`` fails one of the ``outcomes`` the check ``spec`` reads (their ``expected`` set). A reply
    the predicate cannot read counts as no failure here: it is judged later, as every reply is."""
    for outcome in outcomes:
        if not reads(spec, outcome.case):
            continue
        try:
            if predicate(outcome):
                return True
        except Exception:  # noqa: BLE001 - see the docstring
            continue
    return False


def predicate_for(spec, exercise) -> Predicate | None:
    """The per-case predicate of a check, from the core's kinds or the exercise's own hooks."""
    call_timeout = exercise.limits.call_timeout
    if spec.kind in PREDICATES:
        return PREDICATES[spec.kind](exercise, call_timeout)
    custom = exercise.hook(f"check_{spec.kind.replace('-', '_')}")
    if custom is not None:
        return lambda outcome: custom(outcome, spec)
    return None


def describe(exercise, outcome: Outcome, problem: str, shrunk: bool = False) -> Counterexample:
    answer = outcome.answer
    drawing = exercise.hook("drawing")
    return Counterexample(
        call=exercise.hook("call_text")(outcome.case.input),
        picture=exercise.hook("picture")(outcome.case.input),
        expected=show_expected(exercise, outcome.case.input, outcome.expected),
        # No answer (it raised or timed out) is shown as what happened, never as a None it did not return.
        actual=show_answer(exercise, answer) if answer is not None else outcome.did_not_answer(exercise.limits.call_timeout),
        input=outcome.case.input,
        shrunk=shrunk,
        note=problem,
        noun=exercise.input_noun,
        # "right on its own" only where the answer is the student's own (an agent's full game answers the grader's
        # summary of it: "{'game': 'illegal'} is a right answer on its own" told the 130th helper's student the
        # opposite of the check above it)
        answer_right=answer is not None and exercise.hook("judges_answer", lambda case_input: True)(outcome.case.input)
        and _answers(exercise, exercise.limits.call_timeout)(outcome) is None,
        drawing=_drawing(exercise, drawing, outcome, answer),
        svg=exercise.hook("picture_svg", lambda case_input: "")(outcome.case.input),
        title=str(outcome.case.title or "")[:200],
    )


def _drawing(exercise, drawing, outcome: Outcome, answer):
    """The picture as data for the HTML report, with the cells the exercise marks (its
    ``drawing_marks`` hook: the student's move and the best ones) when there is an answer."""
    if drawing is None:
        return None
    drawn = drawing(outcome.case.input)
    marks = exercise.hook("drawing_marks")
    if isinstance(drawn, dict) and marks is not None and answer is not None:
        found = marks(outcome.case.input, answer, outcome.expected)
        if found:
            drawn["marks"] = found
    return drawn


def show_expected(exercise, case_input, expected):
    """The right answer in the shape the statement asks for (the exercise's ``show_expected`` hook):
    ``[-1, -1, 0]`` rather than the reference's own record of scores and move sets."""
    custom = exercise.hook("show_expected")
    return custom(case_input, expected) if custom is not None else expected


def show_answer(exercise, answer: Answer):
    """How a counterexample shows the answer: the exercise's ``show_answer`` hook, else as a number."""
    custom = exercise.hook("show_answer")
    return custom(answer) if custom is not None else answer.to_plain()


# Cases written by hand (the published ones, an exercise's fixture files): a failing one is shown as itself,
# never shrunk into another input, and nothing generated is asked in their name.
HAND_MADE_GROUPS = frozenset({"published", "fixtures"})


def admitted(exercise, case_input, groups) -> bool:
    """Whether a generated input (a shrinking candidate, a question of the localisation) may be asked under
    a check's ``groups``: the exercise's ``admits`` hook (a group's filters, such as unfinished positions
    only), else anything. A check over no named group takes any input."""
    admits = exercise.hook("admits")
    generated = [group for group in groups if group not in HAND_MADE_GROUPS]  # nothing is asked in a hand-made one's name
    if admits is None or not generated:
        return True
    return any(admits(case_input, group) for group in generated)


GROUP_WORDS = {"published": "published cases", "fixtures": "hand-made cases", "random": "random trees"}


def where_words(exercise, groups) -> str:
    """The groups a check covers, in the exercise's words (``[group_words]`` in exercise.toml) or the core's."""
    words = {**GROUP_WORDS, **(exercise.meta.get("group_words") or {})}
    return " + ".join(str(words.get(g, g)) for g in groups) or "cases"


# Check kinds judged on what is observed inside the student's process: whether the call left its
# input as it was (only there can the input be seen). Sealed against tampering, but in the student's
# own process, so a determined submission can still dodge them (docs/security.md, "Still observed
# inside the child"). What was evaluated or expanded is not among them: the grading process answers
# and logs those questions itself (the oracle), so traces, evaluations and pruning are its evidence.
SANDBOX_EVIDENCE_KINDS = frozenset({"unchanged", "state-unchanged", "board-restored", "restored"})


# Check kinds whose predicate reads the answer and what the child observed, never the grading
# process's log of questions: a run made only to judge them keeps no evidence (``Session.run(evidence=
# False)``), and the child may be handed what its helpers would answer instead of asking each time.
ANSWER_ONLY_KINDS = frozenset({"answers", "numeric", "unchanged"})


def reads_evidence(spec) -> bool:
    """Whether a check's predicate reads the log of questions (a trace, evaluations): any kind not known
    to read answers alone does, an exercise's own kinds included."""
    return spec.kind not in ANSWER_ONLY_KINDS


def rests_on_sandbox_records(spec, exercise=None) -> bool:
    """Whether a check's evidence comes from the child (``sandbox_evidence`` in exercise.toml overrides): the
    core's kinds above, and those the exercise's hooks name (``sandbox_evidence_kinds``: the object route's
    expansions and its clock, which the child notes as its own copy of the game's rules runs)."""
    declared = spec.params.get("sandbox_evidence")
    if declared is not None:
        return bool(declared)
    own = exercise.hook("sandbox_evidence_kinds", ()) if exercise is not None and hasattr(exercise, "hook") else ()
    return spec.kind in SANDBOX_EVIDENCE_KINDS or spec.kind in own


def owed_answers(exercise, outcomes: list[Outcome], predicates: list[tuple]) -> frozenset:
    """The ids of the cases the call left without an answer (it raised or ran out of time) where the rubric
    wants one: some check of the case (``predicates``: its specs and their predicates) fails on it (an answers'
    check, for want of the answer; the built-in exercises' other checks pass a case without one).
    A position the rubric asks only for the shape of what comes back (coin-row's finished positions, where
    there is no move to give and a search may raise) owes no answer, and its raise costs nothing. A call cut
    short owes one everywhere: it gave nothing back at all, not even the exception a check could pass, and a
    search that never ends on a finished game is no acceptable program (cut short there, it was judged by
    nothing: ``forge_stall_where_no_answer_is_owed.py``)."""
    call_timeout = exercise.limits.call_timeout
    owed = set()
    for outcome in outcomes:
        if "skipped" in outcome.raw or not outcome.did_not_answer(call_timeout):
            continue
        if outcome.raw.get("timed_out"):
            owed.add(outcome.case.id)
            continue
        if any(reads(spec, outcome.case) and predicate(outcome)
               for spec, predicate in predicates):
            owed.add(outcome.case.id)
    return frozenset(owed)


def per_case_check(spec, exercise, outcomes: list[Outcome], predicate: Predicate,
                   owed: frozenset) -> tuple[CheckResult, list]:
    """Runs the predicate over the check's cases; returns the result and the failing outcomes. A case never
    run, or left without the answer the rubric wants (``owed``, from ``owed_answers``), fails the check
    whatever its predicate says."""
    chosen = [o for o in outcomes if reads(spec, o.case)]
    if not chosen:  # e.g. --examples 0: nothing was asked, so nothing is awarded or owed
        where = where_words(exercise, spec.groups)
        return CheckResult(spec.name, spec.title, "skipped", 0.0, 0.0, hidden=spec.hidden,
                           message=f"not graded: this run asked no {where}, so its points leave the maximum"), []
    failures, unanswered = [], []
    call_timeout = exercise.limits.call_timeout
    for outcome in chosen:
        problem = predicate(outcome)
        if problem:
            failures.append((outcome, problem))
            continue
        missing = outcome.did_not_answer(call_timeout)
        if missing and ("skipped" in outcome.raw or outcome.case.id in owed and not judges_unfinished(spec, outcome, exercise)):
            # A call that gave no answer is no evidence that the check holds on it, whatever it did before it
            # stopped: the forty-third red team's search ran its first two random trees past the limit, the
            # harness stopped the pass there, and every check but the answers' passed on the trees never run;
            # the forty-fourth's raised (or ran out of time) right after a search that evaluated inner nodes,
            # pruned too much or never undid its moves, and only the answers' check, already lost, saw the call.
            # A case without the answer the rubric wants therefore fails every check that needs the call's whole
            # work (the answers' checks say so themselves), as the object route's checks of a search's record always
            # did; the checks that read what the call did up to where it stopped judge that (JUDGES_UNFINISHED).
            unanswered.append((outcome, f"{missing}: nothing to judge this check on"))
    result = CheckResult(spec.name, spec.title, "passed", spec.points, spec.points, hidden=spec.hidden,
                         total_cases=len(chosen), failed_cases=len(failures) + len(unanswered),
                         unanswered_cases=len(unanswered))
    if failures or unanswered:
        size = exercise.hook("size", lambda case_input: 0)
        # The smallest case where the check itself found something; failing that, one really asked ("not run"
        # shows nothing about the code).
        smallest, problem = min(failures or unanswered, key=lambda f: ("skipped" in f[0].raw, size(f[0].case.input)))
        where = where_words(exercise, spec.groups)
        result.status = "failed"
        result.score = 0.0
        not_run = sum(1 for outcome, _ in failures + unanswered if "skipped" in outcome.raw)
        result.message = failure_message(exercise, smallest, problem, result.failed_cases, len(chosen), where,
                                         result.unanswered_cases, not_run)
        # A case never run is no tree "on which it goes wrong": nothing is drawn for a check that has only those
        result.counterexample = None if "skipped" in smallest.raw else describe(exercise, smallest, problem)
    # Only what the check itself found is worth shrinking: a smaller case without an answer says nothing new.
    return result, failures


def consistency_check(spec, exercise, first: dict[str, Outcome], second: list[dict], failure: str | None) -> CheckResult:
    """Asking again (after other trees in between) must give exactly the same answers."""
    result = CheckResult(spec.name, spec.title, "passed", spec.points, spec.points, hidden=spec.hidden,
                         total_cases=len(second))
    if failure:
        result.status, result.score, result.message = "failed", 0.0, f"asking again failed: {failure}"
        return result
    unknown = 0  # never run or cut short the first time: not known to answer alike
    not_again = 0  # answered the first time, cut short or not run when asked again
    for raw in second:
        before = first.get(raw.get("id"))
        if before is None:
            continue
        again = Outcome(before.case, raw, before.expected)
        # Never run at all, or cut short the first time: no evidence that it answers alike (the forty-third red team;
        # and a call cut short where no answer check covers the case, coin-row's finished positions, was judged by
        # nothing at all: the forty-fifth's note). Where an answer check covers the case, that check has failed
        # already and this one, which depends on it, is not run.
        if "skipped" in before.raw or before.raw.get("timed_out"):
            result.failed_cases += 1
            unknown += 1
            if result.status == "passed":  # an answer that did change, found later, is shown instead (below)
                why = ("was never run (earlier calls ran out of time)" if "skipped" in before.raw
                       else "ran out of time the first time it was asked")
                result.status, result.score = "failed", 0.0
                result.message = (f"{exercise.hook('call_text')(before.case.input)} {why}, so whether it gives "
                                  "the same answer again is not known")
            continue
        if _same_reply(before.raw, raw):
            continue
        # A position answered the first time and not answered when asked again (cut short, or not run after
        # the calls before it were) is no answer given again: the forty-second red team's search ran its
        # first two re-asked calls past the limit, the harness stopped the pass there, and none of its changed
        # answers was ever compared. A call that takes longer on the same position the second time has changed
        # too (its state grew across calls).
        result.failed_cases += 1
        if not_asked(raw):
            # no answer the second time: it fails the check, but says nothing of what the code remembers (a search
            # near its limit finishes once and not twice on a loaded machine): no mistake is named from these alone
            not_again += 1
        if result.status == "passed" or result.counterexample is None:  # the first answer that changed is shown
            shown_before = _reply_text(before)
            shown_again = _reply_text(again)
            result.status, result.score = "failed", 0.0
            result.message = (f"{exercise.hook('call_text')(before.case.input)} {shown_before} the first time "
                              f"and {shown_again} when asked again later")
            result.counterexample = describe(exercise, again, result.message)
    if result.failed_cases:
        result.unanswered_cases = unknown + not_again  # a check failed on these alone names no mistake (diagnose)
        changed, of = result.failed_cases - unknown - not_again, f"{result.failed_cases} of {len(second)}"
        parts = [f"{changed} answer{'s' if changed != 1 else ''} changed" if changed else "",
                 f"{not_again} not answered when asked again" if not_again else "",
                 f"{unknown} not known to answer alike" if unknown else ""]
        parts = [part for part in parts if part]
        if changed and len(parts) == 1:
            result.message += f" ({of} answers changed)"
        elif unknown and len(parts) == 1:
            result.message += f" ({of} not known to answer alike)"
        else:
            result.message += f" ({of}: {', '.join(parts)})"
    return result


def reads(spec, case) -> bool:
    """Whether check ``spec`` reads ``case``: a check with no groups reads every case."""
    return not spec.groups or case.group in spec.groups


def not_asked(raw: dict) -> bool:
    return "skipped" in raw or bool(raw.get("timed_out"))


def _same_reply(a: dict, b: dict) -> bool:
    return (a.get("answer"), a.get("raised"), bool(a.get("timed_out"))) == (b.get("answer"), b.get("raised"), bool(b.get("timed_out")))


def _reply_text(outcome: Outcome) -> str:
    problem = outcome.did_not_answer(0)
    if problem and outcome.raw.get("timed_out"):
        return "ran out of time"  # the call's limit is the exercise's, not this report's
    # its type named only where it is not a number or a container (``describe``): the two replies are set side by
    # side, and the consistency check is every exercise's, whatever its answers are (a move is a str)
    return problem if problem else f"returned {outcome.answer.describe()}"


def skipped(spec, failed_dependencies: list[str]) -> CheckResult:
    names = ", ".join(failed_dependencies)
    return CheckResult(spec.name, spec.title, "skipped", 0.0, spec.points, hidden=spec.hidden,
                       message=f"skipped: it counts only once {names} pass{'es' if len(failed_dependencies) == 1 else ''}")
