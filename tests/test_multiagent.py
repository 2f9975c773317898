"""multiagent (issue 24): agents with roles in the kit, CS188's interface, evidence on the grading process.

The references are checked on trees worked out by hand; the hand-made trees must show every mistake
family; the child is told nothing of a tree but its start state, and the grading process's log of
``generateSuccessor`` and the evaluation is the evidence; every sample is graded end to end in the
sandbox with its pinned verdict and mistake code; the CS188 agreement script reads the test format.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from samples import assert_full_score, grader_of, on_disk, pinned

from grader.kit.agents.families import CODES, FAMILIES
from grader.kit.agents.search import Options, search
from grader.kit.agents.trees import Roles, TreeError, from_successors, pacman, preorder

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "multiagent"
TREES = ROOT / "fixtures" / "trees" / "multiagent"
EXPECTED, CORRECT, BUGGY = pinned(SAMPLES)
ISSUE_CODES = {"depth-counts-agents-not-rounds", "only-first-ghost", "ghosts-maximise", "missing-terminal-check",
               "one-round-too-deep", "prunes-on-equality", "bounds-not-carried", "alpha-not-updated-at-root",
               "expectimax-takes-minimum", "expectimax-wrong-divisor", "returns-value-not-action"}


def _names(tree, numbers):
    states = preorder(tree)
    return {states[i]["name"] for i in numbers}


# A textbook tree: Pacman, one ghost, depth 1. Minimax: Left (3); alpha-beta cuts b2 after c4 (2 < 3)
# and b3 after c6 (1 < 3); a ghost's value equal to alpha (c7 = 3) does not cut.
TEXTBOOK = from_successors("a", [["a", "Left", "b1"], ["a", "Center", "b2"], ["a", "Right", "b3"],
                                 ["b1", "Left", "c1"], ["b1", "Center", "c2"], ["b1", "Right", "c3"],
                                 ["b2", "Left", "c4"], ["b2", "Right", "c5"], ["b3", "Left", "c7"],
                                 ["b3", "Center", "c6"], ["b3", "Right", "c8"]],
                           win=(), lose=(), evaluation={"c1": 3, "c2": 12, "c3": 8, "c4": 2, "c5": 4,
                                                        "c7": 3, "c6": 1, "c8": 14})


def test_minimax_alphabeta_and_expectimax_on_a_tree_worked_by_hand():
    minimax = search(TEXTBOOK, pacman(2), 1)
    assert (minimax.action, minimax.value, minimax.best) == ("Left", 3, ("Left",))
    assert _names(TEXTBOOK, minimax.expanded) == {s["name"] for s in preorder(TEXTBOOK)}
    pruned = search(TEXTBOOK, pacman(2), 1, prune=True)
    assert pruned.action == "Left"
    assert _names(TEXTBOOK, pruned.expanded) == {"a", "b1", "b2", "b3", "c1", "c2", "c3", "c4", "c7", "c6"}
    equal = search(TEXTBOOK, pacman(2), 1, prune=True, options=Options(prune_equal=True))
    assert "c6" not in _names(TEXTBOOK, equal.expanded)  # c7 = 3 = alpha cut b3 on equality
    expecti = search(TEXTBOOK, pacman(2, "chance"), 1)
    assert expecti.root_values == pytest.approx([23 / 3, 3, 6]) and expecti.action == "Left"


def test_depth_counts_rounds_or_plies_and_chance_takes_given_probabilities():
    # Three agents, depth 1 in rounds: the evaluation at ply 3; in plies: at ply 1.
    chain = from_successors("a", [["a", "Left", "b1"], ["a", "Right", "b2"], ["b1", "Left", "c1"], ["b2", "Left", "c2"],
                                  ["c1", "Left", "d1"], ["c2", "Left", "d2"]],
                            evaluation={"b1": 9, "b2": 1, "d1": 0, "d2": 5})
    assert search(chain, pacman(3), 1).action == "Right"
    plies = search(chain, Roles(("max", "min", "min"), depth_unit="plies"), 1)
    assert plies.action == "Left" and _names(chain, plies.evaluated) == {"b1", "b2"}
    weighted = Roles(("max", "chance"), probabilities=lambda state, agent: [0.8, 0.1, 0.1][:len(state["moves"])]
                     if len(state["moves"]) == 3 else [0.5, 0.5])
    assert search(TEXTBOOK, weighted, 1).root_values == pytest.approx([0.8 * 3 + 0.1 * 12 + 0.1 * 8, 3, 0.8 * 3 + 0.1 * 1 + 0.1 * 14])
    with pytest.raises(TreeError):
        Roles(("max", "sometimes"))
    with pytest.raises(TreeError):
        search(TEXTBOOK, pacman(2, "chance"), 1, prune=True)


def test_the_mistake_codes_are_the_issues():
    assert set(CODES) == ISSUE_CODES


@pytest.fixture(scope="module")
def multiagent():
    from grader.judging import exercise

    return exercise.load("multiagent")


def test_every_mistake_family_shows_on_a_hand_made_tree(multiagent):
    """Each family (code, variant, search) changes the action or the expanded set on some hand-made tree."""
    cases = multiagent.hook("fixture_cases")(multiagent.fixtures_path)
    names = {"minimax": "MinimaxAgent", "alphabeta": "AlphaBetaAgent", "expectimax": "ExpectimaxAgent"}
    unseen = []
    for family in FAMILIES:
        for name in (names[s] for s in family.searches):
            if not any(_differs(multiagent, case["input"], name, family.options) for case in cases):
                unseen.append((family.code, family.variant, name))
    assert unseen == []
    assert {c["group"] for c in cases} == {"published", "fixtures"}
    assert {c["input"]["agents"] for c in cases} == {2, 3, 4}  # one ghost, two, three


def _differs(multiagent, case_input, name, options) -> bool:
    right = multiagent.reference.run(case_input, name)
    wrong = multiagent.reference.run(case_input, name, options)
    return (bool(wrong.raised) or right.action not in wrong.best or wrong.expanded != right.expanded
            or wrong.passed_at != right.passed_at)


def test_random_trees_have_two_to_four_agents_and_end_only_in_win_or_lose_states(multiagent):
    from grader.judging import bank

    built = bank.build(multiagent, use_cache=False, use_shipped=False)
    random = [c.input for c in built.cases if c.group == "random"]
    assert len(random) == multiagent.random_examples
    assert {c["agents"] for c in random} == {2, 3, 4}
    for case_input in random:
        assert multiagent.hooks._dead_ends(case_input["tree"], case_input["agents"] * (case_input["depth"] + 1)) is None


def test_the_child_is_told_only_the_start_state(multiagent):
    case = multiagent.hook("fixture_cases")(multiagent.fixtures_path)[0]
    told = multiagent.hook("child_input")(case["input"])
    assert set(told) == {"root", "agents", "depth"}
    assert "value" not in json.dumps(told) and "moves" not in json.dumps(told)


def test_the_oracle_answers_logs_per_class_and_refuses_states_it_never_handed_out(multiagent):
    case_input = {"tree": TEXTBOOK, "agents": 2, "depth": 1}
    oracle = multiagent.hook("oracle")(case_input)
    handle, actions, end = oracle.ask(["s", 0, 0, 1])  # MinimaxAgent's start (handle 0): a -> Center -> b2
    assert actions == ["Left", "Right"] and end is None
    assert "error" in oracle.ask(["s", handle + 1, 1, 0])  # never handed out
    child, _, _ = oracle.ask(["s", handle, 1, 0])
    assert oracle.ask(["v", child]) == 2
    b2, c4 = (next(i for i, s in enumerate(preorder(TEXTBOOK)) if s["name"] == n) for n in ("b2", "c4"))
    assert oracle.ask(["s", 1, 0, 1])[0] not in (handle, child)  # AlphaBetaAgent's start (handle 1): its own handles
    assert "error" in oracle.ask(["v", child])  # a state of MinimaxAgent's search, whose turn is over
    trace = oracle.trace()["searches"]
    assert trace["MinimaxAgent"] == {"generated": [b2, c4], "evaluated": [c4], "movers": [[0, 0], [b2, 1]]}
    assert trace["AlphaBetaAgent"] == {"generated": [b2], "evaluated": [], "movers": [[0, 0]]}
    assert trace["ExpectimaxAgent"] == {"generated": [], "evaluated": [], "movers": []}  # logged before it asks
    with pytest.raises(ValueError):
        oracle.tell(["agent", "AlphaBetaAgent"])  # the driver tells nothing: a note is tampering


@pytest.fixture(scope="module")
def graded():
    return grader_of(SAMPLES, "multiagent")


def test_every_sample_is_pinned():
    assert on_disk(SAMPLES) == set(EXPECTED)
    assert {EXPECTED[b]["mistake"] for b in BUGGY} == ISSUE_CODES


@pytest.mark.parametrize("relative", CORRECT)
def test_correct_samples_get_full_marks(graded, relative):
    assert_full_score(graded(relative))


@pytest.mark.parametrize("relative", BUGGY)
def test_each_buggy_sample_fails_and_its_mistake_is_named(graded, relative):
    result = graded(relative)
    assert result.error is None and result.status == "failed"
    assert result.mistakes and result.mistakes[0].code == EXPECTED[relative]["mistake"], \
        [(m.code, m.evidence[:300]) for m in result.mistakes]


def test_the_report_says_which_agent_moved_and_draws_the_expansions_on_the_tree(graded):
    ghosts = graded("buggy/ghosts-maximise.py").mistakes[0].evidence
    assert re.search(r"the first state your search gets wrong is \w+, where ghost \d \(agent \d\) moves", ghosts)
    assert "the ghost takes the smallest of" in ghosts
    assert "<- yours" in ghosts  # the first wrong state, marked on the drawn tree
    pruning = graded("buggy/prunes-on-equality.py").mistakes[0].evidence
    assert "skipped" in pruning and "<- skipped, must be expanded" in pruning



def test_the_agent_index_the_student_passed_is_read_from_the_grader_s_log(multiagent):
    chain = from_successors("a", [["a", "Left", "b1"], ["b1", "Left", "c1"], ["c1", "Left", "d1"]], evaluation={"d1": 1})
    case_input = {"tree": chain, "agents": 3, "depth": 1}
    log = {"generated": [1, 2, 3], "movers": [[0, 0], [1, 1], [2, 1]]}  # at c1 (ghost 2's turn) it moved agent 1
    assert multiagent.hooks.wrong_movers(case_input, log) == [(2, 1, 2)]
    assert multiagent.hooks.movers_problem(case_input, log) == (
        "at c1 it is ghost 2 (agent 2) who moves, but your code called generateSuccessor(1, ...)")


def test_only_the_classes_a_submission_gets_wrong_lose_points(graded):
    result = graded("buggy/expectimax-takes-minimum.py")
    lost = {c.name for c in result.checks if c.status != "passed"}
    assert lost == {"expectimax-action", "expectimax-expanded"}


def test_a_submission_without_the_classes_gets_one_clear_line(tmp_path):
    from grader.doors import api

    path = tmp_path / "nothing.py"
    path.write_text("x = 1\n", encoding="utf-8")
    result = api.check(path, "multiagent")
    assert result.status == "error" and "defines none of the classes" in result.error


def test_the_cs188_agreement_script_reads_the_test_format(tmp_path):
    """A tree written in the format of CS188's graph game-tree tests (our own tree, not theirs)."""
    folder = tmp_path / "test_cases" / "q3"
    folder.mkdir(parents=True)
    lines = "\n".join(f"{s} {a} {c}" for s, a, c in [["a", "Left", "b1"], ["a", "Right", "b2"], ["b1", "Left", "c1"],
                                                     ["b1", "Right", "c2"], ["b2", "Left", "c3"], ["b2", "Right", "c4"]])
    (folder / "0-ours.test").write_text(
        'class: "GraphGameTreeTest"\nalg: "AlphaBetaAgent"\ndepth: "1"\nnum_agents: "2"\nstart_state: "a"\n'
        'win_states: "c1 c2 c3 c4"\nlose_states: ""\n'
        f'successors: """\n{lines}\n"""\n\nevaluation: """\nc1 5\nc2 6\nc3 2\nc4 9\n"""\n', encoding="utf-8")
    (folder / "0-ours.solution").write_text('action: "Left"\ngenerated: "a b1 b2 c1 c2 c3"\n', encoding="utf-8")
    script = ROOT / "benchmarks" / "cs188_agreement.py"
    done = subprocess.run([sys.executable, str(script), "--dir", str(tmp_path / "test_cases")], capture_output=True, text=True)
    assert done.returncode == 0 and "all: 1 trees, actions 1/1, expanded sets 1/1" in done.stdout, done.stdout + done.stderr
    (folder / "0-ours.solution").write_text('action: "Left"\ngenerated: "a b1 b2 c1 c2 c3 c4"\n', encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), "--dir", str(tmp_path / "test_cases")], capture_output=True, text=True)
    assert done.returncode == 1 and "expanded sets 0/1" in done.stdout and "-['c4']" in done.stdout


def test_a_class_is_graded_with_grade_too(tmp_path):
    """``grade`` (warm workers, fork servers) gives every sample the verdict and the mistake ``check`` gives."""
    import csv

    chosen = ["correct/correct.py", "buggy/prunes-on-equality.py", "buggy/only-first-ghost.py"]
    done = subprocess.run([sys.executable, "-m", "grader", "grade", *[str(SAMPLES / c) for c in chosen],
                           "--exercise", "multiagent", "--out", str(tmp_path / "out"), "--jobs", "2", "--seed", "26"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8-sig") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert rows["correct"]["status"] == "passed" and rows["correct"]["score"] == "10.0"
    assert rows["prunes-on-equality"]["mistakes"] == "prunes-on-equality"
    assert rows["prunes-on-equality"]["alphabeta-expanded"] == "0.0" and rows["prunes-on-equality"]["alphabeta-action"] == "2.0"
    assert rows["only-first-ghost"]["mistakes"] == "only-first-ghost"


def test_the_starter_runs_at_home_and_completed_gets_full_marks(tmp_path):
    from grader.doors import api

    written = subprocess.run([sys.executable, "-m", "grader", "show", "multiagent", "--starter", str(tmp_path)],
                             capture_output=True, text=True, timeout=120)
    assert written.returncode == 0, written.stderr
    starter = tmp_path / "multiagent.py"
    at_home = subprocess.run([sys.executable, str(starter)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert at_home.returncode == 0 and "MinimaxAgent(depth=" in at_home.stdout, at_home.stderr
    text = starter.read_text(encoding="utf-8")
    classes = (SAMPLES / "correct" / "correct.py").read_text(encoding="utf-8").split("\n", 2)[2]  # without its import line
    head, rest = text.split("class MinimaxAgent", 1)
    stand_ins = rest[rest.index("# --- A stand-in game state"):]
    starter.write_text(head + "import math\n\n" + classes + "\n\n" + stand_ins, encoding="utf-8")
    at_home = subprocess.run([sys.executable, str(starter)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert at_home.returncode == 0 and "not written yet" not in at_home.stdout, at_home.stderr
    result = api.check(starter, "multiagent")
    assert result.status == "passed" and result.score == result.max_score


def test_a_state_the_grader_never_handed_out_gets_no_answer(tmp_path):
    """A GameState forged with another state's number is refused by the grading process (the child raises);
    what the search may learn of the tree is only what its own legal questions were answered."""
    from grader.doors import api

    forged = tmp_path / "forge.py"
    forged.write_text(
        "from multiagent_base import MultiAgentSearchAgent\n\n\n"
        "class MinimaxAgent(MultiAgentSearchAgent):\n"
        "    def getAction(self, gameState):\n"
        "        state = type(gameState).__new__(type(gameState))\n"
        "        for name, value in (('_number', 5), ('_actions', ('Left',)), ('_end', None), ('_agents', 2)):\n"
        "            object.__setattr__(state, name, value)\n"
        "        return state.generateSuccessor(0, 'Left')\n", encoding="utf-8")
    result = api.check(forged, "multiagent")
    assert result.error is None
    minimax = next(c for c in result.checks if c.name == "minimax-action")
    assert "getAction raised RuntimeError: not a state of this game" in minimax.message
    missing = next(c for c in result.checks if c.name == "alphabeta-action")
    assert "the submission defines no class AlphaBetaAgent" in missing.message
