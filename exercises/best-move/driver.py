"""Sandbox side of best-move: game states as the student's code sees them, and the five helpers.

Runs in the child next to the student's code; holds nothing secret. Both game families go
through the same ``State`` and the same helpers: a game tree (moves are the labels of a
node's branches, ints or names) and tic-tac-toe (moves are ``(row, col)`` tuples, ``board``
a list of lists the student can see). The helpers check what they are given, so an illegal
move, a move for the wrong player or something that is not a state fails loudly at the
point where it happens.
"""

import importlib.util
import os

_spec = importlib.util.spec_from_file_location(
    "_minimax_grader_best_move_rules", os.path.join(os.path.dirname(os.path.abspath(__file__)), "game.py"))
rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules)  # the game's rules, as the grader plays them (tic-tac-toe's; a tree's are its nodes)
PLAYER_1, PLAYER_2 = 1, 2


class State:
    """A position and whose turn it is. ``board`` is set for tic-tac-toe only."""

    __slots__ = ("game", "node", "board", "to_move")

    def __init__(self, game, node, board, to_move):
        self.game = game
        self.node = node
        self.board = board
        self.to_move = to_move

    def __repr__(self):
        if self.game == "tictactoe":
            rows = "/".join("".join(".OX"[v] if v in (0, 1, 2) else "?" for v in row) for row in self.board)
            return f"State({rows}, player {self.to_move} to move)"
        return f"State(node {self.node}, player {self.to_move} to move)"


class Built:
    """One case: the tree's nodes in preorder (a tree state names its node by number), the root state."""

    def __init__(self, case_input):
        self.input, self.player = case_input, case_input["player"]
        self.nodes, self.number = [], {}
        if case_input["game"] == "tree":
            self._add(case_input["tree"])
        self.root = self.state(rules.decode(case_input))

    def _add(self, node):
        self.number[id(node)] = len(self.nodes)
        self.nodes.append(node)
        for _, child in node["moves"]:
            self._add(child)

    def position(self, state):
        """The game's own state for one of ours."""
        if state.game == "tree":
            return "tree", self.nodes[state.node], state.to_move
        return "tictactoe", state.board, state.to_move

    def state(self, position):
        kind, where, player = position
        if kind == "tree":
            return State(kind, self.number[id(where)], None, player)
        return State(kind, None, [list(row) for row in where], player)


def _same_move(a, b):
    return type(a) is type(b) and a == b


def helpers(built, trace):
    def check_state(state, helper):
        if type(state) is not State:
            raise TypeError(f"{helper}() needs a game state (as given to best_move or returned by apply), "
                            f"not {type(state).__name__}")

    def check_player(player, helper):
        if type(player) is not int or player not in (PLAYER_1, PLAYER_2):
            raise ValueError(f"{helper}(): players are 1 and 2, not {player!r:.40}")

    def generate_valid_moves(player, state):
        check_state(state, "generate_valid_moves")
        check_player(player, "generate_valid_moves")
        if player != state.to_move:
            raise ValueError(f"generate_valid_moves({player}, state): it is player {state.to_move}'s turn in this state")
        return rules.actions(built.position(state))

    def apply(state, move):
        check_state(state, "apply")
        legal = rules.actions(built.position(state))
        if not any(_same_move(move, m) for m in legal):
            raise ValueError(f"apply(state, {move!r:.40}): not a legal move in this state (legal: {legal!r:.120})")
        return built.state(rules.result(built.position(state), move))

    def is_terminal(state):
        check_state(state, "is_terminal")
        return rules.is_terminal(built.position(state))

    def evaluate(state):
        check_state(state, "evaluate")
        return rules.utility(built.position(state), PLAYER_2)

    def next_player(player):
        check_player(player, "next_player")
        return rules.other(player)

    return {"generate_valid_moves": generate_valid_moves, "apply": apply, "is_terminal": is_terminal,
            "evaluate": evaluate, "next_player": next_player}


def build(case_input):
    return Built(case_input)


def loading_helpers():
    """While the file itself runs: the players' numbers (the helpers need a case, so they come later)."""
    return {"PLAYER_1": PLAYER_1, "PLAYER_2": PLAYER_2}


def call(entry, built):
    return entry(built.player, built.root)


def snapshot(built):
    """The root state as the student could change it: its fields, and every cell of its board.

    Read through the slots' own getters, taken at import, and only from a state that is exactly a ``State``: the
    student holds it, and gave it a class of theirs (``state.__class__ = Sub``, a subclass with a ``board`` property)
    whose property ran on the harness's thread and showed the board as it was (the hundred and sixteenth red team)."""
    state = built.root  # the harness vouches for ``built`` (seal.call_seal: its class, its dict, the values in it)
    if type(state) is not State:
        return ("not a State", _type_name(type(state)), id(state))

    def cell(value):  # a plain value as it is, anything else by its type's name
        return (_type_name(type(value)), value if _is_plain(value) else None)

    # Tuples all the way down (the harness keeps this while student code runs: gc must not be
    # able to rewrite it), and no method of a student's object is called: a field that is not a
    # plain value is described by its type's name.
    try:
        board = _board_of(state)
        shown = None if board is None else tuple(tuple(cell(v) for v in row) if type(row) is list else ("row",)
                                                 for row in board) \
            if type(board) is list else ("board", _type_name(type(board)))
        return (_plain_field(_game_of(state)), _plain_field(_node_of(state)), _plain_field(_to_move_of(state)), shown)
    except AttributeError:  # a slot emptied (``del state.board``)
        return ("fields removed",)


# The slots' own getters, taken now: nothing the student does to the class of a state of theirs changes them
_game_of, _node_of, _board_of, _to_move_of = (State.__dict__[name].__get__ for name in State.__slots__)


def change_of(built, before):
    """Where the call changed the state it was handed, in words for the report (the harness asks where it found
    a change): "state.board[1][2] is 1 where it was 0" points at the move a search made in place instead of
    with ``apply``. Compares two ``snapshot`` tuples (plain values only, no method of anything runs); None where
    they are not two snapshots of this shape. Words only: the verdict is the harness's comparison."""
    now = snapshot(built)
    if type(before) is not tuple or len(before) != 4:
        return None
    if now[0] == "not a State":
        return "state is no longer a State (its class was changed)"
    if len(now) != 4:
        return "the state lost one of its fields"
    for field, was, is_now in zip(("game", "node", "to_move"), before, now):
        if was != is_now:
            return f"state.{field} is {_said(is_now)} where it was {_said(was)}"
    was, is_now = before[3], now[3]
    if type(was) is tuple and type(is_now) is tuple and len(was) == len(is_now) \
            and all(type(row) is tuple for row in was + is_now):
        for r, (old_row, new_row) in enumerate(zip(was, is_now)):
            if len(old_row) != len(new_row):
                return f"state.board[{r}] has {len(new_row)} cells where it had {len(old_row)}"
            for c, (old_cell, new_cell) in enumerate(zip(old_row, new_row)):
                if old_cell != new_cell:
                    return f"state.board[{r}][{c}] is {_said(new_cell, True)} where it was {_said(old_cell, True)}"
    return "state.board is another board than it was"


def _said(value, cell=False):
    """A field or a cell of ``snapshot``'s, as a student reads it (a value as Python writes it, capped)."""
    if cell and type(value) is tuple and len(value) == 2:  # (type name, the plain value or None)
        value = value[1] if value[0] in ("int", "str", "float", "bool", "NoneType") else ("object", value[0], 0)
    if type(value) is tuple and len(value) == 3 and value[0] == "object":
        return "an object" if value[1] == "?" else f"a {value[1][:60]} object"  # a name _type_name made plain
    text = repr(value) if _is_plain(value) else "something else"
    return text if len(text) <= 60 else text[:59] + "…"


# A type's name read by type's own getter: ``kind.__name__`` would ask a student's metaclass.
_name_of_type = type.__dict__["__name__"].__get__


def _type_name(kind):
    """A type's name as plain text: exactly a ``str``, or ``"?"``. A class's ``__name__`` may be a ``str`` subclass
    of the student's, whose ``__eq__`` ran where two snapshots were compared, on the harness's thread (the hundred
    and fifteenth red team: a piece left on the board, ``("int", 0)`` compared with its class's name)."""
    name = _name_of_type(kind)
    return name if type(name) is str and name.isidentifier() else "?"


def _is_plain(value):
    """Whether ``value`` is exactly an int, str, float, bool or None: by identity of its type, one type at a time
    (``type(value) in (int, ...)`` compares, and a metaclass's ``__eq__`` of the student's ran there)."""
    kind = type(value)
    return kind is int or kind is str or kind is float or kind is bool or value is None


def _plain_field(value):
    """A field as it is where it is a plain value, else its type's name and its identity."""
    return value if _is_plain(value) else ("object", _type_name(type(value)), id(value))
