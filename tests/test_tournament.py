"""Class tournaments (``minimax-grader tournament``): fair, sandboxed, reproducible, resumable.

The agents are real files played in real sandboxes (fixtures/tournament/connect-four/): a correct
alpha-beta, a weak one (one move ahead), a broken one (max and min swapped), one that crashes,
one that answers a column the board does not have, one that searches far past its budget and
one that kills its own process mid-game. The exercise is connect-four with a smaller
``[tournament]`` table (two baselines), copied into a folder of its own: an exercise only
declares its tournament.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.bulk import tournament
from grader.bulk.gradebook import Gradebook
from grader.judging import exercise as exercises
from grader.tournament import declaration, ratings, schedule

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "fixtures" / "tournament" / "connect-four"
SEED = 2025
SMALL = """
[tournament]
depth = 3
budget = 300
move_guard = 10.0
opening_moves = 2
games = 2
baselines = ["random", "alphabeta:2"]

[[tournament.thresholds]]
against = "random"
win_rate = 0.9
points = 2.0
"""


def small_exercise(folder: Path, table: str = SMALL) -> Path:
    """connect-four copied with its [tournament] table replaced (the same game, fewer baselines)."""
    target = folder / "connect-four"
    shutil.copytree(ROOT / "exercises" / "connect-four", target)
    text = (target / "exercise.toml").read_text()
    (target / "exercise.toml").write_text(text[:text.index("\n[tournament]")] + "\n" + table)
    return folder


def make_class(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        shutil.copy(AGENTS / f"{name}.py", folder / f"{name}.py")
    return folder


def play(klass: Path, exercises_dir: Path, out: Path, **options):
    return tournament.run([klass], "connect-four", out, seed=SEED, exercises_dirs=[exercises_dir], **options)


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


MIXED = ["correct", "weak", "crashing", "illegal", "overrun", "kills_itself"]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    base = tmp_path_factory.mktemp("tournament")
    exercises_dir = small_exercise(base / "exercises")
    klass = make_class(base / "class", MIXED)
    first = play(klass, exercises_dir, base / "first", round_robin=True, jobs=2)
    return {"base": base, "exercises": exercises_dir, "class": klass, "out": base / "first", "outcome": first}


# -- fair and reproducible ------------------------------------------------------------------------


def test_every_game_is_recorded_with_its_moves_budget_and_result(mixed):
    games = records(mixed["out"])
    pairs = len(MIXED) * 2 + len(MIXED) * (len(MIXED) - 1) // 2
    assert len(games) == pairs * 2 == mixed["outcome"].games and not mixed["outcome"].failures
    for game in games:
        assert game["moves"] and all(type(m["used"]) is int for m in game["moves"])
        assert game["result"]["draw"] or {game["result"]["winner"], game["result"]["loser"]} == set(game["pairing"])
    # Both sides of each opening: games 0 and 1 of a pairing start alike, with the agents swapped.
    by_id = {g["id"]: g for g in games}
    one, two = by_id["correct~random~0"], by_id["correct~random~1"]
    assert one["start"] == two["start"] and one["opening_moves"] == two["opening_moves"]
    assert (one["max"], one["min"]) == (two["min"], two["max"]) == ("correct", "random")


def test_a_crash_an_illegal_move_an_overrun_and_a_dead_process_lose_with_the_reason(mixed):
    games = records(mixed["out"])
    lost = {}
    for game in games:
        last = game["moves"][-1]
        if last.get("failure"):
            lost.setdefault(game["result"]["loser"], set()).add(last["failure"].split(" (")[0].split(":")[0])
    assert lost["crashing"] == {"raised ZeroDivisionError"}
    assert lost["illegal"] == {"illegal move 7"}
    assert lost["overrun"] == {"over budget"}
    assert "exited before answering" in lost["kills_itself"]
    assert "correct" not in lost and "weak" not in lost
    over = [m for g in games for m in g["moves"] if (m.get("failure") or "").startswith("over budget")]
    assert over and all(m["used"] == 301 for m in over)  # counted by the grader: refused from question 301 on
    # The opponent of a failing agent is never affected: a correct agent never loses to one.
    for game in games:
        if set(game["pairing"]) & {"crashing", "illegal", "overrun"} and "correct" in game["pairing"]:
            assert game["result"]["winner"] == "correct"


def test_same_seed_gives_identical_games_again_and_with_both_cores_kept_busy(mixed, tmp_path):
    again = play(mixed["class"], mixed["exercises"], tmp_path / "again", round_robin=True, jobs=3)
    assert again.played_now == again.games
    assert (tmp_path / "again" / "games.jsonl").read_bytes() == (mixed["out"] / "games.jsonl").read_bytes()
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        play(mixed["class"], mixed["exercises"], tmp_path / "busy", round_robin=True, jobs=2)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert (tmp_path / "busy" / "games.jsonl").read_bytes() == (mixed["out"] / "games.jsonl").read_bytes()
    assert (tmp_path / "busy" / "standings.csv").read_bytes() == (mixed["out"] / "standings.csv").read_bytes()


def test_a_different_seed_gives_other_openings(mixed, tmp_path):
    rules = exercises.load("connect-four", [mixed["exercises"]]).kit.game
    assert [schedule.opening(rules, SEED, j, 2) for j in range(4)] != [schedule.opening(rules, SEED + 1, j, 2)
                                                                       for j in range(4)]


def test_resume_after_a_kill_plays_only_the_missing_games(mixed, tmp_path):
    out = tmp_path / "killed"
    command = [sys.executable, "-m", "grader", "tournament", str(mixed["class"]), "--exercise", "connect-four",
               "--out", str(out), "--seed", str(SEED), "--round-robin", "--jobs", "1",
               "--exercises-dir", str(mixed["exercises"])]
    (tmp_path / "tmp").mkdir()  # its temporary folders, which a process killed leaves: here, not in /tmp
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env={**os.environ, "TMPDIR": str(tmp_path / "tmp")})
    journal = out / "games.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 6:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    kept = len([line for line in journal.read_text().splitlines() if line.strip()])
    total = mixed["outcome"].games
    assert 6 <= kept < total
    with open(journal, "a") as handle:
        handle.write('{"id": "half a line')  # what a kill in the middle of a write leaves
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({total - kept} played now, {kept} from games.jsonl)" in rerun.stderr
    assert journal.read_bytes() == (mixed["out"] / "games.jsonl").read_bytes()


# -- strength: ratings, win rates, rubric points --------------------------------------------------


@pytest.fixture(scope="module")
def strength(tmp_path_factory):
    base = tmp_path_factory.mktemp("strength")
    table = SMALL.replace('baselines = ["random", "alphabeta:2"]', 'baselines = ["random"]').replace("games = 2", "games = 10")
    exercises_dir = small_exercise(base / "exercises", table)
    klass = make_class(base / "class", ["correct", "weak", "broken"])
    outcome = play(klass, exercises_dir, base / "out", round_robin=True, jobs=2, lms=("canvas", "moodle"))
    return {"out": base / "out", "outcome": outcome}


def test_a_correct_alpha_beta_beats_random_in_at_least_90_percent(strength):
    cell = strength["outcome"].standings["table"][("correct", "random")]
    assert cell["games"] == 10 and cell["won"] / cell["games"] >= 0.9
    assert cell["low"] <= cell["rate"] <= cell["high"]


def test_the_broken_agent_is_ranked_last(strength):
    rows = strength["outcome"].standings["rows"]
    assert rows[-1]["agent"] == "broken"
    assert rows[0]["agent"] in ("correct", "weak")
    assert all(r["error"] > 0 for r in rows)
    ranked = [r["agent"] for r in rows]
    assert ranked.index("correct") < ranked.index("broken") and ranked.index("weak") < ranked.index("broken")


def test_rubric_points_go_to_the_gradebook_grades_and_lms_files(strength):
    out = strength["out"]
    with Gradebook(out / "gradebook.sqlite") as book:
        rows = dict(book.db.execute("SELECT result, status FROM results WHERE exercise = ?",
                                    ("connect-four:tournament",)).fetchall())
    results = {json.loads(r)["submission"].rsplit("/", 1)[-1]: json.loads(r) for r in rows}
    assert results["correct.py"]["score"] == 2.0 and results["correct.py"]["checks"][0]["name"] == "beats-random"
    assert results["broken.py"]["score"] == 0.0 and results["broken.py"]["status"] == "failed"
    assert "needed" in results["broken.py"]["checks"][0]["message"]
    grades = (out / "grades.csv").read_text(encoding="utf-8-sig")
    assert '"correct",2.0,2.0,"passed"' in grades and "beats-random" in grades
    canvas = (out / "canvas.csv").read_text()
    assert "connect-four:tournament" in canvas.splitlines()[0] and ",correct,," in canvas
    assert (out / "moodle.csv").exists()


def test_standings_csv_has_the_table_in_won_lost_cells(strength):
    lines = (strength["out"] / "standings.csv").read_text().splitlines()
    header = lines[0].split(",")
    assert header[:4] == ["rank", "agent", "baseline", "rating"] and "vs random (won|lost)" in header
    correct = next(line.split(",") for line in lines[1:] if line.split(",")[1] == "correct")
    won, lost = map(int, correct[header.index("vs random (won|lost)")].split("|"))
    assert won + lost <= 10 and won >= 9


# -- the pieces -------------------------------------------------------------------------------


def test_wilson_interval_and_bradley_terry():
    low, high = ratings.wilson(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17
    low, high = ratings.wilson(18, 20)
    assert 0.69 < low < 0.70 and 0.97 < high < 0.98
    games = [("a", "b", 1.0)] * 8 + [("a", "b", 0.0)] * 2 + [("b", "c", 1.0)] * 10
    fitted = ratings.bradley_terry(["a", "b", "c"], games)
    assert fitted["a"]["rating"] > fitted["b"]["rating"] > fitted["c"]["rating"]
    assert all(0 < f["error"] < 1000 for f in fitted.values())  # finite even for c, who never won


@pytest.mark.parametrize("table, words", [
    ('[tournament]\nbaselines = ["randm"]\n', "baseline 'randm'"),
    ('[tournament]\nbaselines = ["random"]\nbudget = 0\n', "budget = 0"),
    ('[tournament]\nbaselines = ["random"]\ncolour = 1\n', "unknown key(s) colour"),
    ('[tournament]\nbaselines = ["random"]\n[[tournament.thresholds]]\nagainst = "greedy"\nwin_rate = 0.5\npoints = 1\n',
     "'against' must name a baseline"),
])
def test_a_wrong_tournament_table_is_one_line(tmp_path, table, words):
    exercise = exercises.load("connect-four", [small_exercise(tmp_path, table)])
    with pytest.raises(declaration.TournamentError) as caught:
        declaration.read(exercise)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_an_exercise_without_a_tournament_is_refused_before_anything_is_written(tmp_path):
    plain = small_exercise(tmp_path / "exercises", table="")  # connect-four as it would be without its table
    result = subprocess.run([sys.executable, "-m", "grader", "tournament", str(AGENTS / "correct.py"), "--exercise",
                             "connect-four", "--exercises-dir", str(plain), "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "declares no [tournament] table" in result.stderr
    assert not (tmp_path / "out").exists()


def test_coin_row_declares_a_tournament_too(tmp_path):
    """The second exercise: a function returning "left" or "right", searched to the end of the game."""
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(ROOT / "fixtures/submissions/coin-row/correct/value_helper.py", klass / "value_helper.py")
    outcome = tournament.run([klass], "coin-row", tmp_path / "out", seed=SEED, games=4, jobs=2)
    assert outcome.games == 12 and not outcome.failures
    games = records(tmp_path / "out")
    assert {g["pairing"][1] for g in games} == {"random", "greedy", "minimax-end"}
    assert all(m["move"] in ("left", "right") for g in games for m in g["moves"])
    assert max(m["used"] for g in games for m in g["moves"] if m["by"] == ("max" if g["max"] == "value_helper" else "min")) > 0


# -- pages ------------------------------------------------------------------------------------


def test_leaderboard_agent_and_replay_pages_render_in_chromium(mixed, tmp_path):
    sys.path.insert(0, str(ROOT / "tests"))
    import browser

    browser.require_chromium()
    out = mixed["out"]
    shots = Path(os.environ.get("TOURNAMENT_SHOTS", tmp_path))
    board = browser.open_page(out / "leaderboard.html", width=1100, height=1100)
    assert board.console_errors == [] and board.requests == [] and not browser.looks_blank(board.screenshot)
    assert "correct" in board.text and "Won | lost" in board.text and "over budget: " in board.text
    (shots / "leaderboard.png").write_bytes(board.screenshot)
    sorted_page = browser.open_page(out / "leaderboard.html", script=(
        "document.querySelector('#standings th:nth-child(2) button').click();"
        "Array.from(document.querySelectorAll('#standings tbody tr td:nth-child(2)')).map(c => c.dataset.value)"))
    assert sorted_page.evaluated == sorted(sorted_page.evaluated)  # sorted by agent name
    agent = browser.open_page(out / "agents" / "correct.html")
    assert agent.console_errors == [] and agent.requests == [] and "Against each opponent" in agent.text
    replay_file = out / "replays" / "correct_random_1.html"
    replay = browser.open_page(replay_file, script=(
        "document.getElementById('first').click(); document.getElementById('next').click();"
        "[document.getElementById('where').textContent, document.querySelectorAll('#board circle').length]"))
    assert replay.console_errors == [] and replay.requests == [] and not browser.looks_blank(replay.screenshot)
    where, discs = replay.evaluated
    assert where.startswith("position 1 of ") and discs == 20  # the 5 x 4 board drawn, one move in
    (shots / "replay.png").write_bytes(replay.screenshot)
    html = replay_file.read_text()
    assert "<script src" not in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")


# -- the Dask executor --------------------------------------------------------------------------


def test_on_dask_the_games_are_the_same(mixed, tmp_path):
    pytest.importorskip("distributed")
    from grader.bulk.dask_cluster import DaskExecutor

    klass = make_class(tmp_path / "class", ["correct", "crashing"])
    local = play(klass, mixed["exercises"], tmp_path / "local", jobs=1)
    executor = DaskExecutor(jobs=2)
    on_dask = play(klass, mixed["exercises"], tmp_path / "dask", executor=executor)
    assert on_dask.played_now == local.played_now == 8
    assert (tmp_path / "dask" / "games.jsonl").read_bytes() == (tmp_path / "local" / "games.jsonl").read_bytes()


def test_an_instructors_agent_from_a_file_is_a_sandboxed_baseline(tmp_path):
    table = SMALL.replace('baselines = ["random", "alphabeta:2"]', 'baselines = ["random", "file:agents/strong.py"]')
    exercises_dir = small_exercise(tmp_path / "exercises", table)
    (exercises_dir / "connect-four" / "agents").mkdir()
    shutil.copy(AGENTS / "correct.py", exercises_dir / "connect-four" / "agents" / "strong.py")
    klass = make_class(tmp_path / "class", ["weak"])
    outcome = play(klass, exercises_dir, tmp_path / "out", jobs=1)
    assert outcome.games == 4 and not outcome.failures
    against = [g for g in records(tmp_path / "out") if g["pairing"] == ["weak", "strong"]]
    assert len(against) == 2
    strong_side = ["max" if g["max"] == "strong" else "min" for g in against]
    # The instructor's agent asked the grading process for its scores like a student's: counted.
    assert all(any(m["used"] > 0 for m in g["moves"] if m["by"] == side) for g, side in zip(against, strong_side))
    assert {r["agent"] for r in outcome.standings["rows"] if r["baseline"]} == {"strong", "random"}
    assert not (tmp_path / "out" / "agents" / "strong.html").exists()  # a page per student, not per baseline


def test_an_agent_that_plays_at_random_repeats_its_games_and_a_student_named_like_a_baseline_plays(tmp_path):
    """Found by a red team: an agent using unseeded ``random`` made two runs' games.jsonl differ, and a
    student whose file is called ``random`` stopped the whole class's tournament. The child's random
    numbers are seeded from each question; the student plays as "random (student)"
    and is graded under their own name."""
    exercises_dir = small_exercise(tmp_path / "exercises", SMALL.replace('"alphabeta:2"', '"greedy"'))
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(AGENTS / "plays_at_random.py", klass / "plays_at_random.py")
    shutil.copy(AGENTS / "weak.py", klass / "random.py")  # a student's file named like the baseline
    one = play(klass, exercises_dir, tmp_path / "one", round_robin=True, jobs=2)
    two = play(klass, exercises_dir, tmp_path / "two", round_robin=True, jobs=1)
    assert one.games == two.games and not one.failures
    assert (tmp_path / "one" / "games.jsonl").read_bytes() == (tmp_path / "two" / "games.jsonl").read_bytes()
    played = {agent for game in records(tmp_path / "one") for agent in game["pairing"]}
    assert {"random (student)", "random", "plays_at_random", "greedy"} <= played
    moves = [m for game in records(tmp_path / "one") if "plays_at_random" in game["pairing"] for m in game["moves"]]
    assert not [m for m in moves if m.get("failure")] and len(moves) > 20
    import csv

    ids = [row["id"] for row in csv.DictReader((tmp_path / "one" / "grades.csv").read_text(encoding="utf-8-sig").splitlines())]
    assert sorted(ids) == ["plays_at_random", "random"]  # graded under the student's own name


def test_two_agents_with_the_same_code_meet_the_same_random_games(tmp_path):
    """The random baseline's stream was named by the game's id, which holds both players: two byte-identical
    agents under two names met different random games, were ranked apart and scored different rubric points
    (the 133rd helper, aind-isolation). It is named by the seed, the baseline, the game's number and the position."""
    exercises_dir = small_exercise(tmp_path / "exercises", SMALL.replace('"alphabeta:2"', '"greedy"'))
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(AGENTS / "weak.py", klass / "ann.py")
    shutil.copy(AGENTS / "weak.py", klass / "zed.py")
    play(klass, exercises_dir, tmp_path / "out", jobs=2)
    games = {}
    for game in records(tmp_path / "out"):
        student = next(name for name in game["pairing"] if name in ("ann", "zed"))
        opponent = next(name for name in game["pairing"] if name != student)
        side = "max" if game["max"] == student else "min"
        games[(student, opponent, game["index"], side)] = [m["move"] for m in game["moves"]]
    random_games = [key for key in games if key[0] == "ann" and key[1] == "random"]
    assert random_games
    for _, opponent, index, side in random_games:
        assert games[("ann", opponent, index, side)] == games[("zed", opponent, index, side)], (index, side)
    standings = (tmp_path / "out" / "standings.csv").read_text(encoding="utf-8-sig").splitlines()
    rows = {line.split(",")[1]: line.split(",") for line in standings[1:]}
    assert rows["ann"][2:] == rows["zed"][2:], standings
    assert rows["ann"][0] == rows["zed"][0], standings  # and the same rank: equal agents are not placed apart by name
    # without --round-robin the students never meet: the won|lost table's rows are the opponents they played (their
    # own rows were a grid of dots above the baselines')
    import re

    board = (tmp_path / "out" / "leaderboard.html").read_text(encoding="utf-8")
    table = board[board.index('<table id="crosstable">'):]
    table = table[table.index("<tbody>"):table.index("</table>")]
    assert re.findall(r"<tr><th[^>]*>([^<]+)</th>", table) == ["random", "greedy"], table[:2000]
