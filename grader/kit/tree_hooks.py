"""A game whose positions are the nodes of a given tree: the grader side (ctp-26, alphabeta).

The moves are a node's children in order, a node's value is its utility (or its heuristic at
the depth limit), and whose turn it is alternates by level from the case's ``player_a_moves``.
Fixture cases, the random-tree strategy, the evaluation-discipline rule, pictures and shrinking
all work on plain data (``{"name", "value", "children"}`` dicts), never on the student's
objects. The sandbox side is ``tree_driver.py``, written out per exercise by ``driver_path``.
An exercise's hooks take what they need from here and add their own reference and call.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from grader.kit.by_identity import ByIdentity
from grader.kit.generated import cached_file

DRIVER = Path(__file__).with_name("tree_driver.py")


def driver_path_for(exercise, call) -> Path:
    """The sandbox driver: ``tree_driver.py`` with the exercise's call and helper names appended, one module.

    ``call`` lists the student's arguments in order: ``"root"``, a key of the case input, or
    ``"-inf"``/``"inf"``. The helpers keep the names the exercise declares (``provided_helpers``:
    the value helper, then the moves helper). Written once per content into the user's cache.
    """
    text = (DRIVER.read_text(encoding="utf-8")
            + f"\n\n# Configured for the exercise {exercise.id} by grader.kit.tree_hooks.\n"
            + f"CALL = {tuple(call)!r}\nHELPERS = {tuple(exercise.provided_helpers)!r}\n")
    return cached_file("tree-drivers", exercise.id, text, "driver.py")


def driver_files(exercise) -> list[Path]:
    """What the driver is made from, so the exercise's fingerprint follows it."""
    return [DRIVER.resolve()]


def fingerprint_files(exercise) -> list[Path]:
    """The kit's tree modules that shape the cases and the verdicts: the exercise's fingerprint (its bank,
    its gradebook rows, the shipped public bank) follows them as it follows the exercise's own folder."""
    return [DRIVER.with_name(name).resolve() for name in ("tree_hooks.py", "tree_game.py", "tree_mistakes.py")]

# The driver's value question, byte for byte as it writes it (tree_driver.helpers: ``b'["v", %d]'``); the session's
# careful reading has the same pattern (``replies._NODE``), which this layer may not import (tests/test_layers.py)
_VALUE_QUESTION = re.compile(rb'\["v", (0|[1-9][0-9]{0,8})\]\Z')
FOREIGN_NODE = "not a node of the tree of the call running now (a thread left running after its call?)"
TRACE_CAP = 20000  # questions of one kind logged per case; a search that asks more is cut off, and says so


class TreeOracle:
    """The grading process's side of one case's helpers: it holds the tree's values, answers
    ``get_value`` by a node's preorder number, and logs every question and every expansion the
    child tells of. That log, not anything the child says it did, is the case's trace."""

    def __init__(self, case_input):
        self.values = _values(case_input["tree"])
        self.evaluated: list[int] = []
        self.expanded: list[int] = []
        self.truncated = False

    def _index(self, message, kind):
        if type(message) is not list or len(message) != 2 or message[0] != kind:
            raise ValueError("not a question the tree's helpers ask")
        index = message[1]
        if type(index) is not int or not 0 <= index < len(self.values):
            raise ValueError("not a node of this tree")
        return index

    def _log(self, into, index):
        if len(into) < TRACE_CAP:
            into.append(index)
        else:
            self.truncated = True

    def ask(self, message):
        # _index and _log, inline: this is asked once per get_value, thousands of times per submission
        if type(message) is not list or len(message) != 2 or message[0] != "v":
            raise ValueError("not a question the tree's helpers ask")
        index = message[1]
        if type(index) is not int:
            raise ValueError("not a node number")
        if not 0 <= index < len(self.values):
            # A node of another case's tree: a thread an earlier call left running asks about its own tree (an
            # honest search on threads whose call raised, say, before it joined them). Not logged, and no sign of
            # tampering: the thread is told, as one asking between calls is.
            return {"error": FOREIGN_NODE}
        if len(self.evaluated) < TRACE_CAP:
            self.evaluated.append(index)
        else:
            self.truncated = True
        return self.values[index]

    def ask_raw(self, question: bytes):
        """The common question, ``["v", n]`` exactly as the driver writes it, answered from its bytes (``ask``'s value,
        logged as ``ask`` logs it); ``NotImplemented`` for anything else, which the session then reads the careful
        way and hands to ``ask``. Asked once per ``get_value``, thousands of times per submission: read here with
        one strict pattern, no parsing, no list (``Session._serve``; about 1 ms of the grading process's CPU a
        ctp-26 submission, measured with ``benchmarks/cpu_against_revision.py``)."""
        found = _VALUE_QUESTION.match(question)
        if found is None:
            return NotImplemented
        index = int(found[1])
        if index >= len(self.values):
            return NotImplemented  # a node of another case's tree: ``ask`` says so, and logs nothing
        self._log(self.evaluated, index)
        return self.values[index]

    def tell(self, message):
        self._log(self.expanded, self._index(message, "m"))

    def trace(self) -> dict:
        found = {"evaluated": self.evaluated, "expanded": self.expanded}
        if self.truncated:
            found["truncated"] = True
        return found


def oracle(case_input) -> TreeOracle:
    return TreeOracle(case_input)


_VALUES = ByIdentity(4096)
_HIDDEN = ByIdentity(4096)


def _values(tree) -> list:
    """The values in the preorder the driver numbers nodes by, remembered for the bank's trees."""
    return _VALUES.get(tree, lambda: [node["value"] for node, _ in _shape(tree)])


def child_values(case_input) -> list:
    """The tree's values in preorder, for a run whose questions are no evidence (the consistency pass,
    ``Session.run(evidence=False)``): the child answers ``get_value`` from them and asks nothing."""
    return _values(case_input["tree"])


def child_input(case_input) -> dict:
    """The case as the child gets it: the tree's shape and names, every value left out (``None``)."""

    def hide(node):
        return {"name": node["name"], "value": None, "children": [hide(child) for child in node["children"]]}

    return {**case_input, "tree": _HIDDEN.get(case_input["tree"], lambda: hide(case_input["tree"]))}


NAMES = ["Move V", "Move W", "Move X", "Move Y", "Move Z"]


class PlainTree:
    """The two provided helpers, over plain data, for the reference."""

    @staticmethod
    def moves(node):
        return node["children"]

    @staticmethod
    def value(node):
        return node["value"]


# What the student is handed and how they are called, for one-line API mismatch reports
# (grader/judging/api_mismatch.py): a node's value and moves come only through the helpers.
API_PROVIDES = ["get_value(node)", "get_next_valid_moves(node)"]
API_OBJECTS = {"Node": "node"}


def fixture_cases(folder: Path):
    """Published cases (the exercise's four calls) and every other call in the fixture files."""
    cases = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for call in data["calls"]:
            group = "published" if call.get("published") else "fixtures"
            case_id = f"{path.stem}/depth-{call['max_depth']}/{'A' if call['player_a_moves'] else 'B'}"
            case_input = {"tree": data["tree"], "max_depth": call["max_depth"], "player_a_moves": call["player_a_moves"]}
            cases.append({"id": case_id, "group": group, "input": case_input, "known": call["expected"], "title": data["title"]})
    return cases


MAX_NODES = 40


def strategy():
    """Random cases: repeated names, negative and fractional values, uneven depths, branching 1..5.

    A tree is drawn top-down with a node budget; every choice is an integer that shrinks
    towards "leaf", so hypothesis shrinks failing trees towards the fewest, simplest nodes.
    """
    from hypothesis import strategies as st

    values = st.one_of(st.integers(-20, 20), st.integers(-80, 80).filter(lambda q: q % 4).map(lambda q: q / 4))
    names = st.sampled_from(NAMES)

    @st.composite
    def trees(draw):
        budget = [draw(st.integers(2, MAX_NODES))]
        height = draw(st.integers(0, 6))

        def node(level):
            budget[0] -= 1
            children = []
            if level < height and budget[0] > 0 and draw(st.integers(0, 4)) > 0:
                for _ in range(draw(st.integers(1, 5))):
                    if budget[0] <= 0:
                        break
                    children.append(node(level + 1))
            return {"name": draw(names), "value": draw(values), "children": children}

        return node(0)

    return st.fixed_dictionaries({"tree": trees(), "max_depth": st.integers(0, 8), "player_a_moves": st.booleans()})


def preorder(tree):
    """(node, depth, is_leaf) in the same preorder the driver numbers nodes."""
    out = []

    def walk(node, depth):
        out.append((node, depth))
        for child in node["children"]:
            walk(child, depth + 1)

    walk(tree, 0)
    return out


def node_paths(tree):
    paths = []

    def walk(node, prefix):
        path = f"{prefix}/{node['name']}"
        paths.append(path)
        for child in node["children"]:
            walk(child, path)

    walk(tree, "")
    return paths


_SHAPES = ByIdentity(4096)


def _shape_entry(tree):
    """(preorder(tree), allowed indexes by depth limit), remembered for the bank's trees, which every
    submission is asked about."""
    return _SHAPES.get(tree, lambda: (preorder(tree), {}))


def _shape(tree):
    return _shape_entry(tree)[0]


def _allowed(tree, limit):
    """The preorder indexes get_value may be asked about (leaves within the limit, nodes at it), remembered."""
    nodes, by_limit = _shape_entry(tree)
    allowed = by_limit.get(limit)
    if allowed is None:
        allowed = by_limit[limit] = frozenset(i for i, (node, depth) in enumerate(nodes)
                                              if depth == limit or depth < limit and not node["children"])
    return allowed


def trace_violation(case_input, trace):
    """get_value may be asked only about leaves and about nodes exactly at the depth limit."""
    if trace.get("truncated"):
        return f"get_value was asked more than {TRACE_CAP} times in one call: far more than the tree has nodes"
    evaluated = trace.get("evaluated", [])
    limit = case_input["max_depth"]
    if (type(evaluated) is list and set(map(type, evaluated)) <= {int}
            and _allowed(case_input["tree"], limit).issuperset(evaluated)):
        return None  # the usual answer, in one set operation
    return first_trace_violation(case_input, trace)


def first_trace_violation(case_input, trace):
    """What is wrong with the trace, node by node (None if nothing is): the words for a report."""
    nodes = _shape(case_input["tree"])
    limit = case_input["max_depth"]
    for index in trace.get("evaluated", []):
        if not isinstance(index, int) or not 0 <= index < len(nodes):
            return "get_value was called on something that is not a node of the tree"
        node, depth = nodes[index]
        if depth > limit:
            return f"get_value was called on {node_paths(case_input['tree'])[index]} at depth {depth}, beyond the depth limit {limit}"
        if node["children"] and depth < limit:
            return (f"get_value was called on {node_paths(case_input['tree'])[index]}, which has moves and is at depth {depth}, "
                    f"above the depth limit {limit}: its value must come from its children")
    return None


def size(case_input):
    return len(_shape(case_input["tree"]))


def picture(case_input):
    """The tree as text, with each node's value and whose turn it is at each level."""
    lines = []
    first_turn_a = case_input["player_a_moves"]
    limit = case_input["max_depth"]

    def label(node, depth):
        turn = "A" if (depth % 2 == 0) == first_turn_a else "B"
        if depth > limit:
            return f"{node['name']} [value {format_value(node['value'])}]  (beyond the depth limit)"
        note = ""
        if depth == limit and node["children"]:
            note = "  (depth limit)"
        elif depth > limit:
            note = "  (beyond the depth limit)"
        return f"{node['name']} [value {format_value(node['value'])}, {turn} to move]{note}"

    def walk(node, depth, prefix, last):
        if depth == 0:
            lines.append(f"root: {label(node, depth)}")
        else:
            lines.append(f"{prefix}{'└── ' if last else '├── '}{label(node, depth)}")
        kids = node["children"]
        child_prefix = prefix + ("    " if last or depth == 0 else "│   ") if depth else ""
        for i, child in enumerate(kids):
            walk(child, depth + 1, child_prefix, i == len(kids) - 1)

    walk(case_input["tree"], 0, "", True)
    return "\n".join(lines)


def drawing(case_input):
    """The tree as plain data for the HTML report's picture; node ids are the localisation's paths."""
    first_turn_a = case_input["player_a_moves"]
    limit = case_input["max_depth"]

    def walk(node, depth, path):
        turn = "A" if (depth % 2 == 0) == first_turn_a else "B"
        where = " (limit)" if depth == limit and node["children"] else " (beyond)" if depth > limit else ""
        names = [child["name"] for child in node["children"]]
        children = []
        for i, child in enumerate(node["children"]):
            label = child["name"] if names.count(child["name"]) == 1 else f"{child['name']} (move {i + 1})"
            children.append(walk(child, depth + 1, f"{path}/{label}"))
        detail = f"value {format_value(node['value'])}" + ("" if depth > limit else f", {turn}") + where
        return {"id": path, "label": node["name"], "detail": detail, "children": children}

    return {"kind": "tree", "root": walk(case_input["tree"], 0, f"/{case_input['tree']['name']}")}


def format_value(value):
    return repr(value)


def shrink_candidates(case_input):
    """Simpler versions of a case, most simplifying first, for the greedy shrinker.

    Hypothesis finds the failing trees; these moves then take one apart quickly: cut
    subtrees, lift a child into its parent's place, lower the depth limit, make values
    small integers and names distinct and plain. The grader keeps a candidate only if the
    submission still fails on it.
    """
    tree = case_input["tree"]
    out = []

    def with_tree(new_tree, **changes):
        return {**case_input, "tree": new_tree, **changes}

    height = _height(tree)
    for depth in range(0, min(case_input["max_depth"], height + 1)):
        out.append({**case_input, "max_depth": depth})
    if case_input["max_depth"] > height + 1:
        out.append({**case_input, "max_depth": height + 1})
    paths = _internal_paths(tree)
    for path in paths:  # hoist a child into its parent's place
        node = _at(tree, path)
        for i in range(len(node["children"])):
            out.append(with_tree(_replace(tree, path, node["children"][i])))
    for path in paths:  # cut all of a node's moves
        node = _at(tree, path)
        out.append(with_tree(_replace(tree, path, {**node, "children": []})))
    for path in paths:  # cut one move
        node = _at(tree, path)
        if len(node["children"]) > 1:
            for i in range(len(node["children"])):
                kids = node["children"][:i] + node["children"][i + 1:]
                out.append(with_tree(_replace(tree, path, {**node, "children": kids})))
    if not case_input["player_a_moves"]:
        out.append({**case_input, "player_a_moves": True})
    ranked = _ranked_values(tree)
    if ranked != tree:
        out.append(with_tree(ranked))
    for value in sorted(_distinct_values(tree), key=_value_key, reverse=True):  # every node of one value at once
        for simpler in _simpler_values(value):
            out.append(with_tree(_with_values(tree, {value: simpler})))
    for path in _all_paths(tree):
        node = _at(tree, path)
        for simpler in _simpler_values(node["value"]):
            out.append(with_tree(_replace(tree, path, {**node, "value": simpler})))
    plain = _plain_names(tree)
    if plain != tree:
        out.append(with_tree(plain))
    return out


def _height(node):
    return 1 + max((_height(c) for c in node["children"]), default=-1)


def _all_paths(node, path=()):
    yield path
    for i, child in enumerate(node["children"]):
        yield from _all_paths(child, path + (i,))


def _internal_paths(tree):
    return [p for p in _all_paths(tree) if _at(tree, p)["children"]]


def _at(node, path):
    for i in path:
        node = node["children"][i]
    return node


def _replace(node, path, new):
    if not path:
        return new
    kids = list(node["children"])
    kids[path[0]] = _replace(kids[path[0]], path[1:], new)
    return {**node, "children": kids}


def _value_key(value):
    return (type(value) is float, abs(value), value < 0)


def _distinct_values(tree) -> set:
    return {node["value"] for node in (_at(tree, path) for path in _all_paths(tree))}


def _with_values(tree, mapping: dict):
    """The tree with each value ``mapping`` names replaced (the same tree where it names none)."""
    value = tree["value"]
    return {**tree, "value": mapping.get(value, value), "children": [_with_values(c, mapping) for c in tree["children"]]}


def _ranked_values(tree):
    """The tree with its values replaced by their ranks: 0 stays 0, the positive values become 1, 2, ... and the
    negative ones -1, -2, ... in their order. A search compares values and never does arithmetic on them, so a
    mistake in its comparisons (a prune on a value equal to the bound, a tie broken the wrong way) shows on the
    ranks as it did on the values, where making one value simpler at a time breaks the equality it needs: an
    over-pruning alpha-beta shrank to two leaves of -9.75 (now two of -1)."""
    values = _distinct_values(tree)
    if not all(type(v) in (int, float) and math.isfinite(v) for v in values):
        return tree
    above, below = sorted(v for v in values if v > 0), sorted((v for v in values if v < 0), reverse=True)
    mapping = {v: rank for rank, v in enumerate(above, 1)} | {v: -rank for rank, v in enumerate(below, 1)}
    mapping.update({v: 0 for v in values if v == 0})
    return _with_values(tree, mapping)


def _simpler_values(value):
    options = [0, 1, -1, 2, -2, 3, -3, int(value)]
    seen = []
    for option in options:
        if option != value and _value_key(option) < _value_key(value) and option not in seen:
            seen.append(option)
    return seen


def _plain_names(tree):
    counter = [0]

    def walk(node):
        counter[0] += 1
        name = f"Move {counter[0]}"
        return {**node, "name": name, "children": [walk(c) for c in node["children"]]}

    return walk(tree)
