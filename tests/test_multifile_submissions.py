"""Submissions in several files: what a folder submission is, and how the sandbox loads it.

A folder's modules import each other by name, as they do on the student's machine; the
student's test files are not part of the submission; a module named like the standard
library does not shadow it; and for exercises made of parts, a module that has the name of
a part but none of its names does not stop the grader's stand-in from being used.
"""

from __future__ import annotations

from pathlib import Path

from grader.doors import api
from grader.judging import submissions

MINIMAX_USING_HELPER = '''\
from choose import pick


def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    return pick([minimax(m, max_depth - 1, not player_a_moves) for m in moves], player_a_moves)
'''

CHOOSE = '''\
def pick(values, maximise):
    return max(values) if maximise else min(values)
'''


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_folder_is_all_its_modules_but_not_its_tests(tmp_path):
    folder = _write(tmp_path / "s", {"minimax.py": MINIMAX_USING_HELPER, "choose.py": CHOOSE,
                                     "test_minimax.py": "import pytest\n", "conftest.py": "x = 1\n",
                                     "__init__.py": ""})
    sub = submissions.load(folder)
    assert sub.problem is None
    assert [p.name for p in sub.files] == ["__init__.py", "choose.py", "minimax.py"]
    assert sub.entry_file.name == "minimax.py"
    before = sub.sha256
    (folder / "choose.py").write_text(CHOOSE + "\n# changed\n", encoding="utf-8")
    assert submissions.load(folder).sha256 != before


def test_a_single_file_keeps_the_plain_hash_of_its_bytes(tmp_path):
    import hashlib

    path = _write(tmp_path, {"a.py": CHOOSE}) / "a.py"
    assert submissions.load(path).sha256 == hashlib.sha256(CHOOSE.encode()).hexdigest()


def test_a_syntax_error_in_any_module_is_reported_with_its_name(tmp_path):
    folder = _write(tmp_path / "s", {"minimax.py": MINIMAX_USING_HELPER, "choose.py": "def pick(:\n"})
    sub = submissions.load(folder)
    assert sub.problem and "choose.py" in sub.problem


def test_modules_import_each_other_by_name_in_the_sandbox(tmp_path):
    folder = _write(tmp_path / "s", {"minimax.py": MINIMAX_USING_HELPER, "choose.py": CHOOSE,
                                     "test_minimax.py": "import pytest\nraise SystemExit(1)\n"})
    result = api.check(folder, "ctp-26", examples=20)
    assert result.error is None and result.status == "passed", result.error or [c.message for c in result.checks]


def test_a_file_named_like_the_standard_library_does_not_shadow_it(tmp_path):
    folder = _write(tmp_path / "s", {"random.py": MINIMAX_USING_HELPER, "choose.py": CHOOSE})
    result = api.check(folder, "ctp-26", examples=20)
    assert result.status == "passed", result.error


def test_a_sibling_that_fails_to_import_is_an_error_naming_it(tmp_path):
    folder = _write(tmp_path / "s", {"minimax.py": MINIMAX_USING_HELPER, "choose.py": "raise RuntimeError('boom')\n"})
    result = api.check(folder, "ctp-26", examples=5)
    assert result.status == "error"
    assert "RuntimeError: boom" in result.error and "choose.py" in result.error


def test_a_module_with_a_parts_name_but_none_of_its_names_gets_the_stand_in(tmp_path):
    """minimax.py holds only notes: the decision part is supplied, not an error, and not the student's."""
    root = Path(__file__).resolve().parent.parent
    rules = (root / "fixtures" / "submissions" / "aima-isolation" / "correct" / "three_files" / "gamestate.py").read_text()
    folder = _write(tmp_path / "s", {"gamestate.py": rules, "minimax.py": "NOTES = 'decision still to do'\n"})
    result = api.check(folder, "aima-isolation")
    assert result.error is None
    assert result.parts == {"graded": ["gamestate"], "supplied": ["minimax_helpers", "minimax"]}
    assert result.status == "passed"


def test_helpers_importing_the_stand_in_rules_still_count_as_the_students(tmp_path):
    """`from gamestate import *` brings the stand-in's GameState in; the helpers stay graded."""
    root = Path(__file__).resolve().parent.parent
    helpers = (root / "fixtures" / "submissions" / "aima-isolation" / "correct" / "three_files" / "minimax_helpers.py").read_text()
    decision = "from minimax_helpers import *\n\n\ndef minimax_decision(gameState):\n    return gameState.get_legal_moves()[0]\n"
    folder = _write(tmp_path / "s", {"minimax_helpers.py": helpers, "minimax.py": decision})
    result = api.check(folder, "aima-isolation")
    assert result.parts == {"graded": ["minimax_helpers", "minimax"], "supplied": ["gamestate"]}
    statuses = {c.name: c.status for c in result.checks}
    assert statuses["min-max-values"] == "passed" and statuses["best-decision"] == "failed"
    assert statuses["legal-moves"] == "skipped"


SEARCH = '''\
def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    values = [minimax(m, max_depth - 1, not player_a_moves) for m in moves]
    return max(values) if player_a_moves else min(values)
'''

LOGGED = '''\
import functools


def logged(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)
    return wrapper
'''


def test_the_helpers_reach_the_module_that_defines_the_function(tmp_path):
    """The entry file may only import the search from another of the student's files (``from search import
    minimax``): the helpers go where the function looks them up, its own module (the fifty-eighth red team's
    honest two-file submission got 0 for "calls get_value, which this exercise does not provide"). And a search
    wrapped by a decorator from another file looks them up in its own module, where the helper kept from loading
    finds the case's helper up the stack."""
    imported = _write(tmp_path / "imported", {"solution.py": "from search import minimax\n", "search.py": SEARCH})
    decorated = _write(tmp_path / "decorated", {
        "solution.py": "from logs import logged\n\n\n@logged\n" + SEARCH, "logs.py": LOGGED})
    for folder in (imported, decorated):
        result = api.check(folder, "ctp-26", examples=20)
        assert (result.error, result.status) == (None, "passed"), (folder.name, result.error)
