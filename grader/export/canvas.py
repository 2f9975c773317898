"""Canvas's gradebook import CSV (Grades > Import).

Canvas documents the layout of the file it imports as the one its gradebook exports: the
columns ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID`` and ``Section`` identify the
student (Canvas matches a row by ``ID``, else by the SIS ids), then one column per
assignment. An optional second row whose ``Student`` cell reads ``Points Possible`` gives
each assignment's maximum. A column named like an existing assignment (``Name (123)`` as
exported) updates it; a new name creates an assignment on import.
"""

from __future__ import annotations

import csv
import io

from grader.export.csv import defuse
from grader.export.roster import Person

IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
POINTS_POSSIBLE = "Points Possible"


def render(entries: list[tuple[str, dict]], *, assignment: str, roster: dict[str, Person] | None = None) -> str:
    """One row per (grader id, result); without a roster the grader's id is the SIS Login ID."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(IDENTITY + [assignment])
    max_score = max((r.get("max_score") or 0.0 for _, r in entries), default=0.0)
    writer.writerow([POINTS_POSSIBLE, "", "", "", "", _number(max_score)])
    for student, result in entries:
        person = (roster or {}).get(student)
        if person is None:
            person = Person(id=student, name=student, login="" if roster else student)
        writer.writerow([defuse(person.name or student), defuse(person.lms_id), defuse(person.sis_id),
                         defuse(person.login), defuse(person.section), _number(result.get("score") or 0.0)])
    return buffer.getvalue()


def _number(value: float) -> str:
    return f"{float(value):g}"
