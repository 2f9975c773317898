"""Discovery: every layout an instructor downloads, and malformed inputs refused one by one."""

from __future__ import annotations

import io
import os
import zipfile

import pytest

from bulk_class import SAMPLES, add_malformed
from grader.bulk import discover
from grader.bulk.discover import discover as find

CORRECT = (SAMPLES / "correct" / "functional.py").read_text()


def by_student(found):
    return {f.student: f for f in found}


def test_folder_of_files_and_folders(tmp_path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text(CORRECT)
    bob = tmp_path / "class" / "bob"
    bob.mkdir()
    (bob / "solution.py").write_text("from helpers import pick\n" + CORRECT)
    (bob / "helpers.py").write_text("pick = max\n")
    (tmp_path / "class" / "README.txt").write_text("not a submission")
    found = by_student(find([tmp_path / "class"], tmp_path / "staging"))
    assert set(found) == {"alice", "bob"}
    assert found["alice"].path.name == "alice.py" and found["alice"].problem is None
    assert found["bob"].path == bob and found["bob"].problem is None


def test_class_zip_and_per_student_zips(tmp_path):
    archive = tmp_path / "class.zip"
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("carol/solution.py", CORRECT)
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("export/alice.py", CORRECT)
        zf.writestr("export/bob/minimax.py", CORRECT)
        zf.writestr("export/carol.zip", inner.getvalue())
        zf.writestr("__MACOSX/export/._alice.py", "junk")
    found = by_student(find([archive], tmp_path / "staging"))
    assert set(found) == {"alice", "bob", "carol"}
    assert all(f.problem is None for f in found.values())
    assert found["carol"].path.joinpath("solution.py").read_text() == CORRECT
    assert found["alice"].display.startswith(str(archive))
    # Unpacked once: a second discovery reuses the same folder (stable paths for a re-run).
    again = by_student(find([archive], tmp_path / "staging"))
    assert again["alice"].path == found["alice"].path


def test_gradescope_export(tmp_path):
    export = tmp_path / "assignment_123_export"
    for number in ("1001", "1002"):
        (export / f"submission_{number}").mkdir(parents=True)
        (export / f"submission_{number}" / "minimax.py").write_text(CORRECT)
    (export / "submission_metadata.yml").write_text(
        "submission_1001:\n  :submitters:\n  - :name: Ada Lovelace\n    :sid: '42'\n    :email: ada@example.edu\n"
        "  :created_at: 2026-01-01\nsubmission_1002:\n  :submitters:\n  - :name: Alan Turing\n    :email: alan@example.edu\n"
        "  - :name: Grace Hopper\n    :sid: '7'\n")
    found = by_student(find([export], tmp_path / "staging"))
    assert set(found) == {"42", "alan@example.edu+7"}
    assert found["42"].path == export / "submission_1001"


def graded_from(found) -> Path:
    """The folder whose files are graded: a student's folder is loaded whole, and its code found as ``check`` finds
    it (submissions.graded_folder), so that both read a student's folder by one rule."""
    from grader.judging import submissions

    return submissions.load(found.path).files[0].parent


def test_github_classroom_clone(tmp_path):
    clone = tmp_path / "minimax-26-submissions"
    for user in ("octocat", "hubot"):
        repo = clone / f"minimax-26-{user}"
        (repo / ".git").mkdir(parents=True)
        (repo / "src").mkdir()
        (repo / "src" / "solution.py").write_text(CORRECT)
        (repo / "tests").mkdir()
        (repo / "tests" / "test_solution.py").write_text("def test(): pass\n")
    found = by_student(find([clone], tmp_path / "staging"))
    assert set(found) == {"octocat", "hubot"}
    assert graded_from(found["octocat"]) == clone / "minimax-26-octocat" / "src"


def test_malformed_inputs_each_get_one_line(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "fine.py").write_text(CORRECT)
    add_malformed(folder)
    found = by_student(find([folder], tmp_path / "staging"))
    assert found["fine"].problem is None
    assert "outside its folder" in found["zz-traversal"].problem
    assert "zip bomb" in found["zz-bomb"].problem
    assert "no Python file" in found["zz-empty"].problem
    assert "leads outside" in found["zz-escape"].problem
    assert found["zz-binary"].problem is None  # bytes are judged when loaded: see test_batch
    for item in found.values():
        assert item.problem is None or "\n" not in item.problem
    assert not (tmp_path / "escaped.py").exists() and not (tmp_path / "staging" / "escaped.py").exists()


def test_zip_lying_about_its_size_is_stopped_while_reading(tmp_path):
    archive = tmp_path / "liar.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("solution.py", b"#" * (8 << 20))
    data = bytearray(archive.read_bytes())
    # Shrink the declared size in the central directory: reading must still stop at the cap.
    with zipfile.ZipFile(archive) as zf:
        info = zf.infolist()[0]
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (1000).to_bytes(4, "little")
    archive.write_bytes(bytes(data))
    folder = discover.unpack(archive, tmp_path / "staging")  # the member is left out, alone, its place kept empty
    assert (folder / "solution.py").read_bytes() == b""
    reasons = [r["reason"] for r in discover.refusals(folder)]
    assert len(reasons) == 1 and ("more than it declares" in reasons[0] or "Bad CRC-32" in reasons[0]), reasons
    found = find([archive], tmp_path / "staging")  # one student's archive: their error
    assert reasons[0] in found[0].problem
    assert info.file_size == 8 << 20


def test_too_many_members(tmp_path, monkeypatch):
    monkeypatch.setattr(discover, "MAX_MEMBERS", 5)
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(6):
            zf.writestr(f"f{i}.py", "x = 1\n")
    found = find([archive], tmp_path / "staging")
    assert len(found) == 1 and "more than the 5 allowed" in found[0].problem


def test_link_inside_a_student_folder(tmp_path):
    folder = tmp_path / "class" / "mallory"
    folder.mkdir(parents=True)
    (folder / "solution.py").write_text(CORRECT)
    os.symlink("/etc/hostname", folder / "helpers.py")
    found = find([tmp_path / "class"], tmp_path / "staging")
    assert found[0].student == "mallory" and "leads outside" in found[0].problem


@pytest.mark.parametrize("name, safe", [
    ("a/b.py", True), ("./a.py", True), ("../a.py", False), ("a/../../b.py", False), ("/etc/passwd", False),
    ("C:/x.py", False), ("a\\..\\..\\b.py", False),
])
def test_member_paths(name, safe):
    assert (discover._safe_relative(name) is not None) == safe


def test_duplicate_ids_are_kept_apart(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "alice.py").write_text(CORRECT)
    (tmp_path / "c" / "alice").mkdir()
    (tmp_path / "c" / "alice" / "solution.py").write_text(CORRECT)
    found = find([tmp_path / "c"], tmp_path / "staging")
    assert sorted(f.student for f in found) == ["alice", "alice~2"]


def test_a_generated_id_never_takes_a_name_already_in_the_class(tmp_path):
    """``bob/``, ``bob.py`` and ``bob~2.py`` (the forty-fifth red team): the second bob may not become ``bob~2``,
    which is a student of its own; every output, the LMS import and the copy detection are keyed by id."""
    (tmp_path / "c" / "bob").mkdir(parents=True)
    (tmp_path / "c" / "bob" / "solution.py").write_text(CORRECT)
    (tmp_path / "c" / "bob.py").write_text(CORRECT)
    (tmp_path / "c" / "bob~2.py").write_text(CORRECT)
    found = find([tmp_path / "c"], tmp_path / "staging")
    ids = [f.student for f in found]
    assert len(ids) == len(set(ids)) == 3, ids
    assert "bob~2" in ids and "bob" in ids


def test_names_that_are_not_utf8_are_shown_readably(tmp_path):
    """A file name's bytes that are not UTF-8 reach Python as lone surrogates, which no output can hold: what is
    shown and stored (the id, the display, a skipped entry) has U+FFFD in their place."""
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / os.fsdecode(b"\xff\xfe.py")).write_text(CORRECT)
    (folder / os.fsdecode(b"not\xffpython.txt")).write_text("notes")
    survey = discover.survey([folder], tmp_path / "staging")
    shown = [f.student for f in survey.found] + [f.display for f in survey.found] + [s.path for s in survey.skipped]
    assert shown and all(text.encode("utf-8") for text in shown)
    assert "\ufffd\ufffd" in [f.student for f in survey.found]


def _zip(path, members: dict[str, str | bytes]):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def five_students(folder):
    """The instructor's folder of issue 12: two class archives, five students in all."""
    folder.mkdir(parents=True)
    _zip(folder / "classA.zip", {"kim.py": CORRECT, "lee.py": CORRECT, "max.py": CORRECT})
    _zip(folder / "classB.zip", {"ann/solution.py": CORRECT, "ben/minimax.py": CORRECT, "ben/helpers.py": "pick = max\n"})
    return folder


def test_zips_inside_a_folder_are_read_like_zips_on_the_command_line(tmp_path):
    folder = five_students(tmp_path / "downloads")
    in_folder = by_student(find([folder], tmp_path / "staging"))
    assert set(in_folder) == {"kim", "lee", "max", "ann", "ben"}
    assert all(f.problem is None for f in in_folder.values())
    assert in_folder["kim"].display == f"{folder}/classA.zip/kim.py"
    assert in_folder["ben"].path.joinpath("helpers.py").is_file()
    # Named on the command line, two class archives are classes where the instructor says so (see
    # test_students_archives_named_on_the_command_line_are_each_theirs)
    given = by_student(discover.discover([folder / "classA.zip", folder / "classB.zip"], tmp_path / "staging2",
                                         sections=True))
    assert set(given) == set(in_folder)


def test_an_archive_of_one_program_is_one_student_named_after_it(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    # Two modules of one program (one imports the other): one student, wherever the zip is.
    _zip(folder / "zoe.zip", {"gamestate.py": "class GameState:\n    pass\n",
                              "player.py": "from gamestate import GameState\ndef minimax_decision(s):\n    return None\n"})
    _zip(folder / "yan.zip", {"yan-work/src/solution.py": CORRECT, "yan-work/README.md": "notes"})
    found = by_student(find([folder], tmp_path / "staging"))
    assert set(found) == {"zoe", "yan"}
    assert {p.name for p in found["zoe"].path.iterdir()} == {"gamestate.py", "player.py"}
    assert graded_from(found["yan"]).name == "src"
    alone = find([folder / "zoe.zip"], tmp_path / "staging2")
    assert [f.student for f in alone] == ["zoe"]


def test_every_entry_is_accounted_for(tmp_path):
    folder = five_students(tmp_path / "downloads")
    (folder / "README.txt").write_text("instructions")
    (folder / ".DS_Store").write_bytes(b"\0")
    (folder / "grades.xlsx").write_bytes(b"PK")
    _zip(folder / "classC.zip", {"cat.py": CORRECT, "dan.py": CORRECT, "notes.pdf": b"%PDF"})
    result = discover.survey([folder], tmp_path / "staging")
    assert sorted(f.student for f in result.found) == ["ann", "ben", "cat", "dan", "kim", "lee", "max"]
    reasons = {s.path: s.reason for s in result.skipped}
    assert set(reasons) == {f"{folder}/README.txt", f"{folder}/.DS_Store", f"{folder}/grades.xlsx",
                            f"{folder}/classC.zip/notes.pdf"}
    assert "not a submission" in reasons[f"{folder}/.DS_Store"]
    account = result.account()
    assert account["submissions"] == 7 and len(account["skipped"]) == 4
    assert {g["student"] for g in account["graded"]} == {f.student for f in result.found}
    lines = result.lines()
    assert lines[0] == "found 7 submissions, skipped 4"
    assert sum(line.startswith("skipped ") for line in lines) == 4


def test_a_gradescope_export_accounts_for_its_metadata(tmp_path):
    export = tmp_path / "export"
    (export / "submission_1").mkdir(parents=True)
    (export / "submission_1" / "minimax.py").write_text(CORRECT)
    (export / "submission_metadata.yml").write_text("submission_1:\n  :submitters:\n  - :sid: '9'\n")
    (export / "notes.txt").write_text("x")
    result = discover.survey([export], tmp_path / "staging")
    assert [f.student for f in result.found] == ["9"]
    assert {s.path.rsplit("/", 1)[1] for s in result.skipped} == {"submission_metadata.yml", "notes.txt"}


def test_an_archive_of_broken_files_is_still_a_class(tmp_path):
    """Files that define nothing readable are not folded into one student: each is listed (and fails alone)."""
    archive = _zip(tmp_path / "late.zip", {"uma.py": "def minimax(:\n", "vic.py": "", "wes.py": CORRECT})
    assert sorted(f.student for f in find([archive], tmp_path / "staging")) == ["uma", "vic", "wes"]


def test_modules_of_one_program_without_imports_between_them_stay_one_student(tmp_path):
    """The parts of aima-isolation: different names, each file its own part (a third comes from the grader)."""
    parts = SAMPLES.parent / "aima-isolation" / "buggy" / "two_files_rook_moves"
    archive = _zip(tmp_path / "rob.zip", {p.name: p.read_text() for p in parts.glob("*.py")})
    assert [f.student for f in find([archive], tmp_path / "staging")] == ["rob"]


# -- one student's files are never another's (the forty-sixth red team) ------------------------


def test_a_link_to_another_entry_of_the_class_is_that_student_s_error(tmp_path):
    """``mallory.py -> alice.py``: alice's code graded as mallory's, and alice flagged as mallory's copy."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(CORRECT)
    os.symlink("alice.py", folder / "mallory.py")
    found = by_student(find([folder], tmp_path / "staging"))
    assert found["alice"].problem is None
    assert found["mallory"].path is None and "link to another entry" in found["mallory"].problem


def test_a_link_into_a_neighbour_s_folder_is_that_student_s_error(tmp_path):
    """A GitHub Classroom clone keeps links: ``hw-mallory/solution.py -> ../hw-alice/solution.py``."""
    folder = tmp_path / "class"
    for user in ("alice", "mallory"):
        (folder / f"hw-{user}" / ".git").mkdir(parents=True)
    (folder / "hw-alice" / "solution.py").write_text(CORRECT)
    os.symlink("../hw-alice/solution.py", folder / "hw-mallory" / "solution.py")
    found = by_student(find([folder], tmp_path / "staging"))
    assert found["alice"].problem is None
    assert found["mallory"].path is None and "leads outside" in found["mallory"].problem


@pytest.mark.parametrize("where", ["folder", "class-zip"])
def test_a_student_s_archive_never_names_other_students(tmp_path, where):
    """``aaron.zip`` (his work and a broken ``bob.py``) beside bob's own submission: read as a class, it took the id
    ``bob`` and bob's row in the LMS import (the real bob became ``bob~2``). Among students an archive is one
    student's, and one holding several submissions is its owner's error; bob stays bob."""
    folder = tmp_path / "class"
    folder.mkdir()
    _zip(folder / "aaron.zip", {"aaron.py": CORRECT, "bob.py": "def minimax(:\n"})
    (folder / "bob.py").write_text(CORRECT)
    given = folder if where == "folder" else _zip(tmp_path / "download.zip", {
        "aaron.zip": (folder / "aaron.zip").read_bytes(), "bob.py": CORRECT})
    found = find([given], tmp_path / "staging")
    assert sorted(f.student for f in found) == ["aaron", "bob"], [(f.student, f.display) for f in found]
    by = by_student(found)
    assert by["bob"].problem is None and by["bob"].display.endswith("bob.py")
    assert by["aaron"].path is None and "holds several submissions" in by["aaron"].problem


def test_an_archive_of_two_code_folders_that_are_not_alternatives_is_one_student(tmp_path):
    """``alice.zip`` with ``code/minimax.py`` and ``experiments/plotting.py``: one program's parts, not a class of
    students ``code`` and ``experiments`` (alice had no row)."""
    folder = tmp_path / "class"
    folder.mkdir()
    _zip(folder / "alice.zip", {"code/minimax.py": CORRECT, "experiments/plotting.py": "def plot(xs):\n    return xs\n"})
    (folder / "bob.py").write_text(CORRECT)
    found = by_student(find([folder], tmp_path / "staging"))
    assert set(found) == {"alice", "bob"} and found["alice"].problem is None
    assert graded_from(found["alice"]).name == "code"
    alone = find([folder / "alice.zip"], tmp_path / "staging2")
    assert [f.student for f in alone] == ["alice"]


def test_a_link_between_submissions_of_a_gradescope_export_is_that_student_s_error(tmp_path):
    export = tmp_path / "export"
    (export / "submission_1").mkdir(parents=True)
    (export / "submission_1" / "minimax.py").write_text(CORRECT)
    os.symlink("submission_1", export / "submission_2")
    (export / "submission_metadata.yml").write_text("submission_1:\n  :submitters:\n  - :sid: '111'\n"
                                                    "submission_2:\n  :submitters:\n  - :sid: '222'\n")
    found = by_student(find([export], tmp_path / "staging"))
    assert found["111"].problem is None
    assert found["222"].path is None and "link to another entry" in found["222"].problem


def test_a_broken_section_or_a_folder_without_code_leaves_the_other_sections_classes(tmp_path):
    """A folder of section archives where one cannot be unpacked, or beside a folder of feedback files, is still
    sections: the others' students are listed one by one, the broken one is its own error."""
    folder = five_students(tmp_path / "downloads")
    (folder / "classC.zip").write_bytes(b"not a zip")
    (folder / "feedback").mkdir()
    (folder / "feedback" / "notes.txt").write_text("later")
    found = by_student(find([folder], tmp_path / "staging"))
    assert {"kim", "lee", "max", "ann", "ben"} <= set(found), sorted(found)
    assert found["classC"].problem is not None


def test_students_archives_named_on_the_command_line_are_each_theirs(tmp_path):
    """Nothing in an archive tells a class export from a student's archive made to look like one (the hundred and
    tenth to twelfth helpers: read as a class, ``aaron.zip`` holding a broken ``bob.py`` took bob's id and LMS row;
    every rule by ids either let one student name a classmate who had not submitted, ``Bob`` or a Gradescope sid
    included, or refused an honest export). So an archive holding several submissions is a class where it is the
    only archive named, or where the instructor says so (``sections``); of several archives, each is one student's."""
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    _zip(downloads / "bob.zip", {"solution.py": CORRECT})
    _zip(downloads / "carol.zip", {"solution.py": CORRECT, "solution_v2.py": CORRECT})  # two versions: her error
    _zip(downloads / "aaron.zip", {"aaron.py": CORRECT, "bob.py": "def minimax(:\n"})
    _zip(downloads / "mallory.zip", {"Bob.py": CORRECT, "dave.py": CORRECT})  # names a classmate, case changed
    _zip(downloads / "eve.zip", {"submission_metadata.yml": "submission_1:\n  :submitters:\n  - :name: Fay\n"
                                                            "    :sid: fay\n",
                                 "submission_1/solution.py": CORRECT, "submission_2/solution.py": CORRECT})
    found = find(sorted(downloads.glob("*.zip")), tmp_path / "staging")
    students = by_student(found)
    assert sorted(students) == ["aaron", "bob", "carol", "eve", "mallory"]  # nobody else's id, from any archive
    assert students["bob"].problem is None and students["bob"].display == f"{downloads}/bob.zip"
    for owner in ("aaron", "carol", "mallory", "eve"):
        assert "holds several submissions" in students[owner].problem and "--sections" in students[owner].problem
    (tmp_path / "alone").mkdir()
    mallory = _zip(tmp_path / "alone" / "mallory.zip", {"mallory.py": CORRECT, "bob.py": "def minimax(:\n"})
    alone = by_student(find([mallory], tmp_path / "staging-alone"))  # her own archive, named alone
    assert list(alone) == ["mallory"] and "holds several submissions" in alone["mallory"].problem
    # An export alone, with a late student's file beside it (one of the export's students too: bob and bob~2), and
    # exports of sections (one a single student's) or an export and a late archive with --sections
    five = five_students(tmp_path / "sections")
    late = tmp_path / "late" / "lee.py"
    late.parent.mkdir()
    late.write_text(CORRECT)
    late_zip = _zip(tmp_path / "late" / "dave.zip", {"solution.py": CORRECT})
    single = _zip(tmp_path / "late" / "sectionC.zip", {"una.py": CORRECT})
    for number, (named, sections) in enumerate((([five / "classA.zip"], False), ([five / "classA.zip", late], False),
                                                ([five / "classA.zip", five / "classB.zip"], True),
                                                ([five / "classA.zip", late_zip], True),
                                                ([five / "classA.zip", five / "classB.zip", single], True))):
        found = by_student(discover.discover(named, tmp_path / f"staging-{number}", sections=sections))
        assert {"kim", "lee", "max"} <= set(found) and all(f.problem is None for f in found.values()), number
    assert "lee~2" in by_student(find([five / "classA.zip", late], tmp_path / "staging-late"))
    refused = by_student(find([five / "classA.zip", five / "classB.zip"], tmp_path / "staging-refused"))
    assert set(refused) == {"classA", "classB"} and all("--sections" in f.problem for f in refused.values())


def test_a_student_folder_nobody_may_look_into_is_that_students_error():
    """A student's folder without search permission (as ``unzip`` can restore one) made ``(folder / ".git").exists()``
    raise PermissionError for the whole class, for a grader that is not root (the laptop case). Run as uid 65534."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from test_hostile import _unprivileged_python

    work = Path(tempfile.mkdtemp(prefix="minimax-unreadable-folder-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        (klass / "mallory").mkdir(parents=True)
        (klass / "alice.py").write_text(CORRECT)
        (klass / "mallory" / "solution.py").write_text(CORRECT)
        for path in (work, klass, klass / "alice.py"):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        os.chmod(klass / "mallory", 0)
        command, env = _unprivileged_python(work)
        code = ("import sys, tempfile\nfrom pathlib import Path\nfrom grader.bulk import discover\n"
                "found = discover.discover([Path(sys.argv[1])], Path(tempfile.mkdtemp()))\n"
                "print(sorted((f.student, f.problem is None) for f in found))\n")
        done = subprocess.run(command + ["-c", code, str(klass)], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-1500:]
        assert done.stdout.strip() == "[('alice', True), ('mallory', False)]"
    finally:
        os.chmod(work / "class" / "mallory", 0o755)
        shutil.rmtree(work, ignore_errors=True)


def _without_utf8_flag(path, names: dict[str, bytes], extra: dict[str, bytes] | None = None):
    """An archive whose members are named with the raw bytes given and no UTF-8 flag, as Info-ZIP's ``zip`` and macOS's
    Finder write them (``zipfile`` itself would set the flag): written under ASCII stand-ins of the same length, whose
    bytes are then put back in both headers. ``extra``: a member's extra field, by stand-in."""
    stand_ins = {f"s{i:0{len(raw) - 1}d}"[:len(raw)]: raw for i, raw in enumerate(names.values())}
    with zipfile.ZipFile(path, "w") as zf:
        for stand_in in stand_ins:
            info = zipfile.ZipInfo(stand_in)
            info.extra = (extra or {}).get(stand_in, b"")
            zf.writestr(info, CORRECT)
    data = path.read_bytes()
    for stand_in, raw in stand_ins.items():
        assert data.count(stand_in.encode()) == 2
        data = data.replace(stand_in.encode(), raw)
    path.write_bytes(data)
    return list(stand_ins)


def test_member_names_written_in_utf8_without_the_flag_keep_their_letters(tmp_path):
    """``zipfile`` reads a name without the UTF-8 flag as code page 437: ``núñezjosé_…`` came out ``n├║├▒ezjos├⌐_…``
    in ids, exports and reports, and no roster could match it (the hundred and thirteenth helper, an Info-ZIP archive).
    UTF-8 bytes are read as UTF-8; a name that is not UTF-8 stays code page 437, as every unzip shows it."""
    archive = tmp_path / "section.zip"
    _without_utf8_flag(archive, {"a": "núñezjosé_12345_67895_minimax.py".encode(), "b": b"smithjohn_1_2_minimax.py",
                                 "c": "Ga\u0308rtner.py".encode(), "d": "cp437_\u00e9t\u00e9.py".encode("cp437")})
    assert not any(info.flag_bits & 0x800 for info in zipfile.ZipFile(archive).infolist())
    found = by_student(find([archive], tmp_path / "staging"))
    assert set(found) == {"núñezjosé", "smithjohn", "Ga\u0308rtner",
                          "cp437_\u00e9t\u00e9"}
    assert all(f.problem is None for f in found.values())


def test_info_zip_s_unicode_path_field_names_the_member_when_it_matches(tmp_path):
    """A Windows archiver writes the name in its own code page (1252 here: ``M\\xfcller.py``, which code page 437 reads
    ``M\u207fller.py``) and the UTF-8 name in Info-ZIP's field (0x7075) with the CRC of the name it stands for; a field
    whose CRC does not match (the name was changed since) is ignored."""
    import zlib

    def field(name_bytes, utf8):
        body = b"\x01" + zlib.crc32(name_bytes).to_bytes(4, "little") + utf8.encode()
        return (0x7075).to_bytes(2, "little") + len(body).to_bytes(2, "little") + body

    muller, renee = "M\u00fcller.py".encode("cp1252"), "Ren\u00e9e.py".encode("cp1252")
    archive = tmp_path / "export.zip"
    names = {"m": muller, "r": renee}
    stand_ins = [f"s{i:0{len(raw) - 1}d}"[:len(raw)] for i, raw in enumerate(names.values())]
    _without_utf8_flag(archive, names, extra={stand_ins[0]: field(muller, "M\u00fcller.py"),
                                              stand_ins[1]: field(b"stale.py", "Mallory.py")})
    assert [info.extra[:2] for info in zipfile.ZipFile(archive).infolist()] == [b"\x75\x70"] * 2
    found = by_student(find([archive], tmp_path / "staging"))
    assert set(found) == {"M\u00fcller", renee.decode("cp437")[:-3]}


def test_telling_one_program_from_several_students_parses_a_bounded_amount(tmp_path, monkeypatch):
    """Discovery parses an archive's files to tell one program's modules from several students' solutions: 1 MiB of
    ``x=1`` took 5 s and 630 MB to parse, and a hundred small zips of them would have taken hours before grading began
    (the hundred and fourteenth helper). Files over 128 KiB are not parsed for it, nor anything past 8 MiB a survey."""
    from grader import python_source

    parsed = []
    real = python_source.parse
    monkeypatch.setattr(python_source, "parse", lambda data, *a, **k: parsed.append(len(data)) or real(data, *a, **k))
    monkeypatch.setattr(discover, "MAX_PARSED_TOTAL", 300 << 10)
    folder = tmp_path / "class"
    folder.mkdir()
    for n in range(6):
        _zip(folder / f"s{n}.zip", {"solution.py": CORRECT, "table.py": "x=1\n" * (100 << 10),
                                    "notes.py": "y = 2\n" * 10000})
    found = by_student(find([folder], tmp_path / "staging"))
    assert len(found) == 6
    assert parsed and max(parsed) <= 128 << 10 and sum(parsed) <= 300 << 10
