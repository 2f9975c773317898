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
