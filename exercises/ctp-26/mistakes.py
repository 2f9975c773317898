"""Grader side of ctp-26: its mistakes, as wrong versions of the reference over the plain-data trees.

Most are the kit's families over the tree game (grader/kit/tree_mistakes.py), named here in the
order they are tried; among them are the wrong searches only this exercise models (depth counted
in full moves, a horizon worth 0, one ply with no depth test, two sign slips, values truncated),
and below them two rules read across cases (a value table of its own, the player argument
ignored). Every text is in the statement's words (players A and B, get_value, max_depth):
``[mistake_texts]`` in exercise.toml."""

from __future__ import annotations

import math
from pathlib import Path

from grader.judging.diagnose import Finding
from grader.vocabulary.findings import same_number
from grader.kit.mistake_texts import of_folder
from grader.kit.tree_mistakes import (KEEPS_INFINITY, explain_node, kit_model, model, node_values,  # noqa: F401
                                      parameterised, state_probe, subproblems, trace_evidence)

CODES = of_folder(Path(__file__).parent)


def _reference(node, depth, a, step=lambda a, depth: depth - 1, leaf=lambda node: node["value"]):
    """The right search over plain data; ``step`` gives a child's depth (A moving when ``a``), ``leaf`` a
    node's value where the search stops."""
    if depth == 0 or not node["children"]:
        return leaf(node)
    values = [_reference(child, step(a, depth), not a, step, leaf) for child in node["children"]]
    return max(values) if a else min(values)


def _depth_after(player_a):
    """Depth used up only by one player's moves: max_depth counted in full moves (A and B)."""
    return lambda node, depth, a: _reference(node, depth, a, lambda a, d: d - 1 if a == player_a else d)


def horizon_zero(node, depth, a):
    """A node at the depth limit that still has moves is worth 0, not its own value."""
    return _reference(node, depth, a, leaf=lambda n: 0 if n["children"] else n["value"])


def one_ply_search(node, depth, a):
    """The children's own values, with no depth test: also at max_depth 0."""
    if not node["children"]:
        return node["value"]
    values = [child["value"] for child in node["children"]]
    return max(values) if a else min(values)


def _combined_with(change):
    """The right search, with ``change`` applied to each searched node's value (leaves are left as they are)."""
    def solve(node, depth, a):
        if depth == 0 or not node["children"]:
            return node["value"]
        values = [solve(child, depth - 1, not a) for child in node["children"]]
        return change(max(values) if a else min(values))

    return solve


def _own(code, solve, name=None):
    return model(code, solve, CODES, name)


def _kit(*names):
    return [kit_model(name, CODES) for name in names]


MODELS = [
    *_kit("min-max-swapped", "min-max-swapped/below-root", "always-max", "always-min", "no-alternation",
          "ignores-player-argument/as-max", "ignores-player-argument/as-min", "depth-not-decremented",
          "depth-off-by-one/deeper"),
    kit_model("depth-off-by-one", CODES, "depth-off-by-one/shallower"),
    _own("depth-counts-full-moves", _depth_after(False)),
    _own("depth-counts-full-moves", _depth_after(True)),
    *_kit("missing-terminal-check", KEEPS_INFINITY),
    _own("horizon-not-evaluated", horizon_zero),
    _own("one-ply-search", one_ply_search),
    kit_model("one-ply-search", CODES, "one-ply-search/within-limit"),
    *_kit("first-child-only", "averages-children", "sign-flip/unnegated", "sign-flip/not-turned-back"),
    _own("sign-flip", lambda node, depth, a: (1 if a else -1) * parameterised("sign-flip/unnegated")(node, depth, a),
         "sign-flip/neither"),
    kit_model("sign-flip", CODES, "sign-flip/leaves-negated"),
    kit_model("sign-flip/leaves-min", CODES, "sign-flip/leaves-not-signed"),  # a negamax's uncoloured leaves
    kit_model("no-alternation/negamax-colour", CODES),  # a negamax whose colour is never handed over
    _own("sign-flip", lambda node, depth, a: -_reference(node, depth, a), "sign-flip/answer-negated"),
    *_kit("bad-initial-bound", "bad-initial-bound/max", "bad-initial-bound/min", "averages-children/max",
          "averages-children/min", "first-child-only/max", "first-child-only/min"),
    _own("truncates-values", lambda node, depth, a: _reference(node, depth, a, leaf=lambda n: int(n["value"]))),
    _own("truncates-values", _combined_with(int), "truncates-values/kept-values"),
    _own("truncates-values", lambda node, depth, a: _reference(node, depth, a, leaf=lambda n: math.floor(n["value"])),
         "truncates-values/floor"),
]

# Values made whole numbers, every way of doing it (int, floor, ceil, round) at every place (the leaves, each value
# kept, the answer only): the three above keep their places (the shipped bank keys its predictions by place).
_WHOLE = {"int": int, "floor": math.floor, "ceil": math.ceil, "round": round}
_WHOLE_AT = {
    "leaves": lambda convert: lambda node, depth, a: _reference(node, depth, a, leaf=lambda n: convert(n["value"])),
    "kept-values": _combined_with,
    "answer": lambda convert: lambda node, depth, a: convert(_reference(node, depth, a)),
}
MODELS += [_own("truncates-values", _WHOLE_AT[where](convert), f"truncates-values/{how}-{where}")
           for how, convert in _WHOLE.items() for where in _WHOLE_AT
           if (how, where) not in {("int", "leaves"), ("int", "kept-values"), ("floor", "leaves")}]
MODELS += [kit_model("bad-initial-bound/own-value", CODES)]  # best = get_value(node): a start taken from the tree



def _depth_after_mover(first: bool):
    """Depth used up only by the moves of the player who moved first at the root (``first``) or of the other one:
    a round counted from whoever starts, not from player A."""
    return lambda node, depth, a: _reference(node, depth, a, lambda mover, d: d - 1 if (mover == a) == first else d)


# Full moves counted from the player who starts: the round ends after the starter's move, or after the reply.
MODELS += [_own("depth-counts-full-moves", _depth_after_mover(first), f"depth-counts-full-moves/after-the-{who}")
           for first, who in ((True, "starter"), (False, "reply"))]


def _horizon(worth):
    """The right search, except that a node at the depth limit that has moves is worth ``worth(player_a_moves)``
    instead of its evaluation."""
    def solve(node, depth, a):
        if not node["children"]:
            return node["value"]
        if depth == 0:
            return worth(a)
        values = [solve(child, depth - 1, not a) for child in node["children"]]
        return max(values) if a else min(values)

    return solve


# A horizon node given a start value instead of its evaluation: each value a search starts from (0 is above).
MODELS += [_own("horizon-not-evaluated", _horizon(worth), f"horizon-not-evaluated/{name}") for name, worth in (
    ("worst-for-the-mover", lambda a: -math.inf if a else math.inf),
    ("best-for-the-mover", lambda a: math.inf if a else -math.inf),
    ("minus-infinity", lambda a: -math.inf), ("plus-infinity", lambda a: math.inf))]

# A search that never looks at max_depth at all (the depth handed down and never tested, or not handed down): every
# tree searched to its leaves, max_depth 0 included, where a depth never lowered still stops at a root asked with 0
# (the hundred and thirteenth helper's student). Last, as every model is, for the shipped predictions' places.
MODELS += [_own("depth-not-decremented", lambda node, depth, a: _reference(node, -1, a),
                "depth-not-decremented/never-tested")]

# The one check whose failure is a mistake the core does not name by the check's kind.
CHECK_CODES = {"evaluation-discipline": "evaluates-internal-nodes"}


# -- behaviour that no single model captures ------------------------------------------------

def rules(facts):
    """Mistakes read from traces and from how answers relate to each other across cases."""
    found = []
    for rule in (_own_value_table, _ignores_player):
        finding = rule(facts)
        if finding is not None:
            found.append(finding)
    return found


def _own_value_table(facts):
    """Numbers come back, yet get_value was never asked about anything, on any tree."""
    answered = [o for o in facts.outcomes if facts.reply(o) is not None and facts.reply(o)[0] == "number"]
    if len(answered) < 5 or any((o.raw.get("trace") or {}).get("evaluated") for o in answered):
        return None
    if all(facts.reply(o)[1] in facts.published_answers for o in answered):
        return None  # one or a few fixed numbers: that is a hard-coded answer, not a table
    text, question = CODES["own-value-table"]
    wrong = sum(1 for o in answered if facts.is_wrong(o))
    return Finding("own-value-table",
                   f"get_value was called on no node of any of the {len(answered)} trees your code answered, "
                   f"yet the answers vary from tree to tree; {wrong} of them are wrong",
                   text, question)


def _ignores_player(facts):
    """The same tree and depth asked for both players gives one answer where it should give two."""
    pairs = {}
    for outcome in facts.outcomes:
        case = outcome.case.input
        reply = facts.reply(outcome)
        if reply is None or reply[0] != "number":
            continue
        key = (facts.key(case["tree"]), case["max_depth"])
        pairs.setdefault(key, {})[case["player_a_moves"]] = (outcome, reply[1])
    if all(value in facts.published_answers for both in pairs.values() for _, value in both.values()):
        return None  # the same few numbers whatever the tree: a hard-coded answer, which ignores everything
    differ, same, as_if = 0, 0, {True: 0, False: 0}
    for both in pairs.values():
        if len(both) < 2:
            continue
        (oa, va), (ob, vb) = both[True], both[False]
        if oa.expected == ob.expected:
            continue
        differ += 1
        same += same_number(va, vb)  # never math.isclose: a student's 10 ** 400 is no float
        for player, outcome in ((True, oa), (False, ob)):
            as_if[player] += same_number(va, outcome.expected)
    # What the mistake says, not only that the player changes nothing: the answers are one player's right ones,
    # as if that player always started. A search that answers the root's own value whatever it is asked (it
    # recursed on the node, not its child) gives the same answer for both players too, and was named this (the
    # 121st helper)
    if differ < 3 or same != differ or max(as_if.values()) != differ:
        return None
    text, question = CODES["ignores-player-argument"]
    return Finding("ignores-player-argument",
                   f"on {differ} trees whose value depends on who moves first, your code gave the same answer "
                   f"for player_a_moves=True and player_a_moves=False", text, question)
