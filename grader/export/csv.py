"""The class's grades as CSV, for a spreadsheet and an LMS import.

UTF-8 with a byte-order mark (so Excel reads accents right; every other reader skips it),
CRLF line ends, every text cell quoted, numbers left bare so they stay numbers. A cell that
a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return: student ids and file names are the students' own) gets a leading
apostrophe, the usual defence against CSV formula injection.
"""

from __future__ import annotations

import csv
import io

COLUMNS = ["id", "score", "max_score", "status", "mistakes", "error", "submission"]
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defuse(text: str) -> str:
    """A text cell no spreadsheet will evaluate."""
    text = str(text).replace("\r\n", " ").replace("\n", " ")
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def rows(entries: list[tuple[str, dict]]) -> list[list]:
    """One row per (student id, result dict), in the order given."""
    out = []
    for student, result in entries:
        mistakes = "; ".join(m.get("code", "") for m in result.get("mistakes") or [])
        out.append([defuse(student), result.get("score", 0.0), result.get("max_score", 0.0), defuse(result.get("status", "")),
                    defuse(mistakes), defuse(result.get("error") or ""), defuse(result.get("submission", ""))])
    return out


def render(entries: list[tuple[str, dict]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows(entries))
    return "\ufeff" + buffer.getvalue()
