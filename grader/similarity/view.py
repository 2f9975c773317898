"""What the summary page's near-duplicate section shows: each cluster's code side by side.

The context is plain data (ids, links, lines of text with the lines the cluster shares
marked) so that ``summary_duplicates.html.j2`` only lays it out, escaped by the template's
autoescape. A line is *shared* when its normalised tokens (names, numbers and strings
replaced, comments dropped) occur as a line in another member of the cluster: renamed and
re-indented copies light up line by line, code every solution has (blank lines, ``else:``)
does not, since only lines of at least a few tokens count.
"""

from __future__ import annotations

from grader.similarity.fingerprints import tokens

MIN_LINE_TOKENS = 4
MAX_LINES = 400  # a side this long is cut, saying so: the page must stay readable


def _line_key(line: str, vocabulary) -> tuple[str, ...] | None:
    key = tuple(tokens(line.strip(), vocabulary))
    return key if len(key) >= MIN_LINE_TOKENS else None


def context(clusters: list[dict], texts: dict[str, str], reports: dict[str, str] | None = None,
            vocabulary=()) -> list[dict]:
    """``clusters`` as ``find_near_duplicates`` returns them; ``texts``: student id -> what was
    compared; ``reports``: student id -> relative link to the student's report (optional)."""
    reports = reports or {}
    out = []
    for number, cluster in enumerate(clusters, start=1):
        keys = {sid: [_line_key(line, vocabulary) for line in texts.get(sid, "").splitlines()] for sid in cluster["students"]}
        members = []
        for sid in cluster["students"]:
            others = set()
            for other in cluster["students"]:
                if other != sid:
                    others.update(k for k in keys[other] if k is not None)
            lines = texts.get(sid, "").splitlines()
            shown = [{"number": i + 1, "text": line, "shared": keys[sid][i] is not None and keys[sid][i] in others}
                     for i, line in enumerate(lines[:MAX_LINES])]
            members.append({"student": sid, "report": reports.get(sid), "lines": shown,
                            "cut": max(len(lines) - MAX_LINES, 0),
                            "shared": sum(1 for line in shown if line["shared"])})
        out.append({"number": number, "similarity": cluster["similarity"],
                    "percent": round(100 * cluster["similarity"]), "members": members})
    return out
