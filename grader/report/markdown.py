"""Text from a submission, made inert in Markdown.

A report's Markdown (the bulk ``.md`` reports, Gradescope's ``output_format: md``, the GitHub Actions step
summary) carries words the student's code chose: its exception's text, its answer's ``repr``, its file
name. Written raw, they were Markdown and HTML of their own (the forty-fifth red team: a ``__repr__`` giving
``<script>...`` or ``<img onerror=...>``, a fake link, a heading "PASS"). Each place in a Markdown output
says which kind of text it holds:

* ``text``: running words; every character Markdown or HTML reads is escaped, lines become one line;
* ``code``: an inline code span, fenced by a run of backticks longer than any inside the value;
* ``fence``: a fenced block (a picture), its fence longer than any run of backticks inside.

Hand-written because the rules are CommonMark's few escapes and its rule for code spans and fences: no
library we depend on offers the three as functions (``markupsafe`` escapes HTML, not Markdown).
"""

from __future__ import annotations

import re

# What opens or closes a construct anywhere in a line (emphasis, code, links and images, tables, GFM's
# strikethrough, the escape itself); HTML's three are written as entities. Parentheses, dots and dashes are
# left as they are, so a message stays readable in the raw file: without ``[`` no link or image can start.
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# What makes a line a heading, a list item or a quote when it starts the line.
_LINE_START = re.compile(r"^(\s*)(?:([#+\-=])|(\d+)([.)]))")


def _one_line(value) -> str:
    return " ".join(str(value).splitlines())


def text(value) -> str:
    """``value`` as running Markdown text that renders as exactly its characters (on one line)."""
    escaped = _SPECIAL.sub(r"\\\1", _one_line(value))
    escaped = "".join(_HTML.get(char, char) for char in escaped)
    return _LINE_START.sub(_escape_line_start, escaped, count=1)


def _escape_line_start(match) -> str:
    if match.group(2):  # "# x", "- x", "+ x", "= x"
        return f"{match.group(1)}\\{match.group(2)}"
    return f"{match.group(1)}{match.group(3)}\\{match.group(4)}"  # "12. x": the digits cannot be escaped, the dot can


def _longest_run(value: str) -> int:
    return max((len(run) for run in re.findall(r"`+", value)), default=0)


def code(value) -> str:
    """``value`` as an inline code span (on one line): backticks inside cannot close it."""
    flat = _one_line(value)
    ticks = "`" * (_longest_run(flat) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat.strip() else ""
    return f"{ticks}{pad}{flat}{pad}{ticks}"


def fence(value, info: str = "text") -> str:
    """``value`` as a fenced block: a line of backticks inside cannot end it."""
    body = str(value)
    ticks = "`" * max(3, _longest_run(body) + 1)
    return f"{ticks}{info}\n{body}\n{ticks}"
