"""A kit exercise's evidence cannot be forged through the kit's own modules.

The sandbox side of a declared exercise is a small generated driver configured by the kit's
driver module, whose functions look their helpers (``_snapshot``, ``_id``) up in that module's
namespace at call time, and the game's rules module, whose functions may be handed to the student
as they are. A submission reaches those namespaces through a frame or a helper's ``__globals__``.
Each fixture below forges one piece of evidence that way; its honest twin (the same code without
the forging step, made here) shows what the code earns by itself, so the checks are not simply
failing everything. The forgery must earn no more. The evaluations themselves are questions the
grading process answers and logs, and the child's copy of the game has no evaluation function to
call instead (forge_kit_evaluate_unseen.py looks for one and, against the earlier design, found it).
"""

from __future__ import annotations

import pytest

from conftest import SUBMISSIONS
from samples import flag_twin, honest_twin
from grader.doors import api
from grader.sandbox.session import HARNESS_TAMPERED

FOLDER = SUBMISSIONS / "hostile-kit"
FORGERS = [
    # fixture, exercise, the check the honest twin fails, the honest score
    ("forge_kit_snapshot.py", "tictactoe", "board-restored", 9.0),
    ("forge_kit_helper_globals.py", "connect-four", "evaluated-positions", None),
    ("forge_kit_evaluate_unseen.py", "connect-four", "evaluated-positions", 7.0),
]


@pytest.mark.parametrize("sandbox", ["posix", "spawn"])
@pytest.mark.parametrize("name, exercise, failed_check, honest_score", FORGERS)
def test_forging_through_the_kit_modules_earns_nothing(tmp_path, sandbox, name, exercise, failed_check, honest_score):
    honest = api.check(honest_twin(FOLDER / name, tmp_path), exercise, sandbox=sandbox)
    assert honest.error is None, honest.error
    assert {c.name: c.status for c in honest.checks}[failed_check] == "failed"
    if honest_score is not None:
        assert honest.score == honest_score
    forged = api.check(FOLDER / name, exercise, sandbox=sandbox)
    assert forged.score <= honest.score, (forged.score, forged.error)
    assert forged.error is None or HARNESS_TAMPERED in forged.error, forged.error


def test_an_evaluation_by_path_is_asked_in_the_text_the_quick_reader_expects(monkeypatch):
    """The kit's driver writes an evaluation of a position it handed out by hand, as json.dumps would:
    every one of them is read by the grading process's quick reader, none falls to the general parser."""
    from grader.sandbox import replies

    slow = []
    general = replies.loads_message

    def recording(payload):
        slow.append(payload)
        return general(payload)

    monkeypatch.setattr(replies, "loads_message", recording)
    result = api.check(SUBMISSIONS / "connect-four" / "correct" / "last_equal_column.py", "connect-four")
    assert result.status == "passed"
    assert not [p for p in slow if p.startswith(b'["e"')], slow[:3]


def test_a_warm_child_holds_none_of_the_bank_where_the_load_s_questions_are_answered(tmp_path):
    """The thirty-fourth red team: a child forked from a fork server with connect-four's cases prebuilt found
    them (gc) as its file loaded and asked every inner position's value then, from the load's oracle, which logs
    nothing (no case runs yet); in the cases it asked only alpha-beta's positions (10 against 7, warm only). A fork
    server holds none of the bank where the load's questions are answered, and the forger is its twin again;
    ctp-26, whose load asks nothing, keeps its prebuilt trees."""
    from grader.judging import bank as banks
    from grader.judging import exercise as exercises
    from grader.judging import judge, submissions
    from grader.sandbox import forkserver, launch

    ctp26, connect_four = exercises.load("ctp-26"), exercises.load("connect-four")
    assert not forkserver.answers_while_loading(ctp26) and forkserver.answers_while_loading(connect_four)
    bank = banks.build(connect_four, seed=11, examples=20)
    launcher = forkserver.ZygoteLauncher.wrap(launch.choose("posix"), connect_four, bank)
    ctp26_launcher = forkserver.ZygoteLauncher.wrap(launch.choose("posix"), ctp26, banks.build(ctp26, seed=11,
                                                                                                examples=4))
    try:
        assert launcher.server.inputs == {} and len(ctp26_launcher.server.inputs) > 0
        forger = FOLDER / "forge_kit_zygote_inputs.py"
        twin = flag_twin(forger, tmp_path)
        honest = judge.grade(submissions.load(twin), connect_four, bank, launcher)
        forged = judge.grade(submissions.load(forger), connect_four, bank, launcher)
    finally:
        launcher.close()
        ctp26_launcher.close()
    assert (honest.score, [c.name for c in honest.checks if c.status == "failed"]) == (7.0, ["evaluated-positions"])
    assert forged.score <= honest.score, (forged.score, forged.error)
