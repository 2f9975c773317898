"""Which positions a mistake family evaluates, against which positions the student's code had evaluated.

Two families whose answers agree (a search with no end-of-game test finds every move as good, and so does one
whose start value is an infinity no move beats) differ in what they ask: the first never asks the final score
of a finished position, the second asks it of every one. A family is the reference search with one thing changed
(``grader.kit.move_families``, ``grader.kit.families``); run over a copy of the game that writes down every
``utility`` and ``evaluate`` it is asked, it predicts the set of positions it evaluates. The student's set is the
grading process's log of a case run with evidence on (``grader.judging.asked_again``): paths from the case's
root, found again here. Sets, not sequences: a search that remembers values asks each position once, one
that does not asks it again, and neither is a mistake of its own. Any declared game: nothing here knows one.
"""

from __future__ import annotations

from grader.kit.search import Searcher, TooBig
from grader.kit.traces import evaluated_paths


class _Recording:
    """The game, with every evaluation it is asked written down (by the position's identity)."""

    def __init__(self, game):
        self._game = game
        self.asked: set = set()

    def __getattr__(self, name):
        return getattr(self._game, name)

    def utility(self, state, player):
        self.asked.add(self._game.ident(state))
        return self._game.utility(state, player)

    def evaluate(self, state, player):
        self.asked.add(self._game.ident(state))
        return self._game.evaluate(state, player)


def predicted(searcher, choose, state, depth) -> frozenset | None:
    """The positions a family evaluates choosing its move in ``state``: ``choose(searcher, state, depth)`` run on a
    searcher of its own over the recording game (a shared searcher remembers values and asks nothing again).
    None: the family gives no prediction there."""
    game = _Recording(searcher.game)
    own = Searcher(game, searcher.counts)
    try:
        choose(own, state, depth)
    except (TooBig, ValueError):
        return None
    return frozenset(game.asked)


def student(game, root, trace) -> frozenset | None:
    """The positions the student's code had evaluated, from the grader's log; None when the log cannot say
    (cut off, or a position the kit never handed out)."""
    if not isinstance(trace, dict) or trace.get("truncated"):
        return None
    paths = evaluated_paths(trace)
    if paths is None:
        return None
    found, known = set(), {(): root}
    for path in paths:
        state = _at(game, root, path, known)
        if state is None:
            return None
        found.add(game.ident(state))
    return frozenset(found)


def _at(game, root, path, known):
    if path in known:
        return known[path]
    before = _at(game, root, path[:-1], known)
    if before is None:
        return None
    moves = game.actions(before)
    if not 0 <= path[-1] < len(moves):
        return None
    known[path] = state = game.result(before, moves[path[-1]])
    return state


def told_apart(fits: list, cases: list, traces: list, predict) -> list:
    """Of ``fits`` (each with ``name``, its family), those whose predicted evaluations are the student's on every
    case whose trace could be read; ``cases`` are (state, depth) pairs, ``traces`` the grader's logs for them and
    ``predict(name, state, depth)`` a family's prediction. A family without a prediction on a case is not refuted
    there. Nothing read (no trace, no prediction): the fits as they are."""
    read = [(state, depth, seen) for (state, depth), seen in zip(cases, traces) if seen is not None]
    if not read:
        return fits
    kept, compared = [], False
    for fit in fits:
        agrees = True
        for state, depth, seen in read:
            expected = predict(fit.name, state, depth)
            if expected is None:
                continue
            compared = True
            if expected != seen:
                agrees = False
                break
        if agrees:
            kept.append(fit)
    return kept if compared else fits
