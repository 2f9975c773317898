"""Code written against another API, said in one line instead of the same crash in every check.

A submission that reads ``node.value`` or ``node["children"]`` where the exercise hands over
``get_value(node)``, calls ``get_children`` where ``get_next_valid_moves`` is provided, puts
``minimax`` in a class, or adds a ``depth`` parameter nobody passes, is not wrong about
minimax: it speaks another exercise's language. Every case then raises the same way, and a
report of seven failed checks with one crash each helps nobody. This module recognises
those crashes, from the sandbox's plain replies (the exception's type and text) and from the
submission's source read with ``ast`` (never imported), and words one line: what the code
used, what the exercise provides, and how the grader calls it.

An exercise states its API in its hooks module: ``API_PROVIDES`` (the helpers, as call
forms such as ``"get_value(node)"``), ``API_CALLS`` (how the grader calls the student's
functions; default: the entry point with its parameters) and ``API_OBJECTS`` (type names of
the objects it hands over, e.g. ``{"Node": "node"}``: only their missing attributes are a
mismatch, never a ``None`` the student's own bug produced). A kit exercise (``grader/kit/``)
answers the same hooks from its declaration (``grader/kit/student_api.py``), plus ``API_NAMES``
(helpers and constants it hands over) and ``API_ANSWER_KINDS`` (its checks that ask for answers).
"""

from __future__ import annotations

import ast
from grader import python_source
import builtins
import json
import re
import sys
from pathlib import Path

_ATTRIBUTE = re.compile(r"^AttributeError: '(\w+)' object has no attribute '(\w+)'")
_SUBSCRIPT = re.compile(r"^TypeError: (?:'(\w+)' object is not subscriptable|(\w+) indices must be integers)")
_NAME = re.compile(r"^NameError: name '(\w+)' is not defined")
_ARGUMENTS = re.compile(r"^TypeError: (\w+)\(\) (?:missing \d+ required positional arguments?: (.*?)(?: \(line|$)"
                        r"|takes (\d+) positional arguments? but (\d+) (?:was|were) given)")


def calls_of(exercise) -> list[str]:
    """How the grader calls the student's code, in the statement's words."""
    custom = exercise.hook("API_CALLS")
    if custom:
        return list(custom)
    return [f"{exercise.entry_point}({', '.join(exercise.parameters)})"]


def provides_of(exercise) -> list[str]:
    """The helpers as call forms. An exercise copied and renamed (``provided_helpers`` changed in its
    toml, the hooks left as they were) gets its own names, never the original's."""
    custom = list(exercise.hook("API_PROVIDES") or [])
    helpers = list(exercise.provided_helpers)
    if not helpers:
        return custom
    by_name = {form.split("(")[0]: form for form in custom}
    return [by_name.get(name, f"{name}(...)") for name in helpers]


def _helper_names(exercise) -> list[str]:
    """Every name the exercise hands over: its ``provided_helpers``, else its hooks' ``API_NAMES``."""
    return list(exercise.provided_helpers) + list(exercise.hook("API_NAMES") or [])


def _api_words(exercise, calls: bool = True, about: str | None = None) -> str:
    """What the exercise provides and how it calls the student's code (only the call of the
    function ``about`` names, when it is one of them)."""
    provided = provides_of(exercise)
    every = calls_of(exercise)
    how = _join(next(([c] for c in every if about and c.startswith(about + "(")), every))
    if provided and calls:
        return f"this exercise provides {_join(provided)}, and the grader calls {how}"
    if provided:
        return f"this exercise provides {_join(provided)}"
    return f"the grader calls {how}"


def _join(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# -- the source, read with ast only -----------------------------------------------------------

def _trees(files) -> list[ast.AST]:
    trees = []
    for path in files or ():
        try:
            trees.append(python_source.parse(Path(path).read_bytes()))
        except (OSError, SyntaxError, ValueError, RecursionError):
            pass
    return trees


def _attribute_reads(trees, attribute: str) -> list[str]:
    """``x.attribute`` as written, e.g. ``node.value`` (the variable's own name)."""
    seen = []
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == attribute and isinstance(node.value, ast.Name):
                text = f"{node.value.id}.{attribute}"
                if text not in seen:
                    seen.append(text)
    return seen


def _string_subscripts(trees) -> list[str]:
    """``x["key"]`` as written, for every string key read from a plain name."""
    seen = []
    for tree in trees:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                    and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                key = node.slice.value if len(node.slice.value) <= 30 else node.slice.value[:29] + "…"
                text = f"{node.value.id}[{json.dumps(key, ensure_ascii=False)}]"
                if text not in seen:
                    seen.append(text)
    return seen


def _undefined_calls(trees, provided: set[str]) -> list[str]:
    """Names called as functions that nothing in the submission defines, imports or is handed."""
    defined, called = set(provided) | set(dir(builtins)), []
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                defined.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in defined:
                if node.func.id not in called:
                    called.append(node.func.id)
    return called


def _methods_named(trees, names) -> list[str]:
    """``Class.method`` for every method whose name is one of ``names``."""
    found = []
    for tree in trees:
        for node in tree.body if isinstance(tree, ast.Module) else ():
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in names:
                        found.append(f"{node.name}.{item.name}")
    return found


def _top_level_functions(trees) -> dict[str, list[str]]:
    found = {}
    for tree in trees:
        for node in tree.body if isinstance(tree, ast.Module) else ():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(node.name, [a.arg for a in node.args.args])
    return found


# -- load errors -------------------------------------------------------------------------------

_NO_MODULE = re.compile(r"No module named '([\w.]+)'")


def _own_modules(files) -> set[str]:
    """The module names the submission's own files give (a multi-file submission imports its own parts)."""
    return {Path(path).stem for path in files or ()}


def _imports_of(trees, module: str) -> list[str]:
    """How the source imports ``module``, as written: ``from board import *``, ``import game_types``."""
    found = []
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == module:
                names = ", ".join(a.name for a in node.names)
                found.append(f"from {node.module} import {names} (line {node.lineno})")
            elif isinstance(node, ast.Import):
                found += [f"import {a.name} (line {node.lineno})" for a in node.names if a.name.split(".")[0] == module]
    return found


def _is_main_guard(node) -> bool:
    test = getattr(node, "test", None)
    return (isinstance(node, ast.If) and isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__")


def _input_at_load(trees) -> list[int]:
    """Lines where the file asks for ``input()`` while it is loaded: at module level (outside a function and
    outside ``if __name__ == "__main__":``), or inside a function the module level calls."""
    lines = []
    for tree in trees:
        if not isinstance(tree, ast.Module):
            continue
        functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

        def inputs_in(node, seen=()):
            found = []
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                    if inner.func.id == "input":
                        found.append(inner.lineno)
                    elif inner.func.id in functions and inner.func.id not in seen:
                        found += inputs_in(functions[inner.func.id], (*seen, inner.func.id))
            return found

        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or _is_main_guard(node):
                continue
            lines += inputs_in(node)
    return sorted(set(lines))


def _as_a_package(files, trees, missing: str | None, error: str | None) -> str | None:
    """A folder written as a package (``__init__.py``, ``from .search import minimax``, ``from hw.search import
    minimax``): the grader reads a folder's files as modules side by side, each by its own name, and said "a module
    this exercise does not have ... remove the import" of the student's own folder (the 125th helper). Said only
    where the imports show it, with the module they name (a folder that merely shares a course module's name, as
    ``utils`` for AIMA's, is not a package of the student's: the 126th helper)."""
    paths = [Path(path) for path in files or ()]
    if len(paths) < 2:
        return None  # a file alone: the messages below
    folder = paths[0].parent.name
    relative = "attempted relative import" in (error or "")
    if not relative and not (missing == folder and any(path.name == "__init__.py" for path in paths)):
        return None
    own = {path.stem for path in paths if path.name != "__init__.py"}
    target = None
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and relative and node.level > 0:
                target = node.module.split(".")[0] if node.module else node.names[0].name
            elif isinstance(node, ast.ImportFrom) and not relative and node.level == 0 and node.module \
                    and node.module.startswith(folder + "."):
                target = node.module.split(".")[1]
            elif isinstance(node, ast.Import) and not relative:
                target = next((alias.name.split(".")[1] for alias in node.names
                               if alias.name.startswith(folder + ".")), None)
            if target in own:
                how = "a relative import" if relative else f"import {folder}"
                return (f"your files import each other as a package ({how}): the grader reads the files of your folder "
                        f"as modules side by side, each by its own name, not as a package named {folder}: write "
                        f"`from {target} import ...` (and leave __init__.py out, or keep it without imports)")
            target = None
    return None


def explain_load_error(exercise, files, error: str) -> str:
    """The load error, with the method found where a function is due and the exercise's API; an import of
    a module the course handed out, or a game loop asking for input when the file is loaded, said as such."""
    trees = _trees(files)
    module = _NO_MODULE.search(error or "")
    package = _as_a_package(files, trees, module.group(1).split(".")[0] if module else None, error)
    if package:
        return package
    if module and module.group(1).split(".")[0] not in _own_modules(files):
        name = module.group(1).split(".")[0]
        written = _imports_of(trees, name)
        shown = written[0] if written else f"import {name}"
        if name in sys.stdlib_module_names:  # the sandbox means to offer every standard module: a machine's limit
            return (f"your file imports {name} ({shown}), a standard module that the grader's sandbox could not load "
                    "on this machine: that is how the grader is installed here (for example a Python that other "
                    "users cannot read, under a private /root), not a mistake in your code; ask whoever runs the "
                    f"grader, or leave the import out. {_api_words(exercise)[:1].upper()}{_api_words(exercise)[1:]}")
        return (f"your file imports {name} ({shown}), a module this exercise does not have: the grader loads your "
                f"file alone, so remove the import and use what the exercise hands over: {_api_words(exercise)}")
    asks = _input_at_load(trees) if "EOFError" in (error or "") or "input" in (error or "") else []
    if asks:
        return (f"your file asks for input() when it is loaded (line {asks[0]}), and the grader has no keyboard: "
                "put the game loop under `if __name__ == \"__main__\":` so that loading the file only defines "
                f"functions; {_api_words(exercise)}")
    due = _function_names(exercise)
    missing = re.search(r"defines no function named (\w+)", error or "")
    if missing:
        methods = _methods_named(trees, {missing.group(1)})
        if methods:
            return (f"found {methods[0]}, a method of class {methods[0].split('.')[0]}, where a function "
                    f"{missing.group(1)} is due (not inside a class): {_api_words(exercise)}")
        return f"{error}: {_api_words(exercise)}"
    if "cannot be called with" in (error or ""):  # the error already says how it is called
        return f"{error}; {_api_words(exercise, calls=not provides_of(exercise))}"
    if not due & set(_top_level_functions(trees)):
        methods = _methods_named(trees, due)
        if methods and "defines none" in (error or ""):
            return (f"found {_join(methods)}, method{'s' if len(methods) > 1 else ''} of a class, where "
                    f"functions are due (not inside a class): {_api_words(exercise)}")
    return error


def _function_names(exercise) -> set[str]:
    names = {exercise.entry_point}
    for part in exercise.parts or ():
        names.update(part.get("defines", ()))
    return names


# -- replies -----------------------------------------------------------------------------------

def _classify(raised: str, exercise):
    objects = exercise.hook("API_OBJECTS") or {}
    if m := _ATTRIBUTE.match(raised):
        return ("attribute", m.group(2)) if m.group(1) in objects else None
    if m := _SUBSCRIPT.match(raised):
        return ("subscript", "") if (m.group(1) or m.group(2)) in objects else None
    if m := _NAME.match(raised):
        return ("name", m.group(1))
    if m := _ARGUMENTS.match(raised):
        function = m.group(1)
        if function in _function_names(exercise) or function in _helper_names(exercise):
            return ("arguments", function)
    return None


def explain_replies(exercise, files, outcomes) -> str | None:
    """One line when the replies show an API mismatch, else None.

    A function called with other parameters than it takes: every case of one answers check
    raised that TypeError (the other functions of a multi-part exercise may be fine). Anything
    read or called that is not provided: every case of every answers check of the part raised
    the same kind of error, so a bug that crashes on some inputs only stays a failed check."""
    by_group: dict[str, list] = {}
    for outcome in outcomes:
        by_group.setdefault(outcome.case.group, []).append(outcome)
    by_part: dict[object, list] = {}
    answer_kinds = exercise.hook("API_ANSWER_KINDS") or ("answers",)
    for spec in exercise.checks:
        if spec.kind not in answer_kinds:
            continue
        asked = [o for g in (spec.groups or by_group) for o in by_group.get(g, ())
                 if "skipped" not in o.raw and not o.raw.get("timed_out")]
        order = _other_order(exercise, files, asked)
        if order is not None:
            return order
        kinds = _kinds_if_all_raised(asked, exercise)
        if kinds and kinds[0][0] == "arguments":
            return _words(exercise, files, kinds[0], str(asked[0].raw["raised"]))
        by_part.setdefault(spec.params.get("part"), []).append((asked, kinds))
    for checks in by_part.values():
        if all(kinds for _, kinds in checks):
            every = [k for _, kinds in checks for k in kinds]
            if len({k[0] for k in every}) == 1:
                return _words(exercise, files, every[0], str(checks[0][0][0].raw["raised"]))
    return None


def _other_order(exercise, files, asked) -> str | None:
    """Every case raised, and the function due takes the parameters the grader passes in another order
    (read with ``ast``): one line about the order, not an AttributeError in every check."""
    if not asked or not all(o.raw.get("raised") for o in asked):
        return None
    defined = _top_level_functions(_trees(files))
    for call in calls_of(exercise):
        name, _, rest = call.partition("(")
        passed = [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]
        mine = defined.get(name)
        if mine is not None and len(passed) > 1 and mine != passed and sorted(mine) == sorted(passed):
            return (f"{name}({', '.join(mine)}) takes its parameters in another order than the grader passes them: "
                    f"the grader calls {call}")
    return None


def _kinds_if_all_raised(asked, exercise) -> list | None:
    """The mismatch kind of every case, if every case raised one of one kind (names may differ)."""
    if not asked or not all(o.raw.get("raised") for o in asked):
        return None
    kinds = [_classify(str(o.raw["raised"]), exercise) for o in asked]
    if None in kinds or len({k[0] for k in kinds}) != 1:
        return None
    return kinds


def _words(exercise, files, kind, raised: str) -> str:
    trees = _trees(files)
    api = _api_words(exercise)
    what, detail = kind
    if what == "attribute":
        used = _attribute_reads(trees, detail) or [f"<object>.{detail}"]
        return f"your code reads {_join(used)}, which this exercise does not provide: {api}"
    if what == "subscript":
        used = _string_subscripts(trees) or ["the object it is given as a dict or a list"]
        return f"your code reads {_join(used[:4])}, but what it is given is not a dict: {api}"
    if what == "name":
        names = _undefined_calls(trees, set(_helper_names(exercise))) or [detail]
        if detail not in names:
            names.insert(0, detail)
        shown = [f"{n}(...)" for n in names[:4]]
        return f"your code calls {_join(shown)}, which this exercise does not provide: {api}"
    api = _api_words(exercise, about=detail)
    defined = _top_level_functions(trees).get(detail)
    if defined is not None:
        return f"{detail}({', '.join(defined)}) has other parameters than the grader passes: {api}"
    return f"{detail} is called with other arguments than it takes ({raised.split(' (line')[0]}): {api}"
