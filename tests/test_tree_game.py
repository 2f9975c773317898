"""The kit's tree game (grader/kit/tree_game.py): given trees searched by the kit's own searches.

ctp-26 and alphabeta name their value mistakes with the kit's families run over this game, so
the game must be the exercises' own rules: the kit's minimax must give the ctp-26 reference's
value, and the kit's alpha-beta must evaluate exactly the nodes the alphabeta reference does,
in the same order (moves left to right, and right to left for the move-order mistake), on the
fixtures and on random trees.
"""

from __future__ import annotations

import json
import math

import pytest


@pytest.fixture(scope="module")
def cases():
    from grader.judging import bank as banks
    from grader.judging import exercise

    ctp26 = exercise.load("ctp-26")
    found = banks.random_inputs(ctp26.hooks.strategy(), seed=11, count=150)
    for name in ("ctp-26", "alphabeta"):
        for path in sorted(exercise.load(name).fixtures_path.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            found += [{"tree": data["tree"], "max_depth": c["max_depth"], "player_a_moves": c["player_a_moves"]}
                      for c in data["calls"]]
    return found


def test_the_kits_minimax_over_the_tree_game_is_the_ctp26_reference(cases):
    from grader.judging import exercise
    from grader.kit import tree_game
    from grader.kit.search import Searcher

    ctp26 = exercise.load("ctp-26")
    for case_input in cases:
        expected = ctp26.hooks.reference(case_input, ctp26.reference)
        assert Searcher(tree_game.GAME).value(tree_game.start(case_input), case_input["max_depth"]) == expected, case_input


class _Recording:
    """The reference's helpers over plain data, noting which nodes it evaluates (moves reversed if asked)."""

    def __init__(self, right_to_left):
        self.asked, self.right_to_left = [], right_to_left

    def moves(self, node):
        return node["children"][::-1] if self.right_to_left else node["children"]

    def value(self, node):
        self.asked.append(id(node))
        return node["value"]


@pytest.mark.parametrize("right_to_left", [False, True])
def test_the_kits_alphabeta_evaluates_what_the_alphabeta_reference_evaluates(cases, right_to_left):
    """alphabeta's pruning checks (and its move-order mistake) take the evaluated nodes from the kit's
    alpha-beta over the tree game: they must be the reference file's, in its order."""
    from grader.judging import exercise
    from grader.kit import tree_hooks as trees

    alphabeta = exercise.load("alphabeta")
    for case_input in cases:
        recording = _Recording(right_to_left)
        value = alphabeta.reference.alphabeta(case_input["tree"], case_input["max_depth"], -math.inf, math.inf,
                                              case_input["player_a_moves"], recording)
        index = {id(node): i for i, (node, _) in enumerate(trees.preorder(case_input["tree"]))}
        expected = [index[key] for key in recording.asked]
        assert alphabeta.hooks.evaluation_order(case_input, right_to_left=right_to_left) == expected, case_input
        assert value == alphabeta.hooks.reference(case_input, alphabeta.reference)


def test_a_family_that_chooses_among_no_moves_raises_or_keeps_its_infinity():
    from grader.kit import tree_mistakes

    leaf_above_limit = {"tree": {"name": "r", "value": 1, "children": [
        {"name": "x", "value": 4, "children": []},
        {"name": "y", "value": 2, "children": [{"name": "z", "value": 9, "children": []}]}]}}
    with pytest.raises(ValueError):
        tree_mistakes.family("missing-terminal-check")(leaf_above_limit["tree"], 2, True)
    # A searches on past x, a leaf: B's best there starts at +inf and is never lowered, so A takes it.
    assert tree_mistakes.family("missing-terminal-check", False)(leaf_above_limit["tree"], 2, True) == math.inf
    assert tree_mistakes.family("no-alternation")(leaf_above_limit["tree"], 2, True) == 9
    assert tree_mistakes.family("always-min")(leaf_above_limit["tree"], 2, True) == 4


@pytest.mark.parametrize("name", ["ctp-26", "alphabeta"])
def test_the_fingerprint_follows_the_kits_tree_modules(name, monkeypatch, tmp_path):
    """The trees, their strategy and the mistakes moved out of the exercise folders into the kit: a change
    there must still make stale banks and gradebook rows unusable, as a change in the folder does."""
    from grader.judging import exercise
    from grader.kit import tree_hooks as trees

    loaded = exercise.load(name)
    copies = []
    for path in trees.fingerprint_files(loaded):
        copies.append(tmp_path / path.name)
        copies[-1].write_bytes(path.read_bytes())
    assert {p.name for p in copies} == {"tree_hooks.py", "tree_game.py", "tree_mistakes.py"}
    monkeypatch.setattr(loaded.hooks, "fingerprint_files", lambda exercise: copies)

    def fingerprint():
        fresh = exercise.Exercise(loaded.folder, loaded.meta, loaded.root)
        fresh.__dict__["hooks"] = loaded.hooks  # the hooks module with the copies as its kit files
        return fresh.fingerprint

    first = fingerprint()
    assert fingerprint() == first
    copies[-1].write_text(copies[-1].read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert fingerprint() != first
