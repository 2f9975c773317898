"""A hand-made tree that fails is shown as itself; a random one is shrunk (once, and reused by later checks)."""

from __future__ import annotations

import json

from grader.doors import api
from grader import report
from conftest import SUBMISSIONS

BUGGY = SUBMISSIONS / "ctp-26" / "buggy" / "ignores_player_argument.py"


def test_a_hand_made_tree_is_shown_as_itself_and_a_random_one_shrunk():
    result = api.check(BUGGY, "ctp-26")
    failed = [c for c in result.checks if c.status == "failed"]
    assert [c.name for c in failed] == ["fixture-trees", "random-trees"]
    first, second = (c.counterexample for c in failed)
    assert not first.shrunk and second.shrunk  # shrinking belongs to generated cases only
    assert first.input in [c.input for c in api_bank("ctp-26").group("fixtures")]
    assert len(second.picture.splitlines()) <= 3  # shrunk: a root and two moves
    text = report.render(result, "text")
    assert text.count(second.picture.splitlines()[0]) == 1


def api_bank(exercise_id):
    from grader.judging import bank, exercise

    return bank.build(exercise.load(exercise_id))


def _values(node):
    return [node["value"], *(value for child in node["children"] for value in _values(child))]


def test_a_mistake_that_needs_two_equal_values_shrinks_to_small_ones():
    """Over-pruning on equality needs a leaf equal to the bound: made simpler one value at a time the equality
    broke, and the smallest tree kept -9.75 twice. The whole tree's values relabelled by rank (order and sign kept)
    keep it, and the shrinker gets to values no larger than 1."""
    result = api.check(SUBMISSIONS / "alphabeta" / "buggy" / "prunes_on_equality.py", "alphabeta")
    shrunk = [c.counterexample for c in result.checks if c.counterexample is not None and c.counterexample.shrunk]
    assert shrunk
    for counterexample in shrunk:
        assert all(type(v) is int and abs(v) <= 1 for v in _values(counterexample.input["tree"])), counterexample.input


def test_a_trees_values_by_rank_keep_their_order_sign_and_ties():
    from grader.kit import tree_hooks

    leaf = lambda value: {"name": "n", "value": value, "children": []}  # noqa: E731
    tree = {"name": "r", "value": 0.0, "children": [leaf(-9.75), leaf(3.5), leaf(-9.75), leaf(-0.5), leaf(12)]}
    case = {"tree": tree, "max_depth": 1, "player_a_moves": True}
    ranked = tree_hooks._ranked_values(tree)
    assert _values(ranked) == [0, -2, 1, -2, -1, 2]
    assert {**case, "tree": ranked} in tree_hooks.shrink_candidates(case)
    assert tree_hooks._ranked_values(ranked) == ranked  # already ranks: no candidate of it


def test_a_hand_made_case_is_shown_with_its_title_in_every_report():
    """A fixture's ``title`` is the instructor's word for what the position is about, and the docs say reports show
    it: they never did (the 127th helper's misere positions). A shrunk tree has none."""
    import html

    from grader.report import feedback

    result = api.check(BUGGY, "ctp-26")
    first, second = (c.counterexample for c in result.checks if c.status == "failed")
    titles = {json.dumps(case.input, sort_keys=True): case.title for case in api_bank("ctp-26").cases}
    assert first.title and first.title == titles[json.dumps(first.input, sort_keys=True)]
    assert not second.title and second.shrunk
    for form in ("text", "md", "html"):
        shown = report.render(result, form)
        assert f'on which it goes wrong, "{first.title}"' in (html.unescape(shown) if form == "html" else shown), form
    assert f'"{first.title}"' in feedback.check_text(result, next(c for c in result.checks if c.status == "failed"))
    failed = next(c for c in result.to_dict()["checks"] if c["status"] == "failed")
    assert failed["counterexample"]["title"] == first.title
