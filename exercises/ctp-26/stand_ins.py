# --- Stand-ins for the helpers the grader provides, so that this file runs at home. -----------
# While grading, the grader's own get_value and get_next_valid_moves replace these before every
# call, so whatever you write above must use them only as the statement says.
from anytree import Node

_HEURISTIC = {}  # node identity -> heuristic value (names repeat in a tree, so not by name)


def get_value(node):
    """Stand-in: the heuristic value of `node`."""
    return _HEURISTIC[id(node)]


def get_next_valid_moves(node):
    """Stand-in: the nodes reachable from `node` in one move, left to right."""
    return node.children


def build_tree(data, parent=None):
    """An anytree tree from plain data {"name", "value", "children"}, values known to get_value."""
    node = Node(data["name"], parent=parent)
    _HEURISTIC[id(node)] = data["value"]
    for child in data["children"]:
        build_tree(child, node)
    return node


EXAMPLE = None  # the statement's example, written in when the starter is made


if __name__ == "__main__":
    root = build_tree(EXAMPLE["tree"])
    print(f"minimax(root, {EXAMPLE['max_depth']}, {EXAMPLE['player_a_moves']}) =",
          minimax(root, EXAMPLE["max_depth"], EXAMPLE["player_a_moves"]))
