"""File names as the grader shows and stores them.

A file name is bytes on Linux; one that is not UTF-8 reaches Python with its odd bytes as lone surrogates
(PEP 383), which no UTF-8 file, JSON document, CSV row or web page can hold: writing one raised in the middle
of a class's results (the forty-fifth red team: one student's ``\\xff.py`` cost the whole class its outputs).
Every name that leaves the file system for a report goes through ``readable``; a submission whose own files
have such names is that student's one-line problem (``grader.judging.submissions.load``).

May import: nothing
"""

from __future__ import annotations

import re

# Control characters (C0, DEL, C1) and the marks that reorder the text shown around them (bidirectional overrides
# and isolates): what a terminal or a log viewer acts on instead of showing
_NOT_FOR_TERMINALS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
NOT_IN_LINES = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"  # the same, but tabs and newlines kept
_NOT_IN_LINES = re.compile(NOT_IN_LINES)


def readable(text: str) -> str:
    """``text`` with every byte that was not UTF-8 shown as U+FFFD (the text itself when it is all UTF-8)."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte: not from a file name, but not writable either
        return text.encode("utf-8", "replace").decode("utf-8")


def is_readable(text: str) -> bool:
    return readable(text) == text


def for_terminal(text: str) -> str:
    """``text`` as one line a terminal shows and never acts on: every control character and reordering mark as an
    escape (``\\x1b``, ``\\u202e``). A student's file named ``README<ESC>]52;c;...<ESC>\\.txt`` reached the
    instructor's terminal intact in ``grade``'s lines (OSC 52: "set the clipboard"; others move or erase lines),
    and a newline in a name began a line of its own (``::`` starts a GitHub Actions command): the hundred and
    tenth helper. The reports and files keep the names as they are (escaped there as each format needs)."""
    return _NOT_FOR_TERMINALS.sub(_escaped, readable(text))


def printable(text: str) -> str:
    """``text`` as ``for_terminal`` shows it, its lines and tabs kept: for text a terminal or an editor shows as
    lines (a report in text or Markdown). A student's exception text holding an escape sequence reached the
    terminal raw through ``check``'s report and ``cat reports/mallory.md`` (the hundred and eleventh helper)."""
    return _NOT_IN_LINES.sub(_escaped, readable(text)) if _NOT_IN_LINES.search(text) else text


def _escaped(found) -> str:
    code = ord(found[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def warnings_as_text() -> None:
    """Every warning this process prints, as one line of text (``for_terminal``): the parser's SyntaxWarning and
    DeprecationWarning name a student's file and quote their source (``0x1for``, an invalid escape), and printed
    an OSC 52 in a file name to the grader's terminal (the hundred and eleventh helper). Installed once where a
    command or a worker starts: silencing the parse instead (``catch_warnings``) changed every thread's filters
    and reset the "once" memory of the whole process (the hundred and twelfth)."""
    import warnings

    plain = warnings.formatwarning
    if getattr(plain, "as_text", False):
        return

    def formatwarning(message, category, filename, lineno, line=None):
        return for_terminal(plain(message, category, filename, lineno, line).rstrip("\n")) + "\n"

    formatwarning.as_text = True
    warnings.formatwarning = formatwarning
