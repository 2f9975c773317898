"""Mistake families about whose turn it is, with a parameter: where the player to move comes from.

A search that does not take the player to move from the position must take it from somewhere:
one fixed side at the root (MAX, or MIN), the same side at every level (no alternation), or the
parity of the depth left ("MAX when an odd number of moves is left"). Each is the right search
otherwise. Where the student plays the moves for the side they believe is to move (a mark put on
a board by hand), the game's optional ``with_mover(state, player)`` (the same position with
another player to move) lets the family play those very moves; without it only the choice is wrong.
"""

from __future__ import annotations

from grader.kit.search import VARIANT_NODE_BUDGET, TooBig

FLIP = {"max": "min", "min": "max"}


class PlayerFrom:
    def __init__(self, code: str, name: str, root, alternates: bool, text: str):
        # root(depth, true_role) -> the role the search starts with; below it the roles alternate, or stay
        self.code, self.name, self.root, self.alternates, self.text = code, name, root, alternates, text

    def value(self, searcher, state, depth) -> tuple:
        n = searcher.node(state)
        return self._search(searcher, n, depth, self.root(depth, searcher.role_of(n)), [0]), False

    def _search(self, searcher, n, depth, role, counter):
        memo = searcher.memo.get(("player-from", self.alternates))  # shared below the root
        if memo is None:
            memo = searcher.memo[("player-from", self.alternates)] = {}
        key = (n, depth, role)
        if key in memo:
            return memo[key]
        counter[0] += 1
        if counter[0] > VARIANT_NODE_BUDGET:
            raise TooBig(self.code)
        if searcher.ended(n) or depth == 0:
            found = searcher.leaf_of(n)
        else:
            moving = _as_mover(searcher, n, role)
            after = FLIP[role] if self.alternates else role
            values = [self._search(searcher, child, searcher.depth_below(moving, child, depth), after, counter)
                      for child in searcher.kids(moving)]
            found = max(values) if role == "max" else min(values)
        memo[key] = found
        return found


def _as_mover(searcher, n: int, role: str) -> int:
    """The position ``n`` with the side ``role`` to move, where the game can say so (``with_mover``)."""
    with_mover = getattr(searcher.game.module, "with_mover", None)
    if not callable(with_mover):
        return n
    game = searcher.game
    return searcher.node(with_mover(searcher.states[n], game.max_player if role == "max" else game.min_player))


def _parity(depth, role) -> str:
    if depth is None:
        raise TypeError("no depth to take the player from")  # not this family: the case is skipped
    return "max" if depth % 2 == 1 else "min"


def player_families() -> dict:
    return {
        "ignores-player-argument/as-max": PlayerFrom(
            "ignores-player-argument", "as-max", lambda depth, role: "max", True,
            "Your search always starts as MAX, whoever is to move, so positions where MIN is to move come out wrong."),
        "ignores-player-argument/as-min": PlayerFrom(
            "ignores-player-argument", "as-min", lambda depth, role: "min", True,
            "Your search always starts as MIN, whoever is to move, so positions where MAX is to move come out wrong."),
        "ignores-player-argument/parity": PlayerFrom(
            "ignores-player-argument", "parity", _parity, True,
            "Who is to move is worked out from the depth (MAX when it is odd), not taken from the player argument, "
            "so positions where the other side is to move come out wrong."),
        "no-alternation/same-mover": PlayerFrom(
            "no-alternation", "same-mover", lambda depth, role: role, False,
            "The player does not change from one move to the next: the side to move at the start plays every move "
            "of your search."),
    }
