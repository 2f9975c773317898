"""The student's door: ``show EXERCISE`` prints the statement with its example drawn, and
``--starter DIR`` writes a starter that runs at home (local stand-ins of the helpers); once
completed correctly, that very file gets full marks, the grader's helpers replacing the stand-ins."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader.doors import api

ROOT = Path(__file__).resolve().parent.parent

# A correct body for each exercise's function, as a student would write it into the starter.
COMPLETIONS = {
    "ctp-26": ("minimax", """
        def minimax(node, max_depth, player_a_moves):
            moves = get_next_valid_moves(node)
            if max_depth == 0 or not moves:
                return get_value(node)
            values = [minimax(m, max_depth - 1, not player_a_moves) for m in moves]
            return max(values) if player_a_moves else min(values)
        """, "= 7"),
    "alphabeta": ("alphabeta", """
        def alphabeta(node, max_depth, alpha, beta, player_a_moves):
            moves = get_next_valid_moves(node)
            if max_depth == 0 or not moves:
                return get_value(node)
            value = float("-inf") if player_a_moves else float("inf")
            for move in moves:
                score = alphabeta(move, max_depth - 1, alpha, beta, not player_a_moves)
                if player_a_moves:
                    value = max(value, score)
                    if value > beta:
                        return value
                    alpha = max(alpha, value)
                else:
                    value = min(value, score)
                    if value < alpha:
                        return value
                    beta = min(beta, value)
            return value
        """, "= 3"),
    "tictactoe": ("minimax", """
        def minimax(state, depth, player):
            if depth == 0 or game_over(state):
                return [-1, -1, evaluate(state)]
            best = [-1, -1, -2 if player == MAX else 2]
            for row, col in empty_cells(state):
                state[row][col] = player
                score = minimax(state, depth - 1, -player)[2]
                state[row][col] = 0
                if (player == MAX and score > best[2]) or (player == MIN and score < best[2]):
                    best = [row, col, score]
            return best
        """, "[0, 2, 1]"),
    "best-move": ("best_move", """
        def best_move(player, state):
            def value(p, s):
                if is_terminal(s):
                    return evaluate(s)
                scores = [value(next_player(p), apply(s, m)) for m in generate_valid_moves(p, s)]
                return min(scores) if p == 1 else max(scores)

            moves = generate_valid_moves(player, state)
            scores = [value(next_player(player), apply(state, m)) for m in moves]
            pick = min(scores) if player == 1 else max(scores)
            return moves[scores.index(pick)]
        """, "= 'b'"),
    # The kit exercises: the stand-ins are generated from exercise.toml, the rules written beside.
    "nim": ("minimax", """
        def minimax(state, maximizing):
            if game_over(state):
                return winner(state), None
            best = None
            for move in moves(state):
                value = minimax(play(state, move), not maximizing)[0]
                if best is None or (maximizing and value > best[0]) or (not maximizing and value < best[0]):
                    best = (value, move)
            return best
        """, "= (1, (1, 3))"),
    "connect-four": ("alphabeta", """
        def alphabeta(state, depth, alpha, beta, player):
            if game_over(state) or depth == 0:
                return [None, score(state)]
            best = [None, -math.inf if player == MAX else math.inf]
            for column in valid_moves(state):
                value = alphabeta(drop(state, column), depth - 1, alpha, beta, MIN if player == MAX else MAX)[1]
                if player == MAX:
                    if value > best[1]:
                        best = [column, value]
                    if best[1] > beta:
                        break
                    alpha = max(alpha, best[1])
                else:
                    if value < best[1]:
                        best = [column, value]
                    if best[1] < alpha:
                        break
                    beta = min(beta, best[1])
            return best
        """, "= [2, 100]"),
}


def _complete(path, function, body):
    """Replace the starter's stub of ``function`` with ``body`` (found with ast, as an editor would)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == function)
    start = node.lineno - 1 - len(node.decorator_list)
    lines[start:node.end_lineno] = [textwrap.dedent(body).lstrip("\n")]
    path.write_text("".join(lines), encoding="utf-8")


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.mark.parametrize("exercise_id", ["ctp-26", "alphabeta", "tictactoe", "best-move", "aima-isolation", "nim",
                                         "connect-four", "multiagent"])
def test_show_prints_the_statement_with_the_example_drawn(exercise_id):
    from grader.judging import exercise

    shown = _run("-m", "grader", "show", exercise_id)
    assert shown.returncode == 0, shown.stderr
    loaded = exercise.load(exercise_id)
    statement = (loaded.folder / "statement.md").read_text(encoding="utf-8")
    assert statement.splitlines()[0] in shown.stdout
    # The example is drawn with the same picture the reports use for a counterexample.
    assert "The example " in shown.stdout
    picture_line = shown.stdout.split("The example ", 1)[1].splitlines()[2].strip()
    assert picture_line and picture_line in "\n".join(
        loaded.hook("picture")(c["input"]) for c in loaded.hook("fixture_cases")(loaded.fixtures_path))


def test_the_ctp26_example_is_the_call_the_statement_quotes():
    shown = _run("-m", "grader", "show", "ctp-26").stdout
    assert "The example tree, as minimax(root, 2, True) sees it" in shown


@pytest.mark.parametrize("exercise_id", sorted(COMPLETIONS))
def test_a_completed_starter_runs_at_home_and_gets_full_marks(exercise_id, tmp_path):
    written = _run("-m", "grader", "show", exercise_id, "--starter", str(tmp_path))
    assert written.returncode == 0, written.stderr
    starter = tmp_path / f"{exercise_id.replace('-', '_')}.py"
    function, body, printed = COMPLETIONS[exercise_id]

    untouched = _run(str(starter), cwd=tmp_path)  # at home, before any work: the stub says so
    assert "NotImplementedError" in untouched.stderr and "NameError" not in untouched.stderr

    _complete(starter, function, body)
    at_home = _run(str(starter), cwd=tmp_path)
    assert at_home.returncode == 0, at_home.stderr
    assert printed in at_home.stdout

    result = api.check(starter, exercise_id)
    assert result.status == "passed", [(c.name, c.status, c.message) for c in result.checks] or result.error
    assert result.score == result.max_score


def test_stand_ins_never_decide_a_verdict(tmp_path):
    """Stand-ins that lie (every value 0) change nothing: the grader's helpers replace them per call."""
    _run("-m", "grader", "show", "ctp-26", "--starter", str(tmp_path))
    starter = tmp_path / "ctp_26.py"
    _complete(starter, "minimax", COMPLETIONS["ctp-26"][1])
    _complete(starter, "get_value", "def get_value(node):\n    return 0\n")
    assert api.check(starter, "ctp-26").status == "passed"


def test_the_starter_never_overwrites_work(tmp_path):
    (tmp_path / "ctp_26.py").write_text("# my work\n", encoding="utf-8")
    again = _run("-m", "grader", "show", "ctp-26", "--starter", str(tmp_path))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "ctp_26.py").read_text(encoding="utf-8") == "# my work\n"


def test_an_unknown_exercise_is_a_usage_error():
    shown = _run("-m", "grader", "show", "no-such-exercise")
    assert shown.returncode == 2 and shown.stderr.strip()


def test_a_scaffolded_exercise_gets_a_starter_that_runs_at_home(tmp_path):
    """An instructor's new exercise (``new-exercise --game``) gets the same door for free: the
    stand-ins come from its exercise.toml, the rules are written beside the starter, and the
    completed starter gets full marks with the grader's own helpers."""
    from grader.judging import exercise

    game = exercise.load("nim").folder / "nim.py"
    made = _run("-m", "grader", "new-exercise", "heaps", "--game", str(game), "--dir", "mine", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    home = tmp_path / "home"
    written = _run("-m", "grader", "show", "heaps", "--exercises-dir", "mine", "--starter", str(home), cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    starter = home / "heaps.py"
    assert (home / "heaps_rules.py").read_bytes() == game.read_bytes()
    untouched = _run(str(starter), cwd=home)
    assert "NotImplementedError" in untouched.stderr and "NameError" not in untouched.stderr

    _complete(starter, "minimax", """
        def minimax(state, player):
            if is_terminal(state):
                return utility(state), None
            best = None
            for move in actions(state):
                value = minimax(result(state, move), "MIN" if player == "MAX" else "MAX")[0]
                if best is None or (player == "MAX" and value > best[0]) or (player == "MIN" and value < best[0]):
                    best = (value, move)
            return best
        """)
    at_home = _run(str(starter), cwd=home)
    assert at_home.returncode == 0, at_home.stderr
    assert "minimax(EXAMPLE, 'MAX') = (" in at_home.stdout

    result = api.check(starter, "heaps", exercises_dir=[tmp_path / "mine"])
    assert result.status == "passed", [(c.name, c.status, c.message) for c in result.checks] or result.error
    assert result.score == result.max_score


def test_kit_stand_ins_never_decide_a_verdict(tmp_path):
    """A kit starter whose stand-ins lie (every game over, MIN always winning) still gets full
    marks: the kit's instrumented helpers replace them before every call."""
    _run("-m", "grader", "show", "nim", "--starter", str(tmp_path))
    starter = tmp_path / "nim.py"
    _complete(starter, "minimax", COMPLETIONS["nim"][1])
    _complete(starter, "winner", "def winner(state):\n    return -1\n")
    _complete(starter, "game_over", "def game_over(state):\n    return True\n")
    (tmp_path / "nim_rules.py").unlink()  # handed in alone, as a student does
    result = api.check(starter, "nim")
    assert result.status == "passed", [(c.name, c.status, c.message) for c in result.checks] or result.error


def test_a_kit_starter_never_overwrites_the_rules_beside_it(tmp_path):
    (tmp_path / "nim_rules.py").write_text("# my notes\n", encoding="utf-8")
    again = _run("-m", "grader", "show", "nim", "--starter", str(tmp_path))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "nim_rules.py").read_text(encoding="utf-8") == "# my notes\n"
    assert not (tmp_path / "nim.py").exists()


def test_stand_ins_follow_the_declaration_not_the_exercise(tmp_path):
    """A copy of nim whose helpers are declared otherwise (the player to move, a utility that takes
    the course's player) gets stand-ins with those very signatures, run at home and replaced when graded."""
    import re
    import shutil

    from grader.judging import exercise

    mine = tmp_path / "mine"
    shutil.copytree(exercise.load("nim").folder, mine / "nim-mine")
    toml = (mine / "nim-mine" / "exercise.toml").read_text(encoding="utf-8").replace('id = "nim"', 'id = "nim-mine"')
    toml = re.sub(r"\[student\.helpers\][^\[]*", "[student.helpers]\nlegal = \"actions\"\nafter = \"result\"\n"
                  "over = \"is_terminal\"\nvalue_for = \"utility\"\nwhose_turn = \"to_move\"\n\n", toml)
    (mine / "nim-mine" / "exercise.toml").write_text(toml, encoding="utf-8")
    home = tmp_path / "home"
    written = _run("-m", "grader", "show", "nim-mine", "--exercises-dir", str(mine), "--starter", str(home))
    assert written.returncode == 0, written.stderr
    starter = home / "nim_mine.py"
    text = starter.read_text(encoding="utf-8")
    assert "def value_for(state, maximizing):" in text and "def whose_turn(state):" in text
    _complete(starter, "minimax", """
        def minimax(state, maximizing):
            assert whose_turn(state) is maximizing
            if over(state):
                return value_for(state, True), None
            best = None
            for move in legal(state):
                value = minimax(after(state, move), not maximizing)[0]
                if best is None or (maximizing and value > best[0]) or (not maximizing and value < best[0]):
                    best = (value, move)
            return best
        """)
    at_home = _run(str(starter), cwd=home)
    assert at_home.returncode == 0, at_home.stderr
    assert "= (1, (1, 3))" in at_home.stdout
    result = api.check(starter, "nim-mine", exercises_dir=[mine])
    assert result.status == "passed", [(c.name, c.status, c.message) for c in result.checks] or result.error


@pytest.mark.parametrize("exercise_id, sample", [
    ("aind-isolation", "fixtures/submissions/aind-isolation/correct/textbook.py"),
    ("aind-isolation-custom-player", "fixtures/submissions/aind-isolation-custom-player/correct/textbook.py"),
])
def test_an_agent_starter_has_the_course_s_modules_beside_it_and_plays_at_home(exercise_id, sample, tmp_path):
    """The 121st helper: the aind-isolation starter did nothing when run (no ``__main__``) and ``import isolation``
    failed at home, where the sandbox has the course's modules. ``show --starter`` writes them beside it; the
    untouched starter stops at its first TODO, and a finished agent plays one game against the course's player."""
    written = _run("-m", "grader", "show", exercise_id, "--starter", str(tmp_path))
    assert written.returncode == 0, written.stderr
    starter = tmp_path / "game_agent.py"  # the project's own name for it, not one to rename (the 125th helper)
    assert starter.is_file() and sorted(p.name for p in tmp_path.glob("*.py")) == [
        "game_agent.py", "isolation.py", "sample_players.py"]
    untouched = _run(str(starter), cwd=tmp_path)
    assert "NotImplementedError" in untouched.stderr and "ModuleNotFoundError" not in untouched.stderr
    main = starter.read_text(encoding="utf-8").split('if __name__ == "__main__":', 1)[1]
    finished = tmp_path / "finished.py"
    finished.write_text((ROOT / sample).read_text(encoding="utf-8") + '\n\nif __name__ == "__main__":' + main,
                        encoding="utf-8")
    at_home = _run(str(finished), cwd=tmp_path)
    assert at_home.returncode == 0, at_home.stderr
    assert " after " in at_home.stdout and " moves (" in at_home.stdout
    assert api.check(finished, exercise_id).score == api.check(ROOT / sample, exercise_id).max_score
    again = _run("-m", "grader", "show", exercise_id, "--starter", str(tmp_path))  # never over the course's files
    assert again.returncode != 0 and "already exists" in again.stderr


@pytest.mark.parametrize("exercise_id, answer", [("ctp-26", "7"), ("tictactoe", "[0, 2, 1]"), ("aind-isolation", "(5, 2)"),
                                                ("twin-heaps", "0.3")])
def test_show_says_what_a_correct_solution_answers_to_the_example(exercise_id, answer):
    """The 121st helper: tictactoe's statement drew its example and never said what a right answer to it is; a
    student who has written their search wants to compare. The reference's answer, in the statement's shape."""
    shown = _run("-m", "grader", "show", exercise_id)
    assert shown.returncode == 0, shown.stderr
    assert f"A correct solution answers {answer} here." in shown.stdout
