"""The ctp-26 driver's snapshot: every change a student can make to the tree shows, reading does not."""

from __future__ import annotations

import importlib.util

import pytest
from anytree import Node

TREE = {"name": "Move Y", "value": 7, "children": [
    {"name": "Move X", "value": 2, "children": [{"name": "Move Z", "value": 5, "children": []}]},
    {"name": "Move W", "value": 10, "children": []},
]}


@pytest.fixture(scope="module", params=["ctp-26", "alphabeta"])
def driver(request):
    """ctp-26's driver, and alphabeta's, which shares its trees and must share its notion of change."""
    from grader.judging import exercise

    spec = importlib.util.spec_from_file_location(f"_test_driver_{request.param}", exercise.load(request.param).driver_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["quick", "snapshot"])
def way(request):
    """The harness asks ``changed`` when a driver has it, else compares a fresh snapshot: both must agree."""
    return request.param


def changed(driver, change, way="quick") -> bool:
    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    change(built.root)
    if way == "quick":
        return driver.changed(built, before)
    return driver.snapshot(built) != before


def test_reading_the_tree_is_not_a_change(driver, way):
    def read(root):
        for node in root.descendants:
            node.children, node.is_leaf, node.parent, node.name, node.depth  # noqa: B018
    assert not changed(driver, read, way)


@pytest.mark.parametrize("change", [
    lambda root: setattr(root.children[0], "name", "Move Q"),
    lambda root: setattr(root.children[1], "value", 3),
    lambda root: setattr(root, "children", list(reversed(root.children))),
    lambda root: setattr(root.children[0].children[0], "parent", None),
    lambda root: Node("Move V", parent=root.children[1]),
    lambda root: setattr(root.children[0].children[0], "parent", root),
], ids=["rename", "new-attribute", "reorder", "detach", "add-child", "move"])
def test_every_change_shows(driver, change, way):
    assert changed(driver, change, way)


def test_an_equal_but_new_name_is_no_change(driver, way):
    """The quick identity comparison differs, so the careful one decides: same text, same tree."""
    def rename_to_itself(root):
        root.name = "".join(list(root.name))
    assert not changed(driver, rename_to_itself, way)


def test_a_child_list_changed_in_place_shows(driver, way):
    """anytree's own list, changed behind its back: same list object, other contents."""
    def sneak(root):
        kids = root.__dict__["_NodeMixin__children"]
        kids.reverse()
    assert changed(driver, sneak, way)


def test_a_node_made_into_something_else_shows_without_running_its_code(driver):
    """A replaced ``__dict__`` (a dict subclass) or class: changed, and none of its methods is called."""
    called = []

    class Loud(dict):
        def get(self, *args):
            called.append("get")
            return dict.get(self, *args)

        def __iter__(self):
            called.append("iter")
            return dict.__iter__(self)

        def __len__(self):
            called.append("len")
            return dict.__len__(self)

    class Other(Node):
        pass

    def new_dict(root):
        root.__dict__ = Loud(root.__dict__)

    def new_class(root):
        root.children[0].__class__ = Other

    assert changed(driver, new_dict) and changed(driver, new_class)
    assert called == []


def test_the_nodes_are_the_ones_the_snapshot_held(driver):
    """``changed`` reads the nodes ``before`` holds by weak reference, never the driver's list: a call that
    changes the tree and then hands the driver a list of pristine clones has still changed it, and a
    node that is gone altogether (its weak reference dead) is a change as well."""
    import copy
    import gc

    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    clones = copy.deepcopy(built.nodes)
    built.root.children[0].name = "Move Q"
    built.nodes = clones
    assert driver.changed(built, before)

    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    leaf = built.root.children[1]
    built.nodes.remove(leaf)
    built.index_of.clear()
    leaf.parent = None
    del leaf
    gc.collect()
    assert driver.snapshot.__globals__["_dereference"](before[-1]) is None  # the leaf is gone
    assert driver.changed(built, before)


def test_a_snapshot_holds_no_node_strongly(driver):
    """Every node in a snapshot is a weak reference: the call's seal hashes the rest of the snapshot, and a
    node's ``__hash__`` is anytree's class's, which students may change."""
    import weakref

    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    assert [type(item) for item in before[2:]] == [weakref.ref] * len(built.nodes)
    assert [item() for item in before[2:]] == built.nodes
