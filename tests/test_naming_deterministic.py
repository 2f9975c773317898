"""The mistake a kit exercise names does not depend on how busy the machine is.

The families are predicted within a budget counted in searches; a clock that runs very fast (a
second for every look at it, as on a machine crawling under load) must not change the name.
"""

from __future__ import annotations

import itertools

from conftest import SUBMISSIONS
from grader.doors import api
from grader.kit import families

SAMPLE = SUBMISSIONS / "tictactoe" / "buggy" / "always_max.py"


def test_a_crawling_clock_names_the_same_mistake(monkeypatch):
    calm = [m.code for m in api.check(SAMPLE, "tictactoe").mistakes]
    assert "always-max" in calm
    ticks = itertools.count(start=1_000_000)

    class CrawlingTime:
        @staticmethod
        def monotonic():
            return float(next(ticks))  # one second passes every time anyone looks

    monkeypatch.setattr(families, "time", CrawlingTime)
    crawling = [m.code for m in api.check(SAMPLE, "tictactoe").mistakes]
    assert crawling == calm
