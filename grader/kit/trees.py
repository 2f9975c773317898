"""Game trees as plain data, for exercises whose positions are explicit trees.

A node is ``{"value": v, "moves": [[label, child], ...]}``: a node without moves ends the game and
is worth its value; a node with moves carries a guess that only a wrong search reads. Labels are
ints or names. Written once for any game that is a tree: random trees drawn by hypothesis (every
choice a small integer, so they shrink towards fewer, simpler branches), simpler trees for the
judge's shrinker, sizes, and pictures as text and as the HTML report's drawing data. Who is to
move at a node is the exercise's to say (``mover(level)``: words for the side to move at a depth).
"""

from __future__ import annotations

NAMES = ["left", "right", "up", "down", "stay", "jump"]


def strategy(max_nodes: int = 30, max_height: int = 4, values=(-5, 5), names=NAMES):
    """Random trees whose root has at least one move: int or named labels, values from a small range
    (so ties happen on purpose), at most ``max_nodes`` nodes and ``max_height`` moves deep."""
    from hypothesis import strategies as st

    @st.composite
    def trees(draw):
        named = draw(st.booleans())
        budget = [draw(st.integers(3, max_nodes))]
        height = draw(st.integers(1, max_height))

        def node(level):
            budget[0] -= 1
            moves = []
            if level == 0 or (level < height and budget[0] > 0 and draw(st.integers(0, 3)) > 0):
                count = draw(st.integers(1, 4))
                labels = (draw(st.permutations(names))[:count] if named
                          else draw(st.lists(st.integers(0, 9), min_size=count, max_size=count, unique=True)))
                for label in labels:
                    if budget[0] <= 0 and moves:
                        break
                    moves.append([label, node(level + 1)])
            return {"value": draw(st.integers(*values)), "moves": moves}

        return node(0)

    return trees()


def size(node) -> int:
    return 1 + sum(size(child) for _, child in node["moves"])


def paths(node, path=()):
    """Every node's path (child indices from the root), preorder."""
    yield path
    for i, (_, child) in enumerate(node["moves"]):
        yield from paths(child, path + (i,))


def at(node, path):
    for i in path:
        node = node["moves"][i][1]
    return node


def replace(node, path, new):
    """A copy of the tree with the node at ``path`` replaced by ``new``."""
    if not path:
        return new
    moves = [list(m) for m in node["moves"]]
    moves[path[0]][1] = replace(moves[path[0]][1], path[1:], new)
    return {**node, "moves": moves}


def simpler(tree) -> list:
    """Smaller trees: the game ended at an inner node, one branch dropped, then one value made simpler."""
    out = []
    for path in paths(tree):
        node = at(tree, path)
        if node["moves"] and path:  # end the game here
            out.append(replace(tree, path, {**node, "moves": []}))
        if len(node["moves"]) > 1:  # drop one branch
            for i in range(len(node["moves"])):
                out.append(replace(tree, path, {**node, "moves": node["moves"][:i] + node["moves"][i + 1:]}))
    for path in paths(tree):
        node = at(tree, path)
        for value in (0, 1, -1):
            if abs(value) < abs(node["value"]) or (value != node["value"] and value == 0):
                out.append(replace(tree, path, {**node, "value": value}))
                break
    return out


def text(tree, root_line: str, mover) -> str:
    """The tree drawn with branch lines: each move, then who moves next or the end value."""
    lines = [root_line]

    def walk(node, level, prefix):
        for i, (label, child) in enumerate(node["moves"]):
            last = i == len(node["moves"]) - 1
            what = mover(level + 1) if child["moves"] else f"game over, value {child['value']}"
            lines.append(f"{prefix}{'└── ' if last else '├── '}move {label!r} → {what}")
            walk(child, level + 1, prefix + ("    " if last else "│   "))

    walk(tree, 0, "")
    return "\n".join(lines)


def drawing(tree, mover) -> dict:
    """The report's drawing data: a node's id is the path of move labels from the root ("/'a'/3")."""
    def walk(node, level, label, path):
        detail = mover(level) if node["moves"] else f"value {node['value']}"
        children = [walk(child, level + 1, f"move {move!r}", f"{path}/{move!r}") for move, child in node["moves"]]
        return {"id": path, "label": label, "detail": detail, "children": children}

    return {"kind": "tree", "root": walk(tree, 0, "root", "")}


def root_marks(answer_plain, best) -> dict:
    """Marks for ``drawing``: the root's child the answer names (if it is a label) and the best ones."""
    return {"yours_node": f"/{answer_plain!r}" if type(answer_plain) in (int, str) else None,
            "best_nodes": [f"/{m!r}" for m in best]}
