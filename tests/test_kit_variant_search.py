"""The mistake families' searches as written out once (``Searcher._variant_search``, ``_Recursive``): the
node budget that keeps a family from searching a huge game holds exactly where it did, and the tree
exercises' one shared table keeps trees apart, starts afresh past its cap, and writes each family out
once, not once per tree."""

from __future__ import annotations

import pytest

from grader.kit import search, tree_mistakes
from grader.kit.families import PARAMETERISED


def _fan(leaves: int) -> dict:
    """A fresh root with ``leaves`` leaf children: a search of depth 1 enters exactly ``leaves + 1`` positions."""
    return {"name": "r", "value": 0, "children": [{"name": f"c{i}", "value": i % 7 - 3, "children": []}
                                                  for i in range(leaves)]}


@pytest.mark.parametrize("family", ["min-max-swapped", "bad-initial-bound", "sign-flip/leaves-min",
                                    "ignores-player-argument/as-max", "missing-terminal-check/default-0"])
def test_a_family_searches_up_to_the_budget_and_no_further(family):
    budget = search.VARIANT_NODE_BUDGET
    assert family in PARAMETERISED or family in search.FAMILIES
    solve = tree_mistakes.parameterised(family) if family in PARAMETERISED else tree_mistakes.family(family)
    within = _fan(budget - 1)  # the root and its children: exactly the budget
    assert isinstance(solve(within, 1, True), (int, float))
    with pytest.raises(search.TooBig):
        solve(_fan(budget), 1, True)  # one position more


def test_trees_with_the_same_names_and_values_never_share_a_value():
    """One table holds every tree: a position is a node by identity, so equal-looking trees stay apart
    and a tree built afresh is never answered from another's memo."""
    first = {"name": "r", "value": 0, "children": [{"name": "a", "value": 5, "children": []},
                                                   {"name": "b", "value": -2, "children": []}]}
    second = {"name": "r", "value": 0, "children": [{"name": "a", "value": 5, "children": []},
                                                    {"name": "b", "value": -2, "children": []}]}
    swapped = tree_mistakes.family("min-max-swapped")
    assert swapped(first, 1, True) == -2 and swapped(first, 1, False) == 5
    second["children"][0]["value"] = -9  # the same shape and names, another value
    assert swapped(second, 1, True) == -9 and swapped(first, 1, True) == -2


def test_each_family_is_written_out_once_for_all_the_trees(monkeypatch):
    monkeypatch.setattr(tree_mistakes, "_TABLE", [None])
    swapped, averaged = tree_mistakes.family("min-max-swapped"), tree_mistakes.family("averages-children")
    for i in range(40):
        tree = _fan(3 + i % 4)
        swapped(tree, 1, True)
        averaged(tree, 1, False)
    table = tree_mistakes._TABLE[0]
    assert set(table._compiled) == {("min-max-swapped", False), ("averages-children", False)}
    assert len(table.states) == 2 * sum(1 + 3 + i % 4 for i in range(40))  # each tree with A to move, and B


def test_past_its_cap_the_table_starts_afresh_and_the_answers_stay_the_same(monkeypatch):
    trees = [_fan(2 + i % 5) for i in range(30)]
    monkeypatch.setattr(tree_mistakes, "_TABLE", [None])
    monkeypatch.setattr(tree_mistakes, "_ROOTS", tree_mistakes.ByIdentity(4096))
    wide = [tree_mistakes.family("always-min")(tree, 1, True) for tree in trees]
    first_table = tree_mistakes._TABLE[0]
    monkeypatch.setattr(tree_mistakes, "TABLE_CAP", 12)
    monkeypatch.setattr(tree_mistakes, "_TABLE", [None])
    monkeypatch.setattr(tree_mistakes, "_ROOTS", tree_mistakes.ByIdentity(4096))
    tables = set()
    narrow = []
    for tree in trees:
        narrow.append(tree_mistakes.family("always-min")(tree, 1, True))
        tables.add(id(tree_mistakes._TABLE[0]))
        assert len(tree_mistakes._TABLE[0].states) <= 12 + 7  # the cap, plus the one tree that crossed it
    assert narrow == wide and len(tables) > 3 and tree_mistakes._TABLE[0] is not first_table
