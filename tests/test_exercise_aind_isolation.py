"""aind-isolation, declared through the kit's object route: pinned verdicts, the record, the virtual clock, boards."""

from __future__ import annotations

import re

import multiprocessing
import os
import time

import pytest
from kit_samples import assert_pinned, table
from samples import grader_of, on_disk

SAMPLES, EXPECTED = table("aind-isolation")


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "aind-isolation")


@pytest.fixture(scope="module")
def exercise():
    from grader.judging import exercise as exercises

    return exercises.load("aind-isolation")


def test_every_sample_on_disk_is_pinned_and_every_code_has_one():
    assert on_disk(SAMPLES) == set(EXPECTED)
    codes = {v["mistake"] for k, v in EXPECTED.items() if k.startswith("buggy/")}
    assert codes == {"scores-from-active-player", "no-legal-moves-root", "depth-off-by-one",
                     "timer-checked-only-at-root", "returns-interrupted-depth-move", "under-pruning", "answers-when-time-is-up",
                     "over-pruning", "ignores-passed-bounds", "min-max-swapped", "wrong-return-type"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict_score_and_mistake(graded, name):
    result = graded(name)
    assert_pinned(result, EXPECTED[name])
    if name.startswith("buggy/"):  # the one mistake it has, not a list of guesses
        assert [m.code for m in result.mistakes] == [EXPECTED[name]["mistake"]]


def test_the_exercise_has_no_grader_code_of_its_own(exercise):
    folder = exercise.folder
    assert not (folder / "exercise.py").exists() and not (folder / "driver.py").exists()
    assert type(exercise.hooks).__name__ == "AgentHooks"


def test_the_record_is_the_grading_process_s_and_refuses_forged_questions(exercise):
    from grader.kit.agent_oracle import AgentOracle

    hooks = exercise.hooks
    case = next(c for c in hooks.fixture_cases(exercise.fixtures_path) if c["group"] == "minimax")
    oracle = hooks.oracle(case["input"])
    assert oracle.ask(["x", [], 0]) == 1 and oracle.ask(["t"]) == oracle.clock - 2
    value = oracle.ask(["e", [0], case["input"]["seat"]])
    assert type(value) is float
    for forged in (["x", [], 99], ["e", [0], 7], ["x", "root", 0], ["p", [0, 0]], "x", ["e"]):
        with pytest.raises(ValueError):
            oracle.ask(forged)
    assert oracle.trace()["events"][:3] == [["x", [0]], ["t", oracle.clock - 2], ["e", [0], case["input"]["seat"]]]
    with pytest.raises(ValueError):  # nothing is a position while the file loads
        AgentOracle(hooks.rules).ask(["e", [], 0])


def test_the_student_is_handed_a_board_object_with_the_course_s_names(exercise):
    import importlib.util
    import json

    from grader.kit import agent_driver
    from grader.kit.agent_oracle import AgentOracle

    hooks = exercise.hooks
    driver = agent_driver.configure(json.dumps(hooks.decl), str(hooks.rules_path))
    case = next(c for c in hooks.fixture_cases(exercise.fixtures_path) if c["group"] == "minimax")
    oracle = hooks.oracle(case["input"])

    class Link:  # the harness's link, straight to the oracle: a question waits for its answer, a note does not
        def ask(self, message):
            return oracle.ask(message)

        def tell(self, message):
            oracle.tell(message)

    built = driver["build"](case["input"])
    driver["helpers"](built, Link())
    seen = {}

    class Probe:
        def __init__(self, search_depth, score_fn, timeout):
            self.score = score_fn

        def minimax(self, game, depth):
            me = game.active_player
            seen["me"] = me is self
            seen["opponent"] = game.get_opponent(self) is game.inactive_player
            seen["moves"] = game.get_legal_moves()
            child = game.forecast_move(seen["moves"][0])
            seen["child_to_move"] = child.active_player is game.inactive_player
            seen["count"] = child.move_count - game.move_count
            seen["score"] = self.score(child, self)
            seen["time"] = self.time_left()
            return seen["moves"][0]

    answer = driver["call"]({"MinimaxPlayer": Probe}, built)
    assert answer == seen["moves"][0] and seen["me"] and seen["opponent"] and seen["child_to_move"]
    assert seen["count"] == 1 and type(seen["score"]) is float
    kinds = [e[0] for e in oracle.trace()["events"]]
    assert kinds == ["x", "e", "t"]  # the expansion, the score and the clock read: recorded, in order
    with pytest.raises(ValueError):  # where a clock can run out, nothing may come one way
        AgentOracle(hooks.rules, {**case["input"], "clock": 60}).tell(["x", [], 0])
    assert importlib.util.find_spec("grader.kit.agent_driver") is not None


def _busy(stop):
    while not stop.is_set():
        pass


def test_same_verdicts_idle_and_with_both_cores_busy():
    """The clock is virtual (one tick per recorded call): timeouts fall at the same call under any load."""
    from grader.doors import api

    names = ["correct/textbook.py", "buggy/timer_checked_only_at_root.py"]

    def verdicts():
        found = []
        for name in names:
            result = api.check(SAMPLES / name, "aind-isolation")
            found.append((result.status, result.score, [(c.name, c.status, c.message) for c in result.checks]))
        return found

    idle = verdicts()
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_busy, args=(stop,)) for _ in range(os.cpu_count() or 2)]
    for burner in burners:
        burner.start()
    try:
        time.sleep(0.2)
        busy = verdicts()
    finally:
        stop.set()
        for burner in burners:
            burner.join()
    assert busy == idle


def test_a_failing_search_is_shown_as_a_board_and_its_positions_as_moves(graded):
    result = graded("buggy/depth_off_by_one.py")
    check = next(c for c in result.checks if c.name == "minimax-expanded")
    example = check.counterexample
    assert "1" in example.picture and "2" in example.picture and "#" in example.picture
    assert "to move" in example.picture and "[[" not in example.picture
    assert "<svg" in example.svg and example.svg.count("<circle") == 2
    assert "it should not (after (" in check.message and ") then (" in check.message
    assert "blocked" not in check.message  # never the board's internal data


def test_an_unknown_board_operation_is_one_line(tmp_path):
    import shutil

    from grader.judging import exercise as exercises

    folder = tmp_path / "aind-copy"
    shutil.copytree(SAMPLES.parents[2] / "exercises" / "aind-isolation", folder)
    toml = (folder / "exercise.toml").read_text()
    (folder / "exercise.toml").write_text(toml.replace('id = "aind-isolation"', 'id = "aind-copy"')
                                          .replace('forecast_move = "forecast"', 'forecast_move = "predict"'))
    with pytest.raises(exercises.ExerciseError, match=r"forecast_move = 'predict': one of"):
        exercises.load("aind-copy", [tmp_path]).hooks


def test_a_game_is_judged_on_the_grader_s_own_board(tmp_path):
    """A player that makes the child's copy of the rules say the game is over gets nothing for the game."""
    from grader.doors import api

    text = (SAMPLES / "correct/textbook.py").read_text(encoding="utf-8")
    liar = tmp_path / "liar.py"
    liar.write_text(text + (
        "\n\n_honest = MinimaxPlayer.get_move\n\n\n"
        "def _claim(self, game, time_left):\n"
        "    move = _honest(self, game, time_left)\n"
        "    for cell in type(game).get_legal_moves.__closure__:\n"
        "        rules = cell.cell_contents\n"
        "        if hasattr(rules, 'moves_for'):\n"
        "            rules.moves_for = lambda state, seat: []\n"
        "    return move\n\n\nMinimaxPlayer.get_move = _claim\n"), encoding="utf-8")
    result = api.check(liar, "aind-isolation")
    plays = next((c for c in result.checks if c.name == "minimax-plays"), None)
    # Either the seal sees the driver's rules changed (the whole submission zeroed) or the game is judged
    # on the grader's own board, which is still being played.
    assert (plays is None and "tampered" in (result.error or "") and result.score == 0) or plays.status == "failed", (
        result.error, plays)


def test_a_game_the_grader_s_board_has_not_finished_fails(exercise):
    """The game check reads the grader's own board: the child saying "over" is not enough."""
    from grader.judging.bank import Case
    from grader.judging.checks import Outcome
    from grader.sandbox.harness import encode_answer

    hooks = exercise.hooks
    raw_case = next(c for c in hooks.fixture_cases(exercise.fixtures_path) if c["group"] == "minimax-game")
    case = Case(**raw_case)
    spec = next(s for s in exercise.checks if s.kind == "game")
    unfinished = {"answer": encode_answer({"game": "over"}), "trace": {"events": [], "game": [],
                                                                       "final": raw_case["input"]["state"]}}
    assert "left unfinished" in hooks.check_game(Outcome(case, unfinished, {"kind": "game"}), spec)
    state = hooks.state_of(raw_case["input"])
    while hooks.rules.moves_for(state, hooks.rules.to_move(state)):
        state = hooks.rules.result(state, hooks.rules.moves_for(state, hooks.rules.to_move(state))[0])
    finished = {**unfinished, "trace": {**unfinished["trace"], "final": hooks.rules.encode(state)}}
    assert hooks.check_game(Outcome(case, finished, {"kind": "game"}), spec) is None


def test_scores_read_as_looking_ahead_are_said_where_a_search_scored_too_few(tmp_path):
    """The 121st helper's search stopped one level short: it asked the score function four times and was told it
    "scored 0 positions". Scores asked above the depth limit are read as looks ahead to sort the moves; the message
    now says how many there were and how they were read."""
    from grader.doors import api

    source = (SAMPLES / "buggy" / "depth_off_by_one.py").read_text(encoding="utf-8")
    assert "return depth < 0 or" in source
    short = tmp_path / "one_short.py"
    short.write_text(source.replace("return depth < 0 or", "return depth <= 1 or"), encoding="utf-8")
    result = api.check(short, "aind-isolation")
    message = next(c.message for c in result.checks if c.name == "minimax-scored")
    assert "scored 0 positions where a correct minimax scored" in message
    assert "scored above the depth limit count as looking ahead to sort the moves" in message


def test_a_search_the_board_stops_is_told_it_was_the_grader_s_board(graded):
    """A search that never reads the clock is stopped by the grader's board, through a ValueError out of the board's
    method: "raised ValueError: stopped: the clock ran out ..." read as the student's own error (the 121st helper)."""
    result = graded("buggy/timer_checked_only_at_root.py")
    messages = " ".join(c.message or "" for c in result.checks)
    assert "the grader's board stopped your search" in messages
    # Its count is from time_left() reaching 0, said so: "the clock ran out" is where it fell below the threshold,
    # 51 calls in here, and a report said "went on for 111 more" beside "stopped 100 calls after the clock ran out"
    assert "recorded calls after the clock ran out, it had not" not in messages
    ran_out = re.search(r"the clock ran out after (\d+) recorded calls, but the search never read it again and went on "
                        r"for (\d+) more", messages)
    stopped = re.search(r"time_left\(\) had reached 0 (\d+) recorded calls before", messages)
    assert ran_out and stopped, messages[:600]
    # 60 ms on the clock, TIMER_THRESHOLD 10: below it after 51 calls, at 0 after 60, stopped some 100 later
    assert int(ran_out.group(1)) < 60 < int(ran_out.group(1)) + int(ran_out.group(2)) - int(stopped.group(1)) < 70
