"""Import hypothesis so that it never writes into the user's working folder.

Hypothesis keeps a ``.hypothesis/`` folder in the current directory by default; the grader
points it at its own cache and runs every search with ``database=None``.
"""

from __future__ import annotations

from functools import cache

from grader import paths


@cache
def hypothesis():
    import hypothesis as hyp
    from hypothesis import configuration

    configuration.set_hypothesis_home_dir(str(paths.cache_dir() / "hypothesis"))
    return hyp


def settings(max_examples: int, shrink: bool):
    hyp = hypothesis()
    phases = [hyp.Phase.explicit, hyp.Phase.generate] + ([hyp.Phase.shrink] if shrink else [])
    return hyp.settings(
        max_examples=max_examples, database=None, deadline=None, derandomize=False, phases=phases,
        suppress_health_check=list(hyp.HealthCheck), verbosity=hyp.Verbosity.quiet,
        report_multiple_bugs=False, print_blob=False,
    )
