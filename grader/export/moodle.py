"""Moodle's grade import CSV (Grades > Import > CSV file).

Moodle imports a CSV with a header row and lets the teacher map one column to the user
("Identify user by": the user's id, ID number, email address or username) and other
columns to grade items and to feedback. This file carries every identifier the roster
knows (``Username``, ``ID number``, ``Email address``), the student's name for the
teacher's eyes, the assignment's grade, and a feedback column (status and mistakes).
"""

from __future__ import annotations

import csv
import io

from grader.export.csv import defuse
from grader.export.roster import Person

IDENTITY = ["Full name", "Username", "ID number", "Email address"]


def render(entries: list[tuple[str, dict]], *, assignment: str, roster: dict[str, Person] | None = None) -> str:
    """One row per (grader id, result); without a roster the grader's id is the username."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(IDENTITY + [assignment, f"{assignment} (feedback)"])
    for student, result in entries:
        person = (roster or {}).get(student)
        if person is None:
            person = Person(id=student, name=student, login="" if roster else student)
        writer.writerow([defuse(person.name or student), defuse(person.login), defuse(person.sis_id),
                         defuse(person.email), f"{float(result.get('score') or 0.0):g}", defuse(_feedback(result))])
    return buffer.getvalue()


def _feedback(result: dict) -> str:
    text = f"{result.get('status', '')}: {float(result.get('score') or 0.0):g} / {float(result.get('max_score') or 0.0):g}"
    mistakes = [m.get("code", "") for m in result.get("mistakes") or []]
    named = [code for code in mistakes if code != "no-known-mistake"]  # (no mistake named reads oddly as "likely")
    if named:
        text += "; likely mistake: " + ", ".join(named)
    elif mistakes:
        text += "; no known mistake gives these answers"
    if result.get("error"):
        text += "; " + str(result["error"])
    return text
