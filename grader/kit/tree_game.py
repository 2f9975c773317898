"""A game whose positions are the nodes of a given tree, in the kit's AIMA vocabulary.

The tree is plain data (``{"name", "value", "children"}``), as ctp-26 and alphabeta hand it
over; a position is a node and whose turn it is there (the players alternate by level from the
case's ``player_a_moves``). The moves are the node's children in order, a node without children
is a finished game, and a node's value is A's utility (and the heuristic at the depth limit).
So the kit's searches and mistake families (``grader.kit.search``) run over given trees as over
any other game: ``GAME`` is the loaded game, ``start`` the root position of a case.
"""

import sys

from grader.kit.game import Game

PLAYERS = ("A", "B")


class Position:
    """A node of the tree (by identity: names and values repeat) and whether A is to move there."""

    __slots__ = ("node", "a")

    def __init__(self, node, a):
        self.node, self.a = node, a

    def __hash__(self):
        return hash((id(self.node), self.a))

    def __eq__(self, other):
        return type(other) is Position and other.node is self.node and other.a == self.a


def to_move(position):
    return "A" if position.a else "B"


def actions(position):
    return range(len(position.node["children"]))


def result(position, index):
    return Position(position.node["children"][index], not position.a)


def is_terminal(position):
    return not position.node["children"]


def utility(position, player):
    return position.node["value"] if player == "A" else -position.node["value"]


evaluate = utility


def start(case_input):
    return Position(case_input["tree"], case_input["player_a_moves"])


GAME = Game(sys.modules[__name__])
