"""An agent-class exercise an instructor declared from the docs alone (the 130th helper): Connect-3 on a 4x3 board,
MinimaxAgent and AlphaBetaAgent over a board object, with a class of ten students in the styles a course gets.

The course is ``fixtures/courses/connect3`` (its rules score positions by ``open_lines`` alone: no "improved"
score, as the helper first wrote it) and the class ``fixtures/courses/connect3-class``. What the helper met there
and what each test pins:

- every correct student was told "tampered with the result channel": the full-game task's greedy opponent looked
  up ``SCORES["improved"]`` in the grading process, which raised while answering the child's question. A game
  task's ``score`` now names what the opponent plays by, and a score a task names (or "improved", where it names
  none) that the rules lack is one line when the exercise loads;
- a misspelt task key did nothing at all; ``show --starter`` of an exercise without a starter was a traceback.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from grader.doors import api
from grader.judging import exercise as exercises

COURSE = ROOT / "fixtures" / "courses"
CLASS = COURSE / "connect3-class"


def check(name: str, course=COURSE):
    return api.check(CLASS / f"{name}.py", "connect3", exercises_dir=[course])


@pytest.mark.parametrize("name", ["alice", "bob", "carol"])
def test_a_correct_agent_gets_every_point_where_the_rules_have_no_improved_score(name):
    result = check(name)
    assert result.error is None, result.error
    assert result.status == "passed" and result.score == result.max_score == 19.5, [
        (c.name, c.message) for c in result.checks if c.score < c.max_score]


def _course_copy(tmp_path, edit) -> list:
    target = tmp_path / "courses"
    shutil.copytree(COURSE / "connect3", target / "connect3", ignore=shutil.ignore_patterns("__pycache__"))
    toml = target / "connect3" / "exercise.toml"
    toml.write_text(edit(toml.read_text(encoding="utf-8")), encoding="utf-8")
    return [target]


def test_a_score_the_rules_lack_is_one_line_when_the_exercise_loads(tmp_path):
    # the game task without score = plays its opponent by "improved", which connect3.py does not define
    text = (COURSE / "connect3" / "exercise.toml").read_text(encoding="utf-8")
    game_task = text.index('kind = "game"')
    edited = text[:game_task].rsplit('score = "open_lines"\n', 1)
    dirs = _course_copy(tmp_path, lambda _: "".join(edited) + text[game_task:])
    with pytest.raises(exercises.ExerciseError) as raised:
        exercises.load("connect3", dirs).agent
    said = str(raised.value)
    assert "minimax-game" in said and "'improved'" in said and "open_lines" in said and "\n" not in said, said


def test_a_misspelt_task_key_is_one_line(tmp_path):
    dirs = _course_copy(tmp_path, lambda text: text.replace('group = "custom-score"\n',
                                                            'group = "custom-score"\nscore_function = "x"\n', 1))
    with pytest.raises(exercises.ExerciseError) as raised:
        exercises.load("connect3", dirs).agent
    assert "score_function" in str(raised.value) and "custom-score" in str(raised.value)


def test_show_starter_without_a_starter_is_one_line(tmp_path):
    done = subprocess.run([sys.executable, "-m", "grader", "show", "connect3", "--exercises-dir", str(COURSE),
                           "--starter", str(tmp_path / "mine")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    error = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert error and "has no starter" in error[0], done.stderr


def test_a_move_played_on_the_board_it_was_handed_is_said_in_board_words():
    """frank plays his chosen move on the board he was handed: the rubric's unchanged checks fail, in words about a
    board (they spoke of a tree's nodes, names and attributes)."""
    result = check("frank")
    lost = {c.name: c.message for c in result.checks if c.score < c.max_score}
    assert set(lost) == {"minimax-board-unchanged", "alphabeta-board-unchanged"}, lost
    for message in lost.values():
        assert "the board was different after the call (a move was played on it" in message, message
        assert "tree" not in message and "nodes" not in message, message


@pytest.mark.parametrize("name, code", [
    ("lena", "no-move-with-moves"),     # (-1, -1) where every move loses: was illegal-move ("a cell you work out")
    ("erin", "depth-not-decremented"),  # no depth limit: was over-pruning, for the leaves at the limit it missed
    ("dave", "min-max-swapped"),        # min and max swapped below the root: was over-pruning (it pruned less)
    ("kurt", "no-known-mistake"),       # the first legal move, no search: was over-pruning, then min-max-swapped
])
def test_the_mistake_named_is_the_one_made(name, code):
    result = check(name)
    assert result.status == "failed"
    assert [m.code for m in result.mistakes][:1] == [code], [(m.code, m.evidence[:200]) for m in result.mistakes]


def test_a_search_looping_in_one_class_is_graded_on_the_other(monkeypatch):
    """ivan's MinimaxAgent loops (a while loop on the depth), his AlphaBetaAgent is right. He got 0: every request
    for the rest began with two more looping minimax cases, so the alpha-beta cases were never asked, and the
    mistake was named from checks never run. Now cases whose checks have all failed are not asked again (the order
    of the rest is tested in test_not_run, with a fake session). At the course's own 5 s a call the CPU limit's
    default of 30 s also killed the process: that part is the next test's (here the call limit is 1 s)."""
    monkeypatch.setenv("MINIMAX_GRADER_CALL_TIMEOUT", "1")
    result = check("ivan")
    assert result.error is None, result.error
    passed = {c.name for c in result.checks if c.score == c.max_score}
    assert {"alphabeta-interface", "alphabeta-move", "alphabeta-scored", "alphabeta-no-moves",
            "alphabeta-timeout", "alphabeta-board-unchanged", "custom-score"} <= passed, passed
    assert result.score == 11.5
    assert [m.code for m in result.mistakes] == ["does-not-finish"], [(m.code, m.evidence) for m in result.mistakes]
    cut_short = int(result.mistakes[0].evidence.split(" of ", 1)[0])
    assert cut_short == 2, result.mistakes[0].evidence  # the first pass's two: nothing asked again could change


def test_the_cpu_limit_follows_the_submissions_time_unless_given():
    assert exercises.load_limits({}).cpu_seconds == 30
    assert exercises.load_limits({"submission_timeout": 60.0}).cpu_seconds == 60
    assert exercises.load_limits({"submission_timeout": 10.0}).cpu_seconds == 30
    assert exercises.load_limits({"submission_timeout": 60.0, "cpu_seconds": 20}).cpu_seconds == 20


def test_an_illegal_move_is_called_illegal_not_suboptimal():
    """gina returns the top cell of the column, not where the disc lands: the move checks said "not an optimal
    move", the mistake was no-known-mistake, and the full game's counterexample called {'game': 'illegal'} "a right
    answer on its own"."""
    result = check("gina")
    moves = next(c for c in result.checks if c.name == "minimax-move")
    assert "which is not a legal move in this position (the legal moves: " in moves.message, moves.message
    assert [m.code for m in result.mistakes][:1] == ["illegal-move"], [m.code for m in result.mistakes]
    game = next(c for c in result.checks if c.name == "minimax-plays")
    assert game.counterexample is not None and not game.counterexample.answer_right


def test_an_import_error_says_how_the_grader_calls_the_agents():
    result = check("hank")
    assert result.status == "error"
    assert ("the grader calls MinimaxAgent(search_depth, score_fn, timeout) with .minimax(game, depth) and "
            ".get_move(game, time_left), AlphaBetaAgent(search_depth, score_fn, timeout) with .alphabeta(game, depth) "
            "and custom_score(game, player)") in result.error, result.error
    assert "AlphaBetaAgent()" not in result.error


def test_the_declared_interface_is_no_evidence_of_copying():
    """dave is alice with one call changed; hank wrote his own stub of the same declared classes (the exception,
    the constructor's keywords, the methods the tasks call, custom_score). With no starter to discount, the
    interface alone put hank in alice and dave's cluster at 0.57 (the 130th helper's class of five); the
    declaration's skeleton is now discounted, and its names kept, as a starter's are."""
    from grader.similarity import sources
    from grader.similarity.clusters import find_near_duplicates

    exercise = exercises.load("connect3", [COURSE])
    assert {"MinimaxAgent", "alphabeta", "legal_moves", "forecast", "search_depth", "SearchTimeout",
            "custom_score"} <= sources.vocabulary(exercise)
    texts = {name: (CLASS / f"{name}.py").read_text(encoding="utf-8") for name in ("alice", "dave", "hank")}
    found = find_near_duplicates(texts, sources.exercise_texts(exercise), sources.vocabulary(exercise))
    assert [c["students"] for c in found] == [["alice", "dave"]], found


def test_the_text_board_says_whose_turn_it_is():
    result = check("gina")
    drawn = next(c.counterexample for c in result.checks if c.counterexample is not None)
    assert drawn.picture.splitlines()[-1] in ("player 1 to move", "player 2 to move"), drawn.picture


def test_the_drivers_board_properties_are_the_declarations():
    """The sandbox's driver imports nothing of the grader's, so it keeps its own list of the operations that are
    properties; the grader's (the declared skeleton's) must say the same."""
    import ast

    from grader.kit import agent_declaration

    source = (ROOT / "grader" / "kit" / "agent_driver.py").read_text(encoding="utf-8")
    found = next(node.value for node in ast.parse(source).body if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "_OPS_PROPERTIES" for t in node.targets))
    assert ast.literal_eval(found) == agent_declaration.OPS_PROPERTIES


def test_an_import_error_on_aind_isolation_names_every_call_within_the_line(tmp_path):
    """One form per method ran past the error's 600 characters there, ending mid-word (the 134th helper)."""
    source = tmp_path / "imports.py"
    source.write_text("from isolation_board import Board\n", encoding="utf-8")
    result = api.check(source, "aind-isolation")
    assert result.error.endswith("custom_score_2(game, player) and custom_score_3(game, player)"), result.error
