"""What a student needs before the first check: the statement with its example drawn, and a
starter they can run at home.

The statement ships in the package, but nobody should dig in site-packages for it: ``show``
prints it with the example (the first published case, else the first hand-made one) drawn by
the exercise's own ``picture`` hook. A starter alone cannot run outside the grader, since the
helpers it calls exist only in the sandbox; ``write_starter`` appends the exercise's
``stand_ins.py`` (plain local versions of the helpers, plus a ``__main__`` block running the
example) with the example case written in. A kit exercise (``grader/kit/``) has no
``stand_ins.py``: its stand-ins are generated from the declaration (each helper calling the game
operation it is mapped onto), and the game's rules are written beside the starter
(``grader/kit/student_api.py``). While grading, the sandbox puts the grader's own helpers back
before every call (``driver.helpers``), so the stand-ins never decide a verdict.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

STAND_INS = "stand_ins.py"
_MAIN = re.compile(r'^if __name__ == ["\']__main__["\']:', re.MULTILINE)
_EXAMPLE = re.compile(r"^EXAMPLE = None.*$", re.MULTILINE)


class DoorError(Exception):
    """Something a student asked for that this exercise cannot give (said in one line)."""


def example_case(exercise):
    """The case the statement is about: the published case whose call the statement quotes, else
    the first published case, else the first hand-made one."""
    cases = exercise.hook("fixture_cases")(exercise.fixtures_path)
    published = [c for c in cases if c.get("group") == "published"]
    chosen = published or [c for c in cases if c.get("group") == "fixtures"] or cases
    text = _statement_text(exercise)
    call_text = exercise.hook("call_text", lambda case_input: "")
    quoted = [c for c in chosen if call_text(c["input"]) and call_text(c["input"]) in text]
    return (quoted or chosen or [None])[0]


def _statement_text(exercise) -> str:
    try:
        return (exercise.folder / exercise.meta.get("statement", "statement.md")).read_text(encoding="utf-8")
    except OSError:
        return ""


def statement(exercise) -> str:
    """The statement as Markdown text, then the example drawn as the reports draw counterexamples."""
    path = exercise.folder / exercise.meta.get("statement", "statement.md")
    try:
        text = path.read_text(encoding="utf-8").rstrip()
    except OSError as error:
        raise DoorError(f"the statement of {exercise.id} cannot be read: {error.strerror or error}") from None
    if exercise.kit is not None:  # the call and the helpers, as exercise.toml declares them now
        from grader.kit.student_api import refresh_interface

        text = refresh_interface(text, exercise.kit.decl)
    case = example_case(exercise)
    picture = exercise.hook("picture")
    if case is None or picture is None:
        return text + "\n"
    call = exercise.hook("call_text", lambda case_input: "the call")(case["input"])
    noun = exercise.input_noun
    drawn = "\n".join("    " + line for line in picture(case["input"]).splitlines())
    answer = _example_answer(exercise, case["input"])
    said = f"\nA correct solution answers {answer} here.\n" if answer else ""
    return f"{text}\n\nThe example {noun}, as {call} sees it:\n\n{drawn}\n{said}"


def _example_answer(exercise, case_input) -> str | None:
    """The reference's answer to the example, in the shape the statement asks for: a student who has written their
    search wants to compare (the 121st helper met a tictactoe statement that drew a position and never said what a
    right answer to it is). The reference runs here, in the grader's own process, as for every case it judges."""
    from grader.judging.checks import show_expected

    try:
        shown = show_expected(exercise, case_input, exercise.hook("reference")(case_input, exercise.reference))
    except Exception:  # noqa: BLE001 - the statement is shown whatever the example's answer
        return None
    try:  # a number alone: 0.3, not the 0.30000000000000004 that adding probabilities gives
        return f"{float(shown):.12g}" if isinstance(shown, (str, float)) and "." in str(shown) else _text(shown)
    except ValueError:
        return _text(shown)


def _text(shown) -> str:
    return shown if isinstance(shown, str) else repr(shown)


def rewrite_from_declaration(exercise) -> list[Path]:
    """Write statement.md's interface block and starter.py's def line again from ``[student]`` as it is now;
    the files written (none when nothing was stale, or the exercise is not declared through the kit).

    ``show`` prints both refreshed anyway; this is for the instructor who edited ``[student]`` and wants
    the files that students are given to say the same."""
    if exercise.kit is None:
        raise DoorError(f"{exercise.id} is not declared through the kit ([student] in exercise.toml): "
                        "its statement and starter are written by hand")
    from grader.kit.student_api import declared_stub, refresh_interface

    written = []
    for key, default, refresh in (("statement", "statement.md", refresh_interface), ("starter", "starter.py", declared_stub)):
        path = exercise.folder / exercise.meta.get(key, default)
        try:
            text = path.read_text(encoding="utf-8")
            fresh = refresh(text, exercise.kit.decl)
            if fresh != text:
                path.write_text(fresh, encoding="utf-8")
                written.append(path)
        except OSError as error:
            raise DoorError(f"{path} cannot be rewritten: {error.strerror or error}") from None
    return written


def starter_text(exercise) -> str:
    """The starter, with the stand-ins and the example inserted before its own ``__main__`` block."""
    path = exercise.folder / exercise.meta.get("starter", "starter.py")
    try:
        starter = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:  # was a traceback (the 130th helper's exercise had none)
        said = getattr(error, "strerror", None) or str(error)
        raise DoorError(f"{exercise.id} has no starter to write: {path} cannot be read ({said}); write one there "
                        "(or name another with starter = \"...\" in exercise.toml)") from None
    stand_ins_path = exercise.folder / STAND_INS
    if exercise.kit is not None:
        from grader.kit.student_api import declared_stub

        starter = declared_stub(starter, exercise.kit.decl)  # [student] may have changed since it was written
        case = example_case(exercise)
        stand_ins = exercise.kit.stand_ins(case["input"] if case is not None else None)
    elif not stand_ins_path.is_file():
        return starter  # nothing is provided (aima-isolation): the starter runs as it is
    else:
        stand_ins = stand_ins_path.read_text(encoding="utf-8")
        case = example_case(exercise)
        example = json.dumps(case["input"]) if case is not None else "None"
        stand_ins = _EXAMPLE.sub(lambda _: f"EXAMPLE = {_python(example)}", stand_ins, count=1)
    own_main = _MAIN.search(starter)
    head = starter[:own_main.start()] if own_main else starter  # the stand-ins' example replaces it
    return head.rstrip() + "\n\n\n" + stand_ins


def _python(json_text: str) -> str:
    """JSON as a Python literal (true/false/null spelled the Python way)."""
    return repr(json.loads(json_text))


def _course_modules(exercise) -> list[Path]:
    """The modules the exercise puts on the submission's import path (``provided``: the AIND project's
    ``isolation.py`` and ``sample_players.py``), written beside the starter so that its imports work at home as in
    the sandbox (the 121st helper: ``import isolation`` failed, the starter could not run). Never for an exercise
    made of parts, whose provided files stand in for parts the student writes."""
    folder = exercise.provided_dir
    if folder is None or exercise.parts or not folder.is_dir():
        return []
    return sorted(path for path in folder.glob("*.py") if path.is_file())


def write_starter(exercise, folder: Path) -> Path:
    """Writes the runnable starter into ``folder`` (made if missing), and for a kit exercise the
    game's rules beside it; refuses to overwrite a file."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / exercise.meta.get("starter_name", f"{exercise.id.replace('-', '_')}.py")
    rules = None
    if exercise.kit is not None:
        from grader.kit.student_api import rules_file_name

        rules = folder / rules_file_name(exercise.id)
    course = _course_modules(exercise)
    for path in (target, rules, *(folder / module.name for module in course)):
        if path is not None and path.exists():
            raise DoorError(f"{path} already exists; not overwriting your work (choose another folder)")
    text = starter_text(exercise)
    if rules is not None:
        rules.write_bytes(exercise.kit.game_path.read_bytes())
    for module in course:
        (folder / module.name).write_bytes(module.read_bytes())
    target.write_text(text, encoding="utf-8")
    return target
