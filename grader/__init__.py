"""minimax-grader: grades minimax exercises against a reference, in a sandbox, with counterexamples.

The small public API, for instructors who script::

    from grader import check
    result = check("solution.py", exercise="ctp-26")
    print(result.score, result.max_score, result.status)
    print(result.to_json())

May import: grader.doors, grader.version
"""

from grader.version import __version__

__all__ = ["__version__", "check", "list_exercises"]


def __getattr__(name):
    # Lazy, so that `python -m grader` and the sandbox pay for nothing they do not use.
    if name in ("check", "list_exercises"):
        from grader.doors import api

        return getattr(api, name)
    raise AttributeError(name)
