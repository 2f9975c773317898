"""Naming the likely mistake behind a failing submission, and the first node where it goes wrong.

"Expected 3, got 8" says that an answer is wrong, not why. An exercise can list its known
mistakes (``mistakes = "mistakes.py"`` in exercise.toml) as wrong versions of its reference,
one or more per mistake code (some with a parameter: the player whose rule is wrong). The
student's answers on the whole case bank are matched against each model and the hypotheses are
ranked by how much they explain (``Fit``, ``clear_winners``): a model that gives the student's
answer on every case it is compared on, and explains at least one wrong answer, names the
mistake; failing that, one that explains most wrong answers, is rarely wrong where the student
is right, and is clearly ahead of every other code, names it with how far it fits. What the
first wrong node and the traces show (``Support``) backs a hypothesis up, never names one alone.
A wrong name is worse than none: below those bars it says ``no-known-mistake``. Mistakes that leave the value
right (changing the tree, evaluating internal nodes) or that no single model can predict
(state kept between calls, hard-coded answers) are read from the behaviour checks, from
rules the exercise adds, and from one small probe through the still-open sandbox.

It never guesses: a passing submission gets nothing; when no model or rule is strong enough, it
says so and shows what it saw; when several fit completely, all of them are shown.

Localisation: when the failing counterexample is small (it has been shrunk), the student's
function is asked about every node of it as a question of its own (the depth left and the
player to move there, from the exercise's ``subproblems``). The deepest node whose children
the student values correctly but whose own value is wrong is where the mistake first shows.

The module knows no exercise: everything tree-shaped comes from the exercise's mistakes module.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable

from grader.judging import asked_again
from grader.judging.bank import Case
from grader.judging.checks import Outcome, fails_one, not_asked, predicate_for, right_number, tagged_number
from grader.judging.predictions import model_keys
from grader.judging.predictions import predict as _predict
from grader.judging.result import Mistake
from grader.sandbox.session import TIMED_OUT_BEFORE
# The vocabulary the diagnosis speaks, kept importable from here (exercises' mistakes.py use it so).
from grader.vocabulary.findings import (CLEAR_LEAD, DOES_NOT_FINISH, INTERFACE_ERRORS, LOCAL_RULES, MIN_EXPLAINED, NO_KNOWN_MISTAKE, PARTIAL_AGREES,  # noqa: F401
                                        PARTIAL_CONTRADICTS, PARTIAL_EXPLAINS, SUPPORTED_EXPLAINS, Finding,
                                        Fit, Model, Support, best_per_code, clear_winners, fit_hypothesis,
                                        local_text, support_of_rule, supported_by, with_support)
from grader.vocabulary.findings import same_number as _same_number

LOCALISE_MAX_NODES = 60  # a shrunk counterexample is a handful of nodes; an unshrunk one may be large
MAX_LOCALISED = 3


# Texts for the codes the core itself can name, used when an exercise does not word them.
GENERIC = {
    "wrong-return-type": ("The function must return a number; yours returned something else.",
                          "What type does the caller expect back?"),
    "mutates-tree": ("Your function changes the input it was given.",
                     "Could the caller use its input again, unchanged, after the call?"),
    "board-not-restored": ("Your function leaves the board different from how it found it.",
                           "Is every move you try undone before you return?"),
    "state-across-calls": ("Your function remembers something from one call to the next, so an answer "
                           "depends on what was asked before.",
                           "What does your code keep between calls, and is it still right for the next input?"),
    "hardcoded-answer": ("Your function gives the published examples' answers whatever it is asked: it "
                         "does not compute them from its input.",
                         "What would it return for an input you have never seen?"),
    DOES_NOT_FINISH: ("Your function did not finish within the time a call is given, where it should have: a loop "
                      "whose condition never changes, a recursion that never stops, or a search that does far more "
                      "work than it needs to.",
                      "On the smallest input it did not finish on, which loop or recursive call keeps going, and "
                      "what should change at each step so that it ends?"),
    NO_KNOWN_MISTAKE: ("None of the mistakes this grader knows gives your answers, so it does not guess at one.",
                       "On the smallest failing input, which step of your code first gives a different "
                       "value from the one you would work out by hand?"),
}
# Check kinds whose failure is a mistake in every exercise (an exercise may rename or add).
KIND_CODES = {"unchanged": "mutates-tree", "numeric": "wrong-return-type", "consistent": "state-across-calls"}
INDEPENDENT_KINDS = {"unchanged", "numeric", "consistent"}


# -- the exercise's mistakes module ---------------------------------------------------------

_loaded: dict[str, Any] = {}


def mistakes_of(exercise):
    """The exercise's mistakes module, or None; loaded once per exercise folder."""
    agent = getattr(exercise, "agent", None)
    if agent is not None:  # the kit's object route names agents' mistakes from its record
        return agent.mistakes
    kit = getattr(exercise, "kit", None)
    if kit is not None:  # a declared exercise: the kit's mistake families, written once for every game
        return kit.mistakes
    name = exercise.meta.get("mistakes")
    if not name:
        return None
    path = exercise.folder / name
    key = str(path)
    if key not in _loaded:
        from grader.judging.exercise import _load_module

        _loaded[key] = _load_module(path, f"_minimax_grader_mistakes_{exercise.id.replace('-', '_')}")
    return _loaded[key]


_KEYS: dict[int, tuple] = {}
_KEYS_CAP = 4096


# -- facts: the student's replies as the diagnosis reads them --------------------------------

class Facts:
    """Everything the judge knows about one submission, in the shape rules want to ask about."""

    def __init__(self, exercise, outcomes, checks, again_raw=()):
        from grader.judging import checks as kinds

        self.exercise = exercise
        self.outcomes = list(outcomes)
        self.checks = checks
        self.again = {raw.get("id"): raw for raw in again_raw if isinstance(raw, dict)}
        self._verify = exercise.hook("verify", kinds.default_verify)
        self._plain = self._verify is kinds.default_verify
        # What the first wrong nodes (``local_rule``) and the traces (``trace_evidence``) show, once read.
        self.supporting: list[Support] = []
        self._replies: dict[int, tuple | None] = {}
        self._wrong: dict[int, bool] = {}
        self.bank_size: int | None = None  # set once questions beyond the bank are appended
        self.evaluations_asked = None  # run(inputs) -> the grader's evaluation logs, where a second run can show them
        self.model_keys: dict[int, str] = {}  # id(model) -> its column in a shipped predictions table
        self.published_answers = {o.expected for o in self.outcomes
                                  if o.case.group == "published" and type(o.expected) in (int, float)}

    def reply(self, outcome) -> tuple | None:
        """("number", value) | ("raised", text) | ("other", text), or None when no reply counts (timeouts)."""
        key = id(outcome)
        if key not in self._replies:
            if right_number(outcome):  # a plain number, read from its tag as Answer.decode would
                self._replies[key] = ("number", tagged_number(outcome.raw["answer"]))
            else:
                self._replies[key] = _reply(outcome, self.exercise)
        return self._replies[key]

    def is_wrong(self, outcome) -> bool:
        key = id(outcome)
        if key not in self._wrong:
            if self._plain and right_number(outcome):
                self._wrong[key] = False  # most replies: a right number, read from the tag
                return False
            reply = self.reply(outcome)
            if reply is None:
                wrong = False
            elif reply[0] == "raised":
                wrong = True
            else:
                wrong = self._verify(outcome.case.input, outcome.expected, outcome.answer) is not None
            self._wrong[key] = wrong
        return self._wrong[key]

    def bank(self) -> list:
        """The bank's outcomes only: what the checks' "fails on N of M" count (not the questions
        asked while localising, appended after them)."""
        return self.outcomes if self.bank_size is None else self.outcomes[:self.bank_size]

    @staticmethod
    def key(data) -> str:
        """The text an input is known by. The bank's inputs are asked for again by every failing
        submission a worker diagnoses: their texts are remembered by identity (each entry holds its
        input, so no id is reused while it lives; dropped whole when a new bank's inputs fill it)."""
        hit = _KEYS.get(id(data))
        if hit is not None and hit[0] is data:
            return hit[1]
        text = json.dumps(data, sort_keys=True)
        if len(_KEYS) >= _KEYS_CAP:
            _KEYS.clear()
        _KEYS[id(data)] = (data, text)
        return text

    def call(self, outcome) -> str:
        """The call as evidence quotes it, marked when it is not the drawn counterexample (see example_call)."""
        return example_call(self, outcome)

    def call_text(self, outcome) -> str:
        return self.exercise.hook("call_text", lambda case_input: "the call")(outcome.case.input)

    def size(self, outcome) -> int:
        return self.exercise.hook("size", lambda case_input: 0)(outcome.case.input)


def _reply(outcome, exercise=None):
    raw = outcome.raw
    if not isinstance(raw, dict) or "skipped" in raw or raw.get("timed_out"):
        return None
    if raw.get("raised"):
        return ("raised", str(raw["raised"]))
    answer = outcome.answer
    if answer is None:
        return None
    if answer.is_number:
        return ("number", answer.value)
    custom = exercise.hook("show_answer") if exercise is not None else None
    return ("other", str(custom(answer)) if custom is not None else answer.show())


def _did(reply) -> str:
    """What the student's code did, as a verb phrase: "returned 8", "raised ValueError: ..."."""
    if reply is None:
        return "gave no answer in time"
    kind, value = reply
    if kind == "raised":
        return f"raised {value}"
    if kind == "number":
        return f"returned {value!r}"
    return f"returned {value}"


def _yours(reply) -> str:
    if reply is not None and reply[0] == "number":
        return f"your code says {reply[1]!r}"
    return f"your code {_did(reply)}"


_PREDICTIONS: dict[tuple[int, int], tuple] = {}
PREDICTIONS_KEPT = 1 << 16


@cache
def _shipped_predictions_hold(fingerprint: str) -> bool:
    from grader.judging import shipped_banks

    return fingerprint == shipped_banks.predictions_fingerprint()


def _prediction(model: Model, case, key: str | None = None):
    """What the model answers on the case: read from the shipped table where the case has one and it was made
    by this very grader (``key``: the model's column), else computed once and remembered by identity: a bulk
    run asks every model about the same bank inputs for each failing submission, and a model is a pure function
    of its input. The entry holds the model and the input, so neither id can be reused while it is remembered."""
    case_input = case.input
    entry = (id(model), id(case_input))
    hit = _PREDICTIONS.get(entry)
    if hit is not None and hit[0] is model and hit[1] is case_input:
        return hit[2]
    if len(_PREDICTIONS) >= PREDICTIONS_KEPT:
        _PREDICTIONS.clear()
    prediction = _shipped(case, key)
    if prediction is None:
        prediction = _predict(model, case_input)
    _PREDICTIONS[entry] = (model, case_input, prediction)
    return prediction


def _shipped(case, key: str | None):
    """The model's prediction from the case's shipped table, if it has one made by this very grader."""
    shipped = getattr(case, "predicted", None)
    if shipped is None or key is None:
        return None
    table, index = shipped
    column = table["by_model"].get(key)
    if column is None or not _shipped_predictions_hold(table["fingerprint"]):
        return None
    return tuple(column[index])


def _agrees(prediction, reply) -> bool:
    if prediction[0] != reply[0]:
        return False
    if reply[0] == "number":
        return _same_number(prediction[1], reply[1])
    if reply[0] == "raised":
        return not str(reply[1]).startswith(INTERFACE_ERRORS)
    return True


def model_fits(models, facts: Facts) -> list[Fit]:
    """Every model's agreement with the student over the bank, for the models that explain anything.

    Wrong answers come first, smallest first; a model is dropped as soon as it has missed so many
    wrong answers that it can no longer be strong, so a model that does not fit costs little.
    """
    wrong = sorted((o for o in facts.outcomes if facts.is_wrong(o)), key=facts.size)
    right = [o for o in facts.outcomes if not facts.is_wrong(o) and facts.reply(o) is not None]
    # (outcome, its reply, whether it is wrong), worked out once for every model.
    asked = [(o, facts.reply(o), True) for o in wrong] + [(o, facts.reply(o), False) for o in right]
    fits = []
    keys = {id(model): key for key, model in model_keys(models).items()}
    facts.model_keys = keys
    for model in models:
        key = keys[id(model)]
        numbers_only = model.scope == "answered"
        in_scope = [a for a in asked if not numbers_only or a[1][0] == "number"]
        wrong_here = sum(1 for a in in_scope if a[2])
        total = len(in_scope)
        misses_allowed = min(wrong_here - math.ceil(SUPPORTED_EXPLAINS * wrong_here),
                             total - math.ceil(PARTIAL_AGREES * total))
        compared = agreed = explained = contradicted = 0
        example = missed = None
        for outcome, reply, is_wrong in in_scope:
            compared += 1
            if not _agrees(_prediction(model, outcome.case, key), reply):
                missed = missed or outcome
                contradicted += not is_wrong
                if compared - agreed > misses_allowed:
                    break
                continue
            agreed += 1
            if is_wrong:
                explained += 1
                example = example or outcome
        else:
            if explained:
                fits.append(Fit(model, compared, explained, example, agreed, wrong_here, missed, contradicted))
    return fits


def _model_finding(fit: Fit, facts: Facts, failing: tuple[str, ...], shown_example=None) -> Finding:
    """The finding for one model, its evidence counted over the bank's cases: the ones the checks'
    "fails on N of M" add up to (the model was also compared on the questions asked while localising,
    which no check counts)."""
    def in_scope(outcome) -> bool:
        reply = facts.reply(outcome)
        return reply is not None and (fit.model.scope != "answered" or reply[0] == "number")

    def agrees(outcome) -> bool:
        return fit.complete or _agrees(_prediction(fit.model, outcome.case, facts.model_keys.get(id(fit.model))),
                                       facts.reply(outcome))

    example = fit.example
    if shown_example is not None and in_scope(shown_example) and agrees(shown_example):
        example = shown_example  # the model gives the student's reply there too: quote the case the report draws
    shown = f"{facts.call(example)}: {_did(facts.reply(example))}, the right answer is {_right(facts, example)}"
    compared = [o for o in facts.bank() if in_scope(o)]
    wrong = sum(1 for o in compared if facts.is_wrong(o))
    if fit.complete:
        evidence = (f"this mistake fits all {len(compared)} cases it was compared on, giving exactly your answers, "
                    f"including the {wrong} where they are wrong (for example {shown})")
    else:
        agreed = [o for o in compared if agrees(o)]
        explained = sum(1 for o in agreed if facts.is_wrong(o))
        missed = fit.missed
        evidence = (f"this mistake fits {len(agreed)} of {len(compared)} cases and {explained} of your {wrong} wrong "
                    f"answers (for example {shown}); where it differs, {facts.call(missed)}: {_did(facts.reply(missed))}")
    return Finding(fit.model.code, evidence, fit.model.explanation, fit.model.question, failing)


def _right(facts: Facts, outcome) -> str:
    """The right answer in the words the counterexample uses (the exercise's ``show_expected``)."""
    from grader.judging.checks import show_expected

    shown = show_expected(facts.exercise, outcome.case.input, outcome.expected)
    return shown if isinstance(shown, str) else repr(shown)


def example_call(facts: Facts, outcome) -> str:
    """The call of a quoted example, saying so when it is not a drawn counterexample (its call may read the
    same, "best_move(1, state)" fits many games, or differ only in a depth): never two answers for one call."""
    call = facts.call_text(outcome)
    key = Facts.key(outcome.case.input)
    drawn = [c.counterexample for c in facts.checks if c.status == "failed" and c.counterexample is not None
             and c.counterexample.input is not None]
    if drawn and all(Facts.key(d.input) != key for d in drawn):  # several checks draw several cases
        return f"{call}, on a {drawn[0].noun} other than the one drawn"
    return call


def shown_example(facts: Facts, wrong, checks):
    """The wrong outcome whose input is the counterexample a failing check draws, if there is one:
    the evidence quotes that very case, so "expected 0" above never meets "the right answer is 4"
    below for another tree with the same call text."""
    drawn = [Facts.key(c.counterexample.input) for c in checks
             if c.status == "failed" and c.counterexample is not None and c.counterexample.input is not None]
    for key in drawn:
        for outcome in wrong:
            if Facts.key(outcome.case.input) == key:
                return outcome
    return None


# -- behaviour ------------------------------------------------------------------------------

def _check_codes(exercise, module) -> dict[str, dict]:
    """check name -> {"code", "even_if_skipped"}: the exercise's table over the core's defaults by kind."""
    table = {}
    for spec in exercise.checks:
        if spec.kind in KIND_CODES:
            table[spec.name] = {"code": KIND_CODES[spec.kind], "even_if_skipped": spec.kind in INDEPENDENT_KINDS}
    for name, entry in (getattr(module, "CHECK_CODES", None) or {}).items():
        table[name] = dict(entry) if isinstance(entry, dict) else {"code": entry, "even_if_skipped": False}
    return table


def behaviour_findings(exercise, module, facts: Facts) -> list[Finding]:
    """Mistakes that a check names: from checks that failed, or from raw results when the check was skipped."""
    from grader.judging import checks as kinds

    found = []
    results = {c.name: c for c in facts.checks}
    table = _check_codes(exercise, module)
    for spec in exercise.checks:
        entry = table.get(spec.name)
        result = results.get(spec.name)
        if entry is None or result is None:
            continue
        evidence = None
        if result.status == "failed" and result.unanswered_cases < result.failed_cases:
            # (a check failed only on calls that gave no answer saw nothing of the mistake it names)
            evidence = result.message
        elif result.status == "skipped" and entry.get("even_if_skipped"):
            evidence = _look_for(spec, exercise, facts, kinds)
        if evidence:
            found.append(Finding(entry["code"], evidence, checks=(spec.name,)))
    # Mistakes read from traces (which positions were evaluated) rather than from one check's verdict.
    found.extend(getattr(module, "behaviour_rules", lambda f: [])(facts))
    return found


def _look_for(spec, exercise, facts: Facts, kinds) -> str | None:
    """What a skipped check would have found, read from the replies already in hand."""
    if spec.kind == "consistent":
        # answered both times, differently: one answered first and not again fails the check (consistency_check)
        # but names no memory (a search near its limit on a loaded machine; the 127th helper's search without a
        # depth limit was told it remembered something)
        changed = [o for o in facts.outcomes if o.case.id in facts.again
                   and not kinds._same_reply(o.raw, facts.again[o.case.id])
                   and not kinds.not_asked(o.raw) and not kinds.not_asked(facts.again[o.case.id])]
        if not changed:
            return None
        first = changed[0]
        again = type(first)(first.case, facts.again[first.case.id], first.expected)
        return (f"{facts.call(first)}: {_did(facts.reply(first))} the first time and "
                f"{_did(facts.reply(again))} when asked again later ({len(changed)} answers changed)")
    predicate = kinds.predicate_for(spec, exercise)
    if predicate is None:
        return None
    failures = [(o, p) for o in facts.bank() for p in [predicate(o)] if p]
    if not failures:
        return None
    outcome, problem = min(failures, key=lambda f: facts.size(f[0]))
    return f"{facts.call(outcome)}: {problem} (on {len(failures)} of {len(facts.bank())} cases)"


def hardcoded_finding(facts: Facts) -> Finding | None:
    """Right on every published case, and every answer anywhere is one of the published answers."""
    published = [o for o in facts.outcomes if o.case.group == "published"]
    if not published or not facts.published_answers or any(facts.is_wrong(o) for o in published):
        return None
    replies = [facts.reply(o) for o in facts.bank()]
    if any(r is None or r[0] != "number" or r[1] not in facts.published_answers for r in replies):
        return None
    wrong = [o for o in facts.bank() if facts.is_wrong(o)]
    if not wrong:
        return None
    answers = ", ".join(repr(v) for v in sorted(facts.published_answers))
    return Finding("hardcoded-answer",
                   f"every one of your {len(replies)} answers is {answers}, the published examples' answer; "
                   f"that is wrong on {len(wrong)} of the other trees")


def state_finding(module, facts: Facts, run_batch, start) -> Finding | None:
    """Ask the exercise's three-question probe: the same answer to the first two (the same names, every value
    raised by 100 in the second) and another to the third (the second tree under new names) mean memory kept by
    name. Only questions under the same names are compared for sameness: a stateless search that takes a set of
    names' order (which depends on the hash seed, and on the names) answered the last two differently and was
    told it remembered (the 128th helper's review); raising every value by 100 moves any such search's answer."""
    probe = getattr(module, "state_probe", None)
    if probe is None or start is None:
        return None
    inputs, what = probe(start.case.input)
    outcomes = run_batch(inputs)
    if not outcomes or len(outcomes) != 3:
        return None
    replies = [facts.reply(o) for o in outcomes]
    if any(r is None or r[0] != "number" for r in replies):
        return None
    first, second, third = replies
    if not _same_number(first[1], second[1]) or _same_number(second[1], third[1]):
        return None
    answers = ", ".join(repr(r[1]) for r in replies)
    right = ", ".join(repr(o.expected) for o in outcomes)
    return Finding("state-across-calls",
                   f"asked {what}, your code answered {answers} (right: {right}); the second answer is the first "
                   f"one again, though every value was raised by 100, and the same tree under new names gets "
                   f"another: your answer came from what was asked before")


# -- localisation ---------------------------------------------------------------------------

def _explained(explain, entry, expected, children, reply) -> str:
    """The exercise's words for the first wrong node; an ``explain_node`` that takes ``reply`` gets the student's
    answer itself (a move-only answer is a move, not a value: only the exercise can say what it is worth)."""
    import inspect

    if "reply" in inspect.signature(explain).parameters:
        return explain(entry, expected, children, _yours(reply), reply=reply)
    return explain(entry, expected, children, _yours(reply))


def localise(module, facts: Facts, case_input, run_batch, groups=()) -> tuple[dict | None, list, str | None]:
    """The deepest node whose children are right and whose own value is wrong, the outcomes asked, and
    the local rule that gives the student's value there (``local_rule``), when the exercise can say
    (``node_values`` in its mistakes module).

    A node the check's ``groups`` could not have asked (a finished position where only unfinished ones
    are asked) is not asked: it counts as right, with the reference's value, and is no evidence."""
    plan = getattr(module, "subproblems", None)
    explain = getattr(module, "explain_node", None)
    if plan is None or explain is None:
        return None, [], None
    entries = plan(case_input)
    if not entries or len(entries) > LOCALISE_MAX_NODES:
        return None, [], None
    from grader.judging import checks as kinds

    exercise = facts.exercise
    asked = [i for i, e in enumerate(entries) if i == 0 or kinds.admitted(exercise, e["input"], groups)]
    replies = run_batch([entries[i]["input"] for i in asked])
    if not replies:
        return None, [], None
    outcomes: list = [None] * len(entries)
    for i, outcome in zip(asked, replies):
        outcomes[i] = outcome
    reference_of = exercise.hook("reference")
    for i, entry in enumerate(entries):
        if outcomes[i] is None:  # not asked: the right value stands in
            case = Case(id=f"unasked-{i}", group="unasked", input=entry["input"])
            outcomes[i] = Outcome(case, {"skipped": "not asked"}, reference_of(entry["input"], exercise.reference))
    unasked = set(range(len(entries))) - set(asked)
    right = [i in unasked or (facts.reply(o) is not None and not facts.is_wrong(o)) for i, o in enumerate(outcomes)]
    candidates = [i for i, e in enumerate(entries)
                  if facts.reply(outcomes[i]) is not None and not right[i] and all(right[c] for c in e["children"])]
    if not candidates:
        return None, list(replies), None
    at = max(candidates, key=lambda i: (entries[i]["depth"], -i))
    entry, outcome = entries[at], outcomes[at]
    children = [outcomes[c].expected for c in entry["children"]]
    reply = facts.reply(outcome)
    found = {
        "node": entry["id"], "depth": entry["depth"], "expected": outcome.expected,
        "actual": reply[1] if reply[0] == "number" else _did(reply),
        "children": children,
        "text": _explained(explain, entry, outcome.expected, children, reply),
    }
    view = getattr(module, "node_values", None)
    numbers = view(entry, outcome, [outcomes[c] for c in entry["children"]], facts) if view is not None else None
    return found, list(replies), local_rule(**numbers) if numbers else None


# -- the local rule at the first wrong node ---------------------------------------------------

def local_rule(role, own, expected, children, actual) -> str | None:
    """Which simple rule gives the student's ``actual`` at a node whose children are worth ``children``
    and which is worth ``expected`` (``role`` "max" or "min", ``own`` its own value or None)."""
    def same(a, b):
        return type(a) in (int, float) and type(b) in (int, float) and _same_number(a, b)

    if type(actual) not in (int, float) or same(actual, expected):
        return None
    if children:
        if role == "min" and same(actual, max(children)):
            return "max-for-min"
        if role == "max" and same(actual, min(children)):
            return "min-for-max"
        if same(actual, sum(children) / len(children)):
            return "average"
        if same(actual, children[0]):
            return "first-child"
    if own is not None and same(actual, own):
        return "own-value"
    if same(actual, 0) and (role == "max" and max(children or [0]) < 0 or role == "min" and min(children or [0]) > 0):
        return "start-value"
    if isinstance(actual, float) and math.isinf(actual):
        return "infinity"
    if same(actual, -expected):
        return "negated"
    return None


def _reproduces(root_outcome, counterexample, facts: Facts) -> bool:
    """Asked the counterexample again (as the root of the localisation), the student is wrong again, the same way."""
    reply = facts.reply(root_outcome)
    if reply is None or not facts.is_wrong(root_outcome):
        return False
    if reply[0] == "number" and type(counterexample.actual) in (int, float):
        return _same_number(reply[1], counterexample.actual)
    return True


# -- putting it together --------------------------------------------------------------------

def diagnose(exercise, outcomes, checks, again_raw=(), session=None, budget: float = 2.0) -> tuple[list[Mistake], dict]:
    """The mistakes of a failing submission, and localisations by check name.

    ``session`` is the submission's open sandbox (None: no probes, no localisation).
    """
    if not any(c.status in ("failed", "error") for c in checks):
        return [], {}  # nothing is wrong, so there is nothing to name
    module = mistakes_of(exercise)
    facts = Facts(exercise, outcomes, checks, again_raw)
    deadline = time.monotonic() + budget
    answer_kinds = getattr(module, "ANSWER_KINDS", ("answers",))  # the kit judges value and move as kinds of their own
    failing_answer_checks = [c for c in checks if c.status == "failed" and _kind(exercise, c.name) in answer_kinds]
    failing_names = tuple(c.name for c in failing_answer_checks)

    run_batch = _runner(session, exercise, deadline)
    localisations: dict[str, dict] = {}
    extra: list = []
    roots: dict[str, tuple] = {}
    seen: dict[str, tuple] = {}
    if module is not None and session is not None:
        # A tree the code did not finish on has no wrong value to find: asked node by node again, its subtrees
        # would run out of time too (an endless loop's localisation cost two more timeouts and found nothing)
        unfinished = {Facts.key(o.case.input) for o in facts.outcomes if isinstance(o.raw, dict) and o.raw.get("timed_out")}
        for check in failing_answer_checks:
            example = check.counterexample
            if example is None or example.input is None:
                continue
            key = Facts.key(example.input)
            if key not in seen and key not in unfinished and len(seen) < MAX_LOCALISED:
                found, asked, rule = localise(module, facts, example.input, run_batch,
                                              _check_groups(exercise, check.name))
                seen[key] = (found, asked[0] if asked else None, example, rule)
                extra.extend(asked)
            if key in seen:
                roots[check.name] = seen[key][:3]
    # The localisation's questions are cases like any other: more evidence for the models
    # (but the counts a report prints are of the bank's cases, the ones the checks add up to).
    # A question that is a bank case (a hand-made counterexample is shown, and asked, as itself) reads
    # the models' shipped predictions of that case, as the bank's own outcome does.
    shipped = {Facts.key(o.case.input): o.case.predicted for o in facts.outcomes
               if o.case.predicted is not None} if extra else {}
    if shipped:
        from dataclasses import replace

        for outcome in extra:
            predicted = shipped.get(Facts.key(outcome.case.input))
            if predicted is not None:
                outcome.case = replace(outcome.case, predicted=predicted)
    bank = list(facts.outcomes)
    facts.bank_size = len(bank)
    facts.outcomes.extend(extra)
    facts.supporting = [support_of_rule(rule) for _, _, _, rule in seen.values() if rule is not None]
    # Asked only by a naming left ambiguous by the answers: a few failing cases run again, evaluations logged.
    facts.evaluations_asked = asked_again.evaluation_runner(exercise, session, deadline)
    if module is not None and wrong_before_localising(facts):
        facts.supporting += list(getattr(module, "trace_evidence", lambda f: [])(facts))
    local_rules = facts.supporting

    findings: list[Finding] = []
    wrong = [o for o in facts.outcomes if facts.is_wrong(o)]
    drawn = shown_example(facts, wrong, checks)
    behaviour = behaviour_findings(exercise, module, facts)
    regroup = getattr(module, "regroup_behaviour", None)  # e.g. alphabeta: two pruning failures, one move order
    if regroup is not None:
        behaviour = regroup(behaviour, facts)
    stateful = any(f.code == "state-across-calls" for f in behaviour)
    partial: list[Fit] = []
    if wrong and module is not None:
        fits = model_fits(getattr(module, "MODELS", ()), facts)
        seen_codes = set()
        for fit in (f for f in fits if f.complete and f.evidence >= MIN_EXPLAINED):
            if fit.model.code not in seen_codes:
                seen_codes.add(fit.model.code)
                findings.append(_model_finding(fit, facts, failing_names, drawn))
        partial = [] if seen_codes else clear_winners(best_per_code(fits), supported=supported_by(local_rules))
    if wrong and not findings:
        # No single model: rules over many answers at once, then (if still nothing) the state probe.
        candidates = [hardcoded_finding(facts)]
        if module is not None:
            candidates.extend(getattr(module, "rules", lambda f: [])(facts))
        findings.extend(f for f in candidates if f is not None)
        # Answers that change when asked again explain wrong answers too: they depend on history.
        findings.extend(f for f in behaviour if f.code == "state-across-calls")
        if not findings and session is not None and module is not None and time.monotonic() < deadline:
            state = state_finding(module, facts, run_batch, min(wrong, key=facts.size))
            if state is not None:
                findings.append(state)
                stateful = True
        # Last, a model that explains most (not all) of the answers, named with how far it fits.
        if not findings:
            findings.extend(with_support(_model_finding(fit, facts, failing_names, drawn), local_rules) for fit in partial)
    explained = bool(findings)
    for finding in behaviour:
        if finding.code not in {f.code for f in findings}:
            findings.append(finding)
    if wrong and not explained and all(facts.reply(o)[0] == "other" for o in wrong):
        explained = any(f.code == "wrong-return-type" for f in findings)  # the only thing wrong is the type

    # Localise only a function that answers like a function: no memory, and the same answer again.
    for name, (found, root_outcome, example) in roots.items():
        if found is not None and not stateful and root_outcome is not None and _reproduces(root_outcome, example, facts):
            localisations[name] = found

    if not wrong and not explained:
        # An exercise whose checks judge no answers of their own (the object route reads moves and records) has none
        # failing: there, every failed check counts, where none fails on a call that ended (the 130th helper's ivan,
        # looping in one of his two classes, was "no-known-mistake")
        unfinished = _did_not_finish(facts, exercise, failing_answer_checks if answer_kinds
                                     else _failed_only_where_cut(exercise, facts, checks))
        if unfinished is not None:
            findings.append(unfinished)
            explained = True
    if wrong and not explained or not findings:
        findings.append(with_support(_unknown(facts, [o for o in bank if facts.is_wrong(o)], len(bank), checks,
                                              localisations, drawn), local_rules))
    return [_mistake(f, module, wrong_checks=failing_names) for f in findings], localisations


def wrong_before_localising(facts: Facts) -> bool:
    return any(facts.is_wrong(o) for o in facts.outcomes)



def _failed_only_where_cut(exercise, facts: Facts, checks) -> list:
    """The failed checks, if each of them fails on no call that ended: only on calls cut off at their limit and the
    cases not run after them. Empty where any failed check fails a call that ended (a mistake of another kind)."""
    failed = [c for c in checks if c.status == "failed"]
    specs = {spec.name: spec for spec in exercise.checks}
    ended = [o for o in facts.bank() if isinstance(o.raw, dict) and not not_asked(o.raw)]
    for check in failed:
        spec = specs.get(check.name)
        predicate = predicate_for(spec, exercise) if spec is not None and spec.kind != "consistent" else None
        if predicate is None or fails_one(spec, predicate, ended):
            return []
    return failed


def _did_not_finish(facts: Facts, exercise, failing_answer_checks) -> Finding | None:
    """Answers' checks failed with no wrong answer and no exception anywhere, only calls cut off at their time limit
    (and the cases not run after them): the one thing the replies show is that the code does not finish. Said for
    every exercise alike, from the replies' kinds alone, never guessed from what the code is: an endless loop and a
    search slow past reason look the same from here, and the text names both. ``None`` otherwise."""
    if not failing_answer_checks:
        return None
    bank = facts.bank()
    timed_out = [o for o in bank if isinstance(o.raw, dict) and o.raw.get("timed_out")]
    if not timed_out:
        return None
    not_run = sum(1 for o in bank if isinstance(o.raw, dict) and o.raw.get("skipped") == TIMED_OUT_BEFORE)
    smallest = min(timed_out, key=facts.size)
    ended = any(isinstance(o.raw, dict) and not not_asked(o.raw) for o in bank)
    if not_run and not ended and exercise.hook("size", None) is not None \
            and facts.size(smallest) == min(facts.size(o) for o in bank):
        # the grader asked the smallest case alone, and stopped there (judge._run_the_rest)
        after = f"; no call ended, not even on the smallest case, so the other {not_run} were not run"
    else:
        after = f"; {not_run} more were not run after them" if not_run else ""
    return Finding(DOES_NOT_FINISH,
                   f"{len(timed_out)} of {len(bank)} calls did not finish within "
                   f"{exercise.limits.call_timeout:g} s, the smallest {facts.call(smallest)}{after}",
                   checks=tuple(c.name for c in failing_answer_checks))


def _unknown(facts: Facts, wrong, asked: int, checks, localisations, example=None) -> Finding:
    """``wrong`` and ``asked`` count the bank's cases only, the ones the checks' "fails on" add up to."""
    seen = []
    drawn = next((c.counterexample for c in checks if c.status == "failed" and c.counterexample is not None), None)
    if wrong and example is not None:
        seen.append(f"wrong on {len(wrong)} of {asked} cases, the one drawn above {facts.call_text(example)}: "
                    f"{_did(facts.reply(example))}, the right answer is {_right(facts, example)}")
    elif wrong and drawn is not None:  # a shrunk case nobody asked again: quote it as the report draws it
        seen.append(f"wrong on {len(wrong)} of {asked} cases, the one drawn above {drawn.call}: "
                    f"yours {drawn.actual}, the right answer is {drawn.expected}")
    elif wrong:
        smallest = min(wrong, key=facts.size)
        seen.append(f"wrong on {len(wrong)} of {asked} cases, the smallest {facts.call(smallest)}: "
                    f"{_did(facts.reply(smallest))}, the right answer is {_right(facts, smallest)}")
    for check in checks:
        if check.status == "failed" and check.message and (not wrong or check.counterexample is None):
            seen.append(f"{check.name}: {check.message}")
    for text in list(localisations.values())[:1]:
        seen.append(text["text"])
    return Finding(NO_KNOWN_MISTAKE, "; ".join(seen) or "a check failed that no known mistake explains",
                   checks=tuple(c.name for c in checks if c.status == "failed"))


def _mistake(finding: Finding, module, wrong_checks) -> Mistake:
    text, question = (getattr(module, "CODES", {}) or {}).get(finding.code) or GENERIC.get(finding.code, ("", ""))
    checks = finding.checks or (wrong_checks if finding.code != NO_KNOWN_MISTAKE else ())
    return Mistake(finding.code, finding.explanation or text, finding.question or question, finding.evidence,
                   checks=list(checks))


def _check_groups(exercise, name: str) -> tuple:
    return tuple(next((s.groups for s in exercise.checks if s.name == name), ()) or ())


def _kind(exercise, name: str) -> str | None:
    return next((s.kind for s in exercise.checks if s.name == name), None)


def _runner(session, exercise, deadline):
    if session is None:
        return lambda inputs: None
    from grader.judging.shrink import make_batch_runner

    failures: list[str] = []
    # The localisation and the probes read answers alone, and nothing runs after them: no evidence to keep.
    run = make_batch_runner(session, exercise, failures, evidence=False)

    def run_batch(inputs):
        if failures or time.monotonic() > deadline or session.budget_left() < 1.0:
            return None
        return run(inputs)

    return run_batch


def mistake_counts(results) -> dict[str, int]:
    """How many submissions show each mistake code (for a class summary); takes results or their dicts."""
    counts: dict[str, int] = {}
    for result in results:
        data = result.to_dict() if hasattr(result, "to_dict") else result
        for code in {m.get("code") for m in data.get("mistakes") or []}:
            if code:
                counts[code] = counts.get(code, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
