"""A case never run is no evidence (the forty-third red team).

The harness stops a pass after two calls cut short; the cases after them come back "not run". Every check but
the answers' used to pass on those: a search that ran its first two random trees past the limit was judged on
the hand-made trees alone, where it behaved, and kept evaluation discipline, the tree left unchanged, the
numeric answers and the consistency it had broken on every random tree (7.0 against its twin's 4.0). Now a case
never run fails every check that would read it, and the cases a pass left are asked again in a request of their
own, so that a search merely slow on a few trees is still judged on the rest. (The calls cut short themselves, and
those that raised, fail the checks of their case too: tests/test_unanswered.py.)"""
from __future__ import annotations

from samples import flag_twin
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import launch

STALLS_ON_TWO_RANDOM_TREES = '''
FORGE = {forge}
SLOPPY = {sloppy}
HAND_MADE = {hand_made}  # the published and hand-made cases come first in the bank
STALLS = {stalls}
_calls = [0]
_stalled = [0]


def _search(node, depth, a_moves):
    if depth == 0 or not node.children:
        return get_value(node)
    values = [_search(m, depth - 1, not a_moves) for m in get_next_valid_moves(node)]
    return max(values) if a_moves else min(values)


def _sloppy(node, depth, a_moves):
    here = get_value(node)  # every node's value, inner ones too
    if depth == 0 or not node.children:
        return here
    node.children = tuple(reversed(node.children))  # changes the tree
    values = [_sloppy(m, depth - 1, not a_moves) for m in node.children]
    return max(values) if a_moves else min(values)


_hand_made = set()


def _shape(node):
    return (node.name, tuple(_shape(child) for child in node.children))


def minimax(node, max_depth, player_a_moves):
    _calls[0] += 1
    key = (_shape(node), max_depth, player_a_moves)
    if _calls[0] <= HAND_MADE or key in _hand_made:  # the hand-made trees, also when asked again
        _hand_made.add(key)
        return _search(node, max_depth, player_a_moves)
    if FORGE and _stalled[0] < STALLS:
        _stalled[0] += 1
        while True:  # cut short by the call's limit: two of these end the pass
            pass
    if SLOPPY:
        return "%s#%d" % (_sloppy(node, max_depth, player_a_moves), _calls[0])
    return _search(node, max_depth, player_a_moves)
'''


def _grade(tmp_path, monkeypatch, name, examples=8, stalls=2, **flags):
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")  # a stall costs what the limit lets it
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=examples)
    hand_made = sum(1 for case in bank.cases if case.group != "random")
    assert [case.group for case in bank.cases][hand_made:] == ["random"] * examples  # the random trees come last
    path = tmp_path / name
    path.write_text(STALLS_ON_TWO_RANDOM_TREES.format(hand_made=hand_made, stalls=stalls, **flags), encoding="utf-8")
    result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    return result, {c.name: c.message for c in result.checks if c.score < c.max_score}


def test_stalling_to_leave_cases_unrun_earns_nothing_on_them(tmp_path, monkeypatch):
    honest, honest_lost = _grade(tmp_path, monkeypatch, "twin.py", forge=False, sloppy=True)
    forged, forged_lost = _grade(tmp_path, monkeypatch, "forger.py", forge=True, sloppy=True)
    assert {"random-trees", "evaluation-discipline", "tree-unchanged", "returns-a-number"} <= set(honest_lost)
    assert forged.score <= honest.score, (forged.score, honest.score, forged_lost)


def test_cases_left_unrun_when_every_request_is_stalled_pass_no_check(tmp_path, monkeypatch):
    """Stalling on the first two trees of every request the grader makes for the rest (``judge.RESENDS``) leaves
    the trees after them never run: those fail every check that would read them, not just the answers'."""
    stalls = 2 * (judge.RESENDS + 1)
    honest, honest_lost = _grade(tmp_path, monkeypatch, "twin.py", examples=stalls + 4, stalls=stalls, forge=False, sloppy=True)
    forged, forged_lost = _grade(tmp_path, monkeypatch, "forger.py", examples=stalls + 4, stalls=stalls, forge=True, sloppy=True)
    assert forged.score <= honest.score, (forged.score, honest.score, forged_lost)
    assert "nothing to judge this check on" in forged_lost["evaluation-discipline"], forged_lost
    # the hand-made ones it answers alike; those never run, or cut short, the first time are not known to
    assert "so whether it gives the same answer again is not known" in forged_lost["consistent-answers"], forged_lost


def test_a_search_slow_on_two_trees_is_judged_on_the_others(tmp_path, monkeypatch):
    """Honest and correct, but too slow on two random trees: it loses the random trees' answers, and the checks of
    its behaviour that need a call's whole work on those two trees alone (a call cut short shows nothing to judge
    them on: the forty-fourth red team; nor whether it answers alike when asked again, nor whether it would have
    put back a tree it was changing), while the grader's log of what the two calls asked is judged as any other's
    (no inner node in it: evaluation discipline holds). The trees after the two are asked again in a request of
    their own, and judged: without that, the six never run would fail each check too."""
    result, lost = _grade(tmp_path, monkeypatch, "slow.py", forge=True, sloppy=False)
    assert sorted(lost) == ["consistent-answers", "random-trees", "returns-a-number", "tree-unchanged"], lost
    assert "(2 of " in lost["consistent-answers"] and "not known to answer alike)" in lost["consistent-answers"], lost
    assert "timed out" in lost["random-trees"] and "not run" not in lost["random-trees"], lost
    assert "(fails on 2 of 8 random trees)" in lost["random-trees"], lost
    for name in ("returns-a-number", "tree-unchanged"):
        assert "timed out after 0.3 s: nothing to judge this check on (fails on 2 of" in lost[name], lost


def test_the_red_team_s_own_staller_never_beats_its_twin(tmp_path, monkeypatch):
    from pathlib import Path

    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")
    forger = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "judging" / "forge_stall_vacuous.py"
    twin = flag_twin(forger, tmp_path)
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=20)
    launcher = launch.choose("posix")
    honest = judge.grade(submissions.load(twin), exercise, bank, launcher)
    forged = judge.grade(submissions.load(forger), exercise, bank, launcher)
    assert honest.score < honest.max_score and forged.score <= honest.score, (forged.score, honest.score)


def test_the_grader_reads_the_reasons_the_harness_writes():
    """The child's harness imports nothing of the grader's, so the words it gives for a case it did not start are
    written twice: the grader's copies (``session``) must be the harness's, or the re-asking never finds a case."""
    from pathlib import Path

    from grader.sandbox import session

    harness = (Path(session.__file__).with_name("harness.py")).read_text(encoding="utf-8")
    for reason in (session.TIMED_OUT_BEFORE, session.OUT_OF_TIME):
        assert f'"skipped": "{reason}"' in harness, reason


def test_the_grader_gives_a_call_the_wall_clock_time_the_harness_does():
    """The harness's ``wall_limit`` and the grader's ``call_wall_limit`` are one rule written twice (the harness
    imports nothing of the grader's): the re-asking starts a request only while a whole call fits."""
    from pathlib import Path

    from grader.sandbox import session

    path = Path(session.__file__).with_name("harness.py")
    source = path.read_text(encoding="utf-8")
    start = source.index("def wall_limit(call_timeout):")
    namespace: dict = {}
    exec(compile(source[start:source.index("\n\n\n", start)], str(path), "exec"), namespace)  # that function alone
    for timeout in (0.05, 0.3, 1.0, 2.5, 10.0):
        assert namespace["wall_limit"](timeout) == session.call_wall_limit(timeout), timeout


ENDLESS = '''
def minimax(node, max_depth, player_a_moves):
    while True:
        pass
'''

ENDS_ON_ONE_NODE_ONLY = '''
def minimax(node, max_depth, player_a_moves):
    if node.children:
        while True:
            pass
    return get_value(node)
'''


def _graded(tmp_path, monkeypatch, text):
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=8)
    path = tmp_path / "search.py"
    path.write_text(text, encoding="utf-8")
    result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    return exercise, bank, result


def test_a_search_that_ends_nowhere_is_asked_its_smallest_case_and_no_more(tmp_path, monkeypatch):
    """Two calls cut short end the first pass; with nothing ended, the smallest case left is asked alone, and a
    search that does not end even there is asked nothing more: three limits, not the eight of every request for
    the rest (a student's self-check waited some 9 s for an endless loop). The report names that smallest case."""
    exercise, bank, result = _graded(tmp_path, monkeypatch, ENDLESS)
    assert result.mistakes and result.mistakes[0].code == "does-not-finish"
    evidence = result.mistakes[0].evidence
    smallest = min(exercise.hook("size")(case.input) for case in bank.cases)
    assert evidence.startswith(f"3 of {len(bank.cases)} calls did not finish within 0.3 s"), evidence
    assert "no call ended, not even on the smallest case, so the other" in evidence, evidence
    drawn = next(c.counterexample for c in result.checks if c.counterexample is not None)
    assert exercise.hook("size")(drawn.input) == smallest, drawn.input


def test_a_search_that_ends_on_its_smallest_case_is_asked_the_rest_while_a_verdict_can_change(tmp_path, monkeypatch):
    """The smallest case asked alone is not one of the requests for the rest: a search that ends there (here one
    that ends only on a tree of one node) is asked again after every two calls cut short, ``RESENDS`` times where
    every case could still change a verdict; with the rubric as it is, only the cases some check still open reads
    (``judge._worth_running``): fewer limits, the same score and the same report."""
    exercise, bank, result = _graded(tmp_path, monkeypatch, ENDS_ON_ONE_NODE_ONLY)
    monkeypatch.setattr(judge, "_worth_running", lambda *args: (lambda case: True))
    _, _, everything = _graded(tmp_path, monkeypatch, ENDS_ON_ONE_NODE_ONLY)
    assert everything.mistakes and everything.mistakes[0].code == "does-not-finish"
    evidence = everything.mistakes[0].evidence
    assert evidence.startswith(f"{2 * (judge.RESENDS + 1)} of {len(bank.cases)} calls did not finish"), evidence
    assert "more were not run after them" in evidence, evidence
    assert result.mistakes and result.mistakes[0].code == "does-not-finish"
    cut_short = int(result.mistakes[0].evidence.split(" of ", 1)[0])
    assert 2 <= cut_short < 2 * (judge.RESENDS + 1), result.mistakes[0].evidence
    assert (result.status, result.score) == (everything.status, everything.score)
    assert [(c.name, c.score) for c in result.checks] == [(c.name, c.score) for c in everything.checks]


WRONG_THEN_STALLS = '''
_calls = [0]


def minimax(node, max_depth, player_a_moves):
    _calls[0] += 1
    if _calls[0] > {answered}:
        while True:  # slow past the limit on every tree after these
            pass
    return get_value(node) + 1000  # wrong everywhere
'''


def test_a_search_already_wrong_everywhere_a_check_reads_is_not_asked_the_rest(tmp_path, monkeypatch):
    """Wrong on every check's cases it ended, cut short on the rest: no answer to the rest could change a verdict
    (a failed check stays failed, the ones depending on it are skipped), so the rest is not asked again; a search
    without a depth limit cost a self-check 30.9 s of such requests (the 127th helper's). The score is what asking
    the rest gives."""
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=8)
    hand_made = sum(1 for case in bank.cases if case.group != "random")
    text = WRONG_THEN_STALLS.format(answered=hand_made + 2)  # two random trees answered (wrong), then stalls
    asked_again = []
    real = judge._run_the_rest
    monkeypatch.setattr(judge, "_run_the_rest", lambda *args, **kwargs: asked_again.append(1) or real(*args, **kwargs))
    _, _, settled = _graded(tmp_path, monkeypatch, text)
    assert asked_again == [], "the rest was asked again"
    monkeypatch.setattr(judge, "_verdicts_settled", lambda *args: False)
    monkeypatch.setattr(judge, "_worth_running", lambda *args: (lambda case: True))
    _, _, asked = _graded(tmp_path, monkeypatch, text)
    assert asked_again == [1]
    assert settled.score == asked.score and settled.status == asked.status == "failed"
    assert [c.status for c in settled.checks] == [c.status for c in asked.checks]


def test_the_rest_is_asked_group_by_group_the_groups_with_fewest_calls_cut_short_first():
    """A search that loops in one group of cases (one class of an exercise made of two) no longer spends every
    request for the rest on two more of that group's cases, which come first in the bank: the groups with the
    fewest calls cut short go first, each in the bank's order (a fake session records what each request carries)."""
    from types import SimpleNamespace

    from grader.judging.bank import Bank, Case

    cases = [Case(f"a{i}", "minimax", {"n": 1}) for i in range(5)] + [
        Case(f"b{i}", "alphabeta", {"n": n}) for i, n in enumerate((3, 1, 2))]
    bank = Bank("x", 0, 0, cases)
    first_raw = [{"id": "a0", "answer": 1}, {"id": "a1", "timed_out": True}, {"id": "a2", "timed_out": True}] + [
        {"id": case.id, "skipped": judge.TIMED_OUT_BEFORE} for case in cases[3:]]
    asked = []

    class FakeSession:
        limits = SimpleNamespace(call_timeout=1.0)

        @staticmethod
        def budget_left():
            return 1000.0

        @staticmethod
        def run(requests, within=None):
            asked.append([r["id"] for r in requests])
            return [{"id": r["id"], "answer": 1} if r["id"].startswith("b") else {"id": r["id"], "timed_out": True}
                    for r in requests]

    judge._run_the_rest(FakeSession(), bank, [dict(raw) for raw in first_raw])
    assert asked[0] == ["b0", "b1", "b2", "a3", "a4"], asked
    # the bank's order within the groups tied, whatever the exercise's measure of a case says: a position's size is
    # not its call's cost (the smallest first put full games from the empty board first: the 133rd helper)
    asked.clear()
    judge._run_the_rest(FakeSession(), bank, [dict(raw) for raw in first_raw], size=lambda case_input: case_input["n"])
    assert asked[0] == ["b0", "b1", "b2", "a3", "a4"], asked


LOOPS_ON_VALUES_BELOW_ONE = '''
def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        v = get_value(node)
        while v < 1:  # an honest bug: never ends for a value <= 0
            v *= 2
        return v
    values = [minimax(m, max_depth - 1, not player_a_moves) for m in moves]
    return max(values) if player_a_moves else min(values)
'''


def test_the_probe_is_the_smallest_case_a_check_reads_whatever_has_failed(tmp_path, monkeypatch):
    """The probe asked alone while nothing has ended is chosen among every case left that a check reads, not only
    among those that could still change a verdict: chosen among those, it was a random tree of one node worth 0,
    where this search loops, and the published cases it answers were never asked (the 132nd helper: 2 of 10 before
    the narrowing, 0 with it)."""
    exercise, bank, result = _graded(tmp_path, monkeypatch, LOOPS_ON_VALUES_BELOW_ONE)
    published = next(c for c in result.checks if c.name == "published-cases")
    assert published.status == "passed", published.message
    assert result.score == 2.0
