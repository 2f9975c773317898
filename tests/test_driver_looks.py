"""What a driver does after a call (its snapshot of the input, compared with the one before; the words of a change)
runs on the harness's thread, and must run no code of the student's there: no method of an object they left in the
input, of its class, of its class's name or of its metaclass. The hundred and fifteenth red team found four ways in
(a class's ``__name__`` set to a ``str`` subclass, compared in the kit's and best-move's snapshots and turned to text
in the words; a metaclass's ``__eq__`` run by ``type(value) in (int, ...)``; ``repr`` of an object put in an agent
board's state slot), each taking the "mutated" mark out of the harness's result: 10 against an honest 9. Each
fixture here (``fixtures/submissions/hostile-drivers``) is graded against its twin (``FORGE = False``: the same
change, of plain values) and must lose the same check and earn no more."""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import flag_twin

from grader.doors import api

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "hostile-drivers"

CASES = [
    ("tictactoe_type_name.py", "tictactoe", "board-restored"),
    ("tictactoe_metaclass_eq.py", "tictactoe", "board-restored"),
    ("best_move_cell_name.py", "best-move", "state-unchanged"),
    ("best_move_field_metaclass.py", "best-move", "state-unchanged"),
    ("aind_state_slot.py", "aind-isolation", "custom-score"),
    # the hundred and sixteenth: the driver's own object for the case, read back after the call, and the handed state
    ("kit_built_repointed.py", "tictactoe", "board-restored"),
    ("kit_built_class.py", "tictactoe", "board-restored"),
    ("kit_built_key.py", "tictactoe", "board-restored"),
    ("best_move_built_repointed.py", "best-move", "state-unchanged"),
    ("best_move_state_class.py", "best-move", "state-unchanged"),
    ("aind_built_repointed.py", "aind-isolation", "custom-score"),
    ("aind_board_class.py", "aind-isolation", "custom-score"),
    ("kit_board_holds_itself.py", "tictactoe", "board-restored"),
    ("kit_earlier_built_repointed.py", "tictactoe", "board-restored"),  # the audit vouches for built too
    # the hundred and nineteenth: aima-isolation's look at the student's own state, in their call
    ("aima_forecast_history.py", "aima-isolation", "forecast-is-pure"),
]
# Through the warm fork server's pool of prebuilt cases (the hundred and seventeenth red team)
POOLED = [("best_move_pool_rekeyed.py", "best-move", "state-unchanged")]
POOLED_UNSEEN = [("nim_pool_rekeyed.py", "nim", "HARNESS THREAD")]  # its planted key writes this to stderr there
# A fixture whose twin loses no check (multiagent has no check of its input): what it must never see is its own code
# run on the harness's thread, which its next call reports in an exception's text
UNSEEN = [("multiagent_built_class.py", "multiagent", "seen from the driver's look")]


def test_every_fixture_is_tested():
    assert {name for name, _, _ in CASES + UNSEEN + POOLED + POOLED_UNSEEN} == {path.name for path in FIXTURES.glob("*.py")}


@pytest.mark.parametrize("name, exercise_id, check", CASES, ids=[case[0] for case in CASES])
def test_a_driver_s_look_runs_nothing_of_the_student_s(name, exercise_id, check, tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    examples = None if exercise_id == "aind-isolation" else 10  # the object route asks its own positions
    twin = api.check(flag_twin(FIXTURES / name, tmp_path), exercise_id, examples=examples)
    forged = api.check(FIXTURES / name, exercise_id, examples=examples)
    lost = {c.name for c in twin.checks if c.score < c.max_score}
    assert twin.error is None and check in lost, (twin.score, lost)
    assert forged.score <= twin.score, (forged.score, twin.score)
    if forged.error is None:  # graded: the change was seen, as the twin's was
        assert next(c for c in forged.checks if c.name == check).score == 0, forged.score
    assert "timed out" not in (forged.error or ""), forged.error  # a look that ends (a list that holds itself)


@pytest.mark.parametrize("name, exercise_id, sign", UNSEEN, ids=[case[0] for case in UNSEEN])
def test_a_driver_s_look_never_runs_a_property_of_the_student_s(name, exercise_id, sign, tmp_path, monkeypatch):
    """multiagent's driver read ``built.frozen`` after each call: a class given to ``built`` (found with gc) ran a
    property of the student's there, which read the reply key out of the serving frame (the hundred and sixteenth
    red team's a7). ``built`` is vouched for now: its class swapped is tampering."""
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    twin = api.check(flag_twin(FIXTURES / name, tmp_path), exercise_id, examples=10)
    forged = api.check(FIXTURES / name, exercise_id, examples=10)
    said = " ".join([forged.error or "", *(c.message or "" for c in forged.checks)])
    assert sign not in said, said[:500]
    assert forged.score <= twin.score and "tampered" in (forged.error or ""), (forged.score, forged.error)


@pytest.mark.parametrize("name, exercise_id, check", POOLED, ids=[case[0] for case in POOLED])
def test_the_pool_hands_out_only_pairs_as_they_were_made(name, exercise_id, check, tmp_path, monkeypatch):
    """The warm fork server's prebuilt pairs are on the child's heap (``gc.unfreeze()`` reaches them as the file
    loads): a pair whose tree was given a new dict of the same values under a planted key was handed out, because
    the pool knew a pair by its values alone; it knows the dict and its keys too now (``zygote._made_as_reader``)."""
    from samples import graded_under

    from grader.judging import bank as banks
    from grader.judging import exercise as exercises

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    exercise = exercises.load(exercise_id)
    bank = banks.build(exercise, seed=11, examples=20)
    twin = graded_under(flag_twin(FIXTURES / name, tmp_path), exercise, bank, "posix", True)
    forged = graded_under(FIXTURES / name, exercise, bank, "posix", True)
    lost = {c.name for c in twin.checks if c.score < c.max_score}
    assert twin.error is None and check in lost, (twin.score, lost)
    assert forged.score <= twin.score, (forged.score, twin.score)


@pytest.mark.parametrize("name, exercise_id, sign", POOLED_UNSEEN, ids=[case[0] for case in POOLED_UNSEEN])
def test_a_pooled_pair_given_a_planted_key_runs_nothing_on_the_harness_s_thread(name, exercise_id, sign, tmp_path,
                                                                               monkeypatch):
    """The kit's ``helpers`` read ``built.root`` on the harness's thread before a call: a pooled pair re-keyed as the
    file loaded ran the planted key's ``__eq__`` there, which wrote the serving frame's reply key to stderr."""
    from samples import graded_under

    from grader.judging import bank as banks
    from grader.judging import exercise as exercises

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    exercise = exercises.load(exercise_id)
    forged = graded_under(FIXTURES / name, exercise, banks.build(exercise, seed=11, examples=20), "posix", True)
    printed = " ".join(str(part) for part in (forged.output or {}).values())
    assert sign not in printed, printed[:500]
    assert forged.error is None and forged.score == forged.max_score  # right answers, nothing else done
