"""The red team's holes in the object route (aind-isolation), each held shut: the attack scores no
more than its honest twin, the evidence is only what the grading process answered, and nothing a
submission sends crashes the grader (fixtures/submissions/reviewed/README.md, the aind rows)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, SUBMISSIONS
from grader.doors import api

REVIEWED = SUBMISSIONS / "reviewed"
RECORD_CHECKS = ("minimax-interface", "minimax-expanded", "minimax-scored", "minimax-timeout", "alphabeta-interface",
                 "alphabeta-scored", "alphabeta-bounds", "alphabeta-timeout")


def _status(result) -> dict:
    return {c.name: c.status for c in result.checks}


@pytest.fixture(scope="module")
def checked():
    done: dict = {}

    def check(name, exercise="aind-isolation"):
        if (name, exercise) not in done:
            path = name if "/" in str(name) else REVIEWED / name
            done[name, exercise] = api.check(path, exercise)
        return done[name, exercise]

    return check


# -- H1: a search that raised or never answered earns nothing on the checks that read its record --------------

def test_a_search_that_raises_earns_nothing_on_the_record_checks(checked):
    lazy, twin = checked("aind_lazy.py"), checked("aind_lazy_honest.py")
    assert lazy.error is None and twin.error is None, (lazy.error, twin.error)
    failed = {name for name, status in _status(lazy).items() if status == "failed"}
    assert set(RECORD_CHECKS) <= failed, _status(lazy)
    assert "raised RuntimeError" in next(c.message for c in lazy.checks if c.name == "minimax-expanded")
    assert lazy.score <= twin.score, (lazy.score, twin.score)
    # the twin answers a pair of ints without searching: the shape check honestly passes, the record ones do not
    assert _status(twin)["minimax-interface"] == "passed" and _status(twin)["minimax-expanded"] == "failed"
    assert _status(twin)["minimax-timeout"] == "failed"  # it ended before the clock ran out, having searched nothing
    assert "wrong-return-type" not in [m.code for m in lazy.mistakes]


@pytest.mark.parametrize("exercise", ["aind-isolation", "aind-isolation-custom-player"])
def test_the_unmodified_starter_scores_nothing(checked, exercise):
    result = checked(ROOT / "exercises" / exercise / "starter.py", exercise)
    assert result.error is None and result.score == 0.0, [(c.name, c.status, c.message) for c in result.checks
                                                           if c.status == "passed"]


# -- H2: iterative deepening read from the record --------------------------------------------------------------

@pytest.mark.parametrize("name", ["aind_lazy.py", "aind_deepening_faked.py"])
def test_faked_deepening_fails_iterative_deepening(checked, name):
    result = checked(name)
    assert _status(result)["iterative-deepening"] == "failed", result.error
    assert _status(checked("aind_lazy_honest.py"))["iterative-deepening"] == "failed"


def test_the_passes_are_read_from_the_expansions(checked):
    from grader.judging import exercise as exercises
    from grader.judging.checks import Outcome

    hooks = exercises.load("aind-isolation").hooks
    case = next(c for c in hooks.fixture_cases(None) if c["group"] == "iterative")

    class Case:
        input = case["input"]

    def outcome(events):
        return Outcome(Case, {"trace": {"events": events}})

    depth1 = [["x", [i]] for i in range(2)] + [["e", [i], 0] for i in range(2)]
    depth2 = [["x", [0]], ["x", [0, 0]], ["e", [0, 0], 0], ["x", [1]], ["x", [1, 0]], ["e", [1, 0], 0]]
    assert [p["depth"] for p in hooks.deepening_passes(outcome(depth1 + depth2 + depth1))] == [1, 2, 1]
    # a look (every root child forecast and scored to sort them) before a deeper search is part of it
    assert [p["depth"] for p in hooks.deepening_passes(outcome(depth1 + depth1 + depth2))] == [1, 2]
    notes = [["d", 1], ["r", 1, [0, 0]], ["d", 2], ["r", 2, [0, 0]]]
    assert hooks.deepening_passes(outcome(notes)) == []  # nothing said is a search



# -- the thirty-sixth red team: forecasts made without telling ---------------------------------------------------

def test_hiding_the_forecasts_a_search_never_uses_gains_nothing(checked, tmp_path):
    """An eager search forecasts every child before it looks at the depth, so it also forecasts the children of its
    leaves; the forger makes those boards from the rules without telling, the twin tells. Judged, they cost the twin
    "expanded" and the depths of iterative deepening (19 against 23); not judged, the two are alike."""
    from samples import flag_twin

    forger = REVIEWED / "aind_eager_successors.py"
    forged, honest = checked(forger), checked(flag_twin(forger, tmp_path))
    assert forged.error is None and honest.error is None, (forged.error, honest.error)
    assert forged.score <= honest.score, (forged.score, honest.score)
    assert _status(honest)["minimax-expanded"] == "passed", _status(honest)
    assert _status(honest)["iterative-deepening"] == "passed", _status(honest)
    assert honest.score == honest.max_score, [(c.name, c.message) for c in honest.checks if c.status != "passed"]



@pytest.mark.parametrize("name, exercise, lost", [
    ("aind_fake_next_depth.py", "aind-isolation", "iterative-deepening"),
    ("aind_custom_player_fake_next_depth.py", "aind-isolation-custom-player", "iterative-deepening"),
    ("aind_continue_after_timeout.py", "aind-isolation", "minimax-timeout"),
    # the fifty-first: a forged line to a stuck opponent read as a proven win
    ("aind_forged_win_min_root.py", "aind-isolation", "iterative-deepening"),
    ("aind_forged_win_no_deeper.py", "aind-isolation", "iterative-deepening"),
])
def test_the_later_red_teams_forgers_never_beat_their_twins(checked, tmp_path, name, exercise, lost):
    """One forecast of the next depth passed a depth cut short off as completed; scores asked at interior nodes
    passed the forecasts made after the clock ran out off as unused; a forecast line to a stuck opponent, nothing asked,
    read as a proven win (the fifty-first). Each loses what its twin loses."""
    from samples import flag_twin

    forged, honest = checked(name, exercise), checked(flag_twin(REVIEWED / name, tmp_path), exercise)
    assert forged.error is None and honest.error is None, (forged.error, honest.error)
    assert forged.score <= honest.score, (forged.score, honest.score)
    assert _status(forged)[lost] == "failed" and _status(honest)[lost] == "failed", (_status(forged), _status(honest))


def test_an_eager_search_reading_the_clock_after_its_forecasts_is_not_one_level_too_deep(checked):
    result = checked("aind_eager_clock_after_forecasts.py")
    assert (result.error, result.score) == (None, result.max_score), \
        [(c.name, c.message) for c in result.checks if c.status != "passed"]


@pytest.mark.parametrize("record", ["stops_at_a_won_root_move.json", "deepens_a_won_game.json"])
def test_an_iterative_deepening_that_proves_a_win_passes(record):
    """Records of the grader's own textbook sample (the fiftieth review): a search may stop its root loop at a
    won move, and from then on each pass reads as shallow as the win; neither is a depth cut short."""
    from grader.judging import exercise as exercises
    from grader.judging.checks import Outcome
    from grader.sandbox import harness

    data = json.loads((REVIEWED / "aind_records" / record).read_text(encoding="utf-8"))
    hooks = exercises.load("aind-isolation").hooks

    class Case:
        input = data["input"]
        id = "iterative-x"

    answer = json.loads(json.dumps(harness.encode_answer(tuple(data["move"]))))
    outcome = Outcome(Case, {"trace": {"events": data["events"]}, "answer": answer})
    assert hooks.check_iterative(outcome, None) is None


def test_a_finished_position_told_apart_in_the_child_is_worth_its_utility():
    """A search that tells won and lost games by the board's own is_winner/is_loser asks nothing there: the
    grading process values such a position itself, so the pass still values that root move."""
    from grader.judging import exercise as exercises

    hooks = exercises.load("aind-isolation").hooks
    data = json.loads((REVIEWED / "aind_records" / "stops_at_a_won_root_move.json").read_text(encoding="utf-8"))
    passes = hooks.deepening_passes(type("O", (), {"raw": {"trace": {"events": data["events"]}},
                                                   "case": type("C", (), {"input": data["input"]})})())
    won = next(p for p in passes if any(e[0] == "e" and e[1] == [3] for e in p["events"]))
    quiet = dict(won, events=[e for e in won["events"] if not (e[0] in ("e", "u") and e[1] == [3])])
    moves, whole = hooks.pass_choice(data["input"], quiet, 1)
    assert whole and moves == [data["move"]], (moves, whole)


def test_confirming_a_win_searches_a_bounded_tree_only(monkeypatch):
    """A record of wrong-seat scores can read a win at any depth it reaches; the grader confirms one with its own
    search only where the depth-limited tree is small, never at the cost of minutes of its CPU."""
    from grader.judging import exercise as exercises
    from grader.kit import agent_hooks

    hooks = exercises.load("aind-isolation").hooks
    case = next(c for c in hooks.fixture_cases(None) if c["group"] == "iterative")["input"]
    searched = []
    monkeypatch.setattr(hooks, "variant", lambda case_input, depth: searched.append(depth) or {"value": 0.0})
    assert hooks._search_size(hooks.state_of(case), 9, agent_hooks.WIN_SEARCH_CAP) > agent_hooks.WIN_SEARCH_CAP
    assert hooks._wins_within(case, 9) is False and searched == []
    assert hooks._wins_within(case, 2) is False and searched == [2]

def test_only_a_forecast_never_used_below_a_scored_leaf_is_left_out():
    from grader.kit.agent_hooks import unused_forecasts

    def at_depth(depth):
        return lambda path: len(path) >= depth

    # depth 1, eager: both root children forecast, each one's children forecast, then each scored as a leaf
    eager = [["x", [0]], ["x", [1]], ["x", [0, 0]], ["x", [0, 1]], ["e", [0], 0], ["x", [1, 0]], ["e", [1], 0]]
    assert unused_forecasts(eager, at_depth(1)) == {(0, 0), (0, 1), (1, 0)}
    # the same scores asked above the depth limit are looks to sort the moves: their children stay judged (the
    # forty-eighth red team scored every interior node to hide the forecasts it made after the clock ran out)
    assert unused_forecasts(eager, at_depth(2)) == set()
    # one level too deep: the grandchildren are scored, so every forecast is on the way to a score
    deeper = [["x", [0]], ["x", [0, 0]], ["e", [0, 0], 0], ["x", [1]], ["x", [1, 0]], ["e", [1, 0], 0]]
    assert unused_forecasts(deeper, at_depth(1)) == set()
    # a forecast never used whose parent was not scored (a finished child judged without asking, a search cut by
    # the clock) is judged as before; so is a forecast scored itself, or one gone below
    assert unused_forecasts([["x", [0]], ["x", [0, 0]], ["t", 5.0]], at_depth(1)) == set()
    assert unused_forecasts([["x", [0]], ["e", [0], 0], ["x", [0, 0]], ["e", [0, 0], 0]], at_depth(1)) == set()
    assert unused_forecasts([["x", [0]], ["e", [0], 0], ["x", [0, 0]], ["x", [0, 0, 1]], ["e", [0, 0, 1], 0]],
                            at_depth(1)) == set()


def test_the_depths_of_an_eager_deepening_are_those_it_scored(checked):
    from grader.judging import exercise as exercises
    from grader.judging.checks import Outcome

    hooks = exercises.load("aind-isolation").hooks
    case = next(c for c in hooks.fixture_cases(None) if c["group"] == "iterative")

    class Case:
        input = case["input"]

    def outcome(events):
        return Outcome(Case, {"trace": {"events": events}})

    depth1 = [["x", [0]], ["x", [1]], ["x", [0, 0]], ["e", [0], 0], ["x", [1, 0]], ["e", [1], 0]]
    depth2 = [["x", [0]], ["x", [1]], ["x", [0, 0]], ["x", [0, 0, 0]], ["e", [0, 0], 0], ["x", [1, 0]],
              ["x", [1, 0, 0]], ["e", [1, 0], 0]]
    assert [p["depth"] for p in hooks.deepening_passes(outcome(depth1 + depth2))] == [1, 2]
    # the clock read after a leaf's forecasts and found run out, so the leaf never scored: still depth 2 (the
    # forty-eighth red team's honest search read "[1, 3]")
    cut = [["x", [0]], ["x", [1]], ["x", [0, 0]], ["x", [0, 0, 0]], ["e", [0, 0], 0], ["x", [1, 0]], ["x", [1, 0, 0]],
           ["t", 1.0]]
    assert [p["depth"] for p in hooks.deepening_passes(outcome(depth1 + cut))] == [1, 2]

# -- H3: only the grader starts a move's clock ---------------------------------------------------------------

def test_the_child_cannot_start_a_move_s_clock(checked):
    reset, honest = checked("aind_clock_reset.py"), checked("aind_clock_honest.py")
    assert reset.score <= honest.score and reset.status == "error" and "tampered" in reset.error, reset.error
    plays = next(c for c in honest.checks if c.name == "alphabeta-plays")
    assert plays.status == "failed" and ("past the clock" in plays.message or "clock ran out" in plays.message
                                        or "time_left() had reached 0" in plays.message)


def test_the_game_clock_starts_when_the_grader_answers_the_previous_move():
    from grader.judging import exercise as exercises

    hooks = exercises.load("aind-isolation").hooks
    case = next(c for c in hooks.fixture_cases(None) if c["group"] == "alphabeta-game" and c["input"]["seat"] == 0)
    oracle = hooks.oracle(case["input"])
    for forged in (["m"], ["d", 1], ["r", 1, [0, 0]], ["p", None]):  # p None: the baseline moves on its own turn only
        with pytest.raises(ValueError):
            oracle.ask(forged)
    clock = oracle.clock
    assert [oracle.ask(["t"]) for _ in range(3)] == [clock - 1, clock - 2, clock - 3]
    move = hooks.rules.moves_for(hooks.rules.decode(case["input"]["state"]), 0)[0]
    assert "played" in oracle.ask(["p", list(move)])
    assert oracle.game[0]["ticks"] == 3 and oracle.ask(["t"]) == clock - 1
    with pytest.raises(ValueError):
        oracle.ask(["p", None])


# -- H5: nothing a submission sends crashes the grader ---------------------------------------------------------

def test_forged_notes_are_tampering_never_a_traceback(checked):
    result = checked("aind_crash.py")
    assert result.status == "error" and result.score == 0.0 and "tampered" in result.error, result.error
    assert "\n" not in result.error and "Traceback" not in result.error


def test_an_exception_while_judging_is_that_submission_s_one_line_error(monkeypatch):
    from grader.kit import agent_hooks

    def trips(self, outcome, spec):
        raise TypeError("unhashable type: 'list'\n(as a reply could make a check trip)")

    monkeypatch.setattr(agent_hooks.AgentHooks, "check_iterative", trips)
    result = api.check(SUBMISSIONS / "aind-isolation" / "correct" / "textbook.py", "aind-isolation")
    assert (result.status, result.score) == ("error", 0.0)
    assert "could not judge" in result.error and "TypeError" in result.error and "\n" not in result.error


# -- H6: `grade` works for an object-route exercise --------------------------------------------------------------

def test_grade_grades_an_aind_class(tmp_path):
    klass = tmp_path / "class"
    for name, source in (("alice", SUBMISSIONS / "aind-isolation" / "correct" / "textbook.py"),
                         ("mallory", REVIEWED / "aind_crash.py"), ("bob", REVIEWED / "aind_lazy_honest.py")):
        (klass / name).mkdir(parents=True)
        (klass / name / "game_agent.py").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "-e", "aind-isolation", "--out",
                           str(tmp_path / "out"), "-j", "1"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    data = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    by_name = {name: next(s for s in data["submissions"] if f"/{name}" in s["submission"] or s["submission"] == name)
               for name in ("alice", "mallory", "bob")}
    alice = by_name["alice"]
    assert alice["status"] == "passed" and alice["score"] == alice["max_score"] > 0, alice.get("error")
    assert by_name["mallory"]["status"] == "error" and "tampered" in by_name["mallory"]["error"]
    honest = api.check(REVIEWED / "aind_lazy_honest.py", "aind-isolation")
    assert (by_name["bob"]["status"], by_name["bob"]["score"]) == (honest.status, honest.score)


# -- H8: a thread left running after the call is no tampering ----------------------------------------------------

def test_a_thread_left_running_is_no_tampering(monkeypatch):
    """Where the runner thread refuses threads (Linux: nothing of a submission may run while the harness works), an
    agent that ponders or deepens on a thread of its own is told why its moves failed, and is never called a
    tamperer. Where threads are possible (the fallback without a runner thread, forced here; other platforms), a
    thread left running after get_move has returned is no tampering either, and the agent gets its marks."""
    for name in ("aind_ponder_thread.py", "aind_stray_thread.py"):  # searches again after get_move; never joined
        refused = api.check(REVIEWED / name, "aind-isolation")
        assert refused.error is None, refused.error
        lost = [c.message or "" for c in refused.checks if c.score < c.max_score]
        assert lost and all("can't start new thread (the grader runs submissions without threads" in m
                            for m in lost if not m.startswith("skipped")), lost
    monkeypatch.setenv("MINIMAX_GRADER_RUNNER", "off")
    pondering = api.check(REVIEWED / "aind_ponder_thread.py", "aind-isolation")
    assert (pondering.error, pondering.status, pondering.score) == (None, "passed", pondering.max_score), pondering.error
    sloppy = api.check(REVIEWED / "aind_stray_thread.py", "aind-isolation")
    assert sloppy.error is None, sloppy.error
    status = _status(sloppy)  # its get_move answers after 20 ms of wall clock: only that check may go either way
    assert all(s == "passed" for name, s in status.items() if name != "iterative-deepening"), status


# -- Lows: the board's hash(); the clock's slack said in the statement ---------------------------------------------

def test_the_board_hash_is_the_course_s():
    from grader.judging import exercise as exercises
    from grader.kit import agent_driver

    hooks = exercises.load("aind-isolation").hooks
    driver = agent_driver.configure(json.dumps(hooks.decl), str(hooks.rules_path))
    case = next(c for c in hooks.fixture_cases(None) if c["group"] == "alphabeta")
    oracle = hooks.oracle(case["input"])

    class Link:
        def ask(self, message):
            return oracle.ask(message)

        def tell(self, message):
            oracle.tell(message)

    built = driver["build"](case["input"])
    driver["helpers"](built, Link())
    seen = {}

    class Probe:
        def __init__(self, search_depth, score_fn, timeout):
            pass

        def alphabeta(self, game, depth, alpha=None, beta=None):
            a, b = game.get_legal_moves()[:2]
            one = game.forecast_move(a)
            two = game.forecast_move(b)
            # the same cells reached in another order: the same position, the same hash
            there = [m for m in one.get_legal_moves() if m not in (a, b)][0]
            seen["same"] = one.forecast_move(there).hash() == game.copy().forecast_move(a).forecast_move(there).hash()
            seen["other"] = one.hash() != two.hash() and game.hash() != one.hash()
            seen["int"] = type(game.hash()) is int
            return a

    driver["call"]({"AlphaBetaPlayer": Probe}, built)
    assert seen == {"same": True, "other": True, "int": True}

    import importlib.util

    for exercise in ("aind-isolation", "aind-isolation-custom-player"):
        spec = importlib.util.spec_from_file_location("_course_isolation", ROOT / "exercises" / exercise / "course" /
                                                      "isolation.py")
        course = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(course)
        p1, p2 = object(), object()
        board = course.Board(p1, p2)
        first = board.forecast_move((0, 0)).forecast_move((6, 6)).forecast_move((2, 1))
        again = board.forecast_move((0, 0)).forecast_move((6, 6)).forecast_move((2, 1))
        assert type(first.hash()) is int and first.hash() == again.hash() != board.hash()


@pytest.mark.parametrize("exercise", ["aind-isolation", "aind-isolation-custom-player"])
def test_the_statement_states_the_clock_s_slack(exercise):
    from grader.kit.agent_hooks import SLACK

    text = (ROOT / "exercises" / exercise / "statement.md").read_text(encoding="utf-8")
    assert f"at most {SLACK} more" in text


def test_a_search_reading_the_clock_only_where_it_expands_is_within_the_slack(checked):
    result = checked("aind_clock_interior.py")
    assert (result.error, result.status, result.score) == (None, "passed", result.max_score), \
        [(c.name, c.message) for c in result.checks if c.status != "passed"]


# -- the forty-seventh red team: what a record costs the grading process -----------------------------------------

DEEP_SCORER = '''
class SearchTimeout(Exception):
    pass


def custom_score(game, player):
    return 0.0


custom_score_2 = custom_score_3 = custom_score


class IsolationPlayer:
    def __init__(self, search_depth=3, score_fn=custom_score, timeout=10.):
        self.search_depth = search_depth
        self.score = score_fn
        self.TIMER_THRESHOLD = timeout


def _result(state, move):
    blocked, locs, seat = state
    moved = tuple(move if i == seat else l for i, l in enumerate(locs))
    return tuple(sorted(blocked + (move,))), moved, 1 - seat


class MinimaxPlayer(IsolationPlayer):
    def get_move(self, game, time_left):
        return (-1, -1)

    def minimax(self, game, depth):
        left = [LIMIT]

        def down(board):  # positions made without forecast_move, one deeper each time, each scored
            moves = board.get_legal_moves()
            for index, move in enumerate(moves):
                if left[0] <= 0:
                    return
                child = board.copy()
                child._state, child._path = _result(board._state, move), board._path + [index]
                self.score(child, self)
                left[0] -= 1
                down(child)

        down(game)
        moves = game.get_legal_moves()
        return moves[0] if moves else (-1, -1)


class AlphaBetaPlayer(MinimaxPlayer):
    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf")):
        return self.minimax(game, depth)
'''


def test_judging_a_record_costs_a_rules_step_per_position_not_per_look(tmp_path):
    """An agent that scored thousands of deep positions a call (made without forecast_move, each one step below the
    last) cost the grading process five minutes of CPU after its session: every check and the diagnosis walked each
    scored path from the root again, some fifteen times a case. Now a path's position is worked out once: the rules
    run about once per position asked, in the oracle and in the judge together (counted, not timed)."""
    from grader.judging import bank as banks
    from grader.judging import exercise as exercises
    from grader.judging import judge, submissions
    from grader.kit import agent_oracle
    from grader.sandbox import launch

    exercise = exercises.load("aind-isolation")
    bank = banks.build(exercise)
    rules = exercise.hooks.rules
    steps, scored = [0], [0]
    real_result, real_ask = rules.result, agent_oracle.AgentOracle.ask

    def counted_result(state, move):
        steps[0] += 1
        return real_result(state, move)

    def counted_ask(self, message):
        if type(message) is list and message and message[0] == "e":
            scored[0] += 1
        return real_ask(self, message)

    path = tmp_path / "deep_scorer.py"
    path.write_text("LIMIT = 150\n" + DEEP_SCORER, encoding="utf-8")
    try:
        rules.result = counted_result
        agent_oracle.AgentOracle.ask = counted_ask
        result = judge.grade(submissions.load(path), exercise, bank, launch.choose("posix"))
    finally:
        rules.result, agent_oracle.AgentOracle.ask = real_result, real_ask
    assert result.error is None and result.score < result.max_score, (result.error, result.score)
    assert scored[0] > 1000, scored[0]
    # 5,550 positions scored: 47,000 steps in all (the reference's and the diagnosis's own searches take up to 60,000
    # for an agent that scores nothing); 1,345,000 when each look walked from the root
    assert steps[0] < 4 * scored[0] + 100_000, (steps[0], scored[0])


def test_an_oracle_keeps_its_positions_within_a_cap_and_only_while_its_case_runs(monkeypatch):
    """Expansion notes come one way; random paths the child makes from its own copy of the rules made the grading
    process keep a position for every prefix of every case of a run (0.5 GB). Past POSITION_CAP a position is
    worked out and not kept, with the same answers; a case's positions go when the next case begins or the run
    ends (``_Batch.case_over``)."""
    from grader.judging import exercise as exercises
    from grader.kit import agent_oracle
    from grader.sandbox.session import _Batch

    exercise = exercises.load("aind-isolation")
    hooks = exercise.hooks
    case = next(c for c in hooks.fixture_cases(exercise.fixtures_path) if c["group"] == "minimax")
    seat = case["input"]["seat"]
    free = hooks.oracle(case["input"])
    paths = [[a] for a in range(len(hooks.rules.moves_for(free.root, hooks.rules.to_move(free.root))))]
    paths += [p + [b] for p in paths for b in range(2)]
    answers = [free.ask(["e", p, seat]) for p in paths]
    monkeypatch.setattr(agent_oracle, "POSITION_CAP", 3)
    capped = hooks.oracle(case["input"])
    assert [capped.ask(["e", p, seat]) for p in paths] == answers
    assert len(capped.positions) <= 3 < len(free.positions)
    capped.case_over()
    assert capped.positions == {(): capped.root} and len(capped.trace()["events"]) == len(paths)

    class Kept:
        def __init__(self):
            self.over = 0

        def case_over(self):
            self.over += 1

    made = [Kept(), Kept()]
    batch = _Batch([{"input": 0}, {"input": 1}], lambda case: made[case["input"]])
    assert batch.begin(0) and made[0].over == 0
    assert batch.begin(1) and made[0].over == 1 and made[1].over == 0
    batch.case_over()
    assert made[1].over == 1
