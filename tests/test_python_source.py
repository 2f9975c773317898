"""Every parse of Python source in the grading process goes through grader.python_source's lock.

CPython 3.11 before 3.11.8 can fail two ``ast.parse`` calls made together on two threads with
``SystemError: AST constructor recursion depth mismatch`` (seen in this suite's hostile battery,
which checks submissions on a thread pool). The race is rare and cannot be forced from a test, so
what is tested is that no module parses on its own, and that the locked parse is a parse."""

from __future__ import annotations

import ast
import re
import threading
from pathlib import Path

from grader import python_source

GRADER = Path(__file__).resolve().parent.parent / "grader"
ALLOWED = {"python_source.py", "harness.py"}  # the harness runs in the child, alone


def test_no_module_of_the_grading_process_calls_ast_parse_itself():
    offenders = [f"{p.relative_to(GRADER)}:{n}" for p in GRADER.rglob("*.py") if p.name not in ALLOWED
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\bast\.parse\(|\bcompile\(.*PyCF_ONLY_AST", line)]
    assert not offenders, offenders


def test_the_locked_parse_parses_from_many_threads():
    source = "def minimax(node, depth):\n    return max(minimax(c, depth - 1) for c in node)\n" * 20
    found = []

    def work():
        found.append(ast.dump(python_source.parse(source, filename="x.py")))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len(set(found)) == 1
