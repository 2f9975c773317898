"""Naming the mistake of a declared exercise whose student returns a move alone (coin-row's ``best_move``).

No value comes back, so the value families cannot be compared; the move families
(``grader.kit.move_families``) are: each wrong search chooses its moves, and the one that chooses the
student's is named. Kept apart from ``grader.kit.families`` because the move families are written
over that module's (a circle otherwise): the hooks hand this function to ``KitMistakes``.
"""

from __future__ import annotations

from grader.vocabulary.findings import Finding
from grader.kit import mistake_texts, move_families


def moves_only(mistakes, facts) -> list[Finding]:
    """``KitMistakes.rules`` for a move-only answer, in the exercise's words where it gives them."""
    hooks = mistakes.hooks
    game = hooks.game
    words = {**move_families.codes("MAX", "MIN"), **mistake_texts.read(hooks.exercise.meta)}
    checks = mistakes.move_checks()

    def finding(code, evidence, kind):
        text, question = words.get(code) or mistakes.CODES.get(code, ("", ""))
        return Finding(code, evidence, text, question, checks)

    def legal(outcome):
        actions = game.actions(hooks.state_of(outcome.case.input))
        return any(outcome.answer.same_as(game.move_data(a)) for a in actions)

    naming = move_families.MoveNaming(hooks.searcher, hooks.state_of, finding, legal,
                                      depth_of=lambda case_input: case_input.get("depth"))
    return naming.rules(facts)
