"""Mistake families are first fitted with a small search per case; a family that needs more (a depth
never lowered on connect-four: a full solve from every position) is searched in full only when no
family gives every value of the student's. Its full search was most of a connect-four check's time."""

from __future__ import annotations

import pytest

from grader.doors import api
from grader.kit import families
from conftest import SUBMISSIONS

BAD_BOUND = SUBMISSIONS / "connect-four" / "buggy" / "bad_initial_bound.py"


@pytest.fixture
def fitted(monkeypatch):
    """Every (family, probed) the naming fitted."""
    calls = []
    fits = families.KitMistakes._fits

    def recording(self, family, asked, wrong_count, budget, probe=False):
        calls.append((getattr(family, "name", family), probe))
        return fits(self, family, asked, wrong_count, budget, probe=probe)

    monkeypatch.setattr(families.KitMistakes, "_fits", recording)
    return calls


def test_a_costly_family_waits_while_a_cheap_one_gives_every_value(fitted):
    result = api.check(BAD_BOUND, "connect-four")
    assert [m.code for m in result.mistakes] == ["bad-initial-bound"]
    assert ("depth-not-decremented", True) in fitted  # probed ...
    assert ("depth-not-decremented", False) not in fitted  # ... and never searched in full


def test_costly_families_are_fitted_in_full_when_no_cheap_one_explains_everything(fitted, monkeypatch):
    monkeypatch.setattr(families, "PROBE_NODES", 2)  # every family is costly now
    result = api.check(BAD_BOUND, "connect-four")
    assert [m.code for m in result.mistakes] == ["bad-initial-bound"]  # found in full, in its place
    assert ("bad-initial-bound", True) in fitted and ("bad-initial-bound", False) in fitted
    assert ("depth-not-decremented", False) in fitted
