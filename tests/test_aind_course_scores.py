"""Every score function the grader hands an isolation player is one the student can import at home.

The 125th helper replayed aind-isolation's own example at home, with the course's modules that ``show --starter``
writes, and got another answer: reports said ``score_fn=center_score`` while the grader's "center" score was not the
course's ``sample_players.center_score``. Now each score a task names is ``sample_players.<name>_score``, the same
function over the course's ``Board``: checked here value for value on positions of random games, and on the
statement's example, replayed at home as a student would."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ["aind-isolation", "aind-isolation-custom-player"]


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _course(exercise_id: str):
    folder = ROOT / "exercises" / exercise_id
    declaration = tomllib.loads((folder / "exercise.toml").read_text(encoding="utf-8"))
    rules = _module(folder / declaration["agent"]["rules"], f"_rules_{exercise_id.replace('-', '_')}")
    isolation = _module(folder / "course" / "isolation.py", f"_isolation_{exercise_id.replace('-', '_')}")
    players = _module(folder / "course" / "sample_players.py", f"_players_{exercise_id.replace('-', '_')}")
    scores = {task["score"] for task in declaration["agent"]["tasks"] if task.get("score")}
    return rules, isolation, players, scores


class _Seat:
    """A player object for the course's Board (it keys players by identity)."""


def _state(board, first, second, rules):
    """The rules' plain position for a course Board."""
    blank = set(board.get_blank_spaces())
    blocked = tuple(sorted((r, c) for r in range(board.height) for c in range(board.width) if (r, c) not in blank))
    where = tuple(None if board.get_player_location(p) in (None, (-1, -1)) else tuple(board.get_player_location(p))
                  for p in (first, second))
    return rules.decode(rules.encode((blocked, where, 0 if board.active_player is first else 1)))


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_score_a_task_names_is_in_sample_players_and_gives_the_grader_s_values(exercise_id):
    rules, isolation, players, scores = _course(exercise_id)
    assert scores, "no task names a score: nothing to check"
    rng = random.Random(125)
    compared = 0
    for name in sorted(scores):
        at_home = getattr(players, f"{name}_score", None)
        assert at_home is not None, f"reports say score_fn={name}_score, which sample_players does not define"
        for _ in range(30):  # random games to their end
            first, second = _Seat(), _Seat()
            board = isolation.Board(first, second)
            while True:
                state = _state(board, first, second, rules)
                for seat, player in enumerate((first, second)):
                    assert at_home(board, player) == rules.SCORES[name](state, seat), (name, state, seat)
                    compared += 1
                legal = board.get_legal_moves()
                if not legal:
                    break
                board.apply_move(rng.choice(legal))
    assert compared > 1000


def _best_moves(board, player, depth, score):
    """Every move a plain depth-limited minimax over the course's Board may answer (ties kept)."""
    def value(game, depth_left):
        legal = game.get_legal_moves()
        if depth_left == 0 or not legal:
            return score(game, player)
        values = [value(game.forecast_move(m), depth_left - 1) for m in legal]
        return max(values) if game.active_player is player else min(values)

    values = {move: value(board.forecast_move(move), depth - 1) for move in board.get_legal_moves()}
    best = max(values.values())
    return {move for move, v in values.items() if v == best}


def test_the_statement_s_example_replays_at_home_with_the_course_s_modules():
    """What the helper did: the example of ``show aind-isolation``, on the course's Board with the score the call names."""
    shown = subprocess.run([sys.executable, "-m", "grader", "show", "aind-isolation"], capture_output=True, text=True,
                           timeout=120, cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    call = re.search(r"as (MinimaxPlayer\(search_depth=(\d+), score_fn=(\w+), [^)]*\))\.minimax\(game, (\d+)\)", shown.stdout)
    answer = re.search(r"A correct solution answers \((\d+), (\d+)\) here", shown.stdout)
    assert call and answer, shown.stdout[-1500:]
    rules, isolation, players, _ = _course("aind-isolation")
    rows = [line for line in shown.stdout.splitlines() if re.match(r"^\s+\d  (?:[.#12] ?){7}$", line)]
    assert len(rows) == 7, rows
    first, second = _Seat(), _Seat()
    board = isolation.Board(first, second)
    for r, line in enumerate(rows):
        for c, mark in enumerate(line.split()[1:]):
            if mark != ".":
                board._blocked.add((r, c))
            if mark in "12":
                board._where[id(first if mark == "1" else second)] = (r, c)
    to_move = re.search(r"player (\d) to move", shown.stdout).group(1)
    if to_move == "2":
        board._active_player, board._inactive_player = second, first
    me = board.active_player
    best = _best_moves(board, me, int(call.group(4)), getattr(players, call.group(3)))
    assert (int(answer.group(1)), int(answer.group(2))) in best, (best, answer.group(0))
