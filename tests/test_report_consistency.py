"""Reports that never contradict themselves: one test per defect found by trying the grader as a student.

Each test fails on the grader before the fix: the evidence quoting another tree than the one
drawn ("the right answer is 4" under "expected 0"), counts that include questions no check
counts ("wrong on 248 of 248" beside checks adding up to 247), the sandbox's temp path in a
SyntaxWarning, "seed 26, 0 random trees" under an error, tictactoe's reference record shown
as the expected answer, best-move's tuples shown as lists, and "expected: 0  yours: 0" under
a check whose value was right.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.doors import api
from grader import report

SUBMISSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "submissions"


@pytest.fixture(scope="module")
def graded():
    results = {}

    def grade(relative, exercise):
        if relative not in results:
            results[relative] = api.check(SUBMISSIONS / relative, exercise)
        return results[relative]

    return grade


def _answer_checks_total(result, kind_names=("published-cases", "fixture-trees", "random-trees")):
    checks = [c for c in result.checks if c.name in kind_names]
    return sum(c.failed_cases for c in checks), sum(c.total_cases for c in checks)


@pytest.mark.parametrize("relative", ["bad/minimax_raises.py", "ctp-26/buggy/no_alternation.py"])
def test_the_evidence_quotes_the_drawn_call_with_its_own_right_answer(graded, relative):
    result = graded(relative, "ctp-26")
    drawn = next(c.counterexample for c in result.checks if c.status == "failed" and c.counterexample)
    evidence = " ".join(m.evidence for m in result.mistakes)
    quoted = re.findall(re.escape(drawn.call) + r"(?!, on a )[^;]*?the right answer is ([^;)]+)", evidence)
    assert quoted, evidence
    assert all(answer.strip() == repr(drawn.expected) for answer in quoted), (drawn.expected, evidence)


def test_wrong_on_n_of_m_adds_up_like_the_checks(graded):
    result = graded("bad/minimax_raises.py", "ctp-26")
    failed, total = _answer_checks_total(result)
    (unknown,) = [m for m in result.mistakes if m.code == "no-known-mistake"]
    found = re.search(r"wrong on (\d+) of (\d+) cases", unknown.evidence)
    assert found, unknown.evidence
    assert (int(found.group(1)), int(found.group(2))) == (failed, total) == (247, 247)


def test_a_fitting_mistake_counts_the_cases_the_checks_count(graded):
    result = graded("ctp-26/buggy/no_alternation.py", "ctp-26")
    _, total = _answer_checks_total(result)
    (mistake,) = [m for m in result.mistakes if m.code == "no-alternation"]
    assert f"all {total} cases" in mistake.evidence, mistake.evidence


def test_a_warning_names_the_students_file_not_the_sandbox_copy(tmp_path):
    source = tmp_path / "warn.py"
    source.write_text(
        "def minimax(node, max_depth, player_a_moves):\n"
        "    children = get_next_valid_moves(node)\n"
        "    if max_depth is 0 or not children:\n"
        "        return get_value(node)\n"
        "    values = [minimax(c, max_depth - 1, not player_a_moves) for c in children]\n"
        "    return max(values) if player_a_moves else min(values)\n", encoding="utf-8")
    result = api.check(source, "ctp-26")
    printed = result.output["stdout"] + result.output["stderr"]
    assert "warn.py:3: SyntaxWarning" in printed
    assert "minimax-grader-" not in printed and "/submission/" not in printed
    assert "minimax-grader-" not in report.render(result, "text")


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_an_error_report_does_not_end_with_random_cases_it_never_asked(graded, fmt):
    result = graded("../api-mismatch/aima-isolation/method_of_class.py", "aima-isolation")
    assert result.status == "error"
    text = report.render(result, fmt)
    assert "random" not in text  # nothing was asked
    assert "seed 26" in text  # every report says which seed (an instructor re-runs with it)


def test_an_exercise_without_random_cases_does_not_say_zero_random_trees(graded):
    result = graded("aima-isolation/buggy/moves_as_lists.py", "aima-isolation")
    assert result.status == "failed"
    for fmt in ("text", "md", "html"):
        text = report.render(result, fmt)
        assert "0 random" not in text and "seed 26" in text


def test_tictactoe_shows_the_expected_answer_as_the_statement_writes_it(graded):
    result = graded("tictactoe/buggy/returns_bare_score.py", "tictactoe")
    drawn = next(c.counterexample for c in result.checks if c.counterexample)
    assert drawn.expected == "[-1, -1, 0]"
    text = report.render(result, "text")
    assert "expected: [-1, -1, 0]" in text and "'score'" not in text and "'moves'" not in text
    evidence = " ".join(m.evidence for m in result.mistakes)
    assert "'score'" not in evidence


def test_tictactoe_shows_every_optimal_move_when_the_game_is_not_over():
    from grader.judging import exercise

    hooks = exercise.load("tictactoe").hooks
    shown = hooks.show_expected({"state": [[[0] * 3] * 3, 1], "depth": 9}, {"value": 1, "moves": [[0, 2], [2, 0]]})
    assert shown == "[0, 2, 1] or [2, 0, 1]"


def test_best_move_shows_tuples_where_the_game_has_tuples(graded):
    result = graded("best-move/buggy/one_ply_search.py", "best-move")
    board_check = next(c for c in result.checks if c.name == "tictactoe-positions")
    assert re.fullmatch(r"\(\d, \d\)( or \(\d, \d\))*", board_check.counterexample.expected), board_check.counterexample.expected
    text = report.render(result, "text")
    assert "[[" not in text and "'best moves'" not in text


def test_a_right_value_is_not_shown_as_expected_against_yours(graded):
    result = graded("ctp-26/buggy/evaluates_internal_nodes.py", "ctp-26")
    check = next(c for c in result.checks if c.name == "evaluation-discipline")
    assert check.status == "failed" and check.counterexample.answer_right
    for fmt in ("text", "md", "html"):
        text = report.render(result, fmt)
        assert not re.search(r"expected:?\s*(<code>)?`?0`?(</code>)?,?\s+yours:?\s*(<code>)?`?0", text), fmt
        assert "is a right answer on its own" in text


def test_the_exporters_feedback_says_the_same(graded):
    """JUnit, Gradescope, pytest and Actions share feedback.check_text: the same fixes hold there."""
    from grader.report import feedback

    right = graded("ctp-26/buggy/evaluates_internal_nodes.py", "ctp-26")
    check = next(c for c in right.checks if c.name == "evaluation-discipline")
    text = feedback.check_text(right, check)
    assert "is a right answer on its own: what goes wrong is how your code got it, said above" in text and "expected: 0" not in text

    board = graded("tictactoe/buggy/returns_bare_score.py", "tictactoe")
    check = next(c for c in board.checks if c.counterexample)
    assert "expected: [-1, -1, 0]    yours: 0" in feedback.check_text(board, check)


def test_every_report_says_which_checks_rest_on_observations_in_the_child(graded):
    """Answers and what was evaluated are judged in the grader (evaluations are questions it answers and
    logs); only whether the input was left as it was is observed in the child: reports say which checks."""
    from grader import report

    result = graded("ctp-26/correct/alpha_beta.py", "ctp-26")
    observed = [c.name for c in result.checks if c.sandbox_evidence]
    assert observed == ["tree-unchanged"]  # evaluation-discipline rests on the grader's own log
    assert result.to_dict()["checks"][0].get("sandbox_evidence") is None  # published-cases: judged in the grader
    for fmt in ("text", "md", "html"):
        text = report.render(result, fmt)
        assert "observed inside your code's own process" in text.lower(), fmt
        said = text.lower().split("observed inside your code's own process")[1].split("\n")[0]
        assert "tree-unchanged" in said and "evaluation-discipline" not in said, fmt
        assert "records kept inside the sandbox" not in text, fmt


def test_the_object_route_s_expansion_checks_are_said_to_be_observed_in_the_child(graded):
    """On the object route a board's ``forecast_move`` runs in the child and tells each expansion; the virtual
    clock ticks on those notes. A search with its own copy of the rules tells only what it wants (the
    thirty-sixth red team), so the checks that read expansions or the clock are reported as observed in the
    child; those on scores, utilities and moves, which the grading process answered, are not."""
    from grader import report
    from grader.judging import exercise as exercises

    result = graded("aind-isolation/correct/textbook.py", "aind-isolation")
    kinds = {spec.name: spec.kind for spec in exercises.load("aind-isolation").checks}
    observed = {c.name for c in result.checks if c.sandbox_evidence}
    graded_checks = {c.name for c in result.checks if c.max_score > 0}
    wanted = {name for name in graded_checks if kinds[name] in ("expanded", "timeout", "iterative", "game")}
    assert wanted and observed == wanted, (observed, wanted)
    assert any(kinds[name] == "scored" for name in graded_checks - observed)
    text = report.render(result, "text").lower().split("observed inside your code's own process")[1].split("\n")[0]
    assert all(name in text for name in wanted)
