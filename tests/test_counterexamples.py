"""One small tree often breaks several checks: it is shrunk once, shown once, and reused."""

from __future__ import annotations

from grader.doors import api
from grader import report
from conftest import SUBMISSIONS

BUGGY = SUBMISSIONS / "ctp-26" / "buggy" / "ignores_player_argument.py"


def test_a_shrunk_tree_that_breaks_a_later_check_is_reused_and_shown_once():
    result = api.check(BUGGY, "ctp-26")
    failed = [c for c in result.checks if c.status == "failed"]
    assert [c.name for c in failed] == ["fixture-trees", "random-trees"]
    first, second = (c.counterexample for c in failed)
    assert first.shrunk and second.shrunk
    assert (first.call, first.picture) == (second.call, second.picture)
    assert len(first.picture.splitlines()) <= 3  # shrunk: a root and two moves
    text = report.render(result, "text")
    assert text.count(first.picture.splitlines()[0]) == 1
    assert "the same tree as above goes wrong here too" in text
