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


@pytest.fixture(autouse=True)
def fresh_table(monkeypatch):
    """Each test its own shared table and roots (the module's are put back after it)."""
    monkeypatch.setattr(tree_mistakes, "_TABLE", [None])
    monkeypatch.setattr(tree_mistakes, "_ROOTS", tree_mistakes.ByIdentity(2048))


def _two_leaves(a, b) -> dict:
    return {"name": "r", "value": 0, "children": [{"name": "a", "value": a, "children": []},
                                                  {"name": "b", "value": b, "children": []}]}


def test_trees_with_the_same_names_never_share_a_value():
    """One table holds every tree: a position is a node by identity, so trees with the same names (and a
    tree built afresh with the same content) are each answered from their own values."""
    swapped = tree_mistakes.family("min-max-swapped")
    first, second = _two_leaves(5, -2), _two_leaves(-9, 3)
    assert swapped(first, 1, True) == -2 and swapped(first, 1, False) == 5
    assert swapped(second, 1, True) == -9 and swapped(second, 1, False) == 3
    again = _two_leaves(5, -2)
    assert swapped(again, 1, True) == -2 and swapped(first, 1, True) == -2
    table = tree_mistakes._TABLE[0]
    assert len(table.states) == 6 + 6 + 3  # three positions a tree, with A to move and with B (the last: A only)


def test_each_family_is_written_out_once_for_all_the_trees():
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
    wide = [tree_mistakes.family("always-min")(tree, 1, True) for tree in trees]
    first_table = tree_mistakes._TABLE[0]
    monkeypatch.setattr(tree_mistakes, "TABLE_CAP", 12)
    monkeypatch.setattr(tree_mistakes, "_TABLE", [None])
    monkeypatch.setattr(tree_mistakes, "_ROOTS", tree_mistakes.ByIdentity(2048))
    tables = set()
    narrow = []
    for tree in trees:
        narrow.append(tree_mistakes.family("always-min")(tree, 1, True))
        tables.add(id(tree_mistakes._TABLE[0]))
        assert len(tree_mistakes._TABLE[0].states) <= 12 + 7  # the cap, plus the one tree that crossed it
    assert narrow == wide and len(tables) > 3 and tree_mistakes._TABLE[0] is not first_table


def test_a_table_given_up_is_let_go_whole(monkeypatch):
    """Past its cap the old table is dropped by everything that held it (the roots remembered for its trees
    included), so the collector frees it: a long-lived worker never keeps more than the table in use."""
    import gc
    import weakref

    monkeypatch.setattr(tree_mistakes, "TABLE_CAP", 12)
    tree_mistakes.family("averages-children")(_fan(20), 1, True)
    old = weakref.ref(tree_mistakes._TABLE[0])
    tree_mistakes.family("averages-children")(_fan(3), 1, True)  # past the cap: a fresh table
    assert tree_mistakes._TABLE[0] is not old()
    gc.collect()
    assert old() is None
