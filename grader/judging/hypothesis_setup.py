"""Import hypothesis so that it never writes into the user's working folder, nor reads what anyone left for it.

Hypothesis keeps a ``.hypothesis/`` folder in the current directory by default, and there, besides its example
database (every search here runs with ``database=None``), the constants it collected from the modules it counts as
local (a checkout of the grader, an instructor's exercise), which steer what it draws. The grader gives it a private
folder of its own per process, removed at exit: never the user's cache, where a child of an unconfined run could
leave files (a FIFO in place of a constants file hung the grader for good: the hundred-and-ninth helper), and where
what it left would steer the random cases of a later run's bank.
"""

from __future__ import annotations

from functools import cache

from grader import paths


@cache
def hypothesis():
    import hypothesis as hyp
    from hypothesis import configuration

    configuration.set_hypothesis_home_dir(paths.private_folder("minimax-grader-hypothesis-"))
    return hyp


def settings(max_examples: int, shrink: bool):
    hyp = hypothesis()
    phases = [hyp.Phase.explicit, hyp.Phase.generate] + ([hyp.Phase.shrink] if shrink else [])
    return hyp.settings(
        max_examples=max_examples, database=None, deadline=None, derandomize=False, phases=phases,
        suppress_health_check=list(hyp.HealthCheck), verbosity=hyp.Verbosity.quiet,
        report_multiple_bugs=False, print_blob=False,
    )
