"""Naming the mistake of a declared exercise whose student returns a move alone (coin-row's ``best_move``).

No value comes back, so the value families cannot be compared; the move families
(``grader.kit.move_families``) are: each wrong search chooses its moves, and the one that chooses the
student's is named. Kept apart from ``grader.kit.families`` because the move families are written
over that module's (a circle otherwise): the hooks hand this function to ``KitMistakes``.
"""

from __future__ import annotations

from grader.vocabulary.findings import Finding
from grader.kit import mistake_texts, move_families
from grader.kit.search import TooBig

MOVES_COMPARED = 300  # positions whose moves are asked of each family, at most


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


def told_apart_by_moves(mistakes, facts, winners: list) -> list:
    """Several families of different codes giving exactly the student's values (a (value, move) answer; in a
    game won or lost, players swapped below the root and players never alternating give the same values): the
    moves the student returned tell them apart. A family whose search would not choose the student's move
    somewhere is dropped when another chooses it everywhere (ties as any tied move, else broken the first or the
    last way as the student's root loop breaks them): it is not named, so no bar is lowered. A family's moves are those
    of the move family of its name, else of its code's plain one (a variant giving the same values); a family
    with neither leaves the winners as they are."""
    complete = [fit for fit in winners if fit.complete]
    if len({fit.model.code for fit in complete}) < 2 or "move" not in mistakes.hooks.decl["returns"]["items"]:
        return winners
    plans = {id(fit): _move_plan(fit) for fit in complete}
    if None in plans.values():
        return winners
    hooks = mistakes.hooks
    asked = []
    for outcome in facts.outcomes:
        if outcome.answer is None or not outcome.expected.get("moves"):
            continue
        parts, problem = hooks.parts(outcome.answer)
        if not problem and "move" in parts:
            asked.append((hooks.state_of(outcome.case.input), outcome.case.input.get("depth"), parts["move"]))
    predicted = {}
    for fit in complete:
        rows = []
        for state, depth, move in asked[:MOVES_COMPARED]:
            try:
                rows.append((move, move_families.choices(hooks.searcher, plans[id(fit)], state, depth)))
            except (TooBig, ValueError):
                continue
        predicted[id(fit)] = rows
    refuted: set = set()
    # Ties first as any tied move, then broken the first or the last way (the student's root keeps one of them)
    for pick in (lambda found: found, lambda found: found[:1], lambda found: found[-1:]):
        misses = {key: sum(not any(_same_move(hooks, move, m) for m in pick(found)) for move, found in rows)
                  for key, rows in predicted.items()}
        if min(misses.values()) == 0:
            refuted = {key for key, missed in misses.items() if missed}
            if refuted:
                break
    kept = [fit for fit in winners if id(fit) not in refuted]
    return kept if any(fit.complete for fit in kept) else winners


def _move_plan(fit):
    """The move family standing for a value family's fit: its own name, else its code's, else None."""
    for name in (getattr(fit, "name", None), fit.model.code):
        if name in move_families.FAMILIES:
            return name
    return None


def _same_move(hooks, answer, move) -> bool:
    return move is not None and (answer.same_as(move) or answer.same_as(hooks.game.move_data(move)))
