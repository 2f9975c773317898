"""A declared exercise outside the package: a game with mutable states, its own encoding, and the listing.

The game keeps its position in a dict with a list inside (so a student can change it), and
says how to turn it into plain data and back; the kit's driver snapshots exactly what the
position holds and the core's ``unchanged`` check catches a search that leaves it different.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

GAME = '''
PLAYERS = ("A", "B")


def start_positions():
    return [{"sticks": [5], "turn": "A"}, {"sticks": [4], "turn": "B"}]


def encode(state):
    return [state["sticks"][0], state["turn"]]


def decode(data):
    return {"sticks": [data[0]], "turn": data[1]}


def to_move(state):
    return state["turn"]


def actions(state):
    return [n for n in (1, 2) if n <= state["sticks"][0]]


def result(state, take):
    return {"sticks": [state["sticks"][0] - take], "turn": "B" if state["turn"] == "A" else "A"}


def is_terminal(state):
    return state["sticks"][0] == 0


def utility(state, player):
    return -1 if state["turn"] == player else 1
'''

TOML = '''
id = "sticks"
title = "sticks"
statement = "statement.md"
starter = "starter.py"
fixtures = "positions"
random_examples = 0

[game]
module = "sticks.py"

[student]
function = "value"
returns = "value"

[student.arguments]
state = "state"
me = "player"

[student.helpers]
moves = "actions"
after = "result"
over = "is_terminal"
score = { op = "utility", player = "max" }

[[checks]]
name = "values"
title = "values"
kind = "value"
groups = ["reachable"]
points = 2.0

[[checks]]
name = "untouched"
title = "the position is left as it was"
kind = "unchanged"
points = 1.0
'''

CORRECT = '''
def value(state, me):
    if over(state):
        return score(state)
    values = [value(after(state, m), "min" if me == "max" else "max") for m in moves(state)]
    return max(values) if me == "max" else min(values)
'''

MUTATES = CORRECT + '''

_inner = value


def value(state, me):
    answer = _inner(state, me)
    state["sticks"].append(0)  # leaves the position different
    return answer
'''


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    base = tmp_path_factory.mktemp("kit-folder")
    exercise = base / "sticks"
    (exercise / "positions").mkdir(parents=True)
    (exercise / "sticks.py").write_text(GAME, encoding="utf-8")
    (exercise / "exercise.toml").write_text(TOML, encoding="utf-8")
    for name in ("statement.md", "starter.py"):
        (exercise / name).write_text("", encoding="utf-8")
    (base / "correct.py").write_text(CORRECT, encoding="utf-8")
    (base / "mutates.py").write_text(MUTATES, encoding="utf-8")
    return base


def test_a_game_with_its_own_encoding_is_graded(folder):
    from grader.doors import api

    result = api.check(folder / "correct.py", "sticks", exercises_dir=[folder])
    assert result.status == "passed" and result.score == 3.0, [(c.name, c.message) for c in result.checks]


def test_a_search_that_changes_the_position_loses_the_unchanged_check(folder):
    from grader.doors import api

    result = api.check(folder / "mutates.py", "sticks", exercises_dir=[folder])
    checks = {c.name: c for c in result.checks}
    assert checks["values"].status == "passed" and checks["untouched"].status == "failed"
    assert "mutates-tree" in [m.code for m in result.mistakes]


def test_a_bad_declaration_is_one_line_naming_the_exercise(folder, tmp_path):
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "exercise.toml").write_text(TOML.replace('returns = "value"', 'returns = "score"'), encoding="utf-8")
    (broken / "sticks.py").write_text(GAME, encoding="utf-8")
    with pytest.raises(ExerciseError, match=r"^sticks: \[student\] returns = 'score'"):
        exercise.load("sticks", [broken]).hooks


def test_the_grader_lists_twelve_exercises():
    done = subprocess.run([sys.executable, "-m", "grader", "exercises"], capture_output=True, text=True, timeout=120)
    ids = {line.split()[0] for line in done.stdout.splitlines()}
    assert ids == {"ctp-26", "aima-isolation", "tictactoe", "best-move", "alphabeta", "nim", "connect-four",
                   "twin-heaps", "coin-row", "multiagent", "aind-isolation", "aind-isolation-custom-player"}
