"""The class's grades as CSV, for a spreadsheet and an LMS import.

UTF-8 with a byte-order mark (so Excel reads accents right; every other reader skips it),
CRLF line ends, every text cell quoted, numbers left bare so they stay numbers. A cell that
a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return: student ids and file names are the students' own) gets a leading
apostrophe, the usual defence against CSV formula injection.

After the fixed columns comes one column per check (named as the check, in rubric order),
holding that check's points, so partial credit can be imported check by check. A student
whose submission could not be graded gets 0 in every one, as in ``score``: the numbers of
a row always add up.
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


def check_names(entries: list[tuple[str, dict]]) -> list[str]:
    """Every check named by any result, in the order first met (the rubric's)."""
    names: dict[str, None] = {}
    for _, result in entries:
        for check in result.get("checks") or []:
            names.setdefault(check.get("name", ""), None)
    return list(names)


def rows(entries: list[tuple[str, dict]], checks: list[str] | None = None) -> list[list]:
    """One row per (student id, result dict), in the order given."""
    checks = check_names(entries) if checks is None else checks
    out = []
    for student, result in entries:
        mistakes = "; ".join(m.get("code", "") for m in result.get("mistakes") or [])
        points = {c.get("name"): c.get("score", 0.0) for c in result.get("checks") or []}
        out.append([defuse(student), result.get("score", 0.0), result.get("max_score", 0.0), defuse(result.get("status", "")),
                    defuse(mistakes), defuse(result.get("error") or ""), defuse(result.get("submission", ""))]
                   + [float(points.get(name) or 0.0) for name in checks])
    return out


def render(entries: list[tuple[str, dict]]) -> str:
    checks = check_names(entries)
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerow(COLUMNS + [defuse(name) for name in checks])
    writer.writerows(rows(entries, checks))
    return "\ufeff" + buffer.getvalue()
