"""An LMS's submissions download read as the LMS named it: one student per student, their LMS id in the import files.

Canvas names each file ``<sortable name>_<user id>_<attachment id>_<file>`` (``_LATE_`` before the user id when late);
Moodle makes a folder per student and plugin, ``<Full Name>_<participant id>_assignsubmission_file_`` beside
``…_onlinetext_``, or prefixes each file so when downloaded without folders. Read as plain names, a Canvas student was
``garciaana_12341_67891_minimax``, matched no roster and filled no ID column, a Moodle student with online text was two
students, and ``núñezjosé``'s report was ``n_ezjos.html`` (the hundred and thirteenth helper).
"""

from __future__ import annotations

import csv
import io
import os
import zipfile

from conftest import SUBMISSIONS
from grader.bulk import batch, discover
from grader.export.roster import Person, Student, people_for

CORRECT = (SUBMISSIONS / "ctp-26" / "correct" / "functional.py").read_text()
BUGGY = (SUBMISSIONS / "ctp-26" / "buggy" / "always_max.py").read_text()
# A solution in two modules that import each other by the student's own names
SPLIT_MAIN = "from search_helpers import best\n\n" + CORRECT.replace("def minimax(", "def _minimax(") + \
    "\n\ndef minimax(node, max_depth, player_a_moves):\n    return best(_minimax, node, max_depth, player_a_moves)\n"
SPLIT_HELPER = "def best(search, *args):\n    return search(*args)\n"


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def canvas_export(path):
    return _zip(path, {
        "garciaana_12341_67891_minimax.py": CORRECT,
        "smithjohn_LATE_12342_67892_minimax.py": BUGGY,
        "leekim_12343_67893_minimax.py": SPLIT_MAIN,
        "leekim_12343_67894_search_helpers.py": SPLIT_HELPER,
        "leekim_12343_67895_notes.pdf": b"%PDF-1.4 not code",
        "núñezjosé_12345_67896_minimax-1.py": CORRECT,
    })


def moodle_export(path):
    return _zip(path, {
        "Jane Doe_123456_assignsubmission_file_/minimax.py": CORRECT,
        "Tom Becker_123460_assignsubmission_file_/minimax.py": BUGGY,
        "Tom Becker_123460_assignsubmission_onlinetext_/onlinetext.html": "<p>I did my best</p>",
        "Ann Other_123461_assignsubmission_onlinetext_/onlinetext.html": "<p>forgot the file</p>",
    })


def by_student(survey):
    return {f.student: f for f in survey.found}


def test_a_canvas_download_is_one_student_per_user_id_under_canvas_s_name_for_them(tmp_path):
    survey = discover.survey([canvas_export(tmp_path / "submissions.zip")], tmp_path / "staging")
    found = by_student(survey)
    assert set(found) == {"garciaana", "smithjohn", "leekim", "núñezjosé"}
    assert {f.student: f.lms_id for f in found.values()} == {"garciaana": "12341", "smithjohn": "12342",
                                                             "leekim": "12343", "núñezjosé": "12345"}
    assert all(f.problem is None and f.named_by_lms for f in found.values())
    # leekim's two files are one folder of theirs, under the names their import uses; the PDF is left out, said why
    assert sorted(p.name for p in found["leekim"].path.iterdir()) == ["minimax.py", "search_helpers.py"]
    assert [(s.path.rsplit("/", 1)[-1], s.reason) for s in survey.skipped] == [
        ("leekim_12343_67895_notes.pdf", "not code: leekim_12343_67895_notes.pdf of leekim's submission")]


def test_a_moodle_download_is_one_student_per_participant_and_online_text_is_left_out_with_a_word(tmp_path):
    survey = discover.survey([moodle_export(tmp_path / "CS101 B-HW3-4242.zip")], tmp_path / "staging")
    found = by_student(survey)
    assert set(found) == {"Jane Doe", "Tom Becker"}
    assert all(f.problem is None and f.named_by_lms and f.lms_id == "" for f in found.values())
    reasons = sorted(s.reason for s in survey.skipped)
    assert reasons == ["not code: Moodle's onlinetext part of Ann Other's submission, who handed in no code",
                       "not code: Moodle's onlinetext part of Tom Becker's submission"]


def test_a_moodle_download_without_folders_is_read_the_same(tmp_path):
    archive = _zip(tmp_path / "flat.zip", {"Jane Doe_123456_assignsubmission_file_minimax.py": CORRECT,
                                           "Tom Becker_123460_assignsubmission_file_minimax.py": BUGGY})
    assert set(by_student(discover.survey([archive], tmp_path / "staging"))) == {"Jane Doe", "Tom Becker"}


def test_a_late_file_from_canvas_named_beside_the_export_is_that_student(tmp_path):
    late = tmp_path / "patelriya_LATE_12346_67999_minimax.py"
    late.write_text(CORRECT)
    found = by_student(discover.survey([canvas_export(tmp_path / "submissions.zip"), late], tmp_path / "staging"))
    assert found["patelriya"].lms_id == "12346" and found["patelriya"].path == late


def test_names_that_only_look_alike_are_left_as_they_are(tmp_path):
    """A plain class keeps its file names as ids; a student's own file named like the LMS's is read so, by design,
    only where it has the whole shape (name, two numbers, the file)."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("alice.py", "bob_2.py", "carol_1_final.py", "dave_1_2_minimax.py"):
        (folder / name).write_text(CORRECT)
    assert set(by_student(discover.survey([folder], tmp_path / "staging"))) == {"alice", "bob_2", "carol_1_final",
                                                                                 "dave"}


def test_the_import_files_carry_the_download_s_ids_with_or_without_a_roster(tmp_path):
    """Without a roster canvas.csv's ID is the user id Canvas named the files with (its import matches rows by it) and
    no login is made up from a name; with Canvas's own gradebook export as the roster (its ``ID`` column is read as the
    id) every row is filled, and roster rows with no submission are one note."""
    export, out = canvas_export(tmp_path / "submissions.zip"), tmp_path / "out"
    batch.grade([export], "ctp-26", out, seed=3, jobs=1, examples=5, lms=("canvas", "moodle"))
    rows = {r[0]: r for r in csv.reader((out / "canvas.csv").read_text(encoding="utf-8-sig").splitlines())}
    assert rows["garciaana"][1:4] == ["12341", "", ""] and rows["leekim"][1] == "12343"
    assert rows["garciaana"][5] == rows["leekim"][5] == "10" and rows["smithjohn"][5] != "10"
    assert sorted(p.name for p in (out / "reports").iterdir() if p.suffix == ".html") == [
        "garciaana.html", "leekim.html", "nunezjose.html", "smithjohn.html"]
    roster_file = tmp_path / "gradebook.csv"
    roster_file.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                           "\"Garcia, Ana\",12341,S1,agarcia,A\n\"Smith, John\",12342,S2,jsmith,A\n"
                           "\"Lee, Kim\",12343,S3,klee,B\n\"Núñez, José\",12345,S5,jnunez,B\n"
                           "\"Mustermann, Max\",12399,S9,mmuster,B\n", encoding="utf-8")
    from grader.export.roster import read_roster

    outcome = batch.grade([export], "ctp-26", out, seed=3, jobs=1, examples=5, lms=("canvas",),
                          roster=read_roster(roster_file))
    rows = {r[1]: r for r in csv.reader((out / "canvas.csv").read_text(encoding="utf-8-sig").splitlines())}
    assert rows["12341"][:5] == ["Garcia, Ana", "12341", "S1", "agarcia", "A"]
    assert rows["12345"][:5] == ["Núñez, José", "12345", "S5", "jnunez", "B"]
    assert "12399" not in rows
    assert outcome.notes == ["1 student of the roster handed in nothing that was found: Mustermann, Max (12399) "
                             "(no row in the LMS files)"]
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert '<a href="canvas.csv">canvas.csv</a>' in page and "Mustermann, Max (12399)" in page


def test_people_for_matches_by_grader_id_then_by_the_download_s_user_id():
    roster = {"alice": Person("alice", name="Alice A", login="aa"), "x9": Person("x9", name="Bo B", lms_id="77")}
    people, notes = people_for([Student("alice"), Student("bob", "77", True), Student("carl", "", True),
                                Student("dora")], roster)
    assert people["alice"].login == "aa" and people["bob"].name == "Bo B" and people["bob"].lms_id == "77"
    assert people["carl"].lms_id == "" and people["carl"].login == ""
    assert people["dora"] == Person("dora", name="dora")
    assert notes == ["carl is not in the roster: its row carries only what the LMS's download named",
                     "dora is not in the roster: its row has no LMS id"]
    moodle = {"jd": Person("jd", name="Jane Doe", login="jdoe"), "t1": Person("t1", name="Tom B"),
              "t2": Person("t2", name="tom b")}
    people, notes = people_for([Student("Jane Doe", "", True), Student("Tom B", "", True), Student("Jane Doe~2")],
                               moodle)
    assert people["Jane Doe"].login == "jdoe"  # one row of that name: Moodle's full name finds it
    assert people["Tom B"].login == "" and "Tom B is not in the roster" in notes[0]  # two rows: neither is taken
    assert people["Jane Doe~2"].login == ""  # a name the grader gave, never matched by name
    plain, none = people_for([Student("dora"), Student("erin", "5", True)], None)
    assert plain["dora"].login == "dora" and plain["erin"] == Person("erin", name="erin", lms_id="5") and none == []


def test_a_student_s_own_file_name_that_looks_like_the_lms_s_joins_no_one_else(tmp_path):
    """The LMS's prefix comes first and the rest is the student's own name for the file, which may look like another
    student's prefix: read greedily, mallory's file joined Bob's (participant 555) and spoiled his submission."""
    archive = _zip(tmp_path / "flat.zip", {
        "Bob Smith_555_assignsubmission_file_minimax.py": CORRECT,
        "Mallory X_111_assignsubmission_file_Bob Smith_555_assignsubmission_file_minimax.py": BUGGY,
        "leekim_12343_67893_smithjohn_12342_1_minimax.py": BUGGY,
        "smithjohn_12342_67892_minimax.py": CORRECT,
    })
    found = by_student(discover.survey([archive], tmp_path / "staging"))
    assert set(found) == {"Bob Smith", "Mallory X", "leekim", "smithjohn"}
    assert all(f.problem is None for f in found.values())
    assert found["Bob Smith"].path.read_text() == found["smithjohn"].path.read_text() == CORRECT


def test_a_roster_row_for_another_user_id_is_never_taken_by_the_grader_s_id():
    """Two Canvas students with one name are ``smithjohn`` and ``smithjohn~2`` in the order their files come, which a
    late file changes: a roster keyed by those ids gave one's grade to the other (the hundred and fourteenth helper).
    The download's user id decides."""
    roster = {"smithjohn": Person("smithjohn", name="John Smith A", lms_id="1234"),
              "smithjohn~2": Person("smithjohn~2", name="John Smith B", lms_id="555")}
    people, notes = people_for([Student("smithjohn", "555", True), Student("smithjohn~2", "1234", True)], roster)
    assert people["smithjohn"].name == "John Smith B" and people["smithjohn"].lms_id == "555"
    assert people["smithjohn~2"].name == "John Smith A" and people["smithjohn~2"].lms_id == "1234"
    assert notes == []


def test_an_import_of_a_classmate_s_entry_does_not_make_a_download_one_program(tmp_path):
    """Entries that import one another are one program's modules, not students' (``_holds_a_class``): a student's
    file importing a classmate's Moodle folder, or guessing Canvas names by the hundred, made the whole export one
    student's program graded on a classmate's code (the hundred and fourteenth helper). An LMS's own names say it is a
    class."""
    imports = "\n".join(f"import evemallory_557_{n}_minimax" for n in range(9000, 9010)) + "\n"
    for members in ({"Li_558_assignsubmission_file_/minimax.py": CORRECT,
                     "Eve Mallory_557_assignsubmission_file_/minimax.py": CORRECT,
                     "Eve Mallory_557_assignsubmission_file_/extra.py": "import Li_558_assignsubmission_file_\n"},
                    {"li_558_9000_minimax.py": CORRECT, "evemallory_557_9003_minimax.py": CORRECT,
                     "evemallory_557_9004_extra.py": imports.replace("557_9003", "558_9000")
                     + "import li_558_9000_minimax\n"}):
        archive = _zip(tmp_path / "export.zip", members)
        found = by_student(discover.survey([archive], tmp_path / f"staging-{len(members)}"))
        assert len(found) == 2 and "export" not in found, sorted(found)
        archive.unlink()


def _staged_bytes(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def test_what_one_student_uploads_never_spoils_the_class_s_download(tmp_path):
    """The archive's caps were the export's: one student's 5 MiB PDF, a 240-character file name, a name holding
    ``\\..\\``, or more files than the cap, and the whole class was one row, "submissions", error (the hundred and
    fourteenth helper). Each is left out alone now: a file the grading needs is its owner's error, anything else a
    line of the account, and the classmates are graded."""
    members = {"garciaana_12341_67891_minimax.py": CORRECT, "smithjohn_12342_67892_minimax.py": BUGGY,
               "evemallory_557_9003_minimax.py": CORRECT,
               "evemallory_557_9004_report.pdf": os.urandom(5 << 20),
               "evemallory_557_9005_" + "x" * 240 + ".py": CORRECT,
               "evemallory_557_9006_a\\..\\..\\evil.py": CORRECT,
               **{f"evemallory_557_{9100 + n}_notes{n}.txt": "n" for n in range(600)}}
    found = by_student(survey := discover.survey([_zip(tmp_path / "submissions.zip", members)], tmp_path / "staging"))
    assert set(found) == {"garciaana", "smithjohn", "evemallory"}
    assert found["garciaana"].problem is None and found["smithjohn"].problem is None
    reasons = [s.reason for s in survey.skipped]
    assert any("not code, and larger than 256 KiB" in r for r in reasons)
    assert any("leads outside its folder" in r for r in reasons)
    assert any("file system refuses it" in r for r in reasons)


def test_one_student_s_many_files_are_refused_for_that_student_alone(tmp_path):
    """More than an owner's share (16 MiB) is that owner's: the files past it are left out, and the student whose
    code was among them gets the reason as their error; classmates after them in the archive are graded."""
    heavy = "x = 1\n" * (170 << 10)  # about 1 MiB of code that compresses
    members = {**{f"aaron_100_{n}_part{n}.py": heavy for n in range(20)},
               "zoe_200_1_minimax.py": CORRECT}
    found = by_student(discover.survey([_zip(tmp_path / "submissions.zip", members)], tmp_path / "staging"))
    assert found["zoe"].problem is None
    assert "unpack to more than 16 MiB" in found["aaron"].problem


def test_a_tiny_upload_cannot_fill_the_disk(tmp_path):
    """Members of 1 MiB of zeros, each under the old 1 MiB ratio floor, in forty zips of 71 KB, grew the staging
    folder by 2.5 GB (the hundred and fourteenth helper): a member compressed past 200:1 above 64 KiB is left out."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("minimax.py", CORRECT)
        for n in range(63):
            archive.writestr(f"z{n}.py", b"\0" * ((1 << 20) - 1))
    members = {f"evemallory_557_{9000 + n}_hw{n}.zip": inner.getvalue() for n in range(10)}
    members["garciaana_12341_67891_minimax.py"] = CORRECT
    staging = tmp_path / "staging"
    found = by_student(discover.survey([_zip(tmp_path / "submissions.zip", members)], staging))
    assert found["garciaana"].problem is None and found["evemallory"].problem is not None
    assert _staged_bytes(staging) < 8 << 20


def test_a_large_file_beside_a_moodle_student_s_code_is_left_packed_and_the_student_graded_once(tmp_path):
    """A 5 MiB data file in a Moodle student's folder is left packed (a line of the account); the student is one row,
    graded on their code, not a second row for the file left out; a student who handed in only such a file is no row."""
    members = {"Bob Smith_555_assignsubmission_file_/minimax.py": CORRECT,
               "Eve Mallory_557_assignsubmission_file_/minimax.py": CORRECT,
               "Eve Mallory_557_assignsubmission_file_/data.bin": os.urandom(5 << 20),
               "Ann Other_558_assignsubmission_file_/scan.pdf": os.urandom(300 << 10)}
    survey = discover.survey([_zip(tmp_path / "moodle.zip", members)], tmp_path / "staging")
    found = [(f.student, f.problem) for f in survey.found]
    assert sorted(found) == [("Bob Smith", None), ("Eve Mallory", None)]
    assert sum("not code, and larger than 256 KiB" in s.reason for s in survey.skipped) == 2


def test_a_moodle_student_who_uploaded_a_zip_is_graded_on_it(tmp_path):
    """Canvas's zips were read, a Moodle student's zip in their folder was "contains no Python file" (the hundred and
    fourteenth helper): read as their own archive (never a class)."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("hw/minimax.py", CORRECT)
    two = io.BytesIO()
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("alice.py", CORRECT)
        archive.writestr("bob.py", BUGGY)
    members = {"Jane Doe_123456_assignsubmission_file_/hw3.zip": inner.getvalue(),
               "Eve Mallory_557_assignsubmission_file_/class.zip": two.getvalue(),
               "Tom Becker_123460_assignsubmission_file_/minimax.py": BUGGY}
    found = by_student(discover.survey([_zip(tmp_path / "moodle.zip", members)], tmp_path / "staging"))
    assert set(found) == {"Jane Doe", "Eve Mallory", "Tom Becker"}
    assert found["Jane Doe"].problem is None and found["Jane Doe"].path.joinpath("minimax.py").read_text() == CORRECT
    assert "holds several submissions" in found["Eve Mallory"].problem
