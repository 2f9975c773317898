"""Python source read as a syntax tree, safely from several threads at once.

May import: nothing

CPython 3.11 before 3.11.8 keeps the AST validator's recursion depth in shared state, so two
threads calling ``ast.parse`` together can fail with ``SystemError: AST constructor recursion
depth mismatch`` (python/cpython#106905): a grader that checks submissions on a thread pool
(``grade``, the test batteries) then fails for a reason that is nobody's. Every parse in the
grading process goes through this one lock; a parse takes microseconds to milliseconds.
"""

from __future__ import annotations

import ast
import warnings
import threading

_LOCK = threading.Lock()


def parse(source, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)`` under the one lock, its warnings kept quiet: the parser's SyntaxWarning and
    DeprecationWarning (``0x1for``, an invalid escape) printed the student's file name, control characters and all,
    on the grader's terminal (an OSC 52 in the name set the clipboard: the hundred and eleventh helper). The grader
    reads sources only to analyse them; the student sees their warnings where their code runs."""
    with _LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename=filename)
