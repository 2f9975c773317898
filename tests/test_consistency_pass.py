"""The consistency pass (asking the fixed positions again, judged on the answers): what counts as the same answer.

A position answered the first time and not answered when asked again (the call ran out of time, or was not run
because the calls before it did) is no answer given again. The forty-second red team's search gave other answers
when asked again and ran its first two re-asked calls past the limit: the harness stopped the pass there, none
of the changed answers was compared, and the check passed (10 against its twin's 9.5)."""
from __future__ import annotations

from pathlib import Path

from samples import flag_twin
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import launch

FORGER = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "judging" / "forge_timeout_skip.py"


def test_answers_cut_short_when_asked_again_are_not_the_same_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "0.3")  # the forger's burns are cut short at that
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=4)
    twin = flag_twin(FORGER, tmp_path)
    launcher = launch.choose("posix")
    honest = judge.grade(submissions.load(twin), exercise, bank, launcher)
    forged = judge.grade(submissions.load(FORGER), exercise, bank, launcher)
    lost = {c.name: c.message for c in forged.checks if c.score < c.max_score}
    assert {c.name for c in honest.checks if c.score < c.max_score} == {"consistent-answers"}
    assert forged.score <= honest.score and list(lost) == ["consistent-answers"], (forged.score, honest.score, lost)
    assert "ran out of time when asked again later" in lost["consistent-answers"], lost


def test_a_consistent_search_is_consistent(tmp_path):
    """The other side: the same search without its memory of earlier calls, first-pass answers every time."""
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=11, examples=4)
    path = tmp_path / "steady.py"
    path.write_text(FORGER.read_text(encoding="utf-8").replace(
        '    asked_again = "with_values" in getattr(get_value, "__qualname__", "")',
        "    asked_again = False"), encoding="utf-8")
    result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    assert result.score == result.max_score, [(c.name, c.message) for c in result.checks if c.score < c.max_score]
