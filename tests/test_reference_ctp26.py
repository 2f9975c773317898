"""The ctp-26 reference must agree with every value the fixture trees state.

Every verdict the grader gives is "the student's answer against the reference", so a wrong
reference (or a wrong fixture) would silently fail good students. Each ``known`` value in
``fixtures/trees/ctp-26/*.json`` is checked against the reference, and the facts the
exercise text fixes (the exercise tree, 7 at depths 0, 2, 3, 7; the textbook tree, 3) are
checked against the fixture data itself, so a fixture and a reference cannot drift together.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TREES = Path(__file__).resolve().parent.parent / "fixtures" / "trees" / "ctp-26"
TREE_FILES = sorted(TREES.glob("*.json"))
EXERCISE_VALUES = {"Move X": 2, "Move Y": 7, "Move Z": 5, "Move W": 10, "Move V": 8}


def _load(name: str) -> dict:
    return json.loads((TREES / f"{name}.json").read_text(encoding="utf-8"))


def _calls():
    for path in TREE_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for call in data["calls"]:
            who = "A" if call["player_a_moves"] else "B"
            yield pytest.param(data["tree"], call, id=f"{path.stem}-depth{call['max_depth']}-{who}")


def _shape(node) -> tuple:
    return (node["name"], tuple(_shape(c) for c in node["children"]))


def _leaves(node) -> list:
    if not node["children"]:
        return [node["value"]]
    return [v for child in node["children"] for v in _leaves(child)]


def _height(node) -> int:
    return 1 + max((_height(c) for c in node["children"]), default=-1)


@pytest.fixture(scope="module")
def reference(ctp26):
    plain_tree = ctp26.hook("PlainTree")

    def value_of(tree, max_depth, player_a_moves):
        return ctp26.reference.minimax(tree, max_depth, player_a_moves, plain_tree)

    return value_of


def test_every_tree_file_is_used():
    names = {p.stem for p in TREE_FILES}
    assert {"exercise", "textbook", "single-node", "all-negative", "fractional", "repeated-names",
            "uneven-depths", "wide-node"} <= names


@pytest.mark.parametrize(("tree", "call"), list(_calls()))
def test_reference_agrees_with_known_value(reference, tree, call):
    got = reference(tree, call["max_depth"], call["player_a_moves"])
    assert got == call["expected"]
    assert type(got) is type(call["expected"]), "the fixture and the reference disagree on int versus float"


def test_exercise_tree_is_the_one_in_the_exercise_text():
    data = _load("exercise")
    # Root Y; X has X, Y (with Y, V) and Z; the second Y has W and Y.
    leaf = lambda name: (name, ())  # noqa: E731
    expected_shape = ("Move Y", (
        ("Move X", (leaf("Move X"), ("Move Y", (leaf("Move Y"), leaf("Move V"))), leaf("Move Z"))),
        ("Move Y", (leaf("Move W"), leaf("Move Y"))),
    ))
    assert _shape(data["tree"]) == expected_shape

    def values_follow_names(node):
        return node["value"] == EXERCISE_VALUES[node["name"]] and all(values_follow_names(c) for c in node["children"])

    assert values_follow_names(data["tree"])


def test_exercise_tree_published_cases_are_seven_for_player_a():
    calls = _load("exercise")["calls"]
    published = sorted(c["max_depth"] for c in calls if c.get("published"))
    assert published == [0, 2, 3, 7]
    assert all(c["player_a_moves"] and c["expected"] == 7 for c in calls if c.get("published"))


def test_exercise_tree_has_the_full_table_for_both_players(reference):
    data = _load("exercise")
    table = {(c["max_depth"], c["player_a_moves"]): c["expected"] for c in data["calls"]}
    assert set(table) == {(d, p) for d in range(8) for p in (True, False)}
    for (depth, player), expected in table.items():
        assert reference(data["tree"], depth, player) == expected
    # The one entry that is not 7: B to move with a single ply picks the X branch's value 2.
    assert table[(1, False)] == 2


def test_textbook_tree_has_value_three(reference):
    data = _load("textbook")
    assert _leaves(data["tree"]) == [3, 12, 8, 2, 4, 6, 14, 5, 2]
    assert _height(data["tree"]) == 2 and len(data["tree"]["children"]) == 3
    assert reference(data["tree"], 2, True) == 3
    assert {(c["max_depth"], c["player_a_moves"], c["expected"]) for c in data["calls"]} >= {(2, True, 3)}


def test_edge_trees_are_what_their_names_say():
    assert _load("single-node")["tree"]["children"] == []
    assert all(v < 0 for v in _leaves(_load("all-negative")["tree"]))
    assert any(type(v) is float and v != int(v) for v in _leaves(_load("fractional")["tree"]))
    repeated = _load("repeated-names")["tree"]

    def names(node):
        return [node["name"]] + [n for c in node["children"] for n in names(c)]

    assert len(set(names(repeated))) == 1 and len(names(repeated)) > 1
    uneven = _load("uneven-depths")
    depths = []

    def leaf_depths(node, depth):
        if not node["children"]:
            depths.append(depth)
        for child in node["children"]:
            leaf_depths(child, depth + 1)

    leaf_depths(uneven["tree"], 0)
    assert min(depths) < max(depths)
    # Some call's horizon lies below a shallow leaf, so that leaf is evaluated above the horizon.
    assert any(min(depths) < c["max_depth"] < max(depths) for c in uneven["calls"])
    assert max(len(n["children"]) for n in [_load("wide-node")["tree"]]) >= 10


def test_reference_matches_an_independent_anytree_minimax():
    """The reference runs on plain data; the textbook version runs on anytree nodes. They agree."""
    from anytree import Node

    def build(data, parent=None):
        node = Node(data["name"], parent=parent, value=data["value"])
        for child in data["children"]:
            build(child, node)
        return node

    def textbook(node, max_depth, player_a_moves):
        if max_depth == 0 or not node.children:
            return node.value
        values = [textbook(child, max_depth - 1, not player_a_moves) for child in node.children]
        return max(values) if player_a_moves else min(values)

    for path in TREE_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        root = build(data["tree"])
        for call in data["calls"]:
            assert textbook(root, call["max_depth"], call["player_a_moves"]) == call["expected"], (path.stem, call)
