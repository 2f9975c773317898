"""One-way layers: the grader's import graph, read from the source without importing anything.

Every module under ``grader/`` is parsed with :mod:`ast`; every import of a grader module counts,
at module level or inside a function (a lazy import is still a dependency), relative or absolute,
and ``importlib.import_module("grader....")`` with a literal (or an f-string's literal prefix).
Only imports under ``if TYPE_CHECKING:`` and ``if __name__ == "__main__":`` are left out: neither
runs when the module is imported.

A *layer* is a subpackage (``grader.kit``) or a top-level module (``grader.paths``); the root
package ``grader`` is a layer of its own. The test fails on

- an import circle between layers (``grader.kit -> grader.judging -> grader.kit``);
- an import circle between modules of one layer;
- an import of a layer that the importing layer's docstring does not allow: each layer's docstring
  (the subpackage's ``__init__.py``, the module's own) has one line ``May import: grader.x, grader.y``
  (or ``May import: nothing``), and that line is the whole list.

Each failure prints the circle or the offending import with the file and line that makes it.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

GRADER = Path(__file__).resolve().parent.parent / "grader"

# Imports that still go up a layer, each with why it is still here and what removes it. Nothing else is
# excused; an entry that no longer matches an import fails the test, so the list only ever shrinks.
PENDING = {
    ("grader.similarity.sources", "grader.doors.student_door"):
        "the starter text every student is handed (subtracted from similarity) is built in the student "
        "door; it moves below the doors (with doors/student_door.py importing it) when grader/doors/ is "
        "free to edit (issue 26)",
}
MAY_IMPORT = re.compile(r"^\s*May import:\s*(.*?)\s*$", re.MULTILINE)


# --- the graph -----------------------------------------------------------------------------------


def module_name(path: Path) -> str:
    parts = list(path.relative_to(GRADER.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(GRADER.rglob("*.py"))}


def is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def layer_of(name: str) -> str:
    return ".".join(name.split(".")[:2])


def _never_on_import(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` (only a type checker reads it) or ``if __name__ == "__main__":`` (runs only when
    the module is the program, ``python -m ...``, never when another module imports it)."""
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    if isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
        return True
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == "__main__")


def _import_nodes(tree: ast.AST):
    """Every import node, at any depth, except in the body of ``if TYPE_CHECKING:`` or ``if __name__ == "__main__":``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _never_on_import(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.Call):
            target = _import_module_target(node)
            if target:
                yield (node.lineno, target)
        stack.extend(ast.iter_child_nodes(node))


def _import_module_target(call: ast.Call) -> str | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__") or not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        return prefix.rsplit(".", 1)[0] if "." in prefix else None
    return None


def _existing(name: str) -> str | None:
    """The grader module ``name`` names, or the nearest enclosing one that exists."""
    while name:
        if name in modules():
            return name
        name = name.rpartition(".")[0]
    return None


def _resolve(importer: str, node) -> list[str]:
    if isinstance(node, tuple):  # import_module("grader....")
        target = node[1]
        return [m] if target.split(".")[0] == "grader" and (m := _existing(target)) else []
    if isinstance(node, ast.Import):
        return [m for a in node.names if a.name.split(".")[0] == "grader" and (m := _existing(a.name))]
    if node.level:
        package = importer if is_package(importer) else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    if base.split(".")[0] != "grader":
        return []
    found = []
    for alias in node.names:
        # `from grader.kit import search` imports the module grader.kit.search;
        # `from grader.kit.search import minimax` imports grader.kit.search.
        sub = f"{base}.{alias.name}"
        target = sub if sub in modules() else _existing(base)
        if target:
            found.append(target)
    return found


@cache
def graph() -> dict[str, dict[str, list[str]]]:
    """importer -> {imported: ["grader/x.py:12", ...]}, self-imports left out."""
    edges: dict[str, dict[str, list[str]]] = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        out: dict[str, list[str]] = defaultdict(list)
        for node in _import_nodes(tree):
            lineno = node[0] if isinstance(node, tuple) else node.lineno
            for target in _resolve(name, node):
                if target != name and (name, target) not in PENDING:
                    out[target].append(f"{path.relative_to(GRADER.parent)}:{lineno}")
        edges[name] = dict(out)
    return edges


def layer_graph() -> dict[str, dict[str, list[str]]]:
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for importer, targets in graph().items():
        edges[layer_of(importer)]  # every layer is a node, even one that imports nothing
        for target, where in targets.items():
            if layer_of(target) != layer_of(importer):
                edges[layer_of(importer)][layer_of(target)].extend(where)
    return {k: dict(v) for k, v in edges.items()}


# --- circles -------------------------------------------------------------------------------------


def strongly_connected(nodes, succ) -> list[list[str]]:
    """Tarjan's components with more than one node, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(succ(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(succ(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def shortest_cycle(component: list[str], succ) -> list[str]:
    """A shortest circle through the component's first node, as [a, b, ..., a]."""
    members = set(component)
    start = component[0]
    parent = {start: None}
    queue = [start]
    for node in queue:
        for child in sorted(succ(node)):
            if child not in members:
                continue
            if child == start:
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
            if child not in parent:
                parent[child] = node
                queue.append(child)
    raise AssertionError("a strongly connected component without a circle")


def describe(cycle: list[str], edges: dict[str, dict[str, list[str]]]) -> str:
    lines = [" -> ".join(cycle)]
    for a, b in zip(cycle, cycle[1:]):
        where = edges[a][b]
        more = f" (+{len(where) - 1} more)" if len(where) > 1 else ""
        lines.append(f"    {a} -> {b}: {where[0]}{more}")
    return "\n".join(lines)


def circles(edges: dict[str, dict[str, list[str]]]) -> list[str]:
    """For each knot of mutually importing nodes: its members, then a shortest circle through each."""
    succ = lambda n: edges.get(n, {}).keys()  # noqa: E731
    found = []
    for component in strongly_connected(edges, succ):
        seen, shown = set(), []
        for member in component:
            cycle = shortest_cycle([member, *(m for m in component if m != member)], succ)
            key = frozenset(zip(cycle, cycle[1:]))
            if key not in seen:
                seen.add(key)
                shown.append(describe(cycle, edges))
        found.append(f"knot of {len(component)}: {', '.join(component)}\n" + "\n".join(shown))
    return found


def test_no_circle_between_layers():
    found = circles(layer_graph())
    assert not found, "import circles between grader's layers:\n" + "\n".join(found)


def test_no_circle_between_modules_of_one_layer():
    inside = {
        importer: {t: w for t, w in targets.items() if layer_of(t) == layer_of(importer)}
        for importer, targets in graph().items()
    }
    found = circles(inside)
    assert not found, "import circles inside a layer:\n" + "\n".join(found)


# --- declared layers -----------------------------------------------------------------------------


def layers() -> list[str]:
    return sorted({layer_of(m) for m in modules()})


def declared(layer: str) -> set[str]:
    path = modules()[layer]
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    lines = MAY_IMPORT.findall(docstring)
    assert len(lines) == 1, f"{path.relative_to(GRADER.parent)}: its docstring needs one 'May import:' line"
    listed = {item.strip() for item in lines[0].split(",") if item.strip()}
    if listed == {"nothing"}:
        return set()
    unknown = listed - set(layers())
    assert not unknown, f"{path.relative_to(GRADER.parent)}: 'May import:' names no layer: {sorted(unknown)}"
    return listed


@pytest.mark.parametrize("layer", layers())
def test_layer_imports_only_what_it_declares(layer):
    allowed = declared(layer)
    outside = {t: w for t, w in layer_graph()[layer].items() if t not in allowed}
    assert not outside, f"{layer} imports layers its 'May import:' line does not list:\n" + "\n".join(
        f"    {t}: {', '.join(w)}" for t, w in sorted(outside.items())
    )


def test_the_reader_sees_lazy_relative_and_dynamic_imports():
    """The graph is only as good as its reader: check it on a few imports known to be there."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from grader.doors import cli\n"
        "def f():\n    from . import scratch\n    import grader.paths\n"
        "if __name__ == '__main__':\n    from grader.bulk import batch\n"
        "importlib.import_module(f'grader.export.{x}')\n"
    )
    found = set()
    for node in _import_nodes(tree):
        found.update(_resolve("grader.sandbox.launch", node))
    assert found == {"grader.sandbox.scratch", "grader.paths", "grader.export"}


def test_declared_layers_are_an_order():
    """The 'May import:' lines themselves have no circle, so they name one order of the layers."""
    declared_edges = {layer: {t: ["May import"] for t in declared(layer)} for layer in layers()}
    found = circles(declared_edges)
    assert not found, "the 'May import:' lines allow a circle:\n" + "\n".join(found)


@pytest.mark.parametrize("edge", sorted(PENDING))
def test_each_pending_import_is_still_there(edge):
    importer, target = edge
    tree = ast.parse(modules()[importer].read_text(encoding="utf-8"))
    found = {t for node in _import_nodes(tree) for t in _resolve(importer, node)}
    assert target in found, f"{importer} no longer imports {target}: remove it from PENDING"
