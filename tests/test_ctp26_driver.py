"""The ctp-26 driver's snapshot: every change a student can make to the tree shows, reading does not."""

from __future__ import annotations

import importlib.util

import pytest
from anytree import Node

TREE = {"name": "Move Y", "value": 7, "children": [
    {"name": "Move X", "value": 2, "children": [{"name": "Move Z", "value": 5, "children": []}]},
    {"name": "Move W", "value": 10, "children": []},
]}


@pytest.fixture(scope="module")
def driver(ctp26):
    spec = importlib.util.spec_from_file_location("_test_ctp26_driver", ctp26.driver_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def changed(driver, change) -> bool:
    """What the harness asks after every call: the driver's quick ``changed``."""
    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    change(built.root)
    return driver.changed(built, before)


def test_reading_the_tree_is_not_a_change(driver):
    def read(root):
        for node in root.descendants:
            node.children, node.is_leaf, node.parent, node.name, node.depth  # noqa: B018
    assert not changed(driver, read)


@pytest.mark.parametrize("change", [
    lambda root: setattr(root.children[0], "name", "Move Q"),
    lambda root: setattr(root.children[1], "value", 3),
    lambda root: setattr(root, "children", list(reversed(root.children))),
    lambda root: setattr(root.children[0].children[0], "parent", None),
    lambda root: Node("Move V", parent=root.children[1]),
    lambda root: setattr(root.children[0].children[0], "parent", root),
], ids=["rename", "new-attribute", "reorder", "detach", "add-child", "move"])
def test_every_change_shows(driver, change):
    assert changed(driver, change)


def test_an_equal_but_new_name_is_no_change(driver):
    """The quick identity comparison differs, so the careful one decides: same text, same tree."""
    def rename_to_itself(root):
        root.name = "".join(list(root.name))
    assert not changed(driver, rename_to_itself)


def test_a_child_list_changed_in_place_shows(driver):
    """anytree's own list, changed behind its back: same list object, other contents."""
    def sneak(root):
        kids = root.__dict__["_NodeMixin__children"]
        kids.reverse()
    assert changed(driver, sneak)
