"""File names as the grader shows and stores them.

A file name is bytes on Linux; one that is not UTF-8 reaches Python with its odd bytes as lone surrogates
(PEP 383), which no UTF-8 file, JSON document, CSV row or web page can hold: writing one raised in the middle
of a class's results (the forty-fifth red team: one student's ``\\xff.py`` cost the whole class its outputs).
Every name that leaves the file system for a report goes through ``readable``; a submission whose own files
have such names is that student's one-line problem (``grader.judging.submissions.load``).

May import: nothing
"""

from __future__ import annotations


def readable(text: str) -> str:
    """``text`` with every byte that was not UTF-8 shown as U+FFFD (the text itself when it is all UTF-8)."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte: not from a file name, but not writable either
        return text.encode("utf-8", "replace").decode("utf-8")


def is_readable(text: str) -> bool:
    return readable(text) == text
