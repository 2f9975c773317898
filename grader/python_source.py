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
import threading

_LOCK = threading.Lock()


def parse(source, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)`` under the one lock. (Its warnings, which name the student's file and quote
    their source, reach a terminal only as ``file_names.warnings_as_text`` writes them.)"""
    with _LOCK:
        return ast.parse(source, filename=filename)
