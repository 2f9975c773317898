"""Grader side of ctp-26: a game over a given tree (grader/kit/tree_hooks.py), searched by plain minimax."""

from grader.kit.tree_hooks import *  # noqa: F403 - fixtures, random trees, discipline, pictures, shrinking
from grader.kit.tree_hooks import PlainTree, driver_path_for

CALL = ("root", "max_depth", "player_a_moves")


def driver_path(exercise):
    return driver_path_for(exercise, CALL)


def reference(case_input, module):
    return module.minimax(case_input["tree"], case_input["max_depth"], case_input["player_a_moves"], PlainTree)


def call_text(case_input):
    return f"minimax(root, {case_input['max_depth']}, {case_input['player_a_moves']})"
