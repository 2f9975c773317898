"""Mistake families are first fitted with a small search per case; a family that needs more (a depth
never lowered on connect-four: a full solve from every position) is searched in full only when no
family gives every value of the student's. Its full search was most of a connect-four check's time."""

from __future__ import annotations

import threading

import pytest

from grader.doors import api
from grader.kit import families, search
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


# A Dask worker with several threads grades several submissions at once in one process (bulk/on_worker.py: a
# grading context per thread): one submission's naming probe must cap no other's search, and probes that
# overlap must leave the full budget behind them.


def _probing_elsewhere(entered, leave):
    """Another grading thread's naming, inside its probe until ``leave`` is set."""
    with search.node_cap(families.PROBE_NODES):
        entered.set()
        leave.wait(120)


def test_a_probe_on_another_thread_caps_no_search_of_this_one(monkeypatch):
    monkeypatch.setattr(families, "PROBE_NODES", 2)  # every family is costly: named only by its full search
    entered, leave = threading.Event(), threading.Event()
    other = threading.Thread(target=_probing_elsewhere, args=(entered, leave))
    other.start()
    try:
        assert entered.wait(60)
        result = api.check(BAD_BOUND, "connect-four")
    finally:
        leave.set()
        other.join()
    assert [m.code for m in result.mistakes] == ["bad-initial-bound"]


def test_overlapping_probes_on_two_threads_leave_the_whole_budget_behind(monkeypatch):
    monkeypatch.setattr(families, "PROBE_NODES", 2)
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()

    def first():  # enters, waits for the second to enter, leaves first
        with search.node_cap(families.PROBE_NODES):
            first_in.set()
            second_in.wait(60)
        first_out.set()

    threads = [threading.Thread(target=first),
               threading.Thread(target=lambda: first_in.wait(60) and _probing_elsewhere(second_in, first_out))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert search.fresh_counter() == [0]  # a variant search here may enter every node of its budget
    result = api.check(BAD_BOUND, "connect-four")
    assert [m.code for m in result.mistakes] == ["bad-initial-bound"]
