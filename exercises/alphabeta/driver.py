"""Sandbox side of alphabeta: the ctp-26 trees and instrumented helpers, called with bounds.

The trees, the helpers (which record every node they are asked about by its preorder
index) and the snapshot are exactly ctp-26's, loaded from the sibling exercise folder so
the two exercises can never drift apart; only the call differs: the root is searched with
the widest window, alpha = -inf and beta = +inf.
"""

import importlib.util
import math
import os

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "_minimax_grader_driver_ctp_26_trees", os.path.join(_here, os.pardir, "ctp-26", "driver.py"))
_trees = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_trees)

Built = _trees.Built
build = _trees.build
helpers = _trees.helpers
loading_helpers = _trees.loading_helpers
snapshot = _trees.snapshot
changed = _trees.changed


def call(entry, built):
    return entry(built.root, built.input["max_depth"], -math.inf, math.inf, built.input["player_a_moves"])
