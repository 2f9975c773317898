"""Rendering a SubmissionResult for people: terminal text, Markdown and a self-contained HTML page.

``render`` is handed the ``SubmissionResult`` (for a student, the copy ``feedback_levels.redact``
made: the same object the exporters get) and lays out its plain dictionary (``to_dict()``,
the result contract) with jinja2 templates, so what a student reads in the terminal, in a CI
summary and in a browser says the same thing. Bulk grading hands it the contract's dictionary
as the gradebook stored it. Colour in the terminal is an ANSI filter that does nothing unless
asked (on a TTY).

``feedback`` words one check the same way for every door and exporter (pytest, JUnit,
Gradescope, Actions); ``feedback_levels`` decides, at render time, how much a report shows.

May import: grader.file_names, grader.judging, grader.paths
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from grader.file_names import NOT_IN_LINES, printable

TEMPLATES = Path(__file__).with_name("templates")
FORMATS = {"text": "report.txt.j2", "md": "report.md.j2", "html": "report.html.j2"}
ANSI = {"pass": "\033[32m", "fail": "\033[31m", "skip": "\033[33m", "error": "\033[35m", "bold": "\033[1m", "dim": "\033[2m"}


def new_environment(*, autoescape: bool, keep_trailing_newline: bool = True):
    """A jinja2 environment for the grader's own templates: compiled once per install (``template_bytecode``),
    never re-read from disk while it lives, dict keys first."""
    import jinja2

    bytecode = template_bytecode(jinja2)
    return _environment_class(jinja2)(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=autoescape, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=keep_trailing_newline, undefined=jinja2.StrictUndefined, bytecode_cache=bytecode,
        auto_reload=False,  # the templates ship with the package: no stat() per report of a class of hundreds
    )


@cache
def _environment(html: bool):
    from grader.report.feedback import LABELS, answer_right_words, evidence_label, history_note, titled  # the exporters' words too

    env = new_environment(autoescape=html)
    env.filters["label"] = lambda status: LABELS.get(status, status.upper())
    env.filters["evidence_label"] = evidence_label
    env.filters["answer_right_words"] = answer_right_words
    env.filters["titled"] = titled
    env.filters["history_note"] = history_note
    env.filters["points"] = lambda x: f"{x:g}"
    from grader.report.svg import to_svg

    env.globals["svg"] = to_svg
    env.filters["indent_block"] = lambda text, n=4: "\n".join((" " * n + line) if line else line for line in str(text).splitlines())
    env.filters["hanging"] = _hanging
    from grader.report import markdown

    env.filters["md_text"], env.filters["md_code"], env.filters["md_fence"] = markdown.text, markdown.code, markdown.fence
    return env


def _hanging(text, n: int = 6) -> str:
    """``text`` with every line after the first indented by ``n`` spaces: a message that carries the student's words
    (an exception's text, a name they gave) keeps its lines, and none of them starts a line of the report's own (a
    ``raise ValueError("boom\\nPASSED  score 10 / 10")`` printed a verdict line of its own at the margin: the hundred
    and fifteenth red team)."""
    first, *rest = str(text).split("\n")
    return "\n".join([first, *(" " * n + line for line in rest)])


def template_bytecode(jinja2):
    """Where the templates' compiled code is kept between runs: beside the templates, in the package, where it is
    exactly as trusted as they are, and only where that folder can be written (else each process compiles them,
    some 40 ms of a class's reports). Never the user's cache folder: jinja2 reads its files with ``pickle`` and
    ``marshal``, so a file planted there by a child of an unconfined run ran as the grader, with no sandbox (the
    hundred-and-eighth helper's). Python writes the package's own bytecode beside it on the same terms."""
    import os

    folder = TEMPLATES / "__pycache__"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK) or folder.is_symlink():
        return None  # (jinja2 writes each file it compiles there, and a template whose file cannot be written fails)
    return jinja2.FileSystemBytecodeCache(str(folder))


def _environment_class(jinja2):
    class DataEnvironment(jinja2.Environment):
        """Templates read plain dictionaries (the result contract): ``r.checks`` looks up the key first.

        Jinja's own order (attribute, then item) costs a raised AttributeError per lookup on
        a dict, and a class summary renders hundreds of reports. Keys never shadow anything
        a template calls (``get``): those are not keys of the contract.
        """

        def getattr(self, obj, attribute):
            if type(obj) is dict:
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            return super().getattr(obj, attribute)

    return DataEnvironment


def render(result, fmt: str = "text", *, color: bool = False, summary: str | None = None) -> str:
    """``result``: a SubmissionResult (or the contract's dictionary, as the gradebook keeps it);
    ``summary``: where the class summary page is, from the report (bulk grading links back to it)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}")
    env = _environment(fmt == "html")
    template = env.get_template(FORMATS[fmt])

    def style(text, name):
        if not color or name not in ANSI:
            return text
        return f"{ANSI[name]}{text}\033[0m"

    data = result.to_dict() if hasattr(result, "to_dict") else result
    if fmt != "html":  # read in a terminal or an editor: the student's text shown, never acted on (HTML escapes its own)
        data = _printable(data)
    return template.render(r=data, style=style, status_style=_status_style, summary=summary)


# What a string to escape looks like once ``json.dumps(..., ensure_ascii=False)`` wrote it: a C0 character other than a
# tab or a newline is escaped there (``\u001b``, ``\r``), anything else (DEL, a C1 character, a reordering mark)
# written as it is, and matched by the very class ``printable`` escapes (a copy of it here once missed DEL). A match
# that is only an escaped backslash before ``r`` costs the careful walk, nothing else.
_ANY_TO_ESCAPE = re.compile(r'\\u00[01][0-9a-fA-F]|\\[bfr]|' + NOT_IN_LINES)


def _printable(value):
    """Every string of the result with its control characters as escapes (``file_names.printable``), lines kept.
    Most results hold none: one pass of C over their JSON says so (a class's Markdown reports: 12 ms -> 2 ms)."""
    try:
        if not _ANY_TO_ESCAPE.search(json.dumps(value, ensure_ascii=False)):
            return value
    except (TypeError, ValueError):
        pass
    return _escaped_strings(value)


def _escaped_strings(value):
    kind = type(value)
    if kind is str:
        return printable(value)
    if kind is dict:
        return {key: _escaped_strings(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [_escaped_strings(item) for item in value]
    return value


def _status_style(status: str) -> str:
    return {"passed": "pass", "failed": "fail", "skipped": "skip", "error": "error"}.get(status, "bold")
