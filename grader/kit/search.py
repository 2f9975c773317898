"""The references, written once for every game, and the mistake families as variants of them.

The reference reads like the textbook (AIMA's ``minimax_decision`` and ``alpha_beta_search``):
whose turn it is always comes from ``to_move`` (a player may move twice in a row), values are
MAX's, terminals are scored by ``utility`` and the horizon by ``evaluate``. Depth counts plies
unless the declaration says turns (then it drops only when the player to move changes).

A mistake family is the same search with one thing changed: who maximises, when it stops,
how children are combined. ``variant_value`` computes what a student with that mistake would
answer; ``grader.kit.families`` compares those predictions with the student's replies.
Every search here is a pure function of its position, so values are memoised per position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

INF = math.inf
VARIANT_NODE_BUDGET = 5_000


class TooBig(Exception):
    """A variant search would take too long (e.g. a depth never decremented on a large game)."""


@dataclass
class Searcher:
    """One game's searches, with a memo per kind of search (positions are keyed by their encoding)."""

    game: object
    counts: str = "plies"
    memo: dict = field(default_factory=dict)

    # -- the rules the searches share ------------------------------------------------------

    def child_depth(self, state, child, depth):
        if depth is None:
            return None
        if self.counts == "turns" and self.game.to_move(child) == self.game.to_move(state):
            return depth
        return depth - 1

    def leaf(self, state):
        key = ("leaf", self.game.ident(state))
        if key not in self.memo:
            game = self.game
            if game.is_terminal(state):
                self.memo[key] = game.utility(state, game.max_player)
            else:
                self.memo[key] = game.evaluate(state, game.max_player)
        return self.memo[key]

    def role(self, state) -> str:
        key = ("role", self.game.ident(state))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = "max" if self.game.to_move(state) == self.game.max_player else "min"
        return found

    def children(self, state) -> list:
        """The positions one move on, in the order of ``actions``: asked once per position, since every
        mistake family walks the same positions (the rules are pure functions of the position)."""
        key = ("children", self.game.ident(state))
        found = self.memo.get(key)
        if found is None:
            game = self.game
            found = self.memo[key] = [game.result(state, action) for action in game.actions(state)]
        return found

    # -- the references ---------------------------------------------------------------------

    def value(self, state, depth):
        """Depth-limited minimax (``depth`` None: to the end of the game)."""
        key = ("minimax", self.game.ident(state), depth)
        if key not in self.memo:
            game = self.game
            if game.is_terminal(state) or depth == 0:
                found = self.leaf(state)
            else:
                values = [self.value(child, self.child_depth(state, child, depth)) for child in self.children(state)]
                found = max(values) if self.role(state) == "max" else min(values)
            self.memo[key] = found
        return self.memo[key]

    def best_moves(self, state, depth) -> list:
        """Every move that keeps the position's value: ties are never decided for the student."""
        game = self.game
        if game.is_terminal(state) or depth == 0:
            return []
        target = self.value(state, depth)
        return [a for a in game.actions(state)
                if self.value(game.result(state, a), self.child_depth(state, game.result(state, a), depth)) == target]

    def alphabeta(self, state, depth, alpha=-INF, beta=INF, pruning: str = "strict"):
        """(value, evaluated): the value and the positions evaluated, as paths of action indices, in order.

        ``pruning``: "strict" prunes only when a bound is strictly passed (the reference),
        "equal" also on equality (over-pruning), "none" never (plain minimax's leaves).
        """
        evaluated: list[tuple] = []
        value = self._ab(state, depth, alpha, beta, (), evaluated, pruning)
        return value, evaluated

    def _ab(self, state, depth, alpha, beta, path, evaluated, pruning):
        game = self.game
        if game.is_terminal(state) or depth == 0:
            evaluated.append(path)
            return self.leaf(state)
        maximising = self.role(state) == "max"
        best = -INF if maximising else INF
        for index, action in enumerate(game.actions(state)):
            child = game.result(state, action)
            value = self._ab(child, self.child_depth(state, child, depth), alpha, beta, path + (index,), evaluated, pruning)
            if maximising:
                best = max(best, value)
                if pruning == "strict" and best > beta or pruning == "equal" and best >= beta:
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                if pruning == "strict" and best < alpha or pruning == "equal" and best <= alpha:
                    return best
                beta = min(beta, best)
        return best

    def inner_paths(self, state, depth) -> set:
        """The paths of the positions that are neither terminal nor at the horizon (never to be evaluated)."""
        found: set = set()

        def walk(node, left, path):
            if self.game.is_terminal(node) or left == 0 or len(found) > 50_000:
                return
            found.add(path)
            for index, action in enumerate(self.game.actions(node)):
                child = self.game.result(node, action)
                walk(child, self.child_depth(node, child, left), path + (index,))

        walk(state, depth, ())
        return found

    # -- the mistake families ------------------------------------------------------------------

    def variant_value(self, variant: str, state, depth, pruning: bool = False, alpha=-INF, beta=INF) -> tuple:
        """(value, touched a node without moves) for a search with the mistake ``variant``.

        ``pruning``: the student writes alpha-beta, so the mistake is simulated inside alpha-beta
        (a wrong initial bound, say, also changes what is cut off and so the value).
        """
        counter = [0]
        root = self.role(state)
        start = {"ignores-player-argument": "max", "no-alternation": root}.get(variant, None)
        return self._variant(variant, state, depth, start, True, counter, pruning, alpha, beta)

    def _role(self, variant, state, inherited):
        true = self.role(state)
        if variant == "min-max-swapped":
            return "min" if true == "max" else "max"
        if variant == "always-max":
            return "max"
        if variant == "always-min":
            return "min"
        if variant in ("no-alternation", "ignores-player-argument"):
            return inherited
        return true

    def _variant(self, variant, state, depth, inherited, is_root, counter, pruning, alpha, beta):
        key = ("variant", variant, self.game.ident(state), depth, inherited, is_root, pruning and (alpha, beta))
        if key in self.memo:
            return self.memo[key]
        counter[0] += 1
        if counter[0] > VARIANT_NODE_BUDGET:
            raise TooBig(variant)
        game = self.game
        terminal = game.is_terminal(state)
        stop_at = 1 if variant == "depth-off-by-one" else 0
        if variant == "depth-not-decremented" and depth:
            depth = None  # never lowered, so never reached: only the end of the game stops it
        if (terminal and variant != "missing-terminal-check") or (depth is not None and depth <= stop_at):
            leaf = self.leaf(state)
            found = (-leaf if variant == "sign-flip" else leaf, False)
            self.memo[key] = found
            return found
        role = self._role(variant, state, inherited)
        children = self.children(state)
        if not children:  # a finished game searched on: the loop never runs
            found = (-INF if role == "max" else INF, True)
            self.memo[key] = found
            return found
        nxt = ("min" if role == "max" else "max") if variant == "ignores-player-argument" else inherited
        best = 0 if variant == "bad-initial-bound" else (-INF if role == "max" else INF)
        values, empty = [], False
        for child in children:
            if variant == "one-ply-search" and is_root:
                value, touched = self.leaf(child), False
            else:
                value, touched = self._variant(variant, child, self.child_depth(state, child, depth), nxt, False,
                                               counter, pruning, alpha, beta)
            values.append(value)
            empty = empty or touched
            if variant == "first-child-only":
                best = value
                break
            if variant == "averages-children":
                continue
            best = max(best, value) if role == "max" else min(best, value)
            if pruning and role == "max":
                if best > beta:
                    break
                alpha = max(alpha, best)
            elif pruning:
                if best < alpha:
                    break
                beta = min(beta, best)
        if variant == "averages-children":
            best = sum(values) / len(values)
        self.memo[key] = (best, empty)
        return self.memo[key]


# What each family needs to make sense: depth-limited only, or a heuristic.
# Cheapest first: a depth never lowered searches to the end of the game, so it comes last.
FAMILIES = ("min-max-swapped", "always-max", "always-min", "no-alternation", "ignores-player-argument",
            "depth-off-by-one", "missing-terminal-check", "sign-flip", "bad-initial-bound", "first-child-only",
            "averages-children", "one-ply-search", "depth-not-decremented")
NEEDS_DEPTH = {"depth-off-by-one", "depth-not-decremented"}
NEEDS_EVALUATE = {"one-ply-search"}
