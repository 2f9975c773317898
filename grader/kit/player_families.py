"""Mistake families about whose turn it is, with a parameter: where the player to move comes from.

A search that does not take the player to move from the position must take it from somewhere:
one fixed side at the root (MAX, or MIN), the same side at every level (no alternation), or the
parity of the depth left ("MAX when an odd number of moves is left"). Each is the right search
otherwise. Where the student plays the moves for the side they believe is to move (a mark put on
a board by hand), the game's optional ``with_mover(state, player)`` (the same position with
another player to move) lets the family play those very moves; without it only the choice is wrong.
"""

from __future__ import annotations

from grader.kit.search import VARIANT_NODE_BUDGET, TooBig, fresh_counter

FLIP = {"max": "min", "min": "max"}


class PlayerFrom:
    def __init__(self, code: str, name: str, root, alternates: bool, text: str):
        # root(depth, true_role) -> the role the search starts with; below it the roles alternate, or stay
        self.code, self.name, self.root, self.alternates, self.text = code, name, root, alternates, text

    def value(self, searcher, state, depth) -> tuple:
        n = searcher.node(state)
        return self._search(searcher, n, depth, self.root(depth, searcher.role_of(n)), fresh_counter()), False

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


class CopiedHelper:
    """The search written as two parts, one per player (``max_value``/``min_value``), one of them a copy of the
    other: the part for ``copied`` keeps the other player's choice and calls itself, so from there down that
    side places the moves (``own_marks``: its own; else the other's, copied too) while the other side chooses.
    ``root_right``: the root chooses the right way and hands each move to the next player's part; else the
    root is handed to the part of the player to move. Only where the student plays the moves for a side of
    their choosing (``with_mover``): elsewhere the copy chooses as ``always-max``/``always-min`` do."""

    code = "copied-helper"
    needs_with_mover = True
    only_if_unexplained = True  # tried only where no other family gives every value (``KitMistakes.rules``)

    def __init__(self, copied: str, root_right: bool, own_marks: bool):
        self.copied, self.root_right, self.own_marks = copied, root_right, own_marks
        other = FLIP[copied]
        self.text = (f"Your search's part for {copied.upper()} is a copy of the part for {other.upper()}: it keeps "
                     f"the {'lowest' if other == 'min' else 'highest'} value and calls itself instead of the part "
                     f"for {other.upper()}, so below it {other.upper()}'s choice is made at every level.")

    def value(self, searcher, state, depth) -> tuple:
        if not callable(getattr(searcher.game.module, "with_mover", None)):
            raise TypeError("the game plays the moves of the side to move: the copy is always-max/always-min")
        n, counter = searcher.node(state), fresh_counter()
        role = searcher.role_of(n)
        if not self.root_right:
            return self._part(searcher, role, n, depth, counter), False
        if searcher.ended(n) or depth == 0:
            return searcher.leaf_of(n), False
        values = [self._part(searcher, searcher.role_of(child), child, searcher.depth_below(n, child, depth), counter)
                  for child in searcher.kids(n)]
        return (max(values) if role == "max" else min(values)), False

    def _part(self, searcher, role, n, depth, counter):
        """The value the part for ``role`` gives ``n``: a right part hands every move to the copied one, the copied
        one to itself; both keep the choice of the player the copy came from."""
        memo = searcher.memo.get(("copied-helper", self.copied, self.own_marks))
        if memo is None:
            memo = searcher.memo[("copied-helper", self.copied, self.own_marks)] = {}
        key = (role, n, depth)
        if key in memo:
            return memo[key]
        counter[0] += 1
        if counter[0] > VARIANT_NODE_BUDGET:
            raise TooBig(self.code)
        if searcher.ended(n) or depth == 0:
            found = searcher.leaf_of(n)
        else:
            marks = role if self.own_marks or role != self.copied else FLIP[role]
            moving = _as_mover(searcher, n, marks)
            values = [self._part(searcher, self.copied, child, searcher.depth_below(moving, child, depth), counter)
                      for child in searcher.kids(moving)]
            found = min(values) if self.copied == "max" else max(values)
        memo[key] = found
        return found


def copied_helpers() -> dict:
    """Every way one player's part can be the other's copy: which part, whose marks it places, and whether the
    root chooses by itself or is handed to a part."""
    return {f"copied-helper/{copied}-{'root-right' if root_right else 'from-root'}-{'own' if own else 'copied'}-marks":
            CopiedHelper(copied, root_right, own)
            for copied in ("max", "min") for root_right in (True, False) for own in (True, False)}


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
