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
    built = driver.build({"tree": TREE, "max_depth": 2, "player_a_moves": True})
    before = driver.snapshot(built)
    change(built.root)
    return driver.snapshot(built) != before


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
