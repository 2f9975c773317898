"""The instructor's roster: the grader's student ids mapped to who they are in the LMS.

Student ids in the grader come from file and folder names (or a Gradescope export's
metadata); an LMS matches grades by its own identifiers. A roster is a CSV with a header
row; ``id`` (the grader's id) is required, the other columns are optional and named as the
LMS exports name them: ``name``, ``login`` (Canvas SIS Login ID, Moodle username), ``sis_id``
(Canvas SIS User ID, Moodle ID number), ``lms_id`` (Canvas's own numeric user ID), ``email``
and ``section``. Header names are read case-insensitively; a few common spellings are
accepted (``SIS User ID``, ``Username``, ``Email address``...).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

ALIASES = {
    "id": "id", "student_id": "id", "grader_id": "id",
    "name": "name", "student": "name", "full name": "name", "full_name": "name",
    "login": "login", "sis login id": "login", "username": "login", "user": "login",
    "sis_id": "sis_id", "sis user id": "sis_id", "id number": "sis_id", "idnumber": "sis_id",
    "lms_id": "lms_id", "canvas_id": "lms_id", "canvas id": "lms_id",
    "email": "email", "email address": "email", "e-mail": "email",
    "section": "section",
}


class RosterError(Exception):
    """A roster that cannot be used; the message is one line for the instructor."""


@dataclass(frozen=True)
class Person:
    id: str
    name: str = ""
    login: str = ""
    sis_id: str = ""
    lms_id: str = ""
    email: str = ""
    section: str = ""


def read_roster(path: Path) -> dict[str, Person]:
    """The roster at ``path`` as grader id -> Person, or RosterError saying what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RosterError(f"cannot read the roster {path}: {getattr(exc, 'strerror', None) or exc}") from None
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if not header:
        raise RosterError(f"the roster {path} is empty")
    fields = [ALIASES.get(h.strip().lower()) for h in header]
    if "id" not in fields:
        raise RosterError(f"the roster {path} has no 'id' column (the grader's student ids); its columns: {', '.join(header)}")
    people: dict[str, Person] = {}
    for number, row in enumerate(reader, start=2):
        values = {f: v.strip() for f, v in zip(fields, row) if f}
        key = values.get("id", "")
        if not key:
            continue
        if key in people:
            raise RosterError(f"the roster {path} names the id {key!r} twice (line {number})")
        people[key] = Person(**values)
    return people


@dataclass(frozen=True)
class Student:
    """A student as grading found them: the grader's id, and what an LMS download's names said of them (Canvas's user
    id; whether the id is the LMS's name for them rather than a login: ``grader.bulk.lms_names``)."""

    id: str
    lms_id: str = ""
    named_by_lms: bool = False


def people_for(students: list[Student], roster: dict[str, Person] | None,
               files: str = "") -> tuple[dict[str, Person], list[str]]:
    """Who each student is in the LMS, by grader id, for the import files; and the notes the instructor should read.

    A roster row is the student's where its ``id`` is the grader's id, or, for a student an LMS download named, where
    its ``lms_id`` (or its ``id``: a Canvas gradebook export read as a roster calls Canvas's user id ``ID``) is the user
    id the download gave, or (Moodle, which names students by full name and gives no id an import reads) where its
    ``name`` is the student's and no other row has that name: the LMS id is then filled in from the download where the roster has none. A student the
    roster does not name gets a row with no LMS id and a note, never an id made up, except the one the LMS's own
    download gave; roster rows that no student matched are one note (students with no submission: nobody is left
    out without a word). Without a roster the grader's id is the login, except where the LMS named the student."""
    people: dict[str, Person] = {}
    notes: list[str] = []
    row = f"its row in {files}" if files else "its row"  # ``files``: the import files the notes are about
    by_lms_id = {person.lms_id: person for person in (roster or {}).values() if person.lms_id}
    named: dict[str, list[Person]] = {}
    for person in (roster or {}).values():
        if person.name:
            named.setdefault(person.name.casefold(), []).append(person)
    matched: set[str] = set()
    for student in students:
        person = None
        if roster is not None:
            person = roster.get(student.id)
            if student.lms_id and (person is None or person.lms_id not in ("", student.lms_id)):
                # The user id the download gave outranks the grader's id, which depends on the order names were met
                # in (two Canvas "smithjohn"s are smithjohn and smithjohn~2: a late file swapped them, and their
                # grades with them, the hundred and fourteenth helper); a row for another user id is never taken
                person = by_lms_id.get(student.lms_id) or roster.get(student.lms_id)
            if person is None and student.named_by_lms and not student.lms_id:
                alike = named.get(student.id.casefold(), [])
                person = alike[0] if len(alike) == 1 else None  # Moodle names a student by full name: one row only
        if person is not None:
            matched.add(person.id)
            if student.lms_id and not person.lms_id:
                person = Person(**{**person.__dict__, "lms_id": student.lms_id})
        elif student.named_by_lms:
            person = Person(id=student.id, name=student.id, lms_id=student.lms_id)
            if roster is not None:
                notes.append(f"{student.id} is not in the roster: {row} carries only what the LMS's download named")
        elif roster is not None:
            person = Person(id=student.id, name=student.id)
            notes.append(f"{student.id} is not in the roster: {row} has no LMS id")
        else:
            person = Person(id=student.id, name=student.id, login=student.id)
        people[student.id] = person
    missing = [person for key, person in (roster or {}).items() if key not in matched]
    if missing:
        shown = ", ".join(f"{p.name} ({p.id})" if p.name and p.name != p.id else p.id for p in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        notes.append(f"{len(missing)} student{'s' if len(missing) != 1 else ''} of the roster handed in nothing "
                     f"that was found: {shown}{more} (no row in the LMS files)")
    return people, notes
