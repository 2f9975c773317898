"""The diagnosis's vocabulary: what a mistake finding is, and how a hypothesis is weighed.

Everything here is plain data and small pure functions, shared by the diagnosis engine
(``grader.judging.diagnose``) and by whoever writes mistake models: an exercise's ``mistakes.py``
and the kit's mistake families (``grader.kit.families``, ``move_families``, ``rule_fits``...).
``Model`` (one wrong version of the reference) and ``Finding`` (a named mistake and its evidence);
``Fit`` (how far a hypothesis explains the student's replies), the bars a partial fit must pass,
``fit_hypothesis``, ``best_per_code`` and ``clear_winners`` (which hypotheses, if any, are named);
``Support`` and the local rules at a first wrong node (evidence that backs a hypothesis up, never
names one alone). It imports only the standard library, so the kit can use it without the judge.
"""

from __future__ import annotations

import math
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable

NO_KNOWN_MISTAKE = "no-known-mistake"
DOES_NOT_FINISH = "does-not-finish"  # every failure a call cut off at its time limit (diagnose._did_not_finish)


@dataclass(frozen=True)
class Model:
    """One wrong version of the reference.

    ``answer`` takes a case input (plain data) and returns what the mistaken solution would
    return, or raises what it would raise. ``scope`` says which of the student's replies it
    must agree with: ``"replied"`` every answer and every exception, ``"answered"`` only the
    cases where a number came back (for mistakes that say nothing about crashes).
    """

    code: str
    answer: Callable[[dict], Any]
    explanation: str = ""
    question: str = ""
    scope: str = "replied"


@dataclass(frozen=True)
class Finding:
    code: str
    evidence: str
    explanation: str = ""
    question: str = ""
    checks: tuple[str, ...] = ()


# Exceptions that say the code does not fit what it is given (a name or an attribute it does not have, a part left
# unwritten), never what a wrong search does with the game: a hypothesis's crash (``max()`` of no moves) is not one.
INTERFACE_ERRORS = ("AttributeError", "NameError", "UnboundLocalError", "ImportError", "ModuleNotFoundError",
                    "NotImplementedError")


def same_number(a, b) -> bool:
    """Two numbers alike as the diagnosis compares them: close, infinities equal only to themselves, NaN to nothing.

    An int past a float's range (a student's ``10 ** 400``) cannot go through ``math``: it is compared exactly,
    as a fraction, by the same tolerances, and never makes the grader's comparison fail."""
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return False
    try:
        if math.isinf(a) or math.isinf(b):
            return a == b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    except OverflowError:
        if isinstance(a, float) and math.isinf(a) or isinstance(b, float) and math.isinf(b):
            return False  # a finite int is never an infinity
        exact_a, exact_b = Fraction(a), Fraction(b)
        tolerance = max(TOLERANCE * max(abs(exact_a), abs(exact_b)), TOLERANCE)
        return abs(exact_a - exact_b) <= tolerance


TOLERANCE = Fraction(1, 10 ** 9)  # rel_tol and abs_tol of same_number, exactly


# -- matching models: evidence, not all-or-nothing --------------------------------------------

# A mistake is named from a partial fit only when its evidence is strong: it explains most of the
# wrong answers, agrees with nearly every reply, and is clearly ahead of the next code. A wrong name
# is worse than none, so the bars are high and a close runner-up means no name at all.
PARTIAL_EXPLAINS = 0.8   # share of the wrong answers the model must give exactly
PARTIAL_AGREES = 0.9     # share of all compared replies it must agree with
PARTIAL_CONTRADICTS = 0.05  # most it may be wrong where the student is right, against the wrong answers it gives
SUPPORTED_EXPLAINS = 0.6  # share of the wrong answers enough when the first wrong node or the traces point to it too
CLEAR_LEAD = 0.15        # how far ahead (in share of wrong answers explained) of the runner-up code
# The fewest wrong answers a hypothesis must give exactly to be named, even when it fits every case: where the
# student is right the mistake and the reference mostly agree, so only the wrong answers it reproduces tell
# anything. One or two (a bank where the mistake shows on 2 positions of 82) fit several wrong searches alike.
MIN_EXPLAINED = 3


@dataclass
class Fit:
    """How far one model explains the student's replies: ``agreed`` of ``compared`` cases,
    ``explained`` of the ``wrong`` answers (``complete`` when it agrees everywhere it was asked)."""

    model: Model
    compared: int
    explained: int
    example: Any = None  # a wrong outcome this model predicts
    agreed: int = 0
    wrong: int = 0
    missed: Any = None  # a case where the model and the student disagree
    contradicted: int = 0  # right answers of the student's that the model gets wrong: evidence against it
    sharp: int | None = None  # wrong answers it gives by choosing them, not by finding every answer as good (None: all)

    @property
    def evidence(self) -> int:
        """How many wrong answers it reproduces in a way that tells it from other hypotheses."""
        return self.explained if self.sharp is None else self.sharp

    @property
    def complete(self) -> bool:
        return self.agreed == self.compared

    @property
    def strength(self) -> tuple[float, float]:
        """(share of the wrong answers explained, share of all replies agreed with): ranks hypotheses."""
        return (self.explained / self.wrong if self.wrong else 0.0,
                self.agreed / self.compared if self.compared else 0.0)

    def strong(self, supported: bool = False) -> bool:
        """Explains most wrong answers (``supported``: what the first wrong node or the traces show points
        to it as well, so fewer will do), agrees with nearly every reply, and is rarely wrong where the
        student is right (a mistake the student does not make would be wrong there)."""
        explains, agrees = self.strength
        contradicts = self.contradicted / (self.explained + self.contradicted) if self.explained else 1.0
        return (self.explained > 0 and explains >= (SUPPORTED_EXPLAINS if supported else PARTIAL_EXPLAINS)
                and agrees >= PARTIAL_AGREES and contradicts <= PARTIAL_CONTRADICTS)

    def how_strong(self) -> str:
        if self.complete:
            return f"fits all {self.compared} cases"
        return f"fits {self.agreed} of {self.compared} cases"


def clear_winners(fits: list, code_of=lambda fit: fit.model.code, supported=lambda code: False) -> list:
    """The complete fits, every one (equally good hypotheses are all shown); else the one strong
    partial fit that is clearly ahead of the runner-up of another code; else nothing. Either way only a
    fit that reproduces at least ``MIN_EXPLAINED`` wrong answers: fewer is too thin to name anything.

    ``supported(code)``: whether the local rule at the first wrong node points to that code. Between
    two close partial fits, the one it supports (and the other not) is named; otherwise neither.
    Works on anything with ``complete``, ``strength`` and ``strong()``: the kit's families use it too.
    """
    if not any(f.evidence >= MIN_EXPLAINED for f in fits):
        return []  # too few wrong answers reproduced to tell one mistake from another: naming one would be a guess
    complete = [f for f in fits if f.complete and f.evidence >= MIN_EXPLAINED]
    if complete:
        return complete
    ranked = sorted((f for f in fits if f.explained), key=lambda f: f.strength, reverse=True)
    if not ranked or ranked[0].evidence < MIN_EXPLAINED or not ranked[0].strong(supported(code_of(ranked[0]))):
        return []
    best = ranked[0]
    rival = next((f for f in ranked[1:] if code_of(f) != code_of(best)), None)
    if rival is not None and best.strength[0] - rival.strength[0] < CLEAR_LEAD:
        if supported(code_of(best)) and not supported(code_of(rival)) and best.strength > rival.strength:
            return [best]  # close, but what the first wrong node shows breaks the tie
        return []  # two explanations nearly as good as each other: naming one would be a guess
    return [best]


def fit_hypothesis(code: str, outcomes, agrees, is_wrong, explanation: str = "", sharp=None) -> Fit | None:
    """How far one hypothesis explains ``outcomes`` (wrong ones best first): ``agrees(outcome)`` says
    whether it predicts the student's reply, ``is_wrong(outcome)`` whether that reply is wrong.

    ``sharp(outcome)``: whether agreeing on that wrong reply tells the hypothesis from others (a search that
    finds every move equally good agrees with any move: it explains the wrong move no better than any other
    search would). Counted apart (``Fit.sharp``): the bar of ``MIN_EXPLAINED`` is on those. Default: every
    agreement on a wrong reply counts.

    For the exercises that match mistakes by rules of their own (moves, rules of a game): the same
    counting as the models', so ``clear_winners`` ranks them alike. None when it explains nothing
    or has missed too much to be strong.
    """
    outcomes = list(outcomes)
    wrong = sum(1 for o in outcomes if is_wrong(o))
    misses_allowed = min(wrong - math.ceil(SUPPORTED_EXPLAINS * wrong),
                         len(outcomes) - math.ceil(PARTIAL_AGREES * len(outcomes)))
    compared = agreed = explained = contradicted = sharply = 0
    example = missed = None
    for outcome in outcomes:
        compared += 1
        if not agrees(outcome):
            missed = missed or outcome
            contradicted += not is_wrong(outcome)
            if compared - agreed > misses_allowed:
                return None
            continue
        agreed += 1
        if is_wrong(outcome):
            explained += 1
            example = example or outcome
            sharply += sharp is not None and sharp(outcome)
    if not explained:
        return None
    return Fit(Model(code, None, explanation), compared, explained, example, agreed, wrong, missed, contradicted,
               sharply if sharp is not None else None)


def best_per_code(fits: list[Fit]) -> list[Fit]:
    """One fit per mistake code, its strongest model: two models of one code are one hypothesis. A model with
    enough evidence to be named (``MIN_EXPLAINED``) comes before one without, however many answers the latter
    agrees with by finding every answer as good; then the strongest, then the one with the most evidence."""
    def rank(fit):
        return fit.evidence >= MIN_EXPLAINED, fit.strength, fit.evidence

    best: dict[str, Fit] = {}
    for fit in fits:
        if fit.model.code not in best or rank(fit) > rank(best[fit.model.code]):
            best[fit.model.code] = fit
    return list(best.values())


# What the student's value at the first wrong node is, against its children's right values, and the
# mistake codes that would make it so. Read only as supporting evidence: one node proves little.
LOCAL_RULES = {
    "max-for-min": ("the largest of its children's values where the smallest was due",
                    {"min-max-swapped", "always-max", "no-alternation", "ignores-player-argument", "sign-flip"}),
    "min-for-max": ("the smallest of its children's values where the largest was due",
                    {"min-max-swapped", "always-min", "no-alternation", "ignores-player-argument", "sign-flip"}),
    "average": ("the average of its children's values", {"averages-children"}),
    "first-child": ("its first child's value", {"first-child-only"}),
    "own-value": ("the node's own value, as if its moves were not searched",
                  {"depth-off-by-one", "one-ply-search", "depth-counts-full-moves", "evaluates-internal-nodes"}),
    "start-value": ("0, a start value that no child beat", {"bad-initial-bound"}),
    "infinity": ("an infinity: the start value of a search over no moves", {"missing-terminal-check"}),
    "negated": ("its right value with the sign turned round", {"sign-flip"}),
}


def local_text(rule: str) -> str:
    return f"at the first wrong node, your value is {LOCAL_RULES[rule][0]}"


@dataclass(frozen=True)
class Support:
    """Something seen besides the answers (the local rule at a first wrong node, a pattern in the
    traces), in words, with the mistake codes it points to. Supporting evidence only: it breaks a tie
    between close hypotheses and is shown with the finding, never names a mistake on its own."""

    text: str
    codes: frozenset


def support_of_rule(rule: str) -> Support:
    return Support(local_text(rule), frozenset(LOCAL_RULES[rule][1]))


def supported_by(supporting: list):
    """Whether a mistake code is one that what was seen (``Support``s, or local rule names) points to."""
    codes: set[str] = set()
    for item in supporting:
        codes |= support_of_rule(item).codes if isinstance(item, str) else item.codes
    return lambda code: code in codes


def with_support(finding: Finding, supporting: list) -> Finding:
    """The finding with what was seen at the first wrong node and in the traces added to its evidence."""
    texts = list(dict.fromkeys(support_of_rule(i).text if isinstance(i, str) else i.text for i in supporting))
    if not texts:
        return finding
    from dataclasses import replace

    return replace(finding, evidence="; ".join([finding.evidence] + texts[:2]))
