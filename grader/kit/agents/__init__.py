"""Games of several agents, each a maximiser, a minimiser or a chance agent (issue 24).

The two-player kit (``grader.kit.search``) knows two players who alternate. CS188's multi-agent
project, and the many courses built on it, have Pacman (agent 0) against any number of ghosts, one
unit of depth being a round in which every agent moves once. This package holds that world apart
from the two-player kit, so nothing the shipped exercises rely on changes:

- ``trees``: the plain-data game tree (named states, legal actions in order, win and lose states,
  each state's evaluation), numbered in preorder, with the roles of its agents and its depth unit;
- ``search``: the references (minimax, alpha-beta with the states it generates, expectimax) and
  every mistake family as the same search with one option turned;
- ``families``: the named mistake families (code, variant, options) and which searches they fit.

It imports only the standard library (a part of the kit layer; see grader/kit/__init__.py).
"""
