"""Grader side of ctp-26: its mistakes are the tree game's value mistakes (grader/kit/tree_mistakes.py)."""

from grader.kit.tree_mistakes import *  # noqa: F403 - CODES, MODELS, CHECK_CODES, rules, probes, node explanations
