"""The worked example of "Changing a built-in exercise" (docs/writing-exercises.md), built for real:
an instructor's own exercise outside the package.

The instructor copies ctp-26 into a folder of their own, renames the provided helpers to
``score(node)`` and ``moves(node)``, keeps the reference and the fixtures inside the exercise
folder, and grades through the command line with ``--exercises-dir`` or with the same key in
``[tool.minimax-grader]`` of their pyproject.toml. Every step below is one the page shows.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CORRECT = '''\
def minimax(node, max_depth, player_a_moves):
    children = moves(node)
    if max_depth == 0 or not children:
        return score(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in children]
    return max(values) if player_a_moves else min(values)
'''

BUGGY = '''\
def minimax(node, max_depth, player_a_moves):
    children = moves(node)
    if max_depth == 0 or not children:
        return score(node)
    return max(minimax(child, max_depth - 1, not player_a_moves) for child in children)
'''

OLD_NAMES = '''\
def minimax(node, max_depth, player_a_moves):
    children = get_next_valid_moves(node)
    if max_depth == 0 or not children:
        return get_value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in children]
    return max(values) if player_a_moves else min(values)
'''


def build_worked_example(base: Path) -> Path:
    """The page's steps: copy ctp-26 with its reference and fixtures, then rename two helpers."""
    from grader import paths

    target = base / "my-exercises" / "ctp-26-scores"
    shutil.copytree(paths.exercises_dir() / "ctp-26", target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "reference").mkdir()
    shutil.copy(paths.reference_dir() / "ctp_26.py", target / "reference")
    shutil.copytree(paths.fixtures_dir() / "trees" / "ctp-26", target / "fixtures" / "trees" / "ctp-26")

    toml = (target / "exercise.toml").read_text(encoding="utf-8")
    toml = toml.replace('id = "ctp-26"', 'id = "ctp-26-scores"')
    toml = toml.replace('provided_helpers = ["get_value", "get_next_valid_moves"]', 'provided_helpers = ["score", "moves"]')
    toml = toml.replace('summary = "', 'summary = "(renamed helpers: score, moves) ', 1)
    assert 'id = "ctp-26-scores"' in toml and '["score", "moves"]' in toml
    (target / "exercise.toml").write_text(toml, encoding="utf-8")

    # The tree game's driver hands the helpers over under the declared names: no driver to edit.
    assert not (target / "driver.py").exists()
    return base / "my-exercises"


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    base = tmp_path_factory.mktemp("instructor")
    folder = build_worked_example(base)
    for name, text in (("correct.py", CORRECT), ("always_max.py", BUGGY), ("old_names.py", OLD_NAMES)):
        (base / name).write_text(text, encoding="utf-8")
    return base, folder


def grader(*args, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ}
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=180)


def test_the_exercise_is_listed_beside_the_built_in_ones(example):
    base, folder = example
    done = grader("exercises", "--exercises-dir", folder, cwd=base)
    assert done.returncode == 0, done.stderr
    ids = [line.split()[0] for line in done.stdout.splitlines()]
    assert "ctp-26-scores" in ids and "ctp-26" in ids


def test_correct_and_buggy_submissions_through_the_cli(example):
    base, folder = example
    done = grader("check", "--exercises-dir", folder, "--exercise", "ctp-26-scores", "-f", "json", base / "correct.py", cwd=base)
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["exercise"] == "ctp-26-scores" and data["status"] == "passed" and data["score"] == data["max_score"]

    done = grader("check", "--exercises-dir", folder, "--exercise", "ctp-26-scores", base / "always_max.py", cwd=base)
    assert done.returncode == 1
    assert "FAILED" in done.stdout and "published-cases" in done.stdout


def test_the_old_helper_names_no_longer_exist(example):
    base, folder = example
    done = grader("check", "--exercises-dir", folder, "--exercise", "ctp-26-scores", "-f", "json", base / "old_names.py", cwd=base)
    assert done.returncode == 1
    data = json.loads(done.stdout)
    # Helpers under other names are an API mismatch: one line naming what it called and what is provided.
    assert data["status"] == "error" and data["checks"] == []
    assert "get_next_valid_moves(...)" in data["error"] and "score(...) and moves(...)" in data["error"]


def test_the_pyproject_table_works_like_the_option(example):
    base, folder = example
    (base / "pyproject.toml").write_text('[tool.minimax-grader]\nexercises-dir = "my-exercises"\n', encoding="utf-8")
    try:
        done = grader("check", "--exercise", "ctp-26-scores", base / "correct.py", cwd=base)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "PASSED" in done.stdout
        done = grader("exercises", cwd=base)
        assert "ctp-26-scores" in done.stdout
    finally:
        (base / "pyproject.toml").unlink()


def test_a_missing_folder_is_a_usage_error(example, tmp_path):
    base, _ = example
    done = grader("exercises", "--exercises-dir", base / "nowhere", cwd=base)
    assert done.returncode == 2 and "does not exist" in done.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.minimax-grader]\nexercises-dir = "gone"\n', encoding="utf-8")
    done = grader("exercises", cwd=tmp_path)
    assert done.returncode == 2 and "does not exist" in done.stderr


def test_config_reader_resolves_paths_against_the_pyproject_folder(tmp_path):
    from grader import config

    assert config.exercises_dirs(tmp_path) == []
    (tmp_path / "pyproject.toml").write_text('[tool.minimax-grader]\nexercises-dir = ["a", "b/c"]\n', encoding="utf-8")
    assert config.exercises_dirs(tmp_path) == [(tmp_path / "a").resolve(), (tmp_path / "b" / "c").resolve()]
    (tmp_path / "pyproject.toml").write_text('[tool.minimax-grader]\nexercises-dir = 3\n', encoding="utf-8")
    with pytest.raises(config.ConfigError):
        config.exercises_dirs(tmp_path)


def test_reference_and_fixtures_may_sit_beside_the_exercise_folders(tmp_path):
    """The other layout: DIR/<id>/exercise.toml with DIR/reference and DIR/fixtures shared."""
    from grader.judging import exercise
    from grader import paths

    folder = tmp_path / "course"
    shutil.copytree(paths.exercises_dir() / "ctp-26", folder / "ctp-26-shared", ignore=shutil.ignore_patterns("__pycache__"))
    toml = (folder / "ctp-26-shared" / "exercise.toml").read_text(encoding="utf-8").replace('id = "ctp-26"', 'id = "ctp-26-shared"')
    (folder / "ctp-26-shared" / "exercise.toml").write_text(toml, encoding="utf-8")
    (folder / "reference").mkdir()
    shutil.copy(paths.reference_dir() / "ctp_26.py", folder / "reference")
    shutil.copytree(paths.fixtures_dir() / "trees" / "ctp-26", folder / "fixtures" / "trees" / "ctp-26")
    found = exercise.load("ctp-26-shared", [folder])
    assert found.reference.__file__ == str(folder / "reference" / "ctp_26.py")
    assert found.fixtures_path == folder / "fixtures" / "trees" / "ctp-26"


def test_grade_uses_the_instructors_exercise_too(example, tmp_path):
    base, folder = example
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(base / "correct.py", klass / "ada.py")
    shutil.copy(base / "always_max.py", klass / "bob.py")
    done = grader("grade", klass, "--exercise", "ctp-26-scores", "--exercises-dir", folder, "--out", tmp_path / "out",
                  "--jobs", "1", cwd=base)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    status = {Path(s["submission"]).stem: s["status"] for s in results["submissions"]}
    assert status == {"ada": "passed", "bob": "failed"}
    assert {s["exercise"] for s in results["submissions"]} == {"ctp-26-scores"}


def test_a_relative_exercises_dir_works_as_typed(example):
    """The page's own command, `--exercises-dir my-exercises`, from the folder that holds it.

    The sandbox runs from its own work folder, where a relative driver path means nothing: the
    path is made absolute at the door, so the correct submission is not failed for the grader's sake.
    """
    base, _ = example
    done = grader("check", "--exercises-dir", "my-exercises", "--exercise", "ctp-26-scores", "correct.py", cwd=base)
    assert done.returncode == 0 and "PASSED" in done.stdout, done.stdout + done.stderr


def test_an_edited_exercise_toml_is_read_again_and_a_changed_table_never_leaks(tmp_path):
    """exercise.toml is parsed once per version of the file: an edit (even in the same process, as the
    pytest plugin or a long-lived API user sees) is read again, and what one caller changes in its table
    never reaches the next."""
    from grader.judging import exercise as exercises

    folder = tmp_path / "mine" / "exercises" / "mine"
    shutil.copytree(ROOT / "exercises" / "nim", folder)
    toml = folder / "exercise.toml"
    first = exercises.load("nim", [tmp_path / "mine"])
    assert first.folder == folder
    first.meta["title"] = "changed by a caller"
    assert exercises.load("nim", [tmp_path / "mine"]).meta.get("title") != "changed by a caller"
    toml.write_text(toml.read_text(encoding="utf-8").replace('id = "nim"', 'id = "nim-renamed"'), encoding="utf-8")
    assert "nim-renamed" in exercises.load_all([tmp_path / "mine"])


def test_an_edit_of_the_same_size_with_its_time_put_back_is_read_again(tmp_path):
    """tar, rsync -a and cp -p put a file's modification time back; an edit of the same size must still count."""
    from grader.judging import exercise as exercises

    folder = tmp_path / "mine" / "exercises" / "nim"
    shutil.copytree(ROOT / "exercises" / "nim", folder)
    toml = folder / "exercise.toml"
    before = exercises.load("nim", [tmp_path / "mine"]).meta["title"]
    stat = toml.stat()
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace(f'title = "{before}"', f'title = "{before[::-1]}"'), encoding="utf-8")
    os.utime(toml, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert toml.stat().st_size == stat.st_size
    assert exercises.load("nim", [tmp_path / "mine"]).meta["title"] == before[::-1]


def _exercise_named(folder: Path, top: str) -> None:
    """A copy of nim in ``folder`` whose exercise.toml starts with ``top`` instead of its own id line."""
    shutil.copytree(ROOT / "exercises" / "nim", folder)
    toml = folder / "exercise.toml"
    toml.write_text(top + toml.read_text(encoding="utf-8").replace('id = "nim"\n', ""), encoding="utf-8")


@pytest.mark.parametrize("top, named", [
    ('id = "heaps"\n', "heaps"),  # the plain line the quick look reads
    ('"id" = \'heaps\'  # quoted key, literal string\n', "heaps"),  # written another way: the table is parsed
    ('note = """several\n[lines]\n"""\nid = "heaps"\n', "heaps"),  # a multi-line string before the id
    ('grid = [\n  [1, 2],\n  [3, 4],\n]\nid = "heaps"\n', "heaps"),  # a nested array over several lines
    ('shown = {id = "inner"}\nid = "heaps"\n', "heaps"),  # an inline table with an id of its own
    ('\ufeffid = "heaps"\r\ntitle2 = "crlf"\r\n', "heaps"),  # a byte-order mark and Windows line ends
    ("", "renamed-folder"),  # no id: the folder's name
])
def test_one_exercise_is_found_by_its_id_however_the_table_names_it(tmp_path, top, named):
    """A decoy later in the search names the same id: a quick look that misread the first folder's table
    would skip it, and the decoy would be loaded instead of the folder ``load_all`` keeps."""
    from grader.judging import exercise as exercises

    _exercise_named(tmp_path / "mine" / "exercises" / "renamed-folder", top)
    _exercise_named(tmp_path / "decoy" / "exercises" / named, f'id = "{named}"\n')
    roots = [tmp_path / "mine", tmp_path / "decoy"]
    if top.startswith("\ufeff"):
        with pytest.raises(exercises.ExerciseError, match="renamed-folder"):  # tomllib refuses a BOM: said, not skipped
            exercises.load(named, roots)
        return
    found = exercises.load(named, roots)
    assert found.id == named and found.folder == tmp_path / "mine" / "exercises" / "renamed-folder"
    assert exercises.load_all(roots)[named].folder == found.folder


def test_loading_one_exercise_parses_only_its_own_table_and_the_first_folder_still_wins(tmp_path, monkeypatch):
    """A check loads one exercise: reading every other exercise's table was a tenth of its start. Where two
    folders name the same id, the one ``load_all`` would keep is the one loaded."""
    from grader.judging import exercise as exercises

    _exercise_named(tmp_path / "first" / "a-heaps", 'id = "heaps"\n')
    _exercise_named(tmp_path / "first" / "b-heaps", 'id = "heaps"\n')
    parsed = []
    real = exercises._read_meta
    monkeypatch.setattr(exercises, "_read_meta", lambda path: parsed.append(path) or real(path))
    found = exercises.load("heaps", [tmp_path / "first"])
    assert found.folder == tmp_path / "first" / "a-heaps" == exercises.load_all([tmp_path / "first"])["heaps"].folder
    assert parsed[0] == tmp_path / "first" / "a-heaps" / "exercise.toml"
    parsed.clear()
    exercises.load("nim")
    assert [p.parent.name for p in parsed] == ["nim"]


def test_an_unknown_exercise_still_names_every_known_one(tmp_path):
    from grader.judging import exercise as exercises

    with pytest.raises(exercises.ExerciseError, match=r"unknown exercise 'nope' \(known: .*ctp-26.*tictactoe"):
        exercises.load("nope")


@pytest.mark.parametrize("typed, meant", [("ctp26", "ctp-26"), ("Alphabeta", "alphabeta"), ("tic-tac-toe", "tictactoe")])
def test_a_mistyped_exercise_is_answered_with_the_one_meant(typed, meant):
    """``--exercise ctp26`` listed every exercise and left the reader to find the one meant (the hundred and thirteenth
    helper); the closest known id is named first. A name close to nothing names nothing."""
    from grader.judging import exercise as exercises

    with pytest.raises(exercises.ExerciseError, match=rf"unknown exercise '{typed}'; did you mean '{meant}'\? \(known:"):
        exercises.load(typed)
    with pytest.raises(exercises.ExerciseError) as refused:
        exercises.load("zzz")
    assert "did you mean" not in str(refused.value)
