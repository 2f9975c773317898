"""Defects met when instructors declared new games from the README's guide, one test each.

Every exercise here is a small Nim declared in a temporary folder and graded through the public API.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

NIM = '''
PLAYERS = ("MAX", "MIN")


def start_positions():
    return [((1, 2, 3), "MAX"), ((2, 2, 1), "MIN")]


def to_move(state):
    return state[1]


def actions(state):
    heaps = state[0]
    return [(h, n) for h, size in enumerate(heaps) for n in range(1, size + 1)]


def result(state, move):
    heaps, player = state
    h, n = move
    return heaps[:h] + (heaps[h] - n,) + heaps[h + 1:], "MIN" if player == "MAX" else "MAX"


def is_terminal(state):
    return not any(state[0])


def utility(state, player):
    return -1 if to_move(state) == player else +1


def render(state):
    return "\\n".join(f"heap {i}: " + "I " * size for i, size in enumerate(state[0]))
'''


def make_exercise(base: Path, exercise_id: str, toml: str, game: str = NIM, positions: dict | None = None) -> Path:
    folder = base / exercise_id
    (folder / "positions").mkdir(parents=True)
    (folder / "nimgame.py").write_text(game, encoding="utf-8")
    (folder / "exercise.toml").write_text(f'id = "{exercise_id}"\n' + textwrap.dedent(toml), encoding="utf-8")
    for name in ("statement.md", "starter.py"):
        (folder / name).write_text("", encoding="utf-8")
    if positions is not None:
        import json

        (folder / "positions" / "hand.json").write_text(json.dumps(positions), encoding="utf-8")
    return base


def grade(base: Path, exercise_id: str, source: str, name: str = "student.py"):
    from grader.doors import api

    path = base / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return api.check(path, exercise_id, exercises_dir=[base])


# -- 1. a group's filters hold for what the shrinker and the localisation ask ---------------------------

BEST_MOVE = '''
title = "nim best move"
statement = "statement.md"
starter = "starter.py"
fixtures = "positions"
random_examples = 0

[game]
module = "nimgame.py"
positions = "random"

[game.groups.open]
terminal = false

[student]
function = "best_move"
returns = "move"

[student.arguments]
state = "state"

[student.helpers]
moves = "actions"
play = "result"
game_over = "is_terminal"
whose = "to_move"
winner = { op = "utility", player = "max" }

[[checks]]
name = "best-moves"
title = "an optimal move"
kind = "move"
groups = ["open"]
points = 3.0
'''

SWAPPED_BEST_MOVE = '''
def value(state):
    if game_over(state):
        return winner(state)
    values = [value(play(state, m)) for m in moves(state)]
    return min(values) if whose(state) == "max" else max(values)


def best_move(state):
    pick = max if whose(state) == "max" else min  # raises on a finished game: never asked here
    return pick(moves(state), key=lambda m: value(play(state, m)))
'''


def test_a_group_of_unfinished_positions_is_shrunk_and_localised_among_unfinished_positions(tmp_path):
    base = make_exercise(tmp_path, "nim-best", BEST_MOVE)
    result = grade(base, "nim-best", SWAPPED_BEST_MOVE)
    check = next(c for c in result.checks if c.name == "best-moves")
    assert check.status == "failed" and check.counterexample.shrunk
    assert "raised" not in check.message and "not an optimal move" in check.message, check.message
    assert any(check.counterexample.input["state"][0]), check.counterexample.input  # not a finished game
    assert "missing-terminal-check" not in [m.code for m in result.mistakes]


# -- 8. a hand-made case that fails is shown as itself ---------------------------------------------------

VALUE = '''
title = "nim value"
statement = "statement.md"
starter = "starter.py"
fixtures = "positions"
random_examples = 0

[game]
module = "nimgame.py"
positions = "reachable"

[student]
function = "value"
returns = "value"

[student.arguments]
state = "state"
player = "player"

[student.players]
max = true
min = false

[student.helpers]
moves = "actions"
play = "result"
game_over = "is_terminal"
winner = { op = "utility", player = "max" }

[[checks]]
name = "hand-made"
title = "the value of each hand-made position"
kind = "value"
groups = ["fixtures"]
points = 1.0

[[checks]]
name = "values"
title = "the value of every reachable position"
kind = "value"
groups = ["reachable"]
points = 2.0
'''

HAND = {"positions": [{"name": "three-heaps", "state": [[1, 2, 3], "MAX"], "value": -1}]}

SEVEN = '''
def value(state, player):
    return 7
'''


def test_a_failing_hand_made_position_is_the_counterexample_itself(tmp_path):
    base = make_exercise(tmp_path, "nim-value", VALUE, positions=HAND)
    result = grade(base, "nim-value", SEVEN)
    checks = {c.name: c for c in result.checks}
    hand, generated = checks["hand-made"], checks["values"]
    assert hand.status == "failed" and not hand.counterexample.shrunk
    assert hand.counterexample.input == {"state": [[1, 2, 3], "MAX"]}
    assert hand.counterexample.expected == "-1" and "worth -1" in hand.message
    assert generated.counterexample.shrunk  # generated cases still shrink


# -- 3. a deep hand-made position leaves the other cases to name the mistake ----------------------------

TAKE_TWO = NIM.replace('return [((1, 2, 3), "MAX"), ((2, 2, 1), "MIN")]', 'return [((9, 9, 9), "MAX")]').replace(
    "for n in range(1, size + 1)]", "for n in range(1, min(size, 2) + 1)]") + '''

def evaluate(state, player):
    return len([h for h in state[0] if h]) % 2 * (1 if player == to_move(state) else -1)
'''

DEPTH_LIMITED = '''
title = "nim, depth-limited"
statement = "statement.md"
starter = "starter.py"
fixtures = "positions"
random_examples = 0

[game]
module = "nimgame.py"
positions = "reachable"
cap = 200
depths = [1, 2, 3, 4]

[student]
function = "minimax"
returns = "value"

[student.arguments]
state = "state"
depth = "depth"
player = "player"

[student.players]
max = true
min = false

[student.helpers]
moves = "actions"
play = "result"
game_over = "is_terminal"
winner = { op = "utility", player = "max" }
evaluate = { op = "evaluate", player = "max" }

[[checks]]
name = "values"
title = "values"
kind = "value"
groups = ["fixtures", "reachable"]
points = 1.0
'''

SWAPPED_MEMO = '''
from functools import lru_cache


def minimax(state, depth, player):
    return _search(state, depth, player)


@lru_cache(maxsize=None)
def _search(state, depth, player):
    if game_over(state):
        return winner(state)
    if depth == 0:
        return evaluate(state)
    values = [_search(play(state, m), depth - 1, not player) for m in moves(state)]
    return min(values) if player else max(values)
'''


def test_a_position_too_deep_to_predict_does_not_switch_naming_off(tmp_path):
    from grader.kit.search import VARIANT_NODE_BUDGET, Searcher
    from grader.kit.game import load_module, Game

    deep = {"positions": [{"name": "deep", "state": [[9, 9, 9], "MAX"], "depth": 20}]}
    base = make_exercise(tmp_path, "nim-deep", DEPTH_LIMITED, game=TAKE_TWO, positions=deep)
    game = Game(load_module(base / "nim-deep" / "nimgame.py", "_deep_nim"))
    with pytest.raises(Exception, match="min-max-swapped"):  # the premise: beyond a family's budget
        Searcher(game).variant_value("min-max-swapped", ((9, 9, 9), "MAX"), 20)
    assert VARIANT_NODE_BUDGET < 10_000
    result = grade(base, "nim-deep", SWAPPED_MEMO)
    assert result.status == "failed"
    assert [m.code for m in result.mistakes] == ["min-max-swapped"], [(m.code, m.evidence) for m in result.mistakes]


# -- 4. course-style rules: utility(state) and evaluate(state) give MAX's value --------------------------

COURSE_NIM = NIM.replace('''def utility(state, player):
    return -1 if to_move(state) == player else +1''', '''def utility(state):
    return -1 if to_move(state) == "MAX" else +1  # player 0's value, as the course writes it''')

RIGHT_BEST_MOVE = SWAPPED_BEST_MOVE.replace("return min(values) if", "return max(values) if").replace(
    "else max(values)", "else min(values)")


def test_rules_giving_max_value_without_a_player_are_graded(tmp_path):
    base = make_exercise(tmp_path, "nim-course", BEST_MOVE, game=COURSE_NIM)
    result = grade(base, "nim-course", RIGHT_BEST_MOVE)
    assert result.status == "passed", (result.error, [(c.name, c.message) for c in result.checks])
    wrong = grade(base, "nim-course", SWAPPED_BEST_MOVE, "swapped.py")
    assert wrong.status == "failed" and wrong.error is None and "not an optimal move" in wrong.checks[0].message


@pytest.mark.parametrize("rule, words", [
    ("def utility(state, player, depth):\n    return 0", r"utility\(state, player, depth\) in the game module: expected "
                                                       r"utility\(state, player\) .* or utility\(state\)"),
    ("def utility():\n    return 0", r"expected utility\(state, player\)"),
    ("def result(state):\n    return state", r"result\(state\) cannot be called as result\(state, action\)"),
])
def test_a_rule_with_another_signature_is_one_line_at_load_and_at_new_exercise(tmp_path, rule, words):
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError
    from grader.kit.scaffold import ScaffoldError, scaffold

    game = NIM + "\n\n" + rule + "\n"
    base = make_exercise(tmp_path, "nim-broken", BEST_MOVE, game=game)
    with pytest.raises(ExerciseError, match=words) as raised:
        exercise.load("nim-broken", [base]).hooks
    assert "\n" not in str(raised.value)
    with pytest.raises(ScaffoldError, match=words):
        scaffold("again", base / "nim-broken" / "nimgame.py", tmp_path / "made")


# -- 5. a check that cannot fail is a declaration error ------------------------------------------------

@pytest.mark.parametrize("returns, kind, words", [
    ("value", "move", r'^nim-vacuous: \[\[checks\]\] probe: kind = "move" cannot fail, since \[student\] returns = value alone'),
    ("move", "value", r'kind = "value" cannot fail, since \[student\] returns = move alone'),
    ("(value, move)", "unchanged", r'kind = "unchanged" cannot fail, since the student is handed a position that cannot'),
])
def test_a_check_that_cannot_fail_is_refused_in_one_line(tmp_path, returns, kind, words):
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError

    toml = BEST_MOVE.replace('returns = "move"', f'returns = "{returns}"') + f'''
[[checks]]
name = "probe"
title = "probe"
kind = "{kind}"
points = 1.0
'''
    toml = toml.replace('kind = "move"\ngroups = ["open"]', 'kind = "answers"\ngroups = ["open"]')
    base = make_exercise(tmp_path, "nim-vacuous", toml)
    with pytest.raises(ExerciseError, match=words) as raised:
        exercise.load("nim-vacuous", [base]).hooks
    assert "\n" not in str(raised.value)


def test_a_misspelt_group_is_refused_in_one_line_not_skipped(tmp_path):
    """Found by an outsider: ``groups = ["fixtures", "unfinishd"]`` loaded, the check was skipped on every
    run ("this run asked no unfinishd") and its points left the maximum, so a buggy file scored full marks."""
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError

    assert 'groups = ["open"]' in BEST_MOVE
    base = make_exercise(tmp_path, "nim-typo", BEST_MOVE.replace('groups = ["open"]', 'groups = ["fixtures", "opne"]'))
    with pytest.raises(ExerciseError, match=r"^nim-typo: \[\[checks\]\] \S+: groups names 'opne', which is neither "
                                            r"a kit group nor a \[game.groups.NAME\] table \(known: fixtures, "
                                            r"reachable, random, open\)$") as raised:
        exercise.load("nim-typo", [base]).hooks
    assert "\n" not in str(raised.value)
    assert exercise.load("nim-typo", [make_exercise(tmp_path / "right", "nim-typo", BEST_MOVE)]).hooks is not None


def test_exercises_says_which_of_the_instructors_exercises_cannot_be_graded(tmp_path):
    """Found by an outsider: ``exercises`` listed a declaration that could not load, with no complaint; the
    first error came from the first ``show`` or ``check``."""
    import subprocess
    import sys

    make_exercise(tmp_path, "nim-good", BEST_MOVE)
    make_exercise(tmp_path, "nim-typo", BEST_MOVE.replace('groups = ["open"]', 'groups = ["opne"]'))
    listed = subprocess.run([sys.executable, "-m", "grader", "exercises", "--exercises-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=300)
    assert listed.returncode == 1, listed.stdout + listed.stderr
    lines = listed.stdout.splitlines()
    typo = next(i for i, line in enumerate(lines) if line.startswith("nim-typo "))
    assert lines[typo + 1].split() [:3] == ["cannot", "be", "graded:"] and "'opne'" in lines[typo + 1]
    good = next(i for i, line in enumerate(lines) if line.startswith("nim-good "))
    assert good + 1 == len(lines) or not lines[good + 1].lstrip().startswith("cannot be graded")
    assert any(line.startswith("ctp-26 ") for line in lines)  # the built-ins are still listed


# -- 6. stale or wrong texts ----------------------------------------------------------------------------

def test_a_stated_value_that_is_not_the_references_is_one_line_at_load(tmp_path):
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError

    wrong = {"positions": [{"name": "three-heaps", "state": [[1, 2, 3], "MAX"], "value": 1}]}
    base = make_exercise(tmp_path, "nim-stated", VALUE, positions=wrong)
    with pytest.raises(ExerciseError, match=r"^nim-stated: the hand-made position hand/three-heaps states value 1, "
                                            r"but it is worth -1 by the game's rules") as raised:
        exercise.load("nim-stated", [base]).hooks
    assert "\n" not in str(raised.value)
    right = make_exercise(tmp_path / "right", "nim-stated", VALUE, positions=HAND)
    assert exercise.load("nim-stated", [right]).hooks is not None


def test_a_line_of_words_is_drawn_as_text_and_marks_as_discs():
    from grader.kit import pictures

    drawn = pictures.svg("| X . O |\nplayer 1 to move")
    assert ">player 1 to move</text>" in drawn and ">p</text>" not in drawn
    assert drawn.count("<circle") == 2  # the X and the O of the grid line


def test_a_player_written_as_a_number_is_named_player_n(tmp_path):
    game = NIM.replace('PLAYERS = ("MAX", "MIN")', 'PLAYERS = (0, 1)').replace('"MAX"', "0").replace('"MIN"', "1")
    toml = VALUE.replace("max = true\nmin = false", "max = 0\nmin = 1")
    base = make_exercise(tmp_path, "nim-numbers", toml, game=game)
    from grader.judging import exercise

    hooks = exercise.load("nim-numbers", [base]).hooks
    assert hooks.caption({"state": [[1, 2, 3], 0]}) == "player 0 (MAX) to move"
    assert hooks.caption({"state": [[1, 2, 3], 1]}) == "player 1 (MIN) to move"


def test_after_editing_student_show_states_and_stubs_the_declaration_as_it_is_now(tmp_path):
    import subprocess
    import sys

    game = tmp_path / "nimgame.py"
    game.write_text(NIM, encoding="utf-8")

    def grader(*args):
        return subprocess.run([sys.executable, "-m", "grader", *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300)

    assert grader("new-exercise", "nimc", "--game", "nimgame.py", "--dir", "ex").returncode == 0
    toml = tmp_path / "ex" / "nimc" / "exercise.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text[:text.index("[student]")] + textwrap.dedent('''
        [student]
        function = "best_move"
        returns = "(value, move)"

        [student.arguments]
        position = "state"

        [student.helpers]
        moves = "actions"
        play = "result"
        over = "is_terminal"
        winner = { op = "utility", player = "max" }
        '''), encoding="utf-8")
    shown = grader("show", "nimc", "--exercises-dir", "ex", "--starter", "home")
    assert shown.returncode == 0, shown.stderr
    assert "Write `best_move(position)`" in shown.stdout and "`moves(position)`" in shown.stdout
    assert "`actions(state)`" not in shown.stdout and "`minimax(" not in shown.stdout
    assert "check --exercises-dir ex --exercise nimc home/nimc.py" in shown.stdout
    stub = (tmp_path / "home" / "nimc.py").read_text(encoding="utf-8")
    assert "def best_move(position):" in stub and "def minimax(" not in stub
    ran = subprocess.run([sys.executable, "nimc.py"], cwd=tmp_path / "home", capture_output=True, text=True, timeout=60)
    assert "NotImplementedError: write best_move here" in ran.stderr, ran.stderr  # the stub runs, unwritten

    # The files students are given stay stale until asked (show only prints) ...
    folder = tmp_path / "ex" / "nimc"
    assert "minimax(" in (folder / "statement.md").read_text(encoding="utf-8")
    plain = grader("show", "nimc", "--exercises-dir", "ex")
    assert "check a submission with: minimax-grader check --exercises-dir ex --exercise nimc FILE.py" in plain.stdout
    # ... and --rewrite writes both from the declaration as it is now; a second run has nothing to write.
    rewritten = grader("show", "nimc", "--exercises-dir", "ex", "--rewrite")
    assert rewritten.returncode == 0, rewritten.stderr
    assert "rewritten from exercise.toml" in rewritten.stderr and "statement.md" in rewritten.stderr
    statement = (folder / "statement.md").read_text(encoding="utf-8")
    assert "Write `best_move(position)`" in statement and "`minimax(" not in statement
    starter = (folder / "starter.py").read_text(encoding="utf-8")
    assert "def best_move(position):" in starter and "minimax" not in starter and "(value, move)" not in starter
    assert "rewritten" not in grader("show", "nimc", "--exercises-dir", "ex", "--rewrite").stderr


def test_the_starter_stand_ins_ask_course_style_rules_as_they_are_written(tmp_path):
    import subprocess
    import sys

    from grader.doors import student_door
    from grader.judging import exercise

    base = make_exercise(tmp_path, "nim-course", BEST_MOVE, game=COURSE_NIM)
    written = student_door.write_starter(exercise.load("nim-course", [base]), tmp_path / "home")
    asked = "import nim_course as m; print(m.winner(((0, 0, 0), 'MIN')), m.winner(((0, 0, 0), 'MAX')))"
    ran = subprocess.run([sys.executable, "-c", asked], cwd=written.parent, capture_output=True, text=True, timeout=60)
    assert ran.stdout.split() == ["1", "-1"], ran.stderr


# -- 10. the interface story in one line, read from the source with ast -----------------------------------

RIGHT_VALUE = '''
def value(state, player):
    if game_over(state):
        return winner(state)
    values = [value(play(state, m), not player) for m in moves(state)]
    return max(values) if player else min(values)
'''


@pytest.mark.parametrize("source, words", [
    ("from board import *\n" + RIGHT_VALUE,
     r"^your file imports board \(from board import \* \(line 1\)\), a module this exercise does not have: .*"
     r"this exercise provides moves\(state\), play\(state, move\), game_over\(state\) and winner\(state\), "
     r"and the grader calls value\(state, player\)$"),
    ("import game_types\n" + RIGHT_VALUE, r"^your file imports game_types \(import game_types \(line 1\)\)"),
    (RIGHT_VALUE + "\nwhile True:\n    heaps = input('heaps? ')\n    print(value(heaps, True))\n",
     r"^your file asks for input\(\) when it is loaded \(line 9\), and the grader has no keyboard: put the game loop "
     r"under `if __name__ == \"__main__\":`"),
    (RIGHT_VALUE + "\n\ndef play_game():\n    print(input('move? '))\n\n\nplay_game()\n",
     r"^your file asks for input\(\) when it is loaded \(line 10\)"),
    (RIGHT_VALUE.replace("def value(state, player):", "def value(player, state):").replace(
        "value(play(state, m), not player)", "value(not player, play(state, m))"),
     r"^value\(player, state\) takes its parameters in another order than the grader passes them: "
     r"the grader calls value\(state, player\)$"),
])
def test_a_file_written_for_another_setting_is_told_in_one_line(tmp_path, source, words):
    base = make_exercise(tmp_path, "nim-value", VALUE, positions=HAND)
    result = grade(base, "nim-value", source)
    assert result.status == "error" and result.error is not None
    assert len(result.error.splitlines()) == 1 and re.search(words, result.error), result.error
    assert grade(base, "nim-value", RIGHT_VALUE, "right.py").status == "passed"


def test_new_exercise_offers_depth_counts_for_a_game_with_extra_turns_and_says_the_players_values(tmp_path):
    """Found by an outsider: new-exercise said nothing of depth_counts for a game with extra turns, and the
    statement's to_move helper said "as this course writes it" without saying how."""
    import tomllib

    from grader.judging import exercise
    from grader.kit.scaffold import scaffold
    from grader.kit.student_api import interface_text

    twin = exercise.load("twin-heaps")
    made = scaffold("twins", twin.kit.game_path, tmp_path)
    toml = (made / "exercise.toml").read_text(encoding="utf-8")
    assert tomllib.loads(toml)["game"]["depth_counts"] == "plies"
    connect = exercise.load("connect-four")  # players alternate: nothing to choose
    assert "depth_counts" not in (scaffold("c4", connect.kit.game_path, tmp_path) / "exercise.toml").read_text()
    assert "- `player(state)`: the player to move: `0` for MAX, `1` for MIN" in interface_text(twin.kit.decl)


# -- a view handed over (state_view) with the game's operations as the helpers ------------------------

VIEWED_NIM = NIM + '''

def evaluate(state, player):
    return (sum(state[0]) % 3 - 1) / 4 * (1 if to_move(state) == player else -1)


def as_list(state):
    return [state[0], state[1]]


def as_lists(state):
    return [list(state[0]), state[1]]
'''

# DEPTH_LIMITED's declaration with the helpers under other names, the state handed as a list, and two more checks
VIEWED = DEPTH_LIMITED.replace('returns = "value"\n', 'returns = "value"\nstate_view = "as_list"\n').replace(
    "winner = {", "utility = {").replace("evaluate = { op", "heuristic = { op") + '''
[[checks]]
name = "leaves"
title = "scores the leaves"
kind = "evaluations"
points = 1.0

[[checks]]
name = "left-alone"
title = "the state is left as it was"
kind = "unchanged"
points = 1.0
'''

PLAYS_WITH_PLAY = '''
def minimax(state, depth, maximizing):
    if game_over(state):
        return utility(state)
    if depth == 0:
        return heuristic(state)
    values = [minimax(play(state, m), depth - 1, not maximizing) for m in moves(state)]
    return max(values) if maximizing else min(values)
'''

PLAYS_ON_THE_VIEW = '''
def minimax(state, depth, maximizing):
    # plays each move on the list it was handed, and takes it back: nothing of the grader's play()
    if game_over(state):
        return utility(state)
    if depth == 0:
        return heuristic(state)
    values = []
    for h, n in moves(state):
        heaps, who = state
        state[0], state[1] = heaps[:h] + (heaps[h] - n,) + heaps[h + 1:], ("MIN" if who == "MAX" else "MAX")
        values.append(minimax(state, depth - 1, not maximizing))
        state[0], state[1] = heaps, who
    return max(values) if maximizing else min(values)
'''


def test_a_search_handed_a_view_is_known_at_the_root_of_its_search(tmp_path):
    """The student holds the view (``state_view``), not the state: a search over the game's operations, started
    from the view, evaluated only positions "never handed" (the view was no position the driver knew), and a
    correct search lost its evaluations check (the hundred and twenty-seventh helper's misere game)."""
    base = make_exercise(tmp_path, "nim-viewed", VIEWED, game=VIEWED_NIM)
    result = grade(base, "nim-viewed", PLAYS_WITH_PLAY)
    assert result.score == result.max_score, [(c.name, c.message) for c in result.checks]


def test_a_view_changed_in_place_is_evaluated_as_what_it_holds(tmp_path):
    """A search that plays its moves on the view and takes them back is asked what the changed view holds (as
    the stand-ins at home answer it), never the position the view was handed as: its values are right."""
    base = make_exercise(tmp_path, "nim-viewed", VIEWED, game=VIEWED_NIM)
    result = grade(base, "nim-viewed", PLAYS_ON_THE_VIEW)
    checks = {c.name: c for c in result.checks}
    assert checks["values"].status == "passed", checks["values"].message
    assert checks["left-alone"].status == "passed", checks["left-alone"].message


def test_a_view_the_games_operations_cannot_take_is_refused_in_one_line(tmp_path):
    from grader.judging import exercise
    from grader.judging.exercise import ExerciseError

    base = make_exercise(tmp_path, "nim-viewed", VIEWED.replace('"as_list"', '"as_lists"'), game=VIEWED_NIM)
    with pytest.raises(ExerciseError, match=r"state_view = 'as_lists': the game's actions and result are called "
                                            r"with the view, and they raised TypeError") as raised:
        exercise.load("nim-viewed", [base]).hooks
    assert "\n" not in str(raised.value)


# -- the two scores a depth-limited search stops on, each written wrong alone -----------------------------

LIMITED_NIM = VIEWED.replace('state_view = "as_list"\n', "").split("[[checks]]\nname = \"left-alone\"")[0]

# PLAYS_WITH_PLAY with one line wrong: the one who took the last counter taken for the winner
FINISHED_GAME_TURNED_ROUND = PLAYS_WITH_PLAY.replace("return utility(state)", "return -utility(state)")
# ... and with no end test: a finished game at the limit gets the heuristic, above it max() of no moves crashes
NO_END_TEST = PLAYS_WITH_PLAY.replace("    if game_over(state):\n        return utility(state)\n", "")
assert FINISHED_GAME_TURNED_ROUND != PLAYS_WITH_PLAY and "game_over" not in NO_END_TEST


@pytest.mark.parametrize("source, code, words", [
    (FINISHED_GAME_TURNED_ROUND, "sign-flip", "The score of a finished game has the wrong sign"),
    (NO_END_TEST, "missing-terminal-check", ""),
])
def test_a_mistake_in_one_of_the_two_scores_a_search_stops_on_is_named(tmp_path, source, code, words):
    """A finished game's score turned round while the heuristic is right (``-utility``), and a search with no end
    test, which scores a finished game at the depth limit with the heuristic and crashes on one above it: both were
    ``no-known-mistake`` (the 127th helper's misere class), the kit's families turning every leaf's sign, or scoring
    a finished game by its utility at the limit."""
    base = make_exercise(tmp_path, "nim-limited", LIMITED_NIM, game=VIEWED_NIM)
    result = grade(base, "nim-limited", source)
    assert result.mistakes and result.mistakes[0].code == code, [(m.code, m.evidence) for m in result.mistakes]
    assert words in result.mistakes[0].explanation


def test_the_html_board_carries_the_caption_the_text_picture_ends_with(tmp_path):
    """Whose turn, the depth left, or that the game is over and its score: the text picture ends with it, and the
    HTML report showed the board alone, the caption folded into "the same position as text" (the 127th helper)."""
    import html

    from grader import report

    base = make_exercise(tmp_path, "nim-limited", LIMITED_NIM, game=VIEWED_NIM)
    result = grade(base, "nim-limited", FINISHED_GAME_TURNED_ROUND)
    drawn = next(c.counterexample for c in result.checks if c.counterexample is not None)
    caption = drawn.picture.splitlines()[-1]
    assert "to move" in caption or "the game is over" in caption, drawn.picture
    assert f">{html.escape(caption)}</text>" in drawn.svg
    assert f">{html.escape(caption)}</text>" in report.render(result, "html")


def test_a_search_that_loops_only_where_no_check_asks_is_asked_the_rest(tmp_path):
    """Its first two hand-made positions are finished games, where this search loops (it searches again until it
    finds a move); the cases left are asked again, the smallest one a check reads first. The smallest case left was
    a finished game too, no check's, and the grader stopped there: the values check, over unfinished positions
    only, lost every case it reads (0/3 where the grader before the probe gave 2/3; the 128th helper's review)."""
    hand = {"positions": [
        {"name": "over-1", "state": [[0, 0, 0], "MAX"], "value": -1},
        {"name": "over-2", "state": [[0, 0], "MIN"], "value": 1},
        {"name": "three-heaps", "state": [[1, 2, 3], "MAX"], "value": -1},
    ]}
    toml = VALUE.replace('positions = "reachable"\n', 'positions = "reachable"\n\n[game.groups.open]\nterminal = false\n')
    toml = toml.replace('groups = ["reachable"]', 'groups = ["open"]')
    assert 'groups = ["open"]' in toml
    base = make_exercise(tmp_path, "nim-value", toml, positions=hand)
    result = grade(base, "nim-value", """
        def search(state, player):
            if game_over(state):
                return winner(state), None
            best = None
            for m in moves(state):
                v, _ = search(play(state, m), not player)
                if best is None or (v > best[0] if player else v < best[0]):
                    best = (v, m)
            return best


        def value(state, player):
            while True:  # searches again until a move is found: never, where the game is already over
                v, move = search(state, player)
                if move is not None:
                    return v
        """)
    checks = {c.name: c for c in result.checks}
    assert checks["values"].status == "passed", checks["values"].message


OBJECT_VIEWED_NIM = NIM.replace("def to_move(state):\n    return state[1]", '''
class Board:
    def __init__(self, heaps, player):
        self.heaps, self.player = tuple(heaps), player


def as_board(state):
    return Board(state[0], state[1])


def _plain(state):
    return (state.heaps, state.player) if isinstance(state, Board) else state


def encode(state):
    heaps, player = _plain(state)
    return [list(heaps), player]


def to_move(state):
    return _plain(state)[1]''').replace("heaps = state[0]\n", "heaps = _plain(state)[0]\n").replace(
    "heaps, player = state\n    h, n", "heaps, player = _plain(state)\n    h, n").replace(
    "return not any(state[0])", "return not any(_plain(state)[0])") + '''

def evaluate(state, player):
    return (sum(_plain(state)[0]) % 3 - 1) / 4 * (1 if to_move(state) == player else -1)
'''


def test_an_object_view_changed_in_place_is_evaluated_as_what_it_holds(tmp_path):
    """A view that is an object (the game's ``encode`` reads it): a snapshot of the object itself shows only its
    identity, so a search that changed its attributes got the root's values (0/2 where the grader before the view
    was registered gave 2/2; the 128th helper's review). What it holds is read as the game encodes it."""
    toml = VIEWED.replace('"as_list"', '"as_board"').split('[[checks]]\nname = "leaves"')[0]
    assert "as_board" in toml and "evaluations" not in toml
    base = make_exercise(tmp_path, "nim-board", toml, game=OBJECT_VIEWED_NIM)
    # PLAYS_ON_THE_VIEW, on the board's attributes instead of the list's items
    on_the_board = PLAYS_ON_THE_VIEW.replace("heaps, who = state\n", "heaps, who = state.heaps, state.player\n").replace(
        "state[0], state[1] =", "state.heaps, state.player =")
    assert "state[0]" not in on_the_board
    result = grade(base, "nim-board", on_the_board)
    assert result.score == result.max_score, [(c.name, c.message) for c in result.checks]


def test_a_declared_games_cases_are_positions_unless_it_says_otherwise(tmp_path):
    """With no ``input_noun`` in exercise.toml a Nim counterexample was "a tree on which it goes wrong"."""
    from grader.judging import exercise

    base = make_exercise(tmp_path, "nim-limited", LIMITED_NIM, game=VIEWED_NIM)
    assert "input_noun" not in LIMITED_NIM and exercise.load("nim-limited", [base]).input_noun == "position"
    result = grade(base, "nim-limited", FINISHED_GAME_TURNED_ROUND)
    assert {c.counterexample.noun for c in result.checks if c.counterexample is not None} == {"position"}
    assert exercise.load("ctp-26").input_noun == "tree"
