"""Output over the cap zeroes the whole submission wherever it happens: in the first pass, and in the passes after it
(the positions asked again, the audit that looks at every tree once more).

A file that printed 3,600 characters per call stayed under the cap through its first pass and passed it while asked
again: it kept the first pass's points, lost the checks the later passes feed, and was named "mutates-tree" for a
tree the audit could not look at (the false-positive hunt of 2026-11-28). Printing more, the same file was the
whole submission's error from its first pass. Now both are."""

from __future__ import annotations

import pytest

from samples import graded_under
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge

SEARCH = '''
_calls = [0]


def minimax(node, max_depth, player_a_moves):
    _calls[0] += 1
    if _calls[0] == PRINT_AT:
        print("." * (1 << 20) + "!")  # past the 1 MiB cap at once, from this call on
    return _minimax(node, max_depth, player_a_moves)


def _minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    values = [_minimax(move, max_depth - 1, not player_a_moves) for move in moves]
    return max(values) if player_a_moves else min(values)
'''


@pytest.fixture(scope="module")
def ctp26():
    exercise = exercises.load("ctp-26")
    return exercise, banks.build(exercise, seed=5, examples=12)


def _graded(tmp_path, exercise, bank, print_at, warm, search=None):
    path = tmp_path / f"prints_at_{print_at}.py"
    path.write_text(f"PRINT_AT = {print_at}\n" + (search or SEARCH), encoding="utf-8")
    return graded_under(path, exercise, bank, "posix", warm)


ALWAYS_MAX = SEARCH.replace("return max(values) if player_a_moves else min(values)", "return max(values)")


@pytest.mark.parametrize("warm", [False, True], ids=["posix", "posix+fork-server"])
def test_output_past_the_cap_after_the_first_pass_zeroes_the_submission(ctp26, tmp_path, warm):
    exercise, bank = ctp26
    first_pass = len(bank.cases)
    early = _graded(tmp_path, exercise, bank, 3, warm)  # in the first pass
    late = _graded(tmp_path, exercise, bank, first_pass + 1, warm)  # the first position asked again
    never = _graded(tmp_path, exercise, bank, 10 ** 9, warm)
    for result in (early, late):
        assert (result.status, result.score) == ("error", 0.0), (result.status, result.score, result.error)
        assert result.error.startswith("output exceeded") and result.mistakes == []
        assert "remove the print calls" in result.error  # what to do, not only what happened (the 121st helper)
    assert (never.status, never.score, never.error) == ("passed", never.max_score, None)


@pytest.mark.parametrize("warm", [False, True], ids=["posix", "posix+fork-server"])
def test_output_past_the_cap_while_a_failure_is_shrunk_costs_nothing_more(ctp26, tmp_path, warm):
    """The runs after the audit (shrinking a failure, diagnosis) are the grader's choice, more of them for some
    mistakes and on some machines: output past the cap there ends them, and the submission keeps what its passes
    earned (a search with a flaw that printed as much as a correct one was zeroed where the correct one passed:
    the fifty-seventh red team)."""
    exercise, bank = ctp26
    passes = len(bank.cases) + len(judge._consistency_sample(bank))
    late = _graded(tmp_path, exercise, bank, passes + 1, warm, ALWAYS_MAX)  # the first call after the audit
    quiet = _graded(tmp_path, exercise, bank, 10 ** 9, warm, ALWAYS_MAX)
    assert quiet.status == "failed" and quiet.score < quiet.max_score
    assert (late.status, late.score, late.error) == (quiet.status, quiet.score, None)
