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


class Position(tuple):
    """A node of the tree and whether A is to move there; equal and hashed as (the node's identity, A to
    move), in C (names and values repeat, so identity it is; the position keeps its node alive)."""

    def __new__(cls, node, a):
        position = tuple.__new__(cls, (id(node), a))
        position.node = node
        return position

    @property
    def a(self):
        return self[1]


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


class TreeGame(Game):
    """The kit's game wrapper with the questions it asks most answered straight from the node (a position is
    hashable, and whether it is finished is one look at its children): the kit's searches run over every
    case of the bank for every mistake family, so this is where their time goes."""

    def is_terminal(self, state) -> bool:
        return not state.node["children"]

    def ident(self, state):
        return state

    def actions(self, state) -> list:
        return list(range(len(state.node["children"])))

    def children(self, state) -> list:
        a, nodes = not state.a, state.node["children"]
        return [Position(nodes[index], a) for index in self.actions(state)]  # in the order of ``actions``


GAME = TreeGame(sys.modules[__name__])
