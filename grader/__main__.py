"""``python -m grader``: the command line (``minimax-grader``).

May import: grader.doors
"""

import os
import sys


def _working_folder_off_the_path() -> None:
    """``python -m`` puts the working folder first on ``sys.path``, ahead of the standard library and every library
    the grader imports later: a student's ``json.py`` or ``jinja2.py`` in the folder it runs in (a class's folder
    graded from inside, a submission checked where it lies) would run as the grader, outside any sandbox. Taken off
    before anything else is imported; the ``grader`` package itself is found already. (A ``grader.py`` in that folder
    is found *instead of* the package, before this line can run: ``minimax-grader`` or ``python -P -m grader`` never
    look there.)"""
    if sys.flags.safe_path or not sys.path:
        return
    try:
        here = os.getcwd()
    except OSError:  # the working folder was removed: Python put "" there (or nothing at all)
        here = ""
    if sys.path[0] in ("", here):
        del sys.path[0]


_working_folder_off_the_path()

from grader.doors.cli import main  # noqa: E402 - after the path is made safe

if __name__ == "__main__":
    main()
