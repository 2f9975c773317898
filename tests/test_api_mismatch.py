"""Code written against another API gets status error and one line, for every exercise and kind.

The samples live in ``fixtures/api-mismatch/<exercise>/``: each reads what its exercise does
not provide (node attributes, dict keys), calls helpers under other names, puts the function in
a class, or takes other parameters. Without ``grader/judging/api_mismatch.py`` most of them are FAILED
reports with the same crash in every check.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.doors import api

SUBMISSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "submissions"
API_SAMPLES = SUBMISSIONS.parent / "api-mismatch"  # beside submissions/, whose samples are pinned in expected.toml

# (exercise, sample, what the line must say it used, a provided helper it must name, the call it must show)
CASES = [
    ("ctp-26", "node_attributes.py", "node.value", "get_value(node)", "minimax(node, max_depth, player_a_moves)"),
    ("ctp-26", "dict_keys.py", 'node["children"]', "get_next_valid_moves(node)", "minimax(node, max_depth, player_a_moves)"),
    ("ctp-26", "other_helper_names.py", "get_children(...)", "get_next_valid_moves(node)", "minimax(node, max_depth, player_a_moves)"),
    ("ctp-26", "method_of_class.py", "Solver.minimax", "get_value(node)", "minimax(node, max_depth, player_a_moves)"),
    ("ctp-26", "extra_parameter.py", "minimax(node, depth, max_depth, player_a_moves)", "get_value(node)",
     "minimax(node, max_depth, player_a_moves)"),
    ("alphabeta", "node_attributes.py", "node.value", "get_value(node)", "alphabeta(node, max_depth, alpha, beta, player_a_moves)"),
    ("alphabeta", "dict_keys.py", 'node["children"]', "get_value(node)", "alphabeta(node, max_depth, alpha, beta, player_a_moves)"),
    ("alphabeta", "other_helper_names.py", "successors(...)", "get_next_valid_moves(node)",
     "alphabeta(node, max_depth, alpha, beta, player_a_moves)"),
    ("alphabeta", "method_of_class.py", "AlphaBetaPlayer.alphabeta", "get_value(node)",
     "alphabeta(node, max_depth, alpha, beta, player_a_moves)"),
    ("alphabeta", "other_parameters.py", "alphabeta(node, max_depth, player_a_moves)", "get_value(node)",
     "alphabeta(node, max_depth, alpha, beta, player_a_moves)"),
    ("tictactoe", "state_attributes.py", "state.board", "empty_cells(state)", "minimax(state, depth, player)"),
    ("tictactoe", "dict_keys.py", 'state["board"]', "game_over(state)", "minimax(state, depth, player)"),
    ("tictactoe", "other_helper_names.py", "free_cells(...)", "empty_cells(state)", "minimax(state, depth, player)"),
    ("tictactoe", "method_of_class.py", "TicTacToe.minimax", "evaluate(state)", "minimax(state, depth, player)"),
    ("tictactoe", "other_parameters.py", "minimax(state, depth, player, alpha, beta)", "evaluate(state)",
     "minimax(state, depth, player)"),
    ("best-move", "state_attributes.py", "s.children", "generate_valid_moves(player, state)", "best_move(player, state)"),
    ("best-move", "dict_keys.py", 'state["moves"]', "apply(state, move)", "best_move(player, state)"),
    ("best-move", "other_helper_names.py", "get_moves(...)", "generate_valid_moves(player, state)", "best_move(player, state)"),
    ("best-move", "method_of_class.py", "MinimaxAgent.best_move", "is_terminal(state)", "best_move(player, state)"),
    ("best-move", "other_parameters.py", "best_move(player, state, depth)", "next_player(player)", "best_move(player, state)"),
    ("aima-isolation", "state_attributes.py", "gameState.board", "get_legal_moves()", "terminal_test(gameState)"),
    ("aima-isolation", "dict_keys.py", 'gameState["moves"]', "forecast_move(move)", "terminal_test(gameState)"),
    ("aima-isolation", "other_helper_names.py", "legal_moves(...)", "get_legal_moves()", "min_value(gameState)"),
    ("aima-isolation", "method_of_class.py", "MinimaxHelpers.min_value", "get_legal_moves()", "min_value(gameState)"),
    ("aima-isolation", "extra_depth_parameter.py", "min_value(gameState, depth)", "get_legal_moves()", "min_value(gameState)"),
    # The kit exercises: the helpers and the call are read from exercise.toml's [student] table.
    ("nim", "state_attributes.py", "state.heaps", "moves(state)", "minimax(state, maximizing)"),
    ("nim", "dict_keys.py", 'state["heaps"]', "play(state, move)", "minimax(state, maximizing)"),
    ("nim", "other_helper_names.py", "terminal_test(...)", "game_over(state)", "minimax(state, maximizing)"),
    ("nim", "method_of_class.py", "NimPlayer.minimax", "winner(state)", "minimax(state, maximizing)"),
    ("nim", "other_parameters.py", "minimax(state, depth, maximizing)", "moves(state)", "minimax(state, maximizing)"),
    ("connect-four", "state_attributes.py", "state.is_over", "valid_moves(state)",
     "alphabeta(state, depth, alpha, beta, player)"),
    ("connect-four", "dict_keys.py", 'state["board"]', "drop(state, move)", "alphabeta(state, depth, alpha, beta, player)"),
    ("connect-four", "other_helper_names.py", "get_valid_locations(...)", "game_over(state)",
     "alphabeta(state, depth, alpha, beta, player)"),
    ("connect-four", "method_of_class.py", "AlphaBetaAgent.alphabeta", "score(state)",
     "alphabeta(state, depth, alpha, beta, player)"),
    ("connect-four", "other_parameters.py", "alphabeta(state, depth, player)", "valid_moves(state)",
     "alphabeta(state, depth, alpha, beta, player)"),
]


@pytest.mark.parametrize("exercise, sample, used, helper, call", CASES, ids=[f"{c[0]}/{c[1]}" for c in CASES])
def test_an_api_mismatch_is_one_error_line(exercise, sample, used, helper, call):
    result = api.check(API_SAMPLES / exercise / sample, exercise)
    assert result.status == "error", [(c.name, c.status, c.message) for c in result.checks]
    line = result.error
    assert "\n" not in line
    assert used in line and helper in line and call in line, line
    assert result.checks == []  # not the same crash repeated in every check


def test_every_kind_has_a_sample_for_every_exercise():
    kinds = {"attributes", "dict_keys", "other_helper_names", "method_of_class", "param"}
    for exercise in ("ctp-26", "alphabeta", "tictactoe", "best-move", "aima-isolation", "nim", "connect-four"):
        names = {p.stem for p in (API_SAMPLES / exercise).glob("*.py")}
        found = {k for k in kinds if any(k in n for n in names)}
        assert found == kinds, (exercise, names)


def test_a_real_crash_is_still_a_failed_report():
    """An IndexError on every case is the student's own bug, not another API: the checks stay."""
    result = api.check(SUBMISSIONS / "bad" / "minimax_raises.py", "ctp-26")
    assert result.status == "failed" and result.checks


def test_the_line_reads_the_source_without_running_it(tmp_path):
    from grader.judging import api_mismatch, exercise

    ctp26 = exercise.load("ctp-26")
    source = tmp_path / "s.py"
    source.write_text("import os\nclass A:\n    def minimax(self, n, d, p):\n        os.system('echo no')\n", encoding="utf-8")
    line = api_mismatch.explain_load_error(ctp26, [source], "the submission defines no function named minimax")
    assert line.startswith("found A.minimax, a method of class A, where a function minimax is due")


def test_a_crash_on_some_inputs_only_stays_a_failed_check(tmp_path):
    """An undefined name reached only on the published tree (every published case crashes, the
    other checks' cases do not) is a bug in some cases, not another API."""
    source = tmp_path / "published_tree_only.py"
    source.write_text(
        "def minimax(node, max_depth, player_a_moves):\n"
        "    moves = get_next_valid_moves(node)\n"
        "    if node.is_root and node.name == 'Move Y' and len(moves) == 2 and len(moves[0].children) == 3:\n"
        "        return helper_never_written(node)\n"
        "    if max_depth == 0 or not moves:\n"
        "        return get_value(node)\n"
        "    values = [minimax(m, max_depth - 1, not player_a_moves) for m in moves]\n"
        "    return max(values) if player_a_moves else min(values)\n", encoding="utf-8")
    result = api.check(source, "ctp-26")
    assert result.status == "failed" and result.checks


def _nim_copy(tmp_path, helpers: str):
    """nim, copied into an instructor's folder with its [student.helpers] table replaced."""
    import re
    import shutil

    from grader.judging import exercise

    folder = tmp_path / "mine" / "nim-copy"
    shutil.copytree(exercise.load("nim").folder, folder)
    toml = (folder / "exercise.toml").read_text(encoding="utf-8").replace('id = "nim"', 'id = "nim-copy"')
    toml = re.sub(r"\[student\.helpers\][^\[]*", "[student.helpers]\n" + helpers + "\n\n", toml)
    (folder / "exercise.toml").write_text(toml, encoding="utf-8")
    return exercise.load("nim-copy", [tmp_path / "mine"])


def test_a_kit_exercise_says_the_api_its_declaration_gives(tmp_path):
    """Nothing per exercise: a copy of nim with other helper names and an unfixed player gets its own words."""
    from grader.judging import api_mismatch

    copy = _nim_copy(tmp_path, 'legal = "actions"\nafter = "result"\nover = "is_terminal"\n'
                               'value_for = "utility"\nwhose_turn = "to_move"')
    assert api_mismatch.provides_of(copy) == ["legal(state)", "after(state, move)", "over(state)",
                                             "value_for(state, maximizing)", "whose_turn(state)"]
    assert api_mismatch.calls_of(copy) == ["minimax(state, maximizing)"]
    sample = tmp_path / "uses_nims_names.py"  # nim's own helper names are not provided by the copy
    sample.write_text((API_SAMPLES / "nim" / "method_of_class.py").read_text(encoding="utf-8")
                      .replace("class NimPlayer:\n    def minimax(self, ", "def minimax(")
                      .replace("self.minimax(", "minimax(").replace("\n    ", "\n"), encoding="utf-8")
    result = api.check(sample, "nim-copy", exercises_dir=[tmp_path / "mine"])
    assert result.status == "error" and result.checks == [], result.error
    assert "game_over(...)" in result.error and "over(state)" in result.error and "legal(state)" in result.error


def test_a_standard_module_the_sandbox_could_not_load_is_not_blamed_on_the_file(tmp_path):
    """A grader running as root, with a Python other users cannot read, drops the child to a throw-away uid that
    can import only what was loaded for it first: a ``logging`` the child could not load is the machine's limit,
    said as such; a module the course handed out (``board``) is still the file's own import to remove."""
    from grader.judging import api_mismatch, exercise

    ctp26 = exercise.load("ctp-26")
    source = tmp_path / "s.py"
    source.write_text("import logging\nimport board\n", encoding="utf-8")
    standard = api_mismatch.explain_load_error(ctp26, [source], "ModuleNotFoundError: No module named 'logging'")
    handed_out = api_mismatch.explain_load_error(ctp26, [source], "ModuleNotFoundError: No module named 'board'")
    assert standard.startswith("your file imports logging (import logging (line 1)), a standard module that the "
                               "grader's sandbox could not load on this machine")
    assert "not a mistake in your code" in standard and "This exercise provides get_value(node)" in standard
    assert handed_out.startswith("your file imports board (import board (line 2)), a module this exercise does not have")
