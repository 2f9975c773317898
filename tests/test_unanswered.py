"""A call that gives no answer is no evidence for any check of its case (the forty-fourth red team).

Every check that reads the grader's log of questions or looks at the input after the call (evaluation
discipline, pruning, the board put back, the answer's shape) used to pass a call that raised or ran out of time:
"judged by the answer checks". But the answers' check is one check: a search that misbehaved and then raised
lost only that one, where its twin, answering, lost the others too (alphabeta 8.0 against 5.0, tic-tac-toe 5.0
against 4.0, ctp-26 by running out of time 7.0 against 6.0). Now a case left without the answer the rubric wants
fails every check of the case that needs the call's whole work, while the checks that read what the call did up to
where it stopped (the grader's log of its questions; the tree after a call that raised) judge that, as they judge a
wrong answer (the forty-sixth red team: failing those too made a crash cost more than ``except: return 0``). A case
where no check wants an answer (coin-row's finished positions, asked only for the shape of what comes back) costs
nothing when the call raises, and a call cut short there owes one. A check failed only for want of answers names no
mistake: it saw none.
"""
from __future__ import annotations

import pytest

from conftest import SUBMISSIONS
from samples import flag_twin
from test_evidence import _graded, small_banks  # noqa: F401  (small_banks: the fixture, seed 11, 20 examples)
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import launch

JUDGING = SUBMISSIONS / "judging"

FORGERS = [
    ("forge_raise_after_pruning.py", "alphabeta"),
    ("forge_raise_unrestored.py", "tictactoe"),
    ("forge_stall_after_inner_eval.py", "ctp-26"),
]

# The mistakes the checks of ctp-26 name when they fail: none may be named from calls that never answered.
BEHAVIOUR_CODES = {"mutates-tree", "wrong-return-type", "evaluates-internal-nodes"}


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
@pytest.mark.parametrize("name, exercise_id", FORGERS)
def test_a_call_that_gives_no_answer_earns_no_check_of_its_case(name, exercise_id, warm, small_banks, tmp_path,
                                                                monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")  # the staller's spins cost what the limit lets them
    exercise, _ = small_banks(exercise_id)
    exercise = exercises.load(exercise_id)  # with the limit above (the module's copy was loaded without it)
    bank = small_banks(exercise_id)[1]
    forger = JUDGING / name
    honest = _graded(flag_twin(forger, tmp_path), exercise, bank, "posix", warm)
    forged = _graded(forger, exercise, bank, "posix", warm)
    assert honest.error is None and forged.error is None, (honest.error, forged.error)
    assert honest.score < honest.max_score  # the twin's misbehaviour is seen
    assert forged.score <= honest.score, (forged.score, honest.score,
                                          [(c.name, c.message) for c in forged.checks if c.score < c.max_score])


def test_the_message_says_there_was_nothing_to_judge(small_banks):
    """The check a raise costs says why: the call raised, so the check had nothing to look at."""
    exercise, bank = small_banks("alphabeta")
    forged = _graded(JUDGING / "forge_raise_after_pruning.py", exercise, bank, "posix", False)
    lost = {c.name: c.message or "" for c in forged.checks if c.score < c.max_score}
    assert "raised RuntimeError: gave up" in lost["no-over-pruning"], lost
    assert "nothing to judge this check on" in lost["no-over-pruning"], lost


def test_an_honest_raise_costs_the_checks_of_its_own_case_alone_and_names_no_mistake(small_banks, tmp_path):
    """Correct everywhere but on one shape of tree (a root with a single move: two of the random trees here, none of
    the hand-made ones), where it raises: the answers and the answer's type fail on those two trees alone and say
    why; the checks that read what a call did (the grader's log, the tree after it) judge those two calls as any
    other and pass them, so a crash costs no more than a wrong answer would (the forty-sixth red team); the
    diagnosis names no mistake of behaviour."""
    exercise, bank = small_banks("ctp-26")
    path = tmp_path / "raises_on_single_moves.py"
    path.write_text(
        "def minimax(node, max_depth, player_a_moves):\n"
        "    moves = get_next_valid_moves(node)\n"
        "    if node.parent is None and len(moves) == 1:\n"
        "        raise ValueError('one move')\n"
        "    if max_depth == 0 or not moves:\n"
        "        return get_value(node)\n"
        "    values = [minimax(m, max_depth - 1, not player_a_moves) for m in moves]\n"
        "    return max(values) if player_a_moves else min(values)\n", encoding="utf-8")
    result = _graded(path, exercise, bank, "posix", False)
    lost = {c.name: c for c in result.checks if c.score < c.max_score}
    assert sorted(lost) == ["random-trees", "returns-a-number"], lost
    assert lost["random-trees"].failed_cases == 2, lost["random-trees"].message
    for name in ("returns-a-number",):
        assert "raised ValueError: one move" in lost[name].message and "nothing to judge" in lost[name].message
        assert lost[name].failed_cases == lost[name].unanswered_cases == 2, lost[name].message
        assert lost[name].to_dict()["unanswered_cases"] == 2
    assert not BEHAVIOUR_CODES & {m.code for m in result.mistakes}, result.mistakes


def test_a_check_that_found_something_says_how_many_cases_had_no_answer(small_banks, tmp_path):
    """Right on the hand-made trees (asked first), a string on the random ones, and a raise on two of those: the
    answer's type check shows a case where it saw a string, counts both kinds, and the mistake is named."""
    exercise, bank = small_banks("ctp-26")
    hand_made = sum(1 for case in bank.cases if case.group != "random")
    path = tmp_path / "strings_and_raises.py"
    path.write_text(
        "_calls = [0]\n"
        "def _search(node, max_depth, player_a_moves):\n"
        "    moves = get_next_valid_moves(node)\n"
        "    if max_depth == 0 or not moves:\n"
        "        return get_value(node)\n"
        "    values = [_search(m, max_depth - 1, not player_a_moves) for m in moves]\n"
        "    return max(values) if player_a_moves else min(values)\n"
        "def minimax(node, max_depth, player_a_moves):\n"
        "    _calls[0] += 1\n"
        "    if len(get_next_valid_moves(node)) == 1:\n"
        "        raise ValueError('one move')\n"
        "    value = _search(node, max_depth, player_a_moves)\n"
        f"    return value if _calls[0] <= {hand_made} else str(value)\n", encoding="utf-8")
    result = _graded(path, exercise, bank, "posix", False)
    check = next(c for c in result.checks if c.name == "returns-a-number")
    assert check.status == "failed" and "nothing to judge" not in check.message, check.message
    assert check.unanswered_cases == 2 and check.failed_cases > 2, check.message
    assert ", 2 of them without an answer to judge)" in check.message, check.message
    assert "wrong-return-type" in {m.code for m in result.mistakes}, result.mistakes


def test_catching_a_crash_to_return_any_number_gains_no_more_than_the_type_check(small_banks, tmp_path):
    """The forty-sixth red team: the same search, letting an IndexError out (the twin) or wrapped in
    ``except IndexError: return 0``, lost 5.5 and 3.0 points: every check of a case that raised failed for want of
    an answer, while a wrong number was judged on what the call did. Now the checks that read what a call did judge
    a call that raised on the same record; the two differ by the answer's type alone ("returns a number": a call
    that raised returned none, and a raise must not hide a string)."""
    exercise, bank = small_banks("ctp-26")
    search = (
        "def _search(node, max_depth, player_a_moves):\n"
        "    moves = get_next_valid_moves(node)\n"
        "    if len(moves) == 1 and node.parent is None:\n"
        "        [][0]  # an IndexError, on the two random trees whose root has one move\n"
        "    if max_depth == 0 or not moves:\n"
        "        return get_value(node)\n"
        "    values = [_search(m, max_depth - 1, not player_a_moves) for m in moves]\n"
        "    return max(values) if player_a_moves else min(values)\n")
    raising, catching = tmp_path / "raising.py", tmp_path / "catching.py"
    raising.write_text(search + "minimax = _search\n", encoding="utf-8")
    catching.write_text(search + "def minimax(node, max_depth, player_a_moves):\n    try:\n"
                        "        return _search(node, max_depth, player_a_moves)\n    except IndexError:\n"
                        "        return 0\n", encoding="utf-8")
    crashed, caught = (_graded(path, exercise, bank, "posix", False) for path in (raising, catching))
    lost = {c.name for c in crashed.checks if c.score < c.max_score}
    assert lost == {"random-trees", "returns-a-number"}, [(c.name, c.message) for c in crashed.checks]
    points = next(spec.points for spec in exercise.checks if spec.name == "returns-a-number")
    assert caught.score - crashed.score == points, (caught.score, crashed.score)


def test_a_raise_where_no_check_wants_an_answer_costs_nothing():
    """coin-row asks for the shape of what comes back on finished positions too, where there is no move: a search
    that raises there (its moves are empty) keeps full marks."""
    sample = SUBMISSIONS / "coin-row" / "correct" / "value_helper.py"
    assert "only called on unfinished positions" in sample.read_text(encoding="utf-8")
    exercise = exercises.load("coin-row")
    result = judge.grade(submissions.load(sample), exercise, banks.build(exercise), launch.choose("posix"))
    assert (result.status, result.score) == ("passed", result.max_score), [(c.name, c.message) for c in result.checks]


def test_a_call_cut_short_where_no_check_wants_an_answer_is_judged_all_the_same(tmp_path, monkeypatch):
    """A raise on a finished coin-row position is an acceptable program; a call that never ends there is not, and
    was judged by nothing: "returns-a-move" passed a case no answer check covers, and the consistency pass left out
    a position whose first call was cut short. The forger (10 against its twin's 8, which answers "left", then
    "right") spun on the first finished position it was asked; now that case fails both checks."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")  # the forger spins once, for what the limit lets it
    exercise = exercises.load("coin-row")
    bank = banks.build(exercise)
    forger = JUDGING / "forge_stall_where_no_answer_is_owed.py"
    honest = judge.grade(submissions.load(flag_twin(forger, tmp_path)), exercise, bank, launch.choose("posix"))
    forged = judge.grade(submissions.load(forger), exercise, bank, launch.choose("posix"))
    lost = {c.name: c.message or "" for c in forged.checks if c.score < c.max_score}
    assert honest.error is None and forged.error is None, (honest.error, forged.error)
    assert {c.name for c in honest.checks if c.score < c.max_score} == {"same-answer-again"}, honest.checks
    assert forged.score <= honest.score, (forged.score, honest.score, lost)
    assert "timed out after 0.3 s: nothing to judge this check on" in lost["returns-a-move"], lost
    assert "ran out of time the first time it was asked" in lost["same-answer-again"], lost
    assert "(1 of " in lost["same-answer-again"] and "not known to answer alike)" in lost["same-answer-again"], lost


def test_a_consistency_check_failed_only_on_calls_cut_short_names_no_mistake(tmp_path, monkeypatch):
    """The honest search slow on two random trees loses "consistent-answers" on them (not known to answer alike),
    but nothing it answered changed: no mistake about memory across calls is named from that."""
    from test_not_run import _grade

    result, lost = _grade(tmp_path, monkeypatch, "slow.py", forge=True, sloppy=False)
    check = next(c for c in result.checks if c.name == "consistent-answers")
    assert check.status == "failed" and check.unanswered_cases == check.failed_cases == 2, (check.message, check)
    assert "state-across-calls" not in {m.code for m in result.mistakes}, [(m.code, m.evidence) for m in result.mistakes]


def test_a_call_cut_short_is_judged_on_what_it_asked_before(small_banks, monkeypatch):
    """The grader's log of a call's questions is its own, however the call ends: the forty-fourth's staller asked
    about inner nodes and then spun until its limit, and evaluation discipline fails on what the log shows (an
    inner node asked), not for want of an answer."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")
    exercise = exercises.load("ctp-26")
    bank = small_banks("ctp-26")[1]
    forged = _graded(JUDGING / "forge_stall_after_inner_eval.py", exercise, bank, "posix", False)
    check = next(c for c in forged.checks if c.name == "evaluation-discipline")
    assert check.status == "failed" and check.unanswered_cases == 0, check.message
    assert "nothing to judge" not in check.message, check.message


def test_catching_a_crash_in_alphabeta_gains_no_more_than_the_type_check(small_banks, tmp_path):
    """The same on alphabeta, where the review of the fix found it left: its under-pruning check (a node alpha-beta
    prunes, evaluated) read nothing of a call that raised, so raising cost it and catching did not (2.0 points apart,
    not 0.5). It reads the log up to where the call stopped now (the exercise's ``JUDGES_UNFINISHED``); over-pruning
    still needs the whole call."""
    import math  # noqa: F401  (the search below uses it in the child)

    exercise, bank = small_banks("alphabeta")
    hand_made = sum(1 for case in bank.cases if case.group != "random")
    search = (
        "import math\n_calls = [0]\n"
        "def _ab(node, max_depth, alpha, beta, player_a_moves, deep):\n"
        "    moves = get_next_valid_moves(node)\n"
        "    if max_depth == 0 or not moves:\n"
        "        return get_value(node)\n"
        "    if deep and len(moves) == 1:\n"
        "        [][0]  # an IndexError deep in the search, after some leaves were evaluated\n"
        "    best = -math.inf if player_a_moves else math.inf\n"
        "    for move in moves:\n"
        "        value = _ab(move, max_depth - 1, alpha, beta, not player_a_moves, deep)\n"
        "        if player_a_moves:\n"
        "            best = max(best, value)\n"
        "            if best > beta:\n"
        "                break\n"
        "            alpha = max(alpha, best)\n"
        "        else:\n"
        "            best = min(best, value)\n"
        "            if best < alpha:\n"
        "                break\n"
        "            beta = min(beta, best)\n"
        "    return best\n"
        "def _search(node, max_depth, alpha, beta, player_a_moves):\n"
        "    _calls[0] += 1\n"
        f"    return _ab(node, max_depth, alpha, beta, player_a_moves, _calls[0] > {hand_made})\n")
    raising, catching = tmp_path / "raising.py", tmp_path / "catching.py"
    raising.write_text(search + "alphabeta = _search\n", encoding="utf-8")
    catching.write_text(search + "def alphabeta(node, max_depth, alpha, beta, player_a_moves):\n    try:\n"
                        "        return _search(node, max_depth, alpha, beta, player_a_moves)\n"
                        "    except IndexError:\n        return 0\n", encoding="utf-8")
    crashed, caught = (_graded(path, exercise, bank, "posix", False) for path in (raising, catching))
    lost = {c.name: c.message for c in crashed.checks if c.score < c.max_score}
    assert "no-under-pruning" not in lost and "random-trees" in lost, lost
    points = next(spec.points for spec in exercise.checks if spec.name == "returns-a-number")
    assert caught.score - crashed.score <= points, (caught.score, crashed.score, lost)


def test_the_consistency_check_shows_an_answer_that_changed_before_one_not_known(small_banks):
    """Cut short the first time on one position and answering differently on another, in that order: the check shows
    the changed answer (it found something there), and counts both."""
    from grader.judging import checks

    exercise, bank = small_banks("ctp-26")
    spec = next(s for s in exercise.checks if s.kind == "consistent")
    cut, changed = bank.cases[0], bank.cases[1]
    first = {cut.id: checks.Outcome(cut, {"id": cut.id, "timed_out": True}),
             changed.id: checks.Outcome(changed, {"id": changed.id, "answer": {"t": "int", "v": 3}})}
    second = [{"id": cut.id, "skipped": "cut short the first time"}, {"id": changed.id, "answer": {"t": "int", "v": 4}}]
    result = checks.consistency_check(spec, exercise, first, second, None)
    assert result.status == "failed" and result.failed_cases == 2 and result.unanswered_cases == 1, result.message
    assert "the first time and returned 4 when asked again later" in result.message, result.message
    assert result.message.endswith("(2 of 2: 1 answer changed, 1 not known to answer alike)"), result.message
    assert result.counterexample is not None


def test_an_answer_not_given_again_fails_the_consistency_check_but_names_no_memory(small_banks):
    """Answered the first time and cut short when asked again: the check fails (a forger could hide a changed answer
    behind a slow second call), but the call says nothing of what the code remembers. A search without a depth limit,
    near its limit on a loaded machine, was named ``state-across-calls`` ("returned -1 the first time and gave no
    answer in time when asked again later (22 answers changed)": the 127th helper's)."""
    from grader.judging import checks

    exercise, bank = small_banks("ctp-26")
    spec = next(s for s in exercise.checks if s.kind == "consistent")
    slow, same = bank.cases[0], bank.cases[1]
    first = {slow.id: checks.Outcome(slow, {"id": slow.id, "answer": {"t": "int", "v": 3}}),
             same.id: checks.Outcome(same, {"id": same.id, "answer": {"t": "int", "v": 4}})}
    second = [{"id": slow.id, "timed_out": True}, {"id": same.id, "answer": {"t": "int", "v": 4}}]
    result = checks.consistency_check(spec, exercise, first, second, None)
    assert result.status == "failed" and result.failed_cases == 1 and result.unanswered_cases == 1, result.message
    assert result.message.endswith("(1 of 2: 1 not answered when asked again)"), result.message


def test_a_search_near_its_limit_when_asked_again_is_not_said_to_remember(small_banks):
    """The diagnosis's own look at a skipped consistency check counts only answers given both times."""
    from grader.judging import checks as kinds
    from grader.judging import diagnose
    from grader.judging.checks import Outcome

    exercise, bank = small_banks("ctp-26")
    spec = next(s for s in exercise.checks if s.kind == "consistent")
    case = bank.cases[0]
    outcome = Outcome(case, {"id": case.id, "answer": {"t": "int", "v": 3}}, 3)

    class Facts:
        outcomes = [outcome]
        again = {case.id: {"id": case.id, "timed_out": True}}

        @staticmethod
        def call(o):
            return "minimax(root, 2, True)"

        @staticmethod
        def reply(o):
            return ("number", 3)

    assert diagnose._look_for(spec, exercise, Facts, kinds) is None
    Facts.again = {case.id: {"id": case.id, "answer": {"t": "int", "v": 5}}}
    assert "answers changed" in diagnose._look_for(spec, exercise, Facts, kinds)
