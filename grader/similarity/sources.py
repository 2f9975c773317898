"""What the detector compares: each student's source text, and the exercise's own texts.

A folder submission is its graded files joined in name order (the same files the sandbox
gets), each under a one-line ``# file: name`` marker that the side-by-side view shows; the
marker is a comment, so it never counts as shared code. The exercise's texts are the
starter, the reference, the wrong versions of the reference used for diagnosis
(``mistakes.py``), any provided parts, and the ``.py`` files of the exercise's optional
``similarity/`` folder: all of them are the shape every solution of the exercise is expected
to have, so none of it may make two students look alike.

The ``similarity/`` folder exists because a reference is written against the grader's own
game object (``game.moves(node)``), not the student's helpers (``get_next_valid_moves(node)``),
so its tokens never match a student's: the folder holds the same shape in the student's API.
"""

from __future__ import annotations

import ast
from grader import python_source
import re
from pathlib import Path

from grader.doors import student_door

from grader.similarity.clusters import Settings, find_near_duplicates

SHAPES = "similarity"  # an exercise folder's shapes: the reference written in the student's own API
MAX_CHARS = 200_000  # a huge file is read this far: enough to compare, bounded work


def submission_text(files: list[Path]) -> str:
    """One text for a submission's files (already sorted by the submission loader)."""
    if len(files) == 1:
        return _read(files[0])
    return "\n".join(f"# file: {path.name}\n{_read(path)}" for path in sorted(files, key=lambda p: p.name))


def _read(path: Path) -> str:
    """The file's first MAX_CHARS bytes, as text: never the whole of a file a hundred megabytes long."""
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_CHARS).decode("utf-8", errors="replace")
    except OSError:
        return ""


def exercise_texts(exercise) -> list[str]:
    """The exercise's own code: starter, reference, mistakes and provided parts (those that exist)."""
    paths = []
    for getter in (lambda: exercise.starter_path, lambda: _reference_path(exercise), lambda: exercise.folder / "mistakes.py"):
        try:
            paths.append(getter())
        except Exception:  # an exercise without one of these has nothing there to discount
            continue
    paths += _model_files(exercise)
    provided = _optional(lambda: exercise.provided_dir)
    if provided is not None and provided.is_dir():
        paths += sorted(provided.glob("*.py"))
    paths += sorted((exercise.folder / SHAPES).glob("*.py"))
    kit = _optional(lambda: exercise.kit)
    if kit is not None:
        paths.append(kit.game.path)  # a kit exercise's rules, which `show --starter` writes beside the starter
    texts = [_read(p) for p in paths if p is not None and p.is_file()]
    agent = _optional(lambda: exercise.agent)
    if agent is not None:  # the object route: the interface its declaration makes every agent write
        texts.append(agent.declared_skeleton())
    runnable = _optional(lambda: student_door.starter_text(exercise))
    if runnable:  # the starter with its stand-ins and example, as `show --starter` writes it
        texts.append(runnable)
    statement = exercise.folder / "statement.md"
    if statement.is_file():  # the statement's own code (its example tree, the calls it quotes) is everyone's
        texts += _code_blocks(_read(statement))
    return texts


def _model_files(exercise) -> list[Path]:
    """Where an exercise's mistakes module has its wrong versions of the reference written, when that
    is outside the folder (ctp-26's and alphabeta's come from the kit's tree game, tree_mistakes.py)."""
    from types import ModuleType

    from grader.judging import diagnose

    module = _optional(lambda: diagnose.mistakes_of(exercise))
    if type(module) is not ModuleType:  # a kit exercise's families are the kit's, not the exercise's text
        return []
    files = {getattr(getattr(m, "answer", None), "__code__", None) for m in getattr(module, "MODELS", None) or []}
    found = {Path(code.co_filename) for code in files if code is not None}
    return sorted(p for p in found if p.resolve() != (exercise.folder / "mistakes.py").resolve())


def _code_blocks(markdown: str) -> list[str]:
    """The fenced code blocks of a Markdown text."""
    return [m.group(1) for m in re.finditer(r"^```[^\n]*\n(.*?)^```", markdown, re.M | re.S)]


def _reference_path(exercise) -> Path:
    return exercise._file("reference", "reference")


def _optional(getter):
    try:
        return getter()
    except Exception:
        return None


def vocabulary(exercise) -> set[str]:
    """Names the exercise fixes, which a copier cannot rename: the entry point, the provided
    helpers, and every function, method and class the starter defines."""
    names = {exercise.entry_point, *exercise.provided_helpers}
    agent = _optional(lambda: exercise.agent)
    if agent is not None:
        names |= agent.vocabulary()
    starter = _optional(lambda: exercise.starter_path)
    for text in [_read(starter)] if starter is not None and starter.is_file() else []:
        try:
            tree = python_source.parse(text)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


def for_class(students: dict[str, list[Path]], exercise, settings: Settings = Settings()) -> tuple[list[dict], dict[str, str]]:
    """The batch's one call: clusters of near-duplicate students, and the texts compared (for the view).

    ``students``: student id -> the submission's files. Students whose submission could not
    be read (no files) are left out of the comparison.
    """
    texts = {sid: submission_text(files) for sid, files in students.items() if files}
    shapes = exercise_texts(exercise)
    clusters = find_near_duplicates(texts, shapes, vocabulary(exercise), settings)
    return clusters, texts
