"""Grader side of alphabeta: its mistakes, as wrong searches over the plain-data trees.

Alpha-beta's value is minimax's, so every value mistake of a search over a tree (players
swapped, depth not decremented, first child only, ...) shows the same way here: those are the
kit's families over the tree game, with its localisation and node explanations
(grader/kit/tree_mistakes.py). What is new: wrong alpha-beta searches whose values go wrong in
their own way (the cut-off tests swapped, the bound returned instead of the value), and the
pruning mistakes, which leave the value right and are named from the pruning checks. Every
text is in the statement's words: ``[mistake_texts]`` in exercise.toml.
"""

from __future__ import annotations

import math
from pathlib import Path

from grader.judging.diagnose import Finding, Model
from grader.kit import tree_hooks as _trees
from grader.kit.mistake_texts import of_folder, text_of
from grader.kit.tree_mistakes import (KEEPS_INFINITY, explain_node, family, kit_model, model,  # noqa: F401
                                      node_values, state_probe, subproblems, trace_evidence)

CODES = of_folder(Path(__file__).parent)

# The kit's families over the tree game that a value mistake of alpha-beta can be.
FAMILIES = ("min-max-swapped", "min-max-swapped/below-root", "always-max", "always-min", "no-alternation",
            "ignores-player-argument/as-max", "ignores-player-argument/as-min", "depth-not-decremented",
            "depth-off-by-one/deeper", "depth-off-by-one", "missing-terminal-check", KEEPS_INFINITY,
            "one-ply-search", "first-child-only", "averages-children", "sign-flip/unnegated",
            "sign-flip/not-turned-back", "sign-flip", "bad-initial-bound", "bad-initial-bound/max",
            "bad-initial-bound/min", "averages-children/max", "averages-children/min", "first-child-only/max",
            "first-child-only/min")
WORDED_AS = {"depth-off-by-one": "depth-off-by-one/shallower", "one-ply-search": "one-ply-search/within-limit",
             "sign-flip": "sign-flip/leaves-negated"}


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


def _model(code, answer, name=None):
    return Model(code, answer, *text_of(CODES, code, name))


MODELS = [kit_model(name, CODES, WORDED_AS.get(name)) for name in FAMILIES] + [
    _model("cutoff-tests-swapped", _call(swap_tests=True)),
    _model("returns-bound", _call(return_bound=True), "returns-bound/alpha"),
    model("bad-initial-bound", family("bad-initial-bound", pruning=True), CODES),  # the zero start inside alpha-beta
    _model("returns-bound", _call(return_bound="beta"), "returns-bound/beta"),
    _model("min-max-swapped", lambda case_input: _swapped_aggregates(
        case_input["tree"], case_input["max_depth"], -math.inf, math.inf, case_input["player_a_moves"]),
           "min-max-swapped/aggregates-swapped"),
]

CHECK_CODES = {
    "evaluation-discipline": {"code": "evaluates-internal-nodes", "even_if_skipped": False},
    "no-over-pruning": {"code": "over-pruning", "even_if_skipped": False},
    "no-under-pruning": {"code": "under-pruning", "even_if_skipped": False},
    "tree-unchanged": {"code": "mutates-tree", "even_if_skipped": True},
    "returns-a-number": {"code": "wrong-return-type", "even_if_skipped": True},
}



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
