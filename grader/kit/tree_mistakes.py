"""The mistakes of a minimax over a given tree (ctp-26, alphabeta), as wrong versions of the reference.

Each model below is the reference with one thing changed, written over the same plain-data
trees (``{"name", "value", "children"}``) and called like the reference. The core
(``grader/judging/diagnose.py``) asks every model about the cases the student answered; a model that
gives the student's answer on every one of them, wrong ones included, names the mistake.
Mistakes that do not show in the value (evaluating internal nodes, changing the tree,
keeping state) are named from the behaviour checks and the probes at the bottom.

The texts explain the idea behind each mistake and end with a question; none of them shows
code, so a student can read them before fixing anything.
"""

from __future__ import annotations

import math

from grader.judging.diagnose import Finding, Model, Support
from grader.kit import tree_game
from grader.kit.families import PARAMETERISED
from grader.kit.search import Searcher

# -- what each code means, for the student ------------------------------------------------

CODES = {
    "min-max-swapped": (
        "Player A and player B pick the wrong way round: where A is to move your code takes the "
        "smallest value of the moves, and where B is to move the largest.",
        "Which player wants the value to be as high as possible, and which one as low as possible?"),
    "always-max": (
        "Your code takes the largest value at every level, also where player B is to move; B "
        "picks the move that is worst for A.",
        "At a level where B chooses, which of the children's values does B pick?"),
    "always-min": (
        "Your code takes the smallest value at every level, also where player A is to move; A "
        "picks the move that is best for A.",
        "At a level where A chooses, which of the children's values does A pick?"),
    "no-alternation": (
        "The player to move does not change from one level to the next: whoever moves at the "
        "root is treated as moving at every level below it too.",
        "After A has moved, who is to move in the position that results?"),
    "ignores-player-argument": (
        "Your code decides who is to move without looking at player_a_moves, so it answers as "
        "if the same player always started.",
        "What should change in your answer when the same tree is asked with player_a_moves=False?"),
    "depth-not-decremented": (
        "The remaining depth never goes down as the search goes deeper, so any depth limit "
        "above 0 searches all the way to the leaves.",
        "How many plies of search are left once you have gone down one move?"),
    "depth-off-by-one": (
        "The depth limit is off by one ply: your search stops one level too deep or one level "
        "too shallow compared with max_depth.",
        "With max_depth=1, which nodes' values should the answer be built from?"),
    "depth-counts-full-moves": (
        "Your code uses up one level of depth only for every pair of moves (A and B), but "
        "max_depth counts single moves (plies).",
        "If max_depth is 2, how many times may the search go down one level?"),
    "missing-terminal-check": (
        "A node without moves that is above the depth limit is not treated as the end of the "
        "game: the search tries to choose among zero moves.",
        "What is a node worth when nobody can move from it, even though depth is left?"),
    "evaluates-internal-nodes": (
        "Your answers are right, but get_value is asked about nodes that still have moves above "
        "the depth limit; the heuristic is meant only for leaves and for nodes at the limit.",
        "Which nodes does your code really need a heuristic value for?"),
    "horizon-not-evaluated": (
        "At the depth limit your code does not use the node's heuristic value: a node that "
        "still has moves but no depth left gets some other number.",
        "When the depth runs out at a node that still has moves, where does its value come from?"),
    "one-ply-search": (
        "Your code looks only one move ahead (the best of the children's own values), whatever "
        "max_depth says.",
        "How does the value of a child depend on the moves that can follow it?"),
    "first-child-only": (
        "Only the first move at each node is looked at; the search returns before the other "
        "moves have been compared.",
        "At which point of the loop over the moves do you know the best value?"),
    "averages-children": (
        "Your code combines the children's values into an average, but a player picks one move: "
        "the best one for them.",
        "Does a player get the average of the moves, or the value of the move they choose?"),
    "sign-flip": (
        "The negamax version loses a minus sign: a value handed up from the opponent's point of "
        "view is used without turning it round (or the final score is not turned back into A's "
        "point of view).",
        "If a position is worth +3 for your opponent, what is it worth for you?"),
    "bad-initial-bound": (
        "The running best value starts at 0 instead of at the worst possible value, so when every "
        "move is worse than 0 for the player to move, 0 comes out.",
        "What should the best-so-far be before any move has been looked at, for A and for B?"),
    "truncates-values": (
        "Fractional values lose their fractional part somewhere (turned into whole numbers), so "
        "trees with values such as 2.5 come out wrong.",
        "Which of your steps could change 2.5 into 2?"),
    "wrong-return-type": (
        "The function must return just the value, an int or a float; yours returns something "
        "else (a tuple, a string, None, a bool, ...).",
        "What exactly does the caller expect to get back from minimax?"),
    "mutates-tree": (
        "Your answers are right, but the tree is different after the call: nodes were moved, "
        "re-ordered, renamed or given new attributes.",
        "Could a caller use the tree again, unchanged, after asking your function about it?"),
    "state-across-calls": (
        "Your function remembers something from one call to the next (a module-level cache, a "
        "mutable default argument, a global list), so an answer depends on what was asked before.",
        "If two different trees have nodes with the same names, what does your code reuse from "
        "the first one when it looks at the second?"),
    "hardcoded-answer": (
        "Your code gives the published examples' answer whatever the tree is: it does not "
        "compute a value from the tree it is given.",
        "What would your function return for a tree you have never seen?"),
    "own-value-table": (
        "Your code never calls the provided get_value: it looks values up somewhere of its own "
        "(for example by node name), so it only works for the example tree's values.",
        "Where should the value of a node come from, and would it still be right on a tree with "
        "other values?"),
}


# -- the models: the reference, each with one thing wrong --------------------------------

_SEARCHERS: dict[int, tuple] = {}


def _searcher(node):
    """One kit searcher per tree, shared by every family (their memos are keyed by family, position and depth):
    the bank's trees are asked about by every model, for every failing submission. The entry keeps its tree
    alive, so an id is never reused while it is cached."""
    hit = _SEARCHERS.get(id(node))
    if hit is None or hit[0] is not node:
        if len(_SEARCHERS) > 512:  # a bank's trees (about 250 for ctp-26) hold some 15 MB of memos
            _SEARCHERS.clear()
        hit = _SEARCHERS[id(node)] = (node, Searcher(tree_game.GAME))
    return hit[1]


def family(variant, crash_on_empty=True, pruning=False):
    """The kit's mistake family ``variant`` (grader/kit/search.py) over the tree game, called like the reference.

    A search that chooses among no moves raises, as ``max([])`` does (``crash_on_empty``), or keeps
    its start value, an infinity, when its running best is never improved. ``pruning``: the mistake
    made inside alpha-beta, the root searched with the widest window."""
    def solve(node, depth, a):
        position = tree_game.Position(node, a)
        value, touched = _searcher(node).variant_value(variant, position, depth, pruning=pruning)
        if touched and crash_on_empty:
            raise ValueError("max() arg is an empty sequence")
        return value

    return solve


min_max_swapped, always_max, always_min = family("min-max-swapped"), family("always-max"), family("always-min")
no_alternation, as_if_a_starts = family("no-alternation"), family("ignores-player-argument")
depth_not_decremented, one_ply_too_shallow = family("depth-not-decremented"), family("depth-off-by-one")
no_leaf_check, no_leaf_check_infinite = family("missing-terminal-check"), family("missing-terminal-check", False)
one_ply_within_limit, first_child_only = family("one-ply-search"), family("first-child-only")
averages_children, leaves_negated = family("averages-children"), family("sign-flip")
best_starts_at_zero_for_both = family("bad-initial-bound")


def parameterised(name):
    """One of the kit's parameterised families (grader/kit/families.py: one player's rule wrong, one ply
    deeper, the levels below the root wrong, a negamax never negated or never turned back) over the tree game."""
    found = PARAMETERISED[name]

    def solve(node, depth, a):
        value, touched = found.value(_searcher(node), tree_game.Position(node, a), depth)
        if touched:
            raise ValueError("max() arg is an empty sequence")
        return value

    return solve


swapped_below_root, one_ply_too_deep = parameterised("min-max-swapped/below-root"), parameterised("depth-off-by-one/deeper")
negamax_unnegated, negamax_not_turned_back = parameterised("sign-flip/unnegated"), parameterised("sign-flip/not-turned-back")


def zero_start_for(player_a):
    """The running best starts at 0 for one player only (A when ``player_a``)."""
    return parameterised(f"bad-initial-bound/{'max' if player_a else 'min'}")


def _moves(node):
    return node["children"]


def _value(node):
    return node["value"]


def _reference(node, depth, a):
    moves = _moves(node)
    if depth == 0 or not moves:
        return _value(node)
    values = [_reference(child, depth - 1, not a) for child in moves]
    return max(values) if a else min(values)


def as_if_b_starts(node, depth, a):
    return _reference(node, depth, False)


def depth_after_b_only(node, depth, a):
    moves = _moves(node)
    if depth == 0 or not moves:
        return _value(node)
    values = [depth_after_b_only(child, depth if a else depth - 1, not a) for child in moves]
    return max(values) if a else min(values)


def depth_after_a_only(node, depth, a):
    moves = _moves(node)
    if depth == 0 or not moves:
        return _value(node)
    values = [depth_after_a_only(child, depth - 1 if a else depth, not a) for child in moves]
    return max(values) if a else min(values)


def horizon_zero(node, depth, a):
    moves = _moves(node)
    if not moves:
        return _value(node)
    if depth == 0:
        return 0
    values = [horizon_zero(child, depth - 1, not a) for child in moves]
    return max(values) if a else min(values)


def one_ply_search(node, depth, a):
    moves = _moves(node)
    if not moves:
        return _value(node)
    values = [_value(child) for child in moves]
    return max(values) if a else min(values)


def _negamax_plain_leaves(node, depth):
    moves = _moves(node)
    if depth == 0 or not moves:
        return _value(node)
    return max(-_negamax_plain_leaves(child, depth - 1) for child in moves)


def negamax_leaves_not_signed(node, depth, a):
    """A negamax whose positions are scored without the colour of the side to move, turned back at the root."""
    return (1 if a else -1) * _negamax_plain_leaves(node, depth)


def answer_negated(node, depth, a):
    """The right search, its answer turned round on the way out (a wrapper that negates once too often)."""
    return -_reference(node, depth, a)


def _one_player_model(code, what):
    return [_model(code, parameterised(f"{code}/{'max' if player_a else 'min'}"),
                   f"Where {name} is to move, your search takes {what} instead of the "
                   f"{'largest' if player_a else 'smallest'} value ({other}'s nodes are right).")
            for player_a, name, other in ((True, "A", "B"), (False, "B", "A"))]


def _combined_with(change):
    """The right search, with ``change`` applied to each searched node's value (leaves are left as they are)."""
    def solve(node, depth, a):
        moves = _moves(node)
        if depth == 0 or not moves:
            return _value(node)
        values = [solve(child, depth - 1, not a) for child in moves]
        return change(max(values) if a else min(values))

    return solve


def _with_values(change):
    def solve(node, depth, a):
        moves = _moves(node)
        if depth == 0 or not moves:
            return change(_value(node))
        values = [solve(child, depth - 1, not a) for child in moves]
        return max(values) if a else min(values)

    return solve


def _call(solve):
    return lambda case_input: solve(case_input["tree"], case_input["max_depth"], case_input["player_a_moves"])


def _model(code, solve, explanation=""):
    text, question = CODES[code]
    return Model(code, _call(solve), explanation or text, question)


MODELS = [
    _model("min-max-swapped", min_max_swapped),
    _model("min-max-swapped", swapped_below_root,
           "Below the root the players choose the wrong way round: the root keeps the right value of its "
           "children, but each child is valued as if the player at the root moved there again."),
    _model("always-max", always_max),
    _model("always-min", always_min),
    _model("no-alternation", no_alternation),
    _model("ignores-player-argument", as_if_a_starts,
           "Your code decides who is to move without looking at player_a_moves: it always answers "
           "as if player A moved first."),
    _model("ignores-player-argument", as_if_b_starts,
           "Your code decides who is to move without looking at player_a_moves: it always answers "
           "as if player B moved first."),
    _model("depth-not-decremented", depth_not_decremented),
    _model("depth-off-by-one", one_ply_too_deep,
           "The depth limit is off by one: your search goes one ply deeper than max_depth allows, "
           "so nodes at the limit are searched instead of evaluated."),
    _model("depth-off-by-one", one_ply_too_shallow,
           "The depth limit is off by one: your search stops one ply before max_depth, so nodes "
           "one level above the limit are evaluated instead of searched."),
    _model("depth-counts-full-moves", depth_after_b_only),
    _model("depth-counts-full-moves", depth_after_a_only),
    _model("missing-terminal-check", no_leaf_check),
    _model("missing-terminal-check", no_leaf_check_infinite),
    _model("horizon-not-evaluated", horizon_zero),
    _model("one-ply-search", one_ply_search),
    _model("one-ply-search", one_ply_within_limit,
           "Your search looks one move ahead only (the depth limit is tested, but never more than one ply is "
           "searched): each move is judged by its own value, not by what follows it."),
    _model("first-child-only", first_child_only),
    _model("averages-children", averages_children),
    _model("sign-flip", negamax_unnegated),
    _model("sign-flip", negamax_not_turned_back),
    _model("sign-flip", lambda node, depth, a: (1 if a else -1) * negamax_unnegated(node, depth, a),
           "Your negamax neither negates the children's values nor turns the answer back to A's point of "
           "view, so values come out with the wrong sign where B is to move."),
    _model("sign-flip", leaves_negated,
           "The values of the positions are negated, so the search prefers what is bad for the player to move."),
    _model("sign-flip", negamax_leaves_not_signed,
           "Your negamax scores the positions without turning them to the side to move, so the values come out "
           "with the wrong sign wherever the last mover is not the one the value is for."),
    _model("sign-flip", answer_negated,
           "Your search is right, but its answer is turned round once too often on the way out: every value "
           "comes back with the wrong sign."),
    _model("bad-initial-bound", best_starts_at_zero_for_both),
    _model("bad-initial-bound", zero_start_for(True),
           "Player A's best value so far starts at 0 instead of minus infinity, so when every move is worth "
           "less than 0 to A, the 0 is kept (B's start is right)."),
    _model("bad-initial-bound", zero_start_for(False),
           "Player B's best value so far starts at 0 instead of plus infinity, so when every move is worth "
           "more than 0, B keeps the 0 (A's start is right)."),
    *_one_player_model("averages-children", "the average of its children's values"),
    *_one_player_model("first-child-only", "the first child's value"),
    _model("truncates-values", _with_values(int)),
    _model("truncates-values", _combined_with(int),
           "The value your search keeps at each node is cut to a whole number, so trees with values such as "
           "2.5 come out wrong above the leaves."),
    _model("truncates-values", _with_values(math.floor),
           "Fractional values are rounded down to whole numbers somewhere, so trees with values "
           "such as 2.5 come out wrong."),
]

# Checks whose failure is itself a mistake. "even_if_skipped": the behaviour is looked for in
# the raw results even when the check was skipped because the values were wrong.
CHECK_CODES = {
    "evaluation-discipline": {"code": "evaluates-internal-nodes", "even_if_skipped": False},
    "tree-unchanged": {"code": "mutates-tree", "even_if_skipped": True},
    "consistent-answers": {"code": "state-across-calls", "even_if_skipped": True},
    "returns-a-number": {"code": "wrong-return-type", "even_if_skipped": True},
}


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
    differ, same = 0, 0
    for both in pairs.values():
        if len(both) < 2:
            continue
        (oa, va), (ob, vb) = both[True], both[False]
        if oa.expected == ob.expected:
            continue
        differ += 1
        same += math.isclose(va, vb, rel_tol=1e-9, abs_tol=1e-9)
    if differ < 3 or same != differ:
        return None
    text, question = CODES["ignores-player-argument"]
    return Finding("ignores-player-argument",
                   f"on {differ} trees whose value depends on who moves first, your code gave the same answer "
                   f"for player_a_moves=True and player_a_moves=False", text, question)


def state_probe(case_input):
    """Three questions that a function without memory answers consistently.

    The tree under fresh names, then the same tree with every value raised by 100 (so its
    right answer differs), then that second tree again under other fresh names. Only the
    names differ between the last two, and names never matter; a function that answers them
    differently carries something over from the earlier calls.
    """
    first = _renamed(case_input["tree"], "Probe", 0)
    raised = _renamed(case_input["tree"], "Probe", 100)
    again = _renamed(case_input["tree"], "Fresh", 100)
    inputs = [{**case_input, "tree": tree} for tree in (first, raised, again)]
    return inputs, ("about a tree, then about the same tree with every value raised by 100 under the same new "
                    "node names, then about that second tree again under other new names")


def _renamed(tree, prefix, shift):
    counter = [0]

    def walk(node):
        counter[0] += 1
        return {"name": f"{prefix} {counter[0]:03d}", "value": node["value"] + shift,
                "children": [walk(child) for child in node["children"]]}

    return walk(tree)


# -- localisation: the student's function on every subtree -----------------------------------

def subproblems(case_input):
    """Every node the search must visit, as a call of its own, with the depth left and the player to move there."""
    limit = case_input["max_depth"]
    first_a = case_input["player_a_moves"]
    entries = []

    def walk(node, depth, path):
        entry = {"id": path, "depth": depth, "children": [],
                 "input": {"tree": node, "max_depth": limit - depth,
                           "player_a_moves": first_a if depth % 2 == 0 else not first_a}}
        entries.append(entry)
        position = len(entries) - 1
        if depth < limit:
            names = [child["name"] for child in node["children"]]
            for i, child in enumerate(node["children"]):
                label = child["name"] if names.count(child["name"]) == 1 else f"{child['name']} (move {i + 1})"
                entry["children"].append(walk(child, depth + 1, f"{path}/{label}"))
        return position

    walk(case_input["tree"], 0, f"/{case_input['tree']['name']}")
    return entries


def _show(value):
    return repr(value)


def explain_node(entry, expected, child_values, yours):
    """One sentence: what this node is worth and why, then what the student's code says."""
    case = entry["input"]
    node = case["tree"]
    turn = "A" if case["player_a_moves"] else "B"
    where = f"at node {entry['id']}"
    if not node["children"]:
        why = f"it has no moves, so it is worth its own value {_show(node['value'])}"
    elif case["max_depth"] == 0:
        why = (f"it is at the depth limit, so it is worth its own value {_show(node['value'])} "
               f"and its moves are not searched")
    else:
        pick = "largest" if turn == "A" else "smallest"
        worth = ", ".join(_show(v) for v in child_values)
        many = "its children are" if len(child_values) > 1 else "its only child is"
        why = f"{many} worth {worth}, so it is worth {_show(expected)} (the {pick}, as {turn} chooses)"
    return f"{where} it is {turn}'s turn; {why}; {yours}"


def node_values(entry, outcome, child_outcomes, facts):
    """The numbers the local rule at the first wrong node is read from (``grader.judging.diagnose.local_rule``)."""
    reply = facts.reply(outcome)
    if reply is None or reply[0] != "number":
        return None
    case = entry["input"]
    return {"role": "max" if case["player_a_moves"] else "min", "own": case["tree"]["value"],
            "expected": outcome.expected, "children": [c.expected for c in child_outcomes], "actual": reply[1]}


# -- what the traces show: where get_value was asked, relative to the depth limit ---------------

def _preorder(tree, depth=0, out=None):
    """(node, depth) in the order the driver numbers nodes (preorder, children in order)."""
    out = [] if out is None else out
    out.append((tree, depth))
    for child in tree["children"]:
        _preorder(child, depth + 1, out)
    return out


def trace_evidence(facts):
    """Where get_value was asked off the rules, relative to the depth limit, when one pattern holds in
    every case that shows any: one ply above the limit, one ply beyond it, further beyond, only at the
    first ply, or at every level. Supporting evidence (``grader.judging.diagnose.Support``), never a name alone."""
    patterns = []
    for outcome in facts.outcomes:
        evaluated = (outcome.raw.get("trace") or {}).get("evaluated")
        case = outcome.case.input
        if type(evaluated) is not list or not evaluated:
            continue
        nodes, limit = _preorder(case["tree"]), case["max_depth"]
        off = set()
        for index in evaluated:
            if type(index) is not int or not 0 <= index < len(nodes):
                continue
            node, depth = nodes[index]
            if depth > limit or node["children"] and depth < limit:
                off.add((depth - limit, depth))
        if off:
            patterns.append(off)
    if len(patterns) < 3:
        return []
    offsets = {o for p in patterns for o, _ in p}
    depths = {d for p in patterns for _, d in p}
    n = len(patterns)
    if offsets == {-1}:
        return [Support(f"the traces show get_value asked one ply above the depth limit ({n} cases)",
                        frozenset({"depth-off-by-one", "depth-counts-full-moves"}))]
    if offsets == {1}:
        return [Support(f"the traces show get_value asked one ply beyond the depth limit ({n} cases)",
                        frozenset({"depth-off-by-one"}))]
    if all(o > 1 for o in offsets):
        return [Support(f"the traces show get_value asked more than one ply beyond the depth limit ({n} cases)",
                        frozenset({"depth-not-decremented", "depth-counts-full-moves"}))]
    if depths == {1}:
        return [Support(f"the traces show get_value asked about the first ply only, whatever the limit ({n} cases)",
                        frozenset({"one-ply-search"}))]
    if all(o < 0 for o in offsets) and len(depths) > 1:
        return [Support(f"the traces show get_value asked about positions that have moves, above the limit, at "
                        f"several levels ({n} cases)", frozenset({"evaluates-internal-nodes"}))]
    return []
