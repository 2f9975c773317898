"""``python -m grader``: the command line (``minimax-grader``).

May import: grader.doors
"""

from grader.doors.cli import main

if __name__ == "__main__":
    main()
