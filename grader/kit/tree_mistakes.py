"""The mistakes of a search over a given tree (the kit's tree game), for any exercise whose student searches one.

Written once for the tree exercises (ctp-26, alphabeta): the kit's mistake families (``Searcher.variant_value``
in grader/kit/search.py, the parameterised ones of grader/kit/families.py) over the tree game, as models
called like a reference on the plain-data trees (``{"name", "value", "children"}``); the probe for memory
across calls; the localisation (every node as a question of its own), the node explanations and what the
traces show. An exercise's mistakes module lists the families it names (``kit_model``), adds the wrong
searches that are its own (``model``), and words every code in its own terms (``[mistake_texts]`` in its
exercise.toml, read by ``grader.kit.mistake_texts``).
"""

from __future__ import annotations

from grader.vocabulary.findings import Model, Support
from grader.kit import tree_game
from grader.kit.by_identity import ByIdentity
from grader.kit.families import PARAMETERISED
from grader.kit.mistake_texts import text_of
from grader.kit.search import Searcher

TABLE_CAP = 8_000  # positions (about as many trees as a bank and its shrinking ask); then a fresh table
_TABLE: list = [None]
_ROOTS = ByIdentity(2048)


def _searcher(node=None):
    """One kit searcher for every tree, shared by every family: a position is a node by identity, so the trees
    never mix, a subtree asked about on its own (localisation, shrinking) is the same positions again, and each
    family's search is written out once (``Searcher._variant_search``), not once per tree. Past ``TABLE_CAP``
    positions the table starts afresh (searches under way keep the one they hold) and the old one is let go
    whole. A memo hit costs no node budget, so whether a family would run out of budget on a tree can depend on
    what was asked before; the trees of these exercises are far below the budget, so no answer does."""
    table = _TABLE[0]
    if table is None or len(table.states) > TABLE_CAP:
        _ROOTS.clear()  # its entries hold the old table; nothing else does, so the collector frees it
        table = _TABLE[0] = Searcher(tree_game.GAME)
    return table


def _root(node, a):
    """(the searcher, the number of the tree's root with A to move or not): every model asks this of every case."""
    return _ROOTS.get(node, lambda: _numbered(_searcher(node), tree_game.Position(node, a)), a)


def _numbered(searcher, position):
    return searcher, searcher.node(position)


def family(variant, crash_on_empty=True, pruning=False):
    """The kit's mistake family ``variant`` (grader/kit/search.py) over the tree game, called like the reference.

    A search that chooses among no moves raises, as ``max([])`` does (``crash_on_empty``), or keeps
    its start value, an infinity, when its running best is never improved. ``pruning``: the mistake
    made inside alpha-beta, the root searched with the widest window."""
    def solve(node, depth, a):
        searcher, root = _root(node, a)
        value, touched = searcher.variant_value_of(variant, root, depth, pruning)
        if touched and crash_on_empty:
            raise ValueError("max() arg is an empty sequence")
        return value

    return solve


def parameterised(name):
    """One of the kit's parameterised families (grader/kit/families.py: one player's rule wrong, one ply
    deeper, the levels below the root wrong, a negamax never negated or never turned back) over the tree game."""
    found = PARAMETERISED[name]

    def solve(node, depth, a):
        searcher, root = _root(node, a)
        value, touched = found.value(searcher, searcher.states[root], depth)
        if touched:
            raise ValueError("max() arg is an empty sequence")
        return value

    return solve


KEEPS_INFINITY = "missing-terminal-check/keeps-infinity"  # no terminal test, and no crash on no moves


def model(code, solve, words, name=None) -> Model:
    """A model of ``code`` that answers a case as ``solve(tree, max_depth, player_a_moves)`` does, in the
    exercise's words: the text of ``name`` where it words this model, else the code's."""
    text, question = text_of(words, code, name)
    return Model(code, lambda case_input: solve(case_input["tree"], case_input["max_depth"],
                                                case_input["player_a_moves"]), text, question)


def kit_model(name, words, worded_as=None) -> Model:
    """The kit's family ``name`` (a search family, a parameterised one, or ``KEEPS_INFINITY``) as a model."""
    if name == KEEPS_INFINITY:
        return model("missing-terminal-check", family("missing-terminal-check", crash_on_empty=False), words, name)
    if name in PARAMETERISED:
        return model(PARAMETERISED[name].code, parameterised(name), words, worded_as or name)
    return model(name, family(name), words, worded_as)


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
