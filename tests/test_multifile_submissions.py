"""Submissions in several files: what a folder submission is, and how the sandbox loads it.

A folder's modules import each other by name, as they do on the student's machine; the
student's test files are not part of the submission; a module named like the standard
library does not shadow it; and for exercises made of parts, a module that has the name of
a part but none of its names does not stop the grader's stand-in from being used.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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


@pytest.mark.parametrize("init, said", [("from .search import minimax\n", "(a relative import)"),
                                        ("from hw.search import minimax\n", "(import hw)")])
def test_a_folder_written_as_a_package_is_told_how_its_files_are_read(tmp_path, init, said):
    """The 125th helper: ``src/hw/__init__.py`` importing ``.search`` raised "attempted relative import with no known
    parent package", and ``from hw.search import`` was "a module this exercise does not have ... remove the
    import" of the student's own folder. Both say that the files are modules side by side, and how to import."""
    folder = _write(tmp_path / "hw", {"__init__.py": init, "search.py": MINIMAX_USING_HELPER, "choose.py": CHOOSE})
    result = api.check(folder, "ctp-26", examples=5)
    assert result.status == "error" and said in result.error, result.error
    assert "not as a package named hw" in result.error and "`from search import ...`" in result.error
    assert "remove the import" not in result.error
    (folder / "__init__.py").unlink()
    assert api.check(folder, "ctp-26", examples=5).status == "passed"


def test_a_folder_named_like_a_course_module_is_no_package_of_the_student_s(tmp_path):
    """The 126th helper: a folder named ``utils`` whose code imports AIMA's ``utils`` (not handed out) was told it
    imports its files as a package, and to import the entry file from itself; it is the missing module's message.
    A relative import is told the module it names, not the entry file."""
    folder = _write(tmp_path / "utils", {"solution.py": "from utils import memoize\n" + MINIMAX_USING_HELPER,
                                         "choose.py": CHOOSE})
    result = api.check(folder, "ctp-26", examples=5)
    assert result.status == "error" and "a module this exercise does not have" in result.error, result.error
    folder = _write(tmp_path / "hw", {"solution.py": "from .choose import pick\n" + MINIMAX_USING_HELPER,
                                      "choose.py": CHOOSE})
    result = api.check(folder, "ctp-26", examples=5)
    assert "`from choose import ...`" in result.error and "from solution import" not in result.error, result.error


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


STAND_INS = '''

# local stand-ins, as in the starter: the grader puts its own helpers in their place while grading
def get_value(node):
    return node.value


def get_next_valid_moves(node):
    return node.children
'''

FACTORY = '''\
def make_minimax(score, expand):
    def minimax(position, max_depth, first_player_moves):
        moves = expand(position)
        if max_depth == 0 or not moves:
            return score(position)
        values = [minimax(m, max_depth - 1, not first_player_moves) for m in moves]
        return max(values) if first_player_moves else min(values)
    return minimax
'''

SOLVER = '''\
class Solver:
    def minimax(self, node, max_depth, player_a_moves):
        moves = get_next_valid_moves(node)
        if max_depth == 0 or not moves:
            return get_value(node)
        values = [self.minimax(m, max_depth - 1, not player_a_moves) for m in moves]
        return max(values) if player_a_moves else min(values)
'''

LAYOUTS = {
    # the entry file only imports the search (the fifty-eighth red team: 0 for "calls get_value")
    "imported": {"solution.py": "from search import minimax\n", "search.py": SEARCH},
    # a decorator from another file, with and without the starter's stand-ins in the entry file (the fifty-ninth:
    # the helpers went into the decorator's file alone, and the search read the stand-ins: 0 for "reads node.value")
    "decorated": {"solution.py": "from logs import logged\n\n\n@logged\n" + SEARCH, "logs.py": LOGGED},
    "decorated_with_stand_ins": {"solution.py": "from logs import logged\n\n\n@logged\n" + SEARCH + STAND_INS,
                                 "logs.py": LOGGED},
    # a factory in another file, fed lambdas over the helpers of the entry file
    "factory": {"solution.py": "from gametree import make_minimax\n\nminimax = make_minimax(lambda n: get_value(n), "
                               "lambda n: get_next_valid_moves(n))\n" + STAND_INS, "gametree.py": FACTORY},
    # a bound method of a class in another file
    "bound_method": {"solution.py": "from solver import Solver\n\nminimax = Solver().minimax\n",
                     "solver.py": SOLVER + STAND_INS},
    # a third file that imports the starter's stand-ins from a fourth
    "third_file": {"helpers.py": STAND_INS, "evaluation.py": "from helpers import get_value\n\n\n"
                                                            "def leaf_value(node):\n    return get_value(node)\n",
                   "solution.py": "from helpers import get_next_valid_moves\nfrom evaluation import leaf_value\n\n\n"
                                  + SEARCH.replace("return get_value(node)", "return leaf_value(node)")},
}


def test_the_helpers_reach_every_module_of_the_submission(tmp_path):
    """The search reads the helpers from its own module, which need not be the one that defines or binds the
    entry: the helpers go into every module of the submission before each call (``Harness._load_and_bind``), in
    the place of whatever each held under those names (the starter's stand-ins)."""
    for name, files in LAYOUTS.items():
        result = api.check(_write(tmp_path / name, files), "ctp-26", examples=20)
        assert (result.error, result.status) == (None, "passed"), (name, result.error)


PLAIN_CORRECT = SEARCH  # a right search in one file
ALWAYS_MAX = PLAIN_CORRECT.replace("max(values) if player_a_moves else min(values)", "max(values)")


def test_the_entry_is_the_file_that_defines_the_exercise_s_function(tmp_path):
    """The 120th helper: ``main.py`` (a preferred name) runs nothing of the search, ``search.py`` defines it; the
    entry was ``main.py`` by name alone. Now the one file that defines ``minimax``; a preferred file that imports
    it stays the entry."""
    folder = _write(tmp_path / "s", {"main.py": "print('my experiments')\n", "search.py": PLAIN_CORRECT})
    result = api.check(folder, "ctp-26", examples=20)
    assert result.status == "passed", result.error
    assert Path(result.entry_file).name == "search.py" and result.entry_line == 1
    folder = _write(tmp_path / "t", {"solution.py": "from search import minimax\n", "search.py": PLAIN_CORRECT,
                                     "old.py": ALWAYS_MAX})
    sub = submissions.load(folder)
    submissions.choose_entry(sub, "minimax")
    assert sub.problem is None and sub.entry_file.name == "solution.py"


def test_two_files_that_define_the_function_are_the_student_s_to_settle(tmp_path):
    """``mine.py`` (always max) and an old attempt ``old.py`` (right), both defining ``minimax``: graded on whichever
    sorted first, 0 or 10 by the file names alone and no word said. It is one clear error now, naming both."""
    for first, second in (("mine.py", "old.py"), ("old.py", "mine.py")):
        folder = _write(tmp_path / first, {first: ALWAYS_MAX, second: PLAIN_CORRECT})
        result = api.check(folder, "ctp-26", examples=20)
        assert result.status == "error" and result.score == 0
        assert "mine.py, old.py each define minimax" in result.error and "solution.py" in result.error


def test_a_repository_handed_in_whole_is_graded_from_where_its_code_is(tmp_path):
    """The 120th helper's Gradescope upload: ``submission/src/solution.py`` (no Python file at the top) was "the folder
    contains no Python file", a zero, where ``grade`` read the same folder. The shallowest folder with code, as the
    class grader reads it (never a ``tests`` folder); or the file the repository's own pyproject table names,
    as long as it stays inside the folder."""
    repo = _write(tmp_path / "repo", {"README.md": "# my homework\n"})
    _write(repo / "tests", {"check_it.py": ALWAYS_MAX})
    _write(repo / "src", {"solution.py": PLAIN_CORRECT})
    result = api.check(repo, "ctp-26", examples=20)
    assert result.status == "passed", result.error
    assert Path(result.entry_file) == repo / "src" / "solution.py"

    _write(repo / "attempts" / "old", {"search.py": ALWAYS_MAX})
    _write(repo / "alpha", {"search.py": ALWAYS_MAX})  # shallower than src/..., and first by name
    (repo / "pyproject.toml").write_text('[tool.minimax-grader]\nexercise = "ctp-26"\nsubmission = "src/solution.py"\n',
                                        encoding="utf-8")
    assert api.check(repo, "ctp-26", examples=20).status == "passed"
    (repo / "pyproject.toml").write_text('[tool.minimax-grader]\nsubmission = "../elsewhere"\n', encoding="utf-8")
    _write(tmp_path / "elsewhere", {"solution.py": PLAIN_CORRECT})
    # never outside the folder; of alpha/ and src/, the one holding a solution.py
    assert Path(submissions.load(repo).files[0]).parent == repo / "src"


def test_a_link_among_a_folder_s_files_that_leads_out_of_it_is_refused(tmp_path):
    """A folder handed to ``check`` or the Gradescope bundle alone (no class grader's look at its links first): a
    ``notes.py`` linked to a file outside (the bundle's run_autograder, with its secret seed) was copied into the
    sandbox as the student's own file, for their code to read."""
    secret = tmp_path / "run_autograder"
    secret.write_text("--seed 123456\n", encoding="utf-8")
    folder = _write(tmp_path / "submission", {"solution.py": PLAIN_CORRECT})
    (folder / "notes.py").symlink_to(secret)
    sub = submissions.load(folder)
    assert sub.problem is not None and "notes.py is a link that leads outside" in sub.problem
    inside = _write(tmp_path / "inside", {"solution.py": PLAIN_CORRECT, "real.py": "X = 1\n"})
    (inside / "alias.py").symlink_to(inside / "real.py")  # a link within the folder stays the student's
    assert submissions.load(inside).problem is None


def test_a_student_s_pyproject_names_nothing_when_it_cannot_be_read_safely(tmp_path):
    """The 122nd helper: the repository's own pyproject.toml was read in the grading process with no limit. A FIFO
    hung it, a link to /dev/zero took its memory, and bytes that are not UTF-8, a NUL byte or a link loop in the
    name, or nesting past the parser's depth, each made it fail (exit 3, "could not grade" on Gradescope). Each
    names nothing now: the code is found as without a table."""
    import os

    cases = {
        "fifo": lambda f: os.mkfifo(f),
        "zero": lambda f: f.symlink_to("/dev/zero"),
        "not utf-8": lambda f: f.write_bytes(b'[tool.minimax-grader]\nsubmission = "src\xff"\n'),
        "nul": lambda f: f.write_text('[tool.minimax-grader]\nsubmission = "src\\u0000x"\n'),
        "long": lambda f: f.write_text('[tool.minimax-grader]\nsubmission = "' + "a" * 5000 + '"\n'),
        "loop": lambda f: f.write_text('[tool.minimax-grader]\nsubmission = "loop"\n'),
        "deep": lambda f: f.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n"),
        "large": lambda f: f.write_text('[tool.minimax-grader]\nsubmission = "alpha"\n' + "# pad\n" * 20000),
        # the 123rd helper: ``tool = 1`` stopped grade for the whole class (AttributeError), and tomllib is quadratic
        # on a long dotted key (64 KiB of one: 25 s and 6 GB): only the table is parsed, at most 2 KiB of it
        "tool is no table": lambda f: f.write_text("tool = 1\n"),
        "dotted": lambda f: f.write_text('[tool.minimax-grader]\nsubmission = "zeta"\nz' + ".a" * 3000 + " = 1\n"),
    }
    for name, make in cases.items():
        repo = _write(tmp_path / name.replace(" ", "-"), {"README.md": "# homework\n"})
        _write(repo / "src", {"solution.py": PLAIN_CORRECT})
        _write(repo / "zeta", {"solution.py": ALWAYS_MAX})
        if name == "loop":
            (repo / "loop").symlink_to(repo / "loop")
        make(repo / "pyproject.toml")
        sub = submissions.load(repo)
        assert sub.problem is None and sub.files[0].parent == repo / "src", (name, sub.problem, sub.files)


def test_a_preferred_file_that_may_import_the_function_stays_the_entry(tmp_path):
    """The 122nd helper: ``solution.py`` holding only ``from impl import *``, or importing inside ``try:``, beside
    an old attempt that also defines the function, was refused as two definers (both passed before)."""
    for name, solution in (("star", "from impl import *\n"),
                           ("try", "try:\n    from impl import minimax\nexcept ImportError:\n    raise\n")):
        folder = _write(tmp_path / name, {"solution.py": solution, "impl.py": PLAIN_CORRECT,
                                          "old_attempt.py": ALWAYS_MAX})
        result = api.check(folder, "ctp-26", examples=20)
        assert result.status == "passed" and Path(result.entry_file).name == "solution.py", (name, result.error)


def test_a_repository_s_table_comes_before_its_top_level_files_and_docs_are_not_code(tmp_path):
    """The 122nd helper: a top-level ``setup.py`` was graded before the file the table names, and a Sphinx
    ``docs/conf.py`` before ``src/solution.py``; without ``--exercise`` the exercise was guessed from the top level
    alone. ``grade`` reads a student's folder by the same rule."""
    from grader.bulk import discover

    repo = _write(tmp_path / "class" / "repo1", {"setup.py": "from setuptools import setup\nsetup()\n"})
    _write(repo / "src", {"solution.py": PLAIN_CORRECT})
    (repo / "pyproject.toml").write_text('[tool.minimax-grader]\nsubmission = "src/solution.py"\n', encoding="utf-8")
    assert api.check(repo, "ctp-26", examples=20).status == "passed"
    docs = _write(tmp_path / "class" / "repo2" / "docs", {"conf.py": "project = 'homework'\n"})
    _write(docs.parent / "src", {"solution.py": PLAIN_CORRECT})
    assert api.check(docs.parent, "ctp-26", examples=20).status == "passed"
    from grader.doors.cli import guess_exercise

    assert guess_exercise(docs.parent, []) in ("ctp-26", "alphabeta")  # what its code defines, not "no names"
    (tmp_path / "staging").mkdir()
    graded = {found.student: submissions.load(found.path).files
              for found in discover.discover([tmp_path / "class"], tmp_path / "staging")}
    assert graded["repo1"] == [repo / "src" / "solution.py"], graded
    assert graded["repo2"] == [docs.parent / "src" / "solution.py"], graded


def test_the_file_a_repository_s_table_names_is_graded_alone_wherever_it_is_read(tmp_path, monkeypatch):
    """The 123rd helper: the table named ``src/mine.py`` and ``src/`` also held the starter's ``solution.py``: pytest
    and CI graded mine.py (10/10), ``check repo``, Gradescope and ``grade`` the starter (0/10). The named file is
    graded alone, as the plugin grades it. And ``grade`` of a relative class path, with ci.md's own table in a
    student's folder, stopped for the whole class (a resolved path against an unresolved one); a link from the
    student's src/ to their own lib/ was refused by grade and accepted by check."""
    from grader.bulk import discover

    monkeypatch.chdir(tmp_path)
    repo = _write(Path("class") / "repo", {"README.md": "# homework\n"})
    _write(repo / "src", {"mine.py": PLAIN_CORRECT, "solution.py": "def minimax(node, max_depth, player_a_moves):\n"
                                                                   "    raise NotImplementedError\n"})
    (repo / "pyproject.toml").write_text('[tool.minimax-grader]\nexercise = "ctp-26"\nsubmission = "src/mine.py"\n',
                                         encoding="utf-8")
    bob = _write(Path("class") / "bob", {"solution.py": PLAIN_CORRECT})
    (bob / "pyproject.toml").write_text('[tool.minimax-grader]\nexercise = "ctp-26"\nsubmission = "solution.py"\n',
                                        encoding="utf-8")
    linked = _write(Path("class") / "linked" / "lib", {"helpers.py": CHOOSE})
    _write(linked.parent / "src", {"solution.py": MINIMAX_USING_HELPER.replace("from choose", "from helpers")})
    (linked.parent / "src" / "helpers.py").symlink_to(Path("..") / "lib" / "helpers.py")
    assert api.check(repo, "ctp-26", examples=20).status == "passed"
    Path("staging").mkdir()
    found = {f.student: f for f in discover.discover([Path("class")], Path("staging"))}
    assert {name: f.problem for name, f in found.items()} == {"repo": None, "bob": None, "linked": None}
    assert submissions.load(found["repo"].path).files == [repo / "src" / "mine.py"]
    loaded = submissions.load(found["linked"].path)
    assert loaded.problem is None and [f.name for f in loaded.files] == ["helpers.py", "solution.py"]


def test_every_form_of_the_table_the_plugin_reads_is_read_and_odd_folders_never_stop_the_class(tmp_path, monkeypatch):
    """The 124th helper: a header regex missed a Windows editor's CRLF table (``setup.py`` graded instead), dotted
    keys, an inline table and a quoted name; a named folder the grader may not list stopped ``grade`` for the whole
    class; ``tools/main.py`` (a runner script) was taken for the solution over ``agent/``; a named dotfile was
    graded by check and lost by grade."""
    tables = {
        "crlf": '[tool.minimax-grader]\r\nsubmission = "src/solution.py"\r\n',
        "bom": '\ufeff[tool.minimax-grader]\nsubmission = "src/solution.py"\n',
        "dotted": '[tool]\nminimax-grader.submission = "src/solution.py"\n',
        "inline": 'tool = {minimax-grader = {submission = "src/solution.py"}}\n',
        "quoted": "[tool.'minimax-grader']\nsubmission = 'src/solution.py'\n",
        "string": 'x = """\n[tool.minimax-grader]\nsubmission = "setup.py"\n"""\n[tool.minimax-grader]\n'
                  'submission = "src/solution.py"\n',
    }
    for name, table in tables.items():
        repo = _write(tmp_path / name, {"setup.py": "from setuptools import setup\nsetup()\n"})
        _write(repo / "src", {"solution.py": PLAIN_CORRECT})
        (repo / "pyproject.toml").write_bytes(table.encode("utf-8"))
        assert submissions.load(repo).files == [repo / "src" / "solution.py"], name

    runner = _write(tmp_path / "runner" / "tools", {"main.py": "from minimax_agent import minimax\nminimax(None, 1, True)\n"})
    _write(runner.parent / "agent", {"minimax_agent.py": PLAIN_CORRECT})
    assert submissions.load(runner.parent).files == [runner.parent / "agent" / "minimax_agent.py"]

    hidden = _write(tmp_path / "hidden", {"solution.py": PLAIN_CORRECT, ".sol.py": ALWAYS_MAX})
    (hidden / "pyproject.toml").write_text('[tool.minimax-grader]\nsubmission = ".sol.py"\n', encoding="utf-8")
    assert submissions.load(hidden).files == [hidden / "solution.py"]  # as everywhere, a hidden file is no module

    locked = _write(tmp_path / "locked" / "code", {"solution.py": PLAIN_CORRECT})
    (locked.parent / "pyproject.toml").write_text('[tool.minimax-grader]\nsubmission = "code"\n', encoding="utf-8")
    _write(locked.parent / "src", {"solution.py": PLAIN_CORRECT})
    listed = submissions.python_files

    def may_not_list(folder):  # as a folder of mode 0111 is to a user who is not root (root lists anything)
        if folder == locked:
            raise PermissionError(13, "Permission denied", str(folder))
        return listed(folder)

    monkeypatch.setattr(submissions, "python_files", may_not_list)
    assert submissions.graded_folder(locked.parent) == locked.parent / "src"


def test_a_seed_from_the_environment_is_said_and_a_foreign_banks_folder_is_no_crash(tmp_path, monkeypatch):
    """The 124th helper: ``MINIMAX_GRADER_SEED`` (how the Gradescope bundle passes its secret) left set in a shell
    changed ``check``'s self-check silently; a cache's banks folder that is another user's (0700 since 0.2.0)
    crashed ``check``. Said on stderr, without the number; graded without the cache."""
    import os
    import subprocess
    import sys

    from grader.judging import bank, exercise

    path = _write(tmp_path / "s", {"solution.py": PLAIN_CORRECT}) / "solution.py"
    run = subprocess.run([sys.executable, "-m", "grader", "check", str(path), "--exercise", "ctp-26", "--examples", "5"],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "MINIMAX_GRADER_SEED": "4242"})
    assert run.returncode == 0 and "the seed comes from MINIMAX_GRADER_SEED" in run.stderr and "4242" not in run.stderr
    monkeypatch.setattr(bank, "_cache_path", lambda *args: _Locked())
    drawn = bank.build(exercise.load("ctp-26"), seed=99, examples=3)
    assert len([c for c in drawn.cases if c.group == "random"]) == 3


class _Locked:
    """A bank's path in a folder this user may not look into: every look raises PermissionError."""

    def is_file(self):
        raise PermissionError("not yours")


def test_grade_reads_the_seed_from_the_environment_as_check_does(tmp_path):
    """A Gradescope bundle's seed (``seed_of``) exported to grade its cases again on the instructor's machine:
    ``grade`` ignored MINIMAX_GRADER_SEED and graded a fresh secret seed's cases. It takes it, and says so."""
    import json
    import os
    import subprocess
    import sys

    klass = tmp_path / "class"
    _write(klass / "ann", {"solution.py": PLAIN_CORRECT})
    env = {**os.environ, "MINIMAX_GRADER_SEED": "4242"}
    run = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--exercise", "ctp-26", "--examples", "5",
                          "--out", str(tmp_path / "out"), "-j", "1"], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    assert "the seed comes from MINIMAX_GRADER_SEED, not the gradebook" in run.stderr  # grade names its seed anyway
    (graded,) = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert graded["seed"] == 4242 and graded["score"] == graded["max_score"]
