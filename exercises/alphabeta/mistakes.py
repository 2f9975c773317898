"""Grader side of alphabeta: its mistakes, as wrong searches over the plain-data trees.

Alpha-beta's value is minimax's, so every value mistake of a search over a tree (players
swapped, depth not decremented, first child only, ...) shows the same way here, and the tree
game's models, localisation and node explanations (grader/kit/tree_mistakes.py) are reused. What is new: wrong alpha-beta
searches whose values go wrong in their own way (the cut-off tests swapped, the bound
returned instead of the value), and the two pruning mistakes, which leave the value right
and are named from the pruning checks.
"""

from __future__ import annotations

import math

from grader.judging.diagnose import Finding, Model
from grader.kit import tree_mistakes as _ctp
from grader.kit import tree_hooks as _trees

subproblems = _ctp.subproblems
explain_node = _ctp.explain_node
node_values = _ctp.node_values
trace_evidence = _ctp.trace_evidence

CODES = {
    **_ctp.CODES,
    "over-pruning": (
        "Your values are right, but your search skips nodes that alpha-beta has to look at: it cuts "
        "off a branch when a value only reaches the bound, or looks at the moves in another order.",
        "When a MIN node's value becomes exactly equal to alpha, could a later move still matter?"),
    "under-pruning": (
        "Your values are right, but your search looks at nodes alpha-beta would have skipped: a bound "
        "is lost on the way down, never tightened, or never compared with.",
        "At a MIN node whose value has dropped below alpha, what can its remaining moves still change "
        "for the MAX node above it?"),
    "wrong-child-order": (
        "Your search looks at the moves in another order than left to right, so it prunes other "
        "nodes than alpha-beta searching left to right does (the value can still be right).",
        "In which order does get_next_valid_moves give the moves, and in which order does your loop "
        "take them?"),
    "cutoff-tests-swapped": (
        "The cut-off tests are the wrong way round: the MAX node compares its value with alpha and the "
        "MIN node with beta, so branches are cut that decide the answer.",
        "Which bound belongs to the player above a MAX node, and which to the player above a MIN node?"),
    "returns-bound": (
        "A node returns one of the bounds (alpha or beta) instead of its own value, so a value that "
        "never came from the tree below can come back up.",
        "What should a MIN node return when none of its moves went below alpha?"),
}


def _moves(node):
    return node["children"]


def _alphabeta(node, depth, alpha, beta, a, *, swap_tests=False, return_bound=False):
    """Alpha-beta over plain data with one thing optionally wrong (the models below)."""
    moves = _moves(node)
    if depth == 0 or not moves:
        return node["value"]
    if a:
        value = -math.inf
        for child in moves:
            score = _alphabeta(child, depth - 1, alpha, beta, False,
                               swap_tests=swap_tests, return_bound=return_bound)
            if return_bound:
                alpha = max(alpha, score)
                if alpha > beta:
                    break
                continue
            value = max(value, score)
            if (value < alpha) if swap_tests else (value > beta):
                break
            if swap_tests:
                beta = min(beta, value)
            else:
                alpha = max(alpha, value)
        return (beta if return_bound == "beta" else alpha) if return_bound else value
    value = math.inf
    for child in moves:
        score = _alphabeta(child, depth - 1, alpha, beta, True,
                           swap_tests=swap_tests, return_bound=return_bound)
        if return_bound:
            beta = min(beta, score)
            if alpha > beta:
                break
            continue
        value = min(value, score)
        if (value > beta) if swap_tests else (value < alpha):
            break
        if swap_tests:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
    return (beta if return_bound == "beta" else alpha) if return_bound else value


def _swapped_aggregates(node, depth, alpha, beta, a):
    """Alpha-beta whose cut-off tests and window are right for the player to move but whose aggregate is the
    other player's (min where A moves, max where B does), started from the first child's value."""
    moves = _moves(node)
    if depth == 0 or not moves:
        return node["value"]
    value = None
    for child in moves:
        score = _swapped_aggregates(child, depth - 1, alpha, beta, not a)
        value = score if value is None else (min if a else max)(value, score)
        if a:
            if value > beta:
                break
            alpha = max(alpha, value)
        else:
            if value < alpha:
                break
            beta = min(beta, value)
    return value


def _call(**variant):
    def answer(case_input):
        return _alphabeta(case_input["tree"], case_input["max_depth"], -math.inf, math.inf,
                          case_input["player_a_moves"], **variant)

    return answer


def _model(code, answer, explanation=""):
    text, question = CODES[code]
    return Model(code, answer, explanation or text, question)


MODELS = list(_ctp.MODELS) + [
    _model("cutoff-tests-swapped", _call(swap_tests=True)),
    _model("returns-bound", _call(return_bound=True),
           "Every node returns alpha instead of its own value (a MIN node too), so a value that never "
           "came from the tree below can come back up."),
    _model("bad-initial-bound", lambda case_input: _ctp.family("bad-initial-bound", pruning=True)(
        case_input["tree"], case_input["max_depth"], case_input["player_a_moves"])),
    _model("returns-bound", _call(return_bound="beta"),
           "Every node returns beta instead of its own value (a MAX node too), so a value that never "
           "came from the tree below can come back up."),
    _model("min-max-swapped", lambda case_input: _swapped_aggregates(
        case_input["tree"], case_input["max_depth"], -math.inf, math.inf, case_input["player_a_moves"]),
           "Where A moves your search keeps the smallest value and where B moves the largest (the cut-off tests "
           "are right for each player, the choice is the other player's)."),
]

CHECK_CODES = {
    "evaluation-discipline": {"code": "evaluates-internal-nodes", "even_if_skipped": False},
    "no-over-pruning": {"code": "over-pruning", "even_if_skipped": False},
    "no-under-pruning": {"code": "under-pruning", "even_if_skipped": False},
    "tree-unchanged": {"code": "mutates-tree", "even_if_skipped": True},
    "returns-a-number": {"code": "wrong-return-type", "even_if_skipped": True},
}

state_probe = _ctp.state_probe



PRUNING_CODES = ("over-pruning", "under-pruning")


def regroup_behaviour(findings, facts):
    """Moves searched right to left (or in any order but left to right) change which nodes are
    pruned both ways at once: one mistake, named by its order, not over- and under-pruning."""
    hooks = facts.exercise.hooks
    asked = [o for o in facts.bank() if _evaluated(o) is not None]
    stepped_back = [o for o in asked if hooks.out_of_order(o.case.input, _evaluated(o))]
    if not stepped_back:
        return findings
    reversed_all = all(_evaluated(o) == hooks.evaluation_order(o.case.input, right_to_left=True) for o in asked)
    example = min(stepped_back, key=facts.size)
    first, then = hooks.out_of_order(example.case.input, _evaluated(example))
    paths = _trees.node_paths(example.case.input["tree"])
    if reversed_all:
        evidence = (f"on all {len(asked)} trees your code evaluates exactly the nodes alpha-beta evaluates when it "
                    f"searches the moves right to left, in that order (for example {facts.call(example)} evaluated "
                    f"{paths[first]} before {paths[then]})")
        text = ("Your search looks at the moves right to left; this exercise's alpha-beta searches them left to "
                "right, so other nodes are pruned (the value is still right).")
    else:
        evidence = (f"on {len(stepped_back)} of {len(asked)} trees your code evaluated a node to the right before one "
                    f"to its left (for example {facts.call(example)} evaluated {paths[first]} before {paths[then]})")
        text = ""
    kept = [f for f in findings if f.code not in PRUNING_CODES]
    checks = tuple(c for f in findings if f.code in PRUNING_CODES for c in f.checks) or ("no-over-pruning",)
    return kept + [Finding("wrong-child-order", evidence, text, checks=checks)]


def _evaluated(outcome):
    raw = outcome.raw
    if not isinstance(raw, dict) or "skipped" in raw or raw.get("timed_out") or raw.get("raised"):
        return None
    trace = raw.get("trace") or {}
    if trace.get("truncated") or raw.get("answer") is None:
        return None
    return list(trace.get("evaluated") or [])
