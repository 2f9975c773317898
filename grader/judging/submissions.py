"""Turning a path on disk into a Submission, and saying in one line why it cannot be one.

A submission is one ``.py`` file or a folder of them. A folder's top-level Python files are
all part of it (students split an exercise into modules that import each other by name);
test files are left out, since they are the student's, not the solution. Nothing here runs
student code. The checks are the ones a parent can make safely from bytes: the path exists,
there are Python files, none is empty, too large, not UTF-8 or unparsable (the parse is a
courtesy for a clear message; the sandbox would find it too).
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from grader import paths, python_source
from grader.file_names import is_readable, readable

MAX_SOURCE_BYTES = 1 << 20
MAX_FILES = 40
PREFERRED_ENTRIES = ("solution.py", "minimax.py", "submission.py", "main.py")
SOLUTION_NAMES = PREFERRED_ENTRIES[:3]  # names that say "the solution" in a repository's folders (main.py runs things)


@dataclass
class Submission:
    path: Path
    display: str
    entry_file: Path | None = None
    sha256: str = ""
    problem: str | None = None
    files: list[Path] = field(default_factory=list)  # every file the sandbox gets, entry_file among them
    # Of a folder's files, read as load parsed them: (names defined at the top, names bound anywhere, a star import)
    names: dict = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        return readable(self.path.stem if self.path.suffix == ".py" else self.path.name)

    @property
    def is_folder(self) -> bool:
        return self.path.is_dir()


def is_test_file(path: Path) -> bool:
    """The student's own tests: kept out, so that ``import pytest`` in them breaks nothing."""
    name = path.name
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir()
                  if p.suffix == ".py" and p.is_file() and not p.name.startswith(".") and not is_test_file(p))


# Folders that hold no solution wherever they are: tools' metadata, environments, the student's own tests
SKIPPED_FOLDERS = frozenset({"__MACOSX", "__pycache__", ".git", ".github", ".DS_Store", ".idea", ".vscode",
                             "node_modules", ".venv", "venv"})
# Below a repository's top, folders whose Python files are not the solution (a Sphinx site's conf.py)
NOT_SOLUTION_FOLDERS = frozenset({"tests", "test", "docs", "doc"})
MAX_PYPROJECT_BYTES = 64 << 10  # a student's pyproject.toml: a table of settings, read in the grading process


def code_folder(folder: Path) -> Path | None:
    """Where the solution lives: the folder itself if it has Python files, else the shallowest subfolder that has
    (breadth first, never through a link, never into a ``tests`` or ``docs`` folder). Of several at that depth, one
    holding a file named as a solution is (``SOLUTION_NAMES``: ``src/solution.py`` beside ``lib/`` or ``examples/``,
    which sort first: the 123rd helper; not ``main.py``, a runner script's name as often: the 124th), else the
    first by name."""
    level = [folder]
    while level:
        found, below = [], []
        for current in level:
            try:
                if python_files(current):
                    found.append(current)
                    continue
                below.extend(sorted(p for p in current.iterdir() if p.is_dir() and not p.is_symlink()
                                    and p.name not in SKIPPED_FOLDERS and not p.name.startswith(".")
                                    and p.name not in NOT_SOLUTION_FOLDERS))
            except OSError:
                continue
        if found:
            named = [f for f in found if any((f / name).is_file() for name in SOLUTION_NAMES)]
            return (named or found)[0]
        level = below
    return None


def graded_folder(folder: Path) -> Path | None:
    """The folder whose files are graded when ``folder`` is handed in: the folder of the ``submission`` its own
    ``pyproject.toml`` names (``named_submission``), where it has code; else ``code_folder``. One rule for ``check``,
    the Gradescope bundle and the class grader (a repository handed in whole: the 120th helper's ``src/solution.py``
    was "contains no Python file" on Gradescope, and a top-level ``setup.py`` would be graded before the file the
    table names). None where there is no code at all."""
    return _graded_from(folder, named_submission(folder))


def _graded_from(folder: Path, named: Path | None) -> Path | None:
    """``graded_folder`` with the table's answer already read (``load`` reads it once, for the file it may name)."""
    if named is not None:
        target = named if named.is_dir() else named.parent
        try:
            if python_files(target):
                return target
        except OSError:  # a folder it may not list (unzip restores modes): the code is looked for as without a table
            pass
    return code_folder(folder)


# tomllib takes time quadratic in a dotted key's length (64 KiB of one cost 25 s and 6 GB: the 123rd helper): a line
# with more dots than any real pyproject.toml has is not parsed at all
MAX_DOTS_PER_LINE = 64


def named_submission(folder: Path) -> Path | None:
    """What ``[tool.minimax-grader] submission`` in ``folder``'s own ``pyproject.toml`` names (a file or a folder),
    inside ``folder``, as ``folder / relative path``; None for anything else. The file is the student's: read only if
    it is a regular file and not a link, at most ``MAX_PYPROJECT_BYTES`` of it, parsed only where no line has more
    than ``MAX_DOTS_PER_LINE`` dots, and any way it fails to read (a FIFO, ``/dev/zero``, bytes that are not UTF-8,
    ``tool = 1``, a NUL byte or a link loop in the name) names nothing (the 122nd and 123rd helpers hung, exhausted
    and crashed the grading process with each, for the whole class). Every form of TOML the pytest plugin reads
    (CRLF, a BOM, dotted keys, an inline table) is read alike (the 124th helper)."""
    import tomllib

    pyproject = folder / "pyproject.toml"
    try:
        if pyproject.is_symlink() or not pyproject.is_file():
            return None
        handle, _ = paths.opened_regular(pyproject, follow_links=False)
        with handle:
            data = handle.read(MAX_PYPROJECT_BYTES + 1)
        if len(data) > MAX_PYPROJECT_BYTES:
            return None
        text = data.decode("utf-8-sig")  # a BOM, and CRLF line ends, as a Windows editor writes them, read as tomllib does
        if any(line.count(".") > MAX_DOTS_PER_LINE for line in text.splitlines()):
            return None
        tool = tomllib.loads(text).get("tool")
        table = tool.get("minimax-grader") if isinstance(tool, dict) else None
        named = table.get("submission") if isinstance(table, dict) else None
        if type(named) is not str or not named.strip() or "\0" in named:
            return None
        own = folder.resolve()
        target = (folder / named.replace("\\", "/")).resolve()
        if not target.is_relative_to(own) or not target.exists():
            return None
        if target.is_file() and target.name.startswith("."):
            return None  # a hidden file is no module of a submission anywhere (python_files), so not here either
        return folder / target.relative_to(own)  # under the folder as given: its callers compare with it
    except Exception:  # noqa: BLE001 - a student's file: whatever it does, it names nothing
        return None


def _pick_entry(files: list[Path]) -> Path | None:
    if not files:
        return None
    for preferred in PREFERRED_ENTRIES:
        for path in files:
            if path.name == preferred:
                return path
    return files[0]


def load(path: str | Path) -> Submission:
    path = Path(path)
    shown = readable(str(path))
    submission = Submission(path=path, display=shown)
    if not path.exists():
        submission.problem = f"no such file or folder: {shown}"
        return submission
    if path.is_dir():
        named = named_submission(path)
        if named is not None and named.is_file() and named.suffix == ".py" and not is_test_file(named):
            files = [named]  # the file the table names, alone: as the pytest plugin and init-ci's workflow grade it
        else:
            graded = _graded_from(path, named)
            files = python_files(graded) if graded is not None else []
        if not files:
            submission.problem = f"the folder {shown} contains no Python file"
            return submission
        if len(files) > MAX_FILES:
            submission.problem = f"the folder {shown} holds {len(files)} Python files; at most {MAX_FILES} are graded"
            return submission
    elif path.suffix != ".py":
        submission.problem = f"{readable(path.name)} is not a Python file (.py)"
        return submission
    else:
        files = [path]
    if path.is_dir():
        # A link among a folder's files that leads out of it (``notes.py -> /autograder/source/run_autograder``) would
        # be copied into the sandbox as the student's own: what it holds (the grader's scripts, a neighbour's work)
        # would be theirs to read. The class grader refuses such links as it finds students; ``check`` and the
        # Gradescope bundle read a folder here alone.
        own = path.resolve()
        outside = next((file for file in files if file.is_symlink() and not file.resolve().is_relative_to(own)), None)
        if outside is not None:
            submission.problem = (f"{readable(outside.name)} is a link that leads outside {shown}: a submission is "
                                  "graded from its own files")
            return submission
    odd = next((file for file in files if not is_readable(file.name)), None)
    if odd is not None:
        submission.problem = (f"the file name {readable(odd.name)!r} is not valid UTF-8: rename the file (the grader "
                              "shows, stores and reports names as UTF-8)")
        return submission
    submission.entry_file = _pick_entry(files)
    submission.files = files
    digest = hashlib.sha256()
    for file in files:
        try:
            data = read_source(file)
        except OSError as exc:
            submission.problem = f"cannot read {readable(file.name)}: {exc.strerror or exc}"
            return submission
        if len(files) > 1:  # a one-file submission keeps the plain hash of its bytes
            digest.update(file.name.encode() + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
        problem, tree = _source_check(file.name, data, allow_empty=len(files) > 1)
        submission.problem = submission.problem or problem
        if tree is not None and len(files) > 1:
            submission.names[file] = _names_of(tree)
    submission.sha256 = digest.hexdigest()
    return submission


def choose_entry(submission: Submission, name: str) -> None:
    """Make the folder's file that holds ``name`` (the exercise's function or class) its entry, read with ast.

    ``load`` knows no exercise and picks by file name alone (``PREFERRED_ENTRIES``, else the first): a folder holding
    ``mine.py`` and an old attempt ``old.py``, both defining ``minimax``, was graded on whichever sorted first,
    without a word (the 120th helper, through Gradescope). A preferred file (``solution.py``) stays the entry unless
    it plainly does not have the name (no definition, import, assignment or star import of it anywhere in it) while
    one other file defines it; without a preferred file, the one file that defines the name; two or more that define
    it, and no preferred file that could have it, is the submission's problem: the grader cannot tell which one the
    student means."""
    if submission.problem or len(submission.files) < 2:
        return
    how = {file: _binding(submission, file, name) for file in submission.files}
    defines = [file for file in submission.files if how[file] == "defines"]
    preferred = next((file for wanted in PREFERRED_ENTRIES for file in submission.files if file.name == wanted), None)
    if preferred is not None and (how[preferred] is not None or not defines):
        submission.entry_file = preferred
    elif len(defines) == 1:
        submission.entry_file = defines[0]
    elif len(defines) > 1:
        names = ", ".join(readable(file.name) for file in defines)
        submission.problem = (f"{names} each define {name}: the grader cannot tell which one to grade; hand in one "
                              f"of them, or name it {PREFERRED_ENTRIES[0]}")
    else:
        binds = [file for file in submission.files if how[file] is not None]
        if len(binds) == 1:
            submission.entry_file = binds[0]


def _binding(submission: Submission, path: Path, name: str) -> str | None:
    """``"defines"`` where the module's own top level has ``def name``/``class name``; ``"binds"`` where it may give
    the name otherwise (an import of it or ``import *``, an assignment, a definition below the top, anywhere in the
    module: a ``try:`` around the import is common); None where it does neither or could not be read."""
    names = submission.names.get(path)
    if names is None:
        return None
    defined, bound, star = names
    if name in defined:
        return "defines"
    return "binds" if name in bound or star else None


def _names_of(tree: ast.Module) -> tuple[frozenset, frozenset, bool]:
    """(names defined by ``def``/``class`` at the top, names bound anywhere, whether it has a star import)."""
    defined = frozenset(node.name for node in tree.body
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    bound, star = set(), False
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    star = True
                else:
                    bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    return defined, frozenset(bound), star


def _source_check(name: str, data: bytes, allow_empty: bool = False) -> tuple[str | None, ast.Module | None]:
    """(why these bytes cannot be graded, or None; the module parsed, where it was): an empty file is fine beside
    others (an ``__init__.py``). Parsed once: ``choose_entry`` reads the names from this parse."""
    if len(data) > MAX_SOURCE_BYTES:
        return f"{name} is larger than {MAX_SOURCE_BYTES >> 10} KiB; is it really a solution?", None
    if not data.strip():
        return (None if allow_empty else f"{name} is empty"), None
    if b"\x00" in data:
        return f"{name} is not a text file (it contains NUL bytes)", None
    try:
        text = data.decode("utf-8-sig")  # a BOM is fine: Python runs such files
    except UnicodeDecodeError as exc:
        return f"{name} is not valid UTF-8 (byte {exc.start}); save it as UTF-8", None
    try:
        tree = python_source.parse(text, filename=name)
    except SyntaxError as exc:
        return f"syntax error in {name}, line {exc.lineno}: {exc.msg}", None
    except (RecursionError, MemoryError, ValueError):
        return f"{name} could not be parsed (nested too deeply)", None
    return None, tree


def read_source(path: str | Path) -> bytes:
    """A source file's bytes, at most ``MAX_SOURCE_BYTES + 1`` of them (more says "too large" all the same): only a
    regular file, opened without waiting. A student's "file" may be a link to ``/dev/zero`` or to a FIFO beside it, or
    be hundreds of megabytes: read whole, the first took the grading process past 20 GB and the second hung it for
    good (the hundred and tenth helper). ``OSError`` (ENODEV: "not a regular file") otherwise."""
    handle, _ = paths.opened_regular(path, follow_links=True)
    with handle:
        chunks, left = [], MAX_SOURCE_BYTES + 1
        while left > 0:
            chunk = handle.read(min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def definition_line(path: str | Path | None, name: str | None) -> int | None:
    """The line where ``name`` (a function or class) is defined in the file at ``path``, read with ast
    (the code is not run); None when there is no such file, no such definition, or it does not parse."""
    if not path or not name:
        return None
    try:
        data = read_source(path)
        if len(data) > MAX_SOURCE_BYTES:
            return None
        tree = python_source.parse(data)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return node.lineno
    return None
