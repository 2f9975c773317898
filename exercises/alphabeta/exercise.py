"""Grader side of alphabeta: the tree game (grader/kit/tree_hooks.py), plus the two pruning checks.

What is alphabeta's own is the judgement of the search itself: the nodes whose value the
student asked for (the driver records them) must be exactly the nodes the reference alpha-beta
asks for, searching the moves left to right and pruning only on a strict inequality. Too few is
over-pruning, too many is under-pruning; each is its own check, and each names the nodes.
"""

from __future__ import annotations

import math

from grader.kit import tree_game
from grader.kit import tree_hooks as _trees
from grader.kit.by_identity import ByIdentity
from grader.kit.search import Searcher
from grader.kit.tree_hooks import *  # noqa: F403 - fixtures, random trees, discipline, pictures, shrinking
from grader.kit.tree_hooks import PlainTree, driver_path_for

CALL = ("root", "max_depth", "-inf", "inf", "player_a_moves")  # the root searched with the widest window


def driver_path(exercise):
    return driver_path_for(exercise, CALL)


def call_text(case_input):
    return f"alphabeta(root, {case_input['max_depth']}, -inf, inf, {case_input['player_a_moves']})"


def reference(case_input, module):
    return module.alphabeta(case_input["tree"], case_input["max_depth"], -math.inf, math.inf,
                            case_input["player_a_moves"], PlainTree)


class _RightToLeft(tree_game.TreeGame):
    """The tree game with each node's moves handed over last first."""

    def actions(self, state) -> list:
        return super().actions(state)[::-1]


_RIGHT_TO_LEFT = _RightToLeft(tree_game)


def reference_evaluated(case_input, module=None) -> set[int]:
    """Preorder indices of the nodes alpha-beta evaluates (the driver's numbering)."""
    return set(evaluation_order(case_input))


_ORDERS = ByIdentity(4096)


def evaluation_order(case_input, module=None, right_to_left: bool = False) -> list[int]:
    """The preorder indices the kit's alpha-beta (grader/kit/search.py) evaluates over the tree game, in
    order: moves left to right, pruning on a strict inequality; or right to left, what a search that
    reverses the moves asks, to name that mistake by its order. Asked by three checks about each case, so
    remembered by the case's identity."""
    return list(_ORDERS.get(case_input, lambda: tuple(_evaluation_order(case_input, right_to_left)), right_to_left))


def _evaluation_order(case_input, right_to_left: bool) -> list[int]:
    game = _RIGHT_TO_LEFT if right_to_left else tree_game.GAME
    root = tree_game.start(case_input)
    _, paths = Searcher(game).alphabeta(root, case_input["max_depth"])
    index = {id(node): i for i, (node, _) in enumerate(_trees.preorder(case_input["tree"]))}
    found = []
    for path in paths:
        state = root
        for step in path:
            state = game.result(state, game.actions(state)[step])
        found.append(index[id(state.node)])
    return found


def out_of_order(case_input, evaluated) -> tuple[int, int] | None:
    """The first pair of leaves (or horizon nodes) evaluated right before left, as preorder indices.

    A left-to-right search asks about them in preorder, so any step back is another move order."""
    nodes = _trees.preorder(case_input["tree"])
    limit = case_input["max_depth"]
    seen = [i for i in evaluated if type(i) is int and 0 <= i < len(nodes)
            and (not nodes[i][0]["children"] or nodes[i][1] >= limit)]
    for before, after in zip(seen, seen[1:]):
        if after < before:
            return before, after
    return None


def _order_words(case_input, evaluated) -> str:
    pair = out_of_order(case_input, evaluated)
    if pair is None:
        return ""
    paths = _trees.node_paths(case_input["tree"])
    return f"the moves are searched in another order than left to right ({paths[pair[0]]} before {paths[pair[1]]}), so "


# Under-pruning reads the grader's log up to where a call stopped: a node alpha-beta prunes, evaluated before a
# raise or a cut, is in it as in any other call's (checks.JUDGES_UNFINISHED; the forty-sixth red team's fairness
# finding: failing the check on every call that raised made a crash cost more than ``except: return 0``).
# Over-pruning needs the whole call: a call that stopped early evaluated fewer nodes for that reason alone.
JUDGES_UNFINISHED = {"under-pruning": ("raised", "timed_out")}


def _student_evaluated(outcome, whole=True):
    """The student's evaluated nodes, or None when the case says nothing about pruning (``whole``: only a call that
    answered says anything; else any call that ran, whatever stopped it)."""
    raw = outcome.raw
    if "skipped" in raw or whole and (raw.get("timed_out") or raw.get("raised") or raw.get("answer") is None):
        return None  # nothing to judge: checks.per_case_check fails such a case where an answer was wanted
    trace = raw.get("trace") or {}
    return trace.get("evaluated") or [], bool(trace.get("truncated"))


def _named(case_input, indices, limit=6):
    paths = _trees.node_paths(case_input["tree"])
    shown = [paths[i] for i in sorted(indices)[:limit]]
    more = len(indices) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def check_under_pruning(outcome, spec):
    """Every node the student evaluated must be one that alpha-beta cannot prune."""
    seen = _student_evaluated(outcome, whole=False)
    if seen is None:
        return None
    evaluated, truncated = seen
    case_input = outcome.case.input
    nodes = _trees.preorder(case_input["tree"])
    if truncated or any(type(i) is not int or not 0 <= i < len(nodes) for i in evaluated):
        return "asked get_value about far more nodes than the tree has"
    internal = {i for i in set(evaluated) if nodes[i][0]["children"] and nodes[i][1] < case_input["max_depth"]}
    # Inner nodes above the limit are the evaluation-discipline check's business; here only pruning counts.
    extra = set(evaluated) - internal - reference_evaluated(case_input)
    if extra:
        return (f"{_order_words(case_input, evaluated)}evaluated {_named(case_input, extra)}, which alpha-beta never needs to look at "
                f"(under-pruning: a branch is cut as soon as a value goes strictly past the other player's bound)")
    return None


def check_over_pruning(outcome, spec):
    """Every node alpha-beta must evaluate (left to right, no pruning on equality) must be evaluated."""
    seen = _student_evaluated(outcome)
    if seen is None:
        return None
    evaluated, truncated = seen
    if truncated:
        return None
    case_input = outcome.case.input
    missing = reference_evaluated(case_input) - set(evaluated)
    if missing:
        return (f"{_order_words(case_input, evaluated)}never evaluated {_named(case_input, missing)}, which alpha-beta must look at "
                f"(over-pruning: a value equal to the bound does not prune, and moves are searched left to right)")
    return None
