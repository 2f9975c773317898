"""Grades an LMS imports as they are: a column per check in grades.csv, Canvas's and Moodle's
import files, and the roster that maps the grader's ids to the LMS's.

The columns asserted here are the ones the systems document: Canvas's gradebook import
(the layout of its own export) identifies a student by ``Student, ID, SIS User ID, SIS Login
ID, Section`` before the assignment columns, with an optional ``Points Possible`` row; Moodle's
CSV grade import maps one column to a user field (``username``, ``idnumber``, ``email``) and
other columns to grade items and their feedback.
"""

from __future__ import annotations

import csv

import pytest

from grader.export import canvas, moodle
from grader.export import csv as grades_csv
from grader.export.roster import RosterError, read_roster

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def result(score, status, checks, mistakes=(), error=None):
    return {"score": score, "max_score": 10.0, "status": status, "error": error,
            "mistakes": [{"code": c} for c in mistakes],
            "checks": [{"name": n, "score": s, "max_score": m, "status": "passed" if s == m else "failed"} for n, s, m in checks]}


ENTRIES = [
    ("alice", result(4.0, "failed", [("published-cases", 2.0, 2.0), ("random-trees", 0.0, 3.0), ("fixture-trees", 2.0, 2.0)],
                     ["always-max"])),
    ("bob", result(0.0, "error", [], error="syntax error in bob.py, line 3")),
    ("=cmd", result(7.0, "passed", [("published-cases", 2.0, 2.0), ("random-trees", 3.0, 3.0), ("fixture-trees", 2.0, 2.0)])),
]


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(text.lstrip("\ufeff").splitlines()))


def test_grades_csv_has_a_column_per_check_and_errors_count_zero_in_each():
    rows = parse(grades_csv.render(ENTRIES))
    header = rows[0]
    assert header[:7] == grades_csv.COLUMNS
    assert header[7:] == ["published-cases", "random-trees", "fixture-trees"]
    alice, bob, cmd = (dict(zip(header, r)) for r in rows[1:])
    assert (alice["published-cases"], alice["random-trees"], alice["fixture-trees"]) == ("2.0", "0.0", "2.0")
    assert [bob[c] for c in header[7:]] == ["0.0", "0.0", "0.0"] and bob["score"] == "0.0"
    for row in (alice, cmd):  # the checks add up to the score
        assert sum(float(row[c]) for c in header[7:]) == float(row["score"]) > 0


def test_canvas_columns_and_points_possible():
    rows = parse(canvas.render(ENTRIES, assignment="ctp-26"))
    assert rows[0] == CANVAS_IDENTITY + ["ctp-26"]
    assert rows[1][0] == "Points Possible" and rows[1][-1] == "10"
    by_student = {r[0]: r for r in rows[2:]}
    # Without a roster the grader's id is all there is: it goes in as the SIS login.
    assert by_student["alice"] == ["alice", "", "", "alice", "", "4"]
    assert by_student["bob"][-1] == "0"
    assert "'=cmd" in by_student  # formula-like ids are defused here too


def test_canvas_with_a_roster(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("\ufeffID,Name,Login,SIS_ID,LMS_ID,Section,Email\n"
                      "alice,Alice Liddell,aliddell,S-001,4242,Sec A,alice@uni.edu\n", encoding="utf-8")
    people = read_roster(roster)
    rows = parse(canvas.render(ENTRIES, assignment="ctp-26", roster=people))
    by_student = {r[0]: r for r in rows[2:]}
    assert by_student["Alice Liddell"] == ["Alice Liddell", "4242", "S-001", "aliddell", "Sec A", "4"]
    assert by_student["bob"][1:5] == ["", "", "", ""]  # not in the roster: no id is made up


def test_moodle_columns_identify_the_user_and_carry_feedback(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,username,id number,email address\nalice,Alice Liddell,aliddell,S-001,alice@uni.edu\n",
                      encoding="utf-8")
    rows = parse(moodle.render(ENTRIES, assignment="ctp-26", roster=read_roster(roster)))
    assert rows[0] == ["Full name", "Username", "ID number", "Email address", "ctp-26", "ctp-26 (feedback)"]
    by_name = {r[0]: r for r in rows[1:]}
    assert by_name["Alice Liddell"][:5] == ["Alice Liddell", "aliddell", "S-001", "alice@uni.edu", "4"]
    assert "always-max" in by_name["Alice Liddell"][5]
    assert by_name["bob"][4] == "0" and "syntax error" in by_name["bob"][5]
    plain = {r[0]: r for r in parse(moodle.render(ENTRIES, assignment="ctp-26"))[1:]}
    assert plain["alice"][1] == "alice"  # no roster: the grader's id is the username


@pytest.mark.parametrize("text, words", [
    ("", "is empty"),
    ("name,login\nAda,ada\n", "no 'id' column"),
    ("id,name\nada,Ada\nada,Ada again\n", "names the id 'ada' twice"),
])
def test_a_bad_roster_is_one_clear_line(tmp_path, text, words):
    roster = tmp_path / "roster.csv"
    roster.write_text(text, encoding="utf-8")
    with pytest.raises(RosterError) as error:
        read_roster(roster)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_grade_writes_the_lms_files_and_names_students_missing_from_the_roster(tmp_path):
    import subprocess
    import sys

    from bulk_class import SAMPLES

    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text((SAMPLES / "correct" / "functional.py").read_text())
    (tmp_path / "class" / "bob.py").write_text((SAMPLES / "buggy" / "always_max.py").read_text())
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,login\nalice,Alice Liddell,aliddell\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path / "class"), "--exercise", "ctp-26",
                           "--out", str(tmp_path / "out"), "--examples", "10", "--jobs", "1", "--lms", "canvas",
                           "--lms", "moodle", "--roster", str(roster)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "bob is not in the roster" in done.stderr
    canvas_rows = parse((tmp_path / "out" / "canvas.csv").read_text(encoding="utf-8"))
    assert {r[0]: r[3] for r in canvas_rows[2:]} == {"Alice Liddell": "aliddell", "bob": ""}
    assert (tmp_path / "out" / "moodle.csv").is_file()
    bad = subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path / "class"), "--exercise", "ctp-26",
                          "--out", str(tmp_path / "out2"), "--roster", str(tmp_path / "class" / "alice.py")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "no 'id' column" in bad.stderr and not (tmp_path / "out2").exists()


def test_moodle_feedback_names_a_likely_mistake_only_where_one_is_named():
    """"likely mistake: no-known-mistake" read as a mistake named (the hundred and thirteenth helper)."""
    unnamed = result(2.0, "failed", [("random-trees", 0.0, 3.0)], ["no-known-mistake"])
    rows = {r[0]: r for r in parse(moodle.render([("ann", unnamed), ("alice", ENTRIES[0][1])], assignment="ctp-26"))}
    assert rows["ann"][-1] == "failed: 2 / 10; no known mistake gives these answers"
    assert rows["alice"][-1] == "failed: 4 / 10; likely mistake: always-max"
