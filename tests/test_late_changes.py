"""An input changed after the one look the harness takes right after its own call (the thirty-ninth red team).

The harness keeps every input it saw unchanged after its call; ``Session.audit``, the grader's last request
before it judges, has them all looked at again, and the reply names those changed since (``late``). These
tests change an earlier input in each place student code runs after that first look: a later call of the same
request, a call of a later request that keeps no observations, and the flush of the student's streams after
a reply (no call at all). Each fails without its part of the fix (the harness's look, the session's audit,
the judge's call of it)."""
from __future__ import annotations

import copy

import pytest

from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.judging.bank import Case
from grader.judging.checks import Outcome
from grader.sandbox import launch, replies
from grader.sandbox import session as sessions

# Every internal node a call is given is remembered; the remembered nodes' children are re-sorted by name
# (a real, lasting change) where WHEN says: in the next call, or while the student's stdout is flushed.
LATE_SORTER = '''
import sys
from anytree import Node

WHEN = {when!r}
_remembered = []


def _sort_remembered():
    while _remembered:
        node = _remembered.pop()
        node.children = sorted(node.children, key=lambda child: child.name)


def _memory_flag():
    """The harness's own "ran out of memory" flag, a list in its module, as the fortieth red team found it."""
    for module in list(sys.modules.values()):
        flag = vars(module).get("_memory_exhausted")
        if type(flag) is list and len(flag) == 1:
            return flag
    return None


class _Stdout:
    def write(self, text):
        return len(text)

    def flush(self):
        import os
        os.write(2, b"flushed\\n")  # counted by the test: which replies ran the student's flush
        if WHEN == "flush":
            _sort_remembered()
        if WHEN == "flush, then the memory flag" and _remembered:  # after the first call, not the load
            _sort_remembered()
            _memory_flag()[0] = True  # every reply from now on says "memory limit", the audit's too


sys.stdout = _Stdout()


def _search(node, depth, maximizing):
    if depth == 0 or not node.children:
        return get_value(node)
    _remembered.append(node)
    values = [_search(child, depth - 1, not maximizing) for child in get_next_valid_moves(node)]
    return max(values) if maximizing else min(values)


def minimax(node, max_depth, player_a_moves):
    if WHEN == "next call":
        _sort_remembered()
    return _search(node, max_depth, player_a_moves)
'''


@pytest.fixture(scope="module")
def ctp26_cases():
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=4)
    # cases whose trees a name sort changes (their children are not in name order already)
    return exercise, bank, [c.to_request() for c in bank.cases]


def _open(tmp_path, exercise, when):
    path = tmp_path / "late.py"
    path.write_text(LATE_SORTER.format(when=when), encoding="utf-8")
    session = sessions.Session(submissions.load(path), exercise, launch.choose("posix"))
    assert session.open().get("ok")
    return session


def _graded(path, source, exercise, bank, warm):
    """``source`` graded as ``path``, cold (posix) or through a fork server whose pool hands out prebuilt trees."""
    from test_evidence import _graded as graded_under

    path.write_text(source, encoding="utf-8")
    return graded_under(path, exercise, bank, "posix", warm)


def test_a_later_call_of_the_same_request_changing_an_earlier_input_is_counted(tmp_path, ctp26_cases):
    exercise, _bank, cases = ctp26_cases
    session = _open(tmp_path, exercise, "next call")
    try:
        results = session.run(cases)
        assert not any(r.get("mutated") for r in results)  # each call left its own tree as it found it
        session.audit()
    finally:
        session.close()
    assert session.violation is None
    late = [r for r in results if r.get("changed_later")]
    # every call's own tree was as it found it when it returned; each earlier one was re-sorted by the next call
    assert not any(r.get("mutated") and not r.get("changed_later") for r in results)
    assert late and all(r["mutated"] is True for r in late)


def test_a_call_of_a_request_that_keeps_no_evidence_still_has_earlier_inputs_looked_at(tmp_path, ctp26_cases):
    exercise, _bank, cases = ctp26_cases
    session = _open(tmp_path, exercise, "next call")
    try:
        first = session.run(cases[:1])
        assert not first[0].get("mutated")
        # a pass that keeps no evidence (the consistency pass): its call re-sorts the first case's tree
        session.run(cases[1:2], evidence=False)
        session.audit()
    finally:
        session.close()
    assert first[0].get("mutated") is True and first[0].get("changed_later") is True


def test_a_change_made_while_the_streams_flush_is_found_by_the_audit(tmp_path, ctp26_cases):
    exercise, _bank, cases = ctp26_cases
    session = _open(tmp_path, exercise, "flush")
    try:
        results = session.run(cases[:3])
        # the flush after that reply re-sorted all three trees: no call has run since, only the audit looks
        assert not any(r.get("mutated") for r in results)
        session.audit()
    finally:
        session.close()
    assert session.violation is None
    assert [r.get("changed_later") for r in results] == [True, True, True]


def test_an_honest_session_has_nothing_late(tmp_path, ctp26_cases):
    exercise, _bank, cases = ctp26_cases
    path = tmp_path / "honest.py"
    path.write_text(LATE_SORTER.format(when="never"), encoding="utf-8")
    session = sessions.Session(submissions.load(path), exercise, launch.choose("posix"))
    try:
        assert session.open().get("ok")
        results = session.run(cases) + session.run(cases, evidence=False)
        session.audit()
    finally:
        session.close()
    assert session.violation is None and not any(r.get("mutated") for r in results)


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("again", [True, False], ids=["with-consistency-pass", "first-pass-only"])
def test_the_graded_result_names_the_late_change(warm, again, tmp_path, ctp26_cases):
    """Through ``judge.grade``, cold and through a fork server whose pool hands out prebuilt trees: tree-unchanged
    fails, and says the tree changed after its call returned. Without a consistency pass (no ``consistent``
    check) no request follows the first, and only the judge's audit sees what the flush after it changed."""
    exercise, bank, _cases = ctp26_cases
    if not again:
        exercise = copy.copy(exercise)
        exercise.checks = [spec for spec in exercise.checks if spec.kind != "consistent"]
    result = _graded(tmp_path / "late.py", LATE_SORTER.format(when="flush"), exercise, bank, warm)
    unchanged = next(c for c in result.checks if c.name == "tree-unchanged")
    assert result.error is None and unchanged.score < unchanged.max_score
    assert "changed later" in unchanged.message, unchanged.message


@pytest.mark.parametrize("late, looked", [([0, 0], 2), ([2], 2), ([-1], 2), (["0"], 2), ([], 2), ([True], 2)])
def test_late_numbers_the_session_never_gave_are_refused(late, looked):
    with pytest.raises(replies.Refused):
        replies.check_run({"results": [], "late": late}, [])
        replies.check_late({"results": [], "late": late}, looked)


def test_an_audit_that_does_not_come_back_leaves_no_input_counted_unchanged(tmp_path, ctp26_cases):
    """The fortieth red team: the trees changed in the flush after the last request, and the harness's memory flag
    raised there, so that the audit's reply (which named every changed tree) came back as "memory limit". A
    process that ends before the grader's last look leaves every input not known to be unchanged."""
    exercise, _bank, cases = ctp26_cases
    session = _open(tmp_path, exercise, "flush, then the memory flag")
    try:
        results = session.run(cases[:3])
        assert not any(r.get("mutated") for r in results)  # the flag is read before the flush: this reply is whole
        session.audit()
    finally:
        session.close()
    assert session.violation is None and session.failure and "memory" in session.failure
    assert all(r.get("mutated") is True and r.get("unverified") for r in results)
    outcome = Outcome(Case(id=results[0]["id"], group="fixture", input=cases[0].get("input")), results[0])
    assert "could not look at the tree again before judging" in outcome.late_change("tree")


def test_the_audit_s_reply_flushes_no_stream(tmp_path, ctp26_cases):
    """No student code runs after the grader's last look: the audit's reply is the one reply that does not flush
    the student's streams (the fortieth red team changed the trees in the flush right after that look). Two
    sessions alike but for the audit run the student's flush equally often."""
    exercise, _bank, cases = ctp26_cases
    flushes = []
    for audit in (False, True):
        session = _open(tmp_path, exercise, "never")
        try:
            session.run(cases[:2])
            if audit:
                session.audit()
        finally:
            session.close()
        flushes.append(session.output.stderr.count("flushed"))
    assert flushes[0] == flushes[1] > 0, flushes


ASKED_AGAIN_SORTER = '''
def minimax(node, max_depth, player_a_moves):
    # the consistency pass hands the values over with the case: its get_value reads them from a list it closes over
    if "values" in get_value.__code__.co_freevars and node.children:
        node.children = sorted(node.children, key=lambda child: child.name)
    if max_depth == 0 or not node.children:
        return get_value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in get_next_valid_moves(node)]
    return max(values) if player_a_moves else min(values)
'''


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_a_change_made_only_when_asked_again_is_counted(warm, tmp_path, ctp26_cases):
    """The forty-first red team: a search that told the consistency pass from the first (its ``get_value`` reads
    the values handed over) and changed its tree only there, where no input used to be looked at: 10 against 9
    cold (warm, the pool handed back the first pass's trees, which the audit saw changed). That pass's inputs
    are looked at now, and a change there counts against the case."""
    exercise, bank, _cases = ctp26_cases
    result = _graded(tmp_path / "again.py", ASKED_AGAIN_SORTER, exercise, bank, warm)
    unchanged = next(c for c in result.checks if c.name == "tree-unchanged")
    assert result.error is None and unchanged.score < unchanged.max_score, result.score
    assert {c.name for c in result.checks if c.score < c.max_score} == {"tree-unchanged"}
    if not warm:  # the change is said in words (tree_driver.change_of), the shrunk tree's where it was shrunk
        assert "came in another order" in unchanged.message, unchanged.message


def test_a_change_made_only_when_asked_again_is_said_in_words(tmp_path, ctp26_cases):
    """Unshrunk, the message is the first pass's case, changed only when asked again: the second pass's words
    come with the change the judge counts against it (judge: ``changed_when_asked_again``)."""
    exercise, bank, _cases = ctp26_cases
    path = tmp_path / "again.py"
    path.write_text(ASKED_AGAIN_SORTER, encoding="utf-8")
    result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"), shrink=False, diagnose=False)
    unchanged = next(c for c in result.checks if c.name == "tree-unchanged")
    assert "changed when the same position was asked about again later: the children of " in unchanged.message
    assert "came in another order" in unchanged.message


def test_a_change_made_when_asked_again_is_said_in_its_words():
    case = Case(id="c1", group="random", input={"tree": {"name": "r", "value": 0, "children": []}})
    raw = {"id": "c1", "mutated": True, "changed_when_asked_again": True, "change": "'r' was renamed 's'"}
    assert Outcome(case, raw).late_change("tree") == ("the tree was left unchanged the first time, but changed when "
                                                       "the same position was asked about again later: 'r' was "
                                                       "renamed 's'")


SLOW_HONEST = '''
import time


def minimax(node, max_depth, player_a_moves):
    return _search(node, max_depth, player_a_moves, True)


def _search(node, max_depth, player_a_moves, top):
    if top and "values" in get_value.__code__.co_freevars:  # asked again (the values handed over)
        time.sleep({sleep})  # correct, and never changes the tree: only slow, and only when asked again
    if max_depth == 0 or not node.children:
        return get_value(node)
    values = [_search(child, max_depth - 1, not player_a_moves, False) for child in get_next_valid_moves(node)]
    return max(values) if player_a_moves else min(values)
'''


def test_a_slow_honest_submission_loses_only_the_consistency_it_had_no_time_for(tmp_path, monkeypatch, ctp26_cases):
    """The forty-first red team's honest case: a correct search too slow for the consistency pass used the
    submission's whole time there, the process was killed, the audit could not be asked, and the tree counted as
    not known to be unchanged. The consistency pass now leaves time for the audit (no case starts once the time
    left is a call's limit and the audit's); the cases it did not start fail "consistent-answers", as running out
    of time there did before, and "tree left unchanged" stands."""
    _exercise, bank, _cases = ctp26_cases
    sleep = 0.2  # the consistency pass asks 51 positions again: 10 s, where 5 are left
    monkeypatch.setenv("MINIMAX_GRADER_SUBMISSION_TIMEOUT", "6")
    exercise = exercises.load("ctp-26")
    path = tmp_path / "slow.py"
    path.write_text(SLOW_HONEST.format(sleep=sleep), encoding="utf-8")
    result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    lost = {c.name: c.message for c in result.checks if c.score < c.max_score}
    assert result.error is None and list(lost) == ["consistent-answers"], (result.error, lost)
    assert "ran out before every position was asked again" in lost["consistent-answers"]


def test_a_pooled_tree_asked_about_twice_and_changed_later_is_named_for_both_calls(tmp_path, ctp26_cases):
    """Through a fork server, the re-asking pass gets the very tree the first pass left unchanged (the warm pool),
    and the audit compares that tree once for both: a change made after both calls (the flush after the second
    reply) still counts against both results."""
    from grader.sandbox import forkserver

    exercise, bank, cases = ctp26_cases
    launcher = forkserver.ZygoteLauncher.wrap(launch.choose("posix"), exercise, bank)
    try:
        path = tmp_path / "late.py"
        # sorts what it was given at the flush after the second call's reply, once both calls are over
        source = LATE_SORTER.format(when="after two calls").replace(
            "        if WHEN == \"flush\":\n", "        if WHEN == \"after two calls\" and _calls[0] == 2:\n").replace(
            "def minimax(node, max_depth, player_a_moves):\n",
            "_calls = [0]\n\n\ndef minimax(node, max_depth, player_a_moves):\n    _calls[0] += 1\n")
        assert "_calls[0] == 2" in source and "_calls[0] += 1" in source
        path.write_text(source, encoding="utf-8")
        session = launcher.session_class(submissions.load(path), exercise, launcher)
        try:
            assert session.open().get("ok")
            sortable = [case for case in cases if "input" not in case or case["input"]["tree"]["children"]]
            request = sortable[:1]  # a bank case: the fork server's pool has its tree
            first = session.run(request)
            again = session.run(request, evidence=False)
            assert not first[0].get("mutated") and not again[0].get("mutated")
            session.audit()
        finally:
            session.close()
    finally:
        launcher.close()
    assert session.violation is None
    assert first[0].get("changed_later") is True and again[0].get("changed_later") is True
