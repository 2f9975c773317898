"""The tree driver builds each node's dict itself (no method of anytree's runs while the harness builds
the next tree, see ``Built._make``): the nodes must be exactly what anytree's own constructor makes,
so a student's code sees the same tree either way."""

from anytree import Node, PreOrderIter

from grader.kit import tree_driver

TREE = {"name": "root", "children": [
    {"name": "a", "children": [{"name": "a1", "children": []}, {"name": "a2", "children": []}]},
    {"name": "b", "children": []},
    {"name": "a", "children": [{"name": "x", "children": [{"name": "y", "children": []}]}]},
]}


def _by_anytree(data, parent=None):
    node = Node(data["name"], parent=parent)
    node.children  # noqa: B018 - the children list anytree adds on first read
    for child in data["children"]:
        _by_anytree(child, node)
    return node


def test_a_built_tree_is_key_by_key_what_anytree_makes():
    built = tree_driver.build({"tree": TREE})
    theirs = list(PreOrderIter(_by_anytree(TREE)))
    ours = list(PreOrderIter(built.root))
    assert ours == built.nodes and len(ours) == len(theirs) == 8
    for mine, reference in zip(ours, theirs):
        assert type(mine) is Node
        assert list(vars(mine)) == list(vars(reference))
        assert mine.name == reference.name and mine.depth == reference.depth
        assert [c.name for c in mine.children] == [c.name for c in reference.children]
        assert (mine.parent.name if mine.parent else None) == (reference.parent.name if reference.parent else None)
    assert str(built.nodes[-1].path) == str(theirs[-1].path)


def test_building_runs_no_method_of_anytree(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("anytree code ran while the driver built a tree")

    for name in ("__init__", "_NodeMixin__attach", "_pre_attach", "_post_attach"):
        if hasattr(Node, name):
            monkeypatch.setattr(Node, name, refuse)
    monkeypatch.setattr(Node, "parent", property(refuse, refuse))
    built = tree_driver.build({"tree": TREE})
    assert len(built.nodes) == 8
