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
import threading
from dataclasses import dataclass, field

INF = math.inf
VARIANT_NODE_BUDGET = 5_000


class TooBig(Exception):
    """A variant search would take too long (e.g. a depth never decremented on a large game)."""


# The nodes one variant search may enter now: ``VARIANT_NODE_BUDGET``, or fewer while the diagnosis
# probes which families are cheap (``node_cap``). Every variant search starts its count from
# ``fresh_counter()``, so the one comparison with the budget in its loop stays as it is. Kept per thread:
# a Dask worker's threads name the mistakes of several submissions at once in one process, and one's probe
# must neither cap another's full search nor, when two probes overlap, leave the lower cap behind.
_CAP = threading.local()


def fresh_counter() -> list:
    """A variant search's node count, started so that it passes ``VARIANT_NODE_BUDGET`` after the cap."""
    return [VARIANT_NODE_BUDGET - getattr(_CAP, "nodes", VARIANT_NODE_BUDGET)]


class node_cap:
    """``with node_cap(n):`` every variant search begun inside, on this thread, enters at most ``n`` nodes."""

    def __init__(self, nodes: int):
        self.nodes = min(nodes, VARIANT_NODE_BUDGET)

    def __enter__(self):
        self.kept = getattr(_CAP, "nodes", VARIANT_NODE_BUDGET)
        _CAP.nodes = self.nodes
        return self

    def __exit__(self, *exc):
        _CAP.nodes = self.kept
        return False


_UNSET = object()


@dataclass
class Searcher:
    """One game's searches over a table of the positions met so far.

    Every position is entered once (``node``) and known from then on by a small number: its
    children, whose turn it is and its score at a leaf are asked of the game once and kept by
    that number. The references and every mistake family then walk numbers, never hashing a
    position again (a tic-tac-toe check fits some forty families over two thousand positions,
    so the per-position step is what a student waits for).
    """

    game: object
    counts: str = "plies"
    memo: dict = field(default_factory=dict)

    def __post_init__(self):
        self._ids: dict = {}
        # id(position) -> node, for the position objects the table holds (``states`` keeps them alive, so an id
        # cannot be reused): a position taken from the table is known again without hashing it, where an
        # unhashable one (a board of lists) was turned into plain data at every look (``Game.ident``)
        self._by_object: dict = {}
        self.states: list = []  # node -> position
        self._kids: list = []  # node -> [child node, ...] in the order of ``actions``, once asked
        self._moves: list = []  # node -> [move, ...], ``actions`` once asked
        self._ends: list = []  # node -> is the game over there
        self._roles: list = []  # node -> "max" or "min"
        self._leaves: list = []  # node -> utility (finished) or evaluation (horizon), once asked
        self._movers: list = []  # node -> to_move, for depths counted in turns
        self._scored: dict = {}  # node -> utility of a position not over (``scored_anyway``)
        self._evaluated: dict = {}  # node -> evaluate of a finished game (``evaluated_anyway``)
        self._compiled: dict = {}  # (variant, pruning) -> its search (``_variant_search``)
        self._lock = threading.Lock()

    # -- the table ----------------------------------------------------------------------------

    def node(self, state) -> int:
        """The position's number, entering it in the table the first time it is met."""
        found = self._by_object.get(id(state))
        if found is not None and self.states[found] is state:
            return found
        try:
            found = self._ids.get(state)  # a hashable position is its own key (``Game.ident``)
        except TypeError:
            state_key = self.game.ident(state)
            found = self._ids.get(state_key)
        else:
            state_key = state
        if found is None:
            found = self._enter(state, state_key)
        return found

    def _enter(self, state, state_key) -> int:
        terminal = self.game.is_terminal(state)  # the game's own code runs before the table is touched
        with self._lock:  # one searcher may serve several grading threads of a worker
            found = self._ids.get(state_key)
            if found is None:
                found = len(self.states)
                self.states.append(state)
                self._kids.append(None)
                self._moves.append(None)
                self._ends.append(terminal)
                self._roles.append(None)
                self._leaves.append(_UNSET)
                self._movers.append(_UNSET)
                self._ids[state_key] = found  # last: a number is never seen before its rows are there
                self._by_object[id(state)] = found
        return found

    def kids(self, n: int) -> list:
        found = self._kids[n]
        if found is None:
            node = self.node
            found = self._kids[n] = [node(child) for child in self.game.children(self.states[n])]
        return found

    def moves_of(self, n: int) -> list:
        """The moves at the position numbered ``n``, in the order of ``actions`` (and of ``kids``)."""
        found = self._moves[n]
        if found is None:
            found = self._moves[n] = list(self.game.actions(self.states[n]))
        return found

    def ended(self, n: int) -> bool:
        return self._ends[n]

    def role_of(self, n: int) -> str:
        found = self._roles[n]
        if found is None:
            found = self._roles[n] = "max" if self.game.to_move(self.states[n]) == self.game.max_player else "min"
        return found

    def leaf_of(self, n: int):
        found = self._leaves[n]
        if found is _UNSET:
            game, state = self.game, self.states[n]
            found = game.utility(state, game.max_player) if self._ends[n] else game.evaluate(state, game.max_player)
            self._leaves[n] = found
        return found

    def scored_anyway(self, n: int):
        """The position scored as a search that takes it for a leaf scores it: a finished game by ``utility``,
        else by ``evaluate`` where the game has one, else by ``utility`` as it stands (a score so far). A rule
        that cannot score it raises ValueError: the case gives no prediction."""
        if self._ends[n] or self.game.has_evaluate:
            return self.leaf_of(n)
        found = self._scored.get(n, _UNSET)
        if found is _UNSET:
            try:
                found = self.game.utility(self.states[n], self.game.max_player)
            except Exception as error:  # the game's utility may refuse a position that is not over
                raise ValueError(f"no score for an unfinished position: {error}") from None
            self._scored[n] = found
        return found

    def evaluated_anyway(self, n: int):
        """The position scored by ``evaluate`` whether the game is over or not, as a search with no test for the end
        of the game scores it at the depth limit (``heuristic(state)`` where the depth runs out); ``leaf_of`` where the
        game has no evaluation. An evaluation that cannot score a finished game raises ValueError: no prediction."""
        if not self._ends[n] or not self.game.has_evaluate:
            return self.leaf_of(n)
        found = self._evaluated.get(n, _UNSET)
        if found is _UNSET:
            try:
                found = self.game.evaluate(self.states[n], self.game.max_player)
            except Exception as error:  # noqa: BLE001 - the game's evaluation may refuse a finished game
                raise ValueError(f"no evaluation of a finished game: {error}") from None
            self._evaluated[n] = found
        return found

    def depth_below(self, n: int, child: int, depth):
        """The depth left at ``child``, one move on from ``n``."""
        if depth is None:
            return None
        if self.counts == "turns" and self._mover(child) == self._mover(n):
            return depth
        return depth - 1

    def _mover(self, n: int):
        found = self._movers[n]
        if found is _UNSET:
            found = self._movers[n] = self.game.to_move(self.states[n])
        return found

    # -- the same, asked with positions -------------------------------------------------------

    def child_depth(self, state, child, depth):
        return self.depth_below(self.node(state), self.node(child), depth)

    def leaf(self, state):
        return self.leaf_of(self.node(state))

    def scored(self, state):
        """``scored_anyway`` of a position: how a search that stops there scores it, finished or not."""
        return self.scored_anyway(self.node(state))

    def role(self, state) -> str:
        return self.role_of(self.node(state))

    # -- the references ---------------------------------------------------------------------

    def value(self, state, depth):
        """Depth-limited minimax (``depth`` None: to the end of the game)."""
        return self.value_of(self.node(state), depth)

    def value_of(self, n: int, depth):
        memo = self.memo.get("minimax")
        if memo is None:
            memo = self.memo["minimax"] = {}
        key = (n, depth)
        found = memo.get(key, _UNSET)
        if found is _UNSET:
            if self._ends[n] or depth == 0:
                found = self.leaf_of(n)
            else:
                children = self._kids[n]
                if children is None:
                    children = self.kids(n)
                if depth is not None and self.counts != "turns":
                    values = [self.value_of(c, depth - 1) for c in children]
                else:
                    values = [self.value_of(c, self.depth_below(n, c, depth)) for c in children]
                found = max(values) if (self._roles[n] or self.role_of(n)) == "max" else min(values)
            memo[key] = found
        return found

    def best_moves(self, state, depth) -> list:
        """Every move that keeps the position's value: ties are never decided for the student."""
        n = self.node(state)
        if self._ends[n] or depth == 0:
            return []
        target = self.value_of(n, depth)
        actions = self.game.actions(self.states[n])  # the position whose children the table holds
        return [a for a, c in zip(actions, self.kids(n)) if self.value_of(c, self.depth_below(n, c, depth)) == target]

    def alphabeta(self, state, depth, alpha=-INF, beta=INF, pruning: str = "strict"):
        """(value, evaluated): the value and the positions evaluated, as paths of action indices, in order.

        ``pruning``: "strict" prunes only when a bound is strictly passed (the reference),
        "equal" also on equality (over-pruning), "none" never (plain minimax's leaves).
        """
        evaluated: list[tuple] = []
        value = self._ab(self.node(state), depth, alpha, beta, (), evaluated, pruning)
        return value, evaluated

    def _ab(self, n, depth, alpha, beta, path, evaluated, pruning):
        if self._ends[n] or depth == 0:
            evaluated.append(path)
            return self.leaf_of(n)
        maximising = self.role_of(n) == "max"
        best = -INF if maximising else INF
        for index, child in enumerate(self.kids(n)):
            value = self._ab(child, self.depth_below(n, child, depth), alpha, beta, path + (index,), evaluated, pruning)
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

        def walk(n, left, path):
            if self._ends[n] or left == 0 or len(found) > 50_000:
                return
            found.add(path)
            for index, child in enumerate(self.kids(n)):
                walk(child, self.depth_below(n, child, left), path + (index,))

        walk(self.node(state), depth, ())
        return found

    # -- the mistake families ------------------------------------------------------------------

    def variant_value(self, variant: str, state, depth, pruning: bool = False, alpha=-INF, beta=INF) -> tuple:
        """(value, touched a node without moves) for a search with the mistake ``variant``.

        ``pruning``: the student writes alpha-beta, so the mistake is simulated inside alpha-beta
        (a wrong initial bound, say, also changes what is cut off and so the value).
        """
        return self.variant_value_of(variant, self.node(state), depth, pruning, alpha, beta)

    def variant_value_of(self, variant: str, n: int, depth, pruning: bool = False, alpha=-INF, beta=INF) -> tuple:
        """``variant_value`` of the position numbered ``n``."""
        start = ("max" if variant == "ignores-player-argument"
                 else self.role_of(n) if variant in ("no-alternation", "assumes-alternation") else None)
        return self._variant_search(variant, pruning)(n, depth, start, True, fresh_counter(), alpha, beta)

    def variant_below(self, variant: str, state, depth, inherited) -> tuple:
        """``variant_value`` for a position below the root whose mover the search took from above."""
        return self._variant_search(variant, False)(self.node(state), depth, inherited, False, fresh_counter(), -INF, INF)

    def _variant_search(self, variant: str, pruning: bool):
        """The search with the mistake ``variant`` (with or without pruning), written out once per searcher.

        The hottest loop of mistake naming (every family, every case): what the variant changes is
        settled here, once, and the table and memo are read straight from the closure, so a step
        pays for the position it looks at, not for asking which mistake it is simulating.
        """
        compiled = self._compiled.get((variant, pruning))
        if compiled is not None:
            return compiled
        memo = self.memo.get(variant)
        if memo is None:
            memo = self.memo[variant] = {}
        ends, leaves, roles, kid_rows = self._ends, self._leaves, self._roles, self._kids
        leaf_of, role_of, kids, mover = self.leaf_of, self.role_of, self.kids, self._mover
        stop_at = 1 if variant == "depth-off-by-one" else 0
        never_lowered = variant == "depth-not-decremented"
        checks_end = variant != "missing-terminal-check"
        # A rule the student writes, turned round: the test for the end of the game inverted (true exactly
        # while the game goes on), so an unfinished position is scored as it stands and a finished one searched on.
        inverted_end = variant == "terminal-test-inverted"
        scored_anyway, evaluated_anyway = self.scored_anyway, self.evaluated_anyway
        negated = variant == "sign-flip"
        turned = {"min-max-swapped": {"max": "min", "min": "max"}, "always-max": {"max": "max", "min": "max"},
                  "always-min": {"max": "min", "min": "min"}}.get(variant)
        inherits = variant in ("no-alternation", "ignores-player-argument", "assumes-alternation")
        # The declaration's options turned the other way: the players taken to alternate at every move
        # (whoever ``to_move`` says moves next), and the depth counted the other way (plies or turns).
        alternates_itself = variant in ("ignores-player-argument", "assumes-alternation")
        zero_start = variant == "bad-initial-bound"
        first_only = variant == "first-child-only"
        averages = variant == "averages-children"
        one_ply = variant == "one-ply-search"
        plies = {"depth-counts-turns": False, "depth-counts-plies": True}.get(variant, self.counts != "turns")

        def search(n, depth, inherited, is_root, counter, alpha, beta):
            key = (n, depth, inherited, is_root, pruning and (alpha, beta))
            found = memo.get(key)
            if found is not None:
                return found
            counter[0] += 1
            if counter[0] > VARIANT_NODE_BUDGET:
                raise TooBig(variant)
            if never_lowered and depth:
                depth = None  # never lowered, so never reached: only the end of the game stops it
            if inverted_end:
                if not ends[n] or (depth is not None and depth <= 0):
                    found = memo[key] = (scored_anyway(n), False)
                    return found
            elif (ends[n] and checks_end) or (depth is not None and depth <= stop_at):
                leaf = leaves[n] if checks_end or not ends[n] else evaluated_anyway(n)  # no end test: the heuristic
                if leaf is _UNSET:
                    leaf = leaf_of(n)
                found = memo[key] = (-leaf if negated else leaf, False)
                return found
            if inherits:
                role = inherited
            else:
                role = roles[n] or role_of(n)
                if turned is not None:
                    role = turned[role]
            children = kid_rows[n]
            if children is None:
                children = kids(n)
            if not children:  # a finished game searched on: the loop never runs
                found = memo[key] = (-INF if role == "max" else INF, True)
                return found
            maximising = role == "max"
            nxt = ("min" if maximising else "max") if alternates_itself else inherited
            best = 0 if zero_start else (-INF if maximising else INF)
            values, empty = [], False
            for child in children:
                if one_ply and is_root:
                    value, touched = leaf_of(child), False
                else:
                    below = (None if depth is None else depth - 1 if plies
                             else depth if mover(child) == mover(n) else depth - 1)  # in turns: a move again is free
                    value, touched = search(child, below, nxt, False, counter, alpha, beta)
                values.append(value)
                empty = empty or touched
                if first_only:
                    best = value
                    break
                if averages:
                    continue
                if maximising:
                    if value > best:
                        best = value
                    if pruning:
                        if best > beta:
                            break
                        if best > alpha:
                            alpha = best
                else:
                    if value < best:
                        best = value
                    if pruning:
                        if best < alpha:
                            break
                        if best < beta:
                            beta = best
            if averages:
                best = sum(values) / len(values)
            found = memo[key] = (best, empty)
            return found

        self._compiled[(variant, pruning)] = search
        return search


# What each family needs to make sense: depth-limited only, or a heuristic.
# Cheapest first: a depth never lowered searches to the end of the game, so it comes last.
FAMILIES = ("min-max-swapped", "always-max", "always-min", "no-alternation", "ignores-player-argument",
            "depth-off-by-one", "missing-terminal-check", "sign-flip", "bad-initial-bound", "first-child-only",
            "averages-children", "one-ply-search", "assumes-alternation", "depth-counts-turns", "depth-counts-plies",
            "terminal-test-inverted", "depth-not-decremented")
NEEDS_DEPTH = {"depth-off-by-one", "depth-not-decremented", "depth-counts-turns", "depth-counts-plies"}
# Families that differ from the reference only in a game where a player may move twice in a row; of the two
# ways of counting depth, the family is the one the declaration does not use.
NEEDS_EXTRA_TURNS = {"assumes-alternation", "depth-counts-turns", "depth-counts-plies"}
COUNTED_OTHERWISE = {"plies": "depth-counts-turns", "turns": "depth-counts-plies"}
NEEDS_EVALUATE = {"one-ply-search"}
