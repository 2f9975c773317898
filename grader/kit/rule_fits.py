"""Naming a mistake from answers that are not values (a move, a list of moves), by rules over cases.

A hypothesis predicts, for each case it is asked about, the answer a student with that mistake
gives (a wrong version of a game's rules, a decision made the wrong way). It is fitted as
``grader.judging.diagnose`` fits its models (wrong answers first, with the same bars) and named when it
is clearly ahead; a code may have several hypotheses (``code/parameter``), the best one counts.
"""

from __future__ import annotations

from grader.kit.answer_shapes import wrapped_move
from grader.vocabulary.findings import MIN_EXPLAINED, Finding, best_per_code, clear_winners, fit_hypothesis


def named(facts, hypotheses: dict, asks, read, words: dict, check: str, noun: str = "positions",
          otherwise=None) -> list[Finding]:
    """``hypotheses``: ``{"code" or "code/parameter": predict(case_input)}``; ``asks(case_input)``: whether
    a case is one they predict; ``read(answer)``: the answer as comparable data, or None.

    ``otherwise``: ``(code, acceptable(outcome))``, the code to name when no hypothesis explains even most
    of the wrong answers and every wrong answer is acceptable (a legal move that is not the best: the
    choice is lost, not made by a wrong rule). Not when a hypothesis fits most of them without being
    clearly ahead: that is a wrong rule not told apart, and no name is better than a wrong one."""
    asked = [o for o in facts.outcomes if asks(o.case.input)
             and facts.reply(o) is not None and facts.reply(o)[0] != "raised"]
    asked.sort(key=lambda o: (not facts.is_wrong(o), facts.size(o)))
    fits = []
    for name, predict in hypotheses.items():
        def agrees(outcome, predict=predict):
            seen = read(outcome.answer)
            return seen is not None and seen == predict(outcome.case.input)

        fits.append(fit_hypothesis(name.split("/")[0], asked, agrees, facts.is_wrong))
    fits = [f for f in fits if f]
    found = [_finding(facts, fit, words, check, noun) for fit in clear_winners(best_per_code(fits))]
    wrong = [o for o in asked if facts.is_wrong(o)]
    if found or fits or otherwise is None or not wrong or not all(otherwise[1](o) for o in wrong):
        return found
    example = wrong[0]
    return [Finding(otherwise[0], f"on {len(wrong)} of the {len(asked)} {noun} asked your answer is legal but not "
                                  f"among the best (for example {facts.call(example)}: {shown_answer(example)})",
                    *words[otherwise[0]], (check,))]


def _finding(facts, fit, words: dict, check: str, noun: str) -> Finding:
    code = fit.model.code
    shown = f"for example {facts.call(fit.example)}: {shown_answer(fit.example)}"
    if fit.complete:
        evidence = (f"this mistake gives exactly your answers on all {fit.compared} {noun} it was compared on, "
                    f"including the {fit.explained} where they are wrong ({shown})")
    else:
        evidence = (f"this mistake fits {fit.agreed} of the {fit.compared} {noun} it was compared on and "
                    f"{fit.explained} of your {fit.wrong} wrong answers ({shown}); it differs at {facts.call(fit.missed)}")
    return Finding(code, evidence, *words[code], (check,))


def shown_answer(outcome) -> str:
    answer = outcome.answer
    return f"returned {answer.text}" if answer is not None else "gave no answer"


def wrapped_best(facts, asks, words: dict, check: str, noun: str = "positions", width: int = 2) -> list[Finding]:
    """Every wrong answer a best move held inside a list, or together with its value (``wrapped_move``), where the
    move alone was due: ``wrong-return-type``, when at least ``MIN_EXPLAINED`` answers show it. The outcome's
    expected answer is the list of best moves."""
    wrong = [o for o in facts.outcomes if asks(o.case.input) and facts.is_wrong(o)
             and facts.reply(o) is not None and facts.reply(o)[0] != "raised"]
    held = [o for o in wrong if wrapped_move(o.answer, width) is not None
            and wrapped_move(o.answer, width) in [tuple(m) for m in o.expected or []]]
    if not wrong or len(held) < len(wrong) or len(held) < MIN_EXPLAINED:
        return []
    example = min(held, key=facts.size)
    return [Finding("wrong-return-type", f"on {len(held)} {noun} your answer held a best move, but inside "
                    f"{example.answer.describe()} instead of the move alone (for example {facts.call(example)}: "
                    f"{shown_answer(example)})", *words["wrong-return-type"], (check,))]
