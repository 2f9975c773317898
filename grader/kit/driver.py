"""The sandbox side of every kit exercise: the game's states and instrumented helpers.

Runs in the child next to the student's code, imports only the standard library (and the
instructor's game module, by path), never the grader package. ``configure`` is called by the
small driver file the grader generates for each exercise (``grader.kit.hooks``) with the
declaration as plain data; it returns the driver interface the harness expects
(``build``, ``helpers``, ``call``, ``snapshot``, ``loading_helpers``).

Every state the student is handed is registered by identity with its path from the root
(the indices of the actions that led to it). The helpers record, by that identity, which
states were expanded (``actions``) and evaluated (``utility``, ``evaluate``); a state the
kit never handed out is recorded as ``"?"``. Only paths go back to the grader, never states.
"""

import importlib.util
import json

_type = type
_id = id


def _load_game(path):
    spec = importlib.util.spec_from_file_location("_minimax_grader_kit_game", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _from_plain(value):
    if _type(value) is list:
        return tuple(_from_plain(item) for item in value)
    if _type(value) is dict:
        return {k: _from_plain(v) for k, v in value.items()}
    return value


_PLAIN_KEYS = (int, float, str, bool, type(None))
_name_of_type = type.__dict__["__name__"].__get__  # ``kind.__name__`` would ask a student's metaclass
_dict_items = dict.items


def _snapshot(value, depth=0):
    """Exactly what a value holds, by exact type, never calling a method of a foreign object.

    Tuples all the way down: the harness keeps the "before" snapshot while student code runs, and
    code that finds it with ``gc`` must not be able to rewrite it in place to match a changed state.
    A dict key that is not a plain value is described by its type and identity, never its ``repr``.
    """
    kind = _type(value)
    if depth > 12:
        return ("deep",)
    if kind in (int, float, str, bool) or value is None:
        return (_name_of_type(kind), value)
    if kind in (list, tuple):
        return (_name_of_type(kind), tuple(_snapshot(item, depth + 1) for item in value))
    if kind is dict:
        return ("dict", tuple((repr(k) if _type(k) in _PLAIN_KEYS else ("key", _name_of_type(_type(k)), _id(k)),
                               _snapshot(v, depth + 1)) for k, v in _dict_items(value)))
    return ("object", _name_of_type(kind), _id(value))


class Built:
    """One case: the root state, freshly decoded, what the student is handed for it, and the depth."""

    def __init__(self, root, depth, handed):
        self.root = root
        self.depth = depth
        self.handed = handed


class Registry:
    """The states handed to the student in one call, by identity, with their paths from the root."""

    def __init__(self, root):
        self.paths = {_id(root): ()}
        self.keep = [root]  # alive for the whole call, so no id is reused

    def path(self, state):
        found = self.paths.get(_id(state))
        return "?" if found is None else list(found)

    def add(self, state, path):
        if _id(state) not in self.paths:
            self.paths[_id(state)] = path
            self.keep.append(state)


def configure(declaration_json, game_path):
    """The driver interface for one declared exercise."""
    spec = json.loads(declaration_json)
    game = _load_game(game_path)
    players = game.PLAYERS
    course = {players[0]: spec["players"]["max"], players[1]: spec["players"]["min"]}
    by_course = [(spec["players"]["max"], players[0]), (spec["players"]["min"], players[1])]
    decode = getattr(game, "decode", None) or _from_plain
    view = getattr(game, spec["state_view"]) if spec.get("state_view") else None  # e.g. a fresh, mutable board

    def game_player(value):
        for shown, player in by_course:
            if _type(shown) is _type(value) and shown == value:
                return player
        raise ValueError(f"{value!r} is not a player here (the players are {by_course[0][0]!r} and {by_course[1][0]!r})")

    def build(case_input):
        root = decode(case_input["state"])
        return Built(root, case_input.get("depth"), view(root) if view else root)

    def make_helper(op, fixed, registry, trace, function=None):
        if op == "function":  # a function of the game, handed over as it is (it knows no registry)
            return getattr(game, function)
        if op == "actions":
            def helper(state):
                trace["expanded"].append(registry.path(state))
                return list(game.actions(state))
        elif op == "result":
            def helper(state, action):
                moves = list(game.actions(state))
                if action not in moves:
                    raise ValueError(f"{action!r} is not a legal move here (legal: {moves!r})")
                child = game.result(state, action)
                parent = registry.paths.get(_id(state))
                if parent is not None:
                    registry.add(child, parent + (moves.index(action),))
                return child
        elif op == "is_terminal":
            def helper(state):
                return game.is_terminal(state)
        elif op == "to_move":
            def helper(state):
                return course[game.to_move(state)]
        else:  # utility or evaluate: an evaluation of a position, recorded
            function = getattr(game, op)

            if fixed is not None:
                player = players[0] if fixed == "max" else players[1]

                def helper(state):
                    trace["evaluated"].append(registry.path(state))
                    return function(state, player)
            else:
                def helper(state, player):
                    trace["evaluated"].append(registry.path(state))
                    return function(state, game_player(player))
        return helper

    def helpers(built, trace):
        registry = Registry(built.root)
        return {name: make_helper(h["op"], h["player"], registry, trace, h.get("function"))
                for name, h in spec["helpers"].items()}

    def loading_helpers():
        """While the student's file loads: the constants and helpers that work without a case."""
        quiet = {"evaluated": [], "expanded": []}
        start = Registry(object())
        found = {name: make_helper(h["op"], h["player"], start, quiet, h.get("function"))
                 for name, h in spec["helpers"].items()}
        found.update(spec["constants"])
        return found

    def call(entry, built):
        arguments = []
        for source in spec["arguments"].values():
            if source == "state":
                arguments.append(built.handed)
            elif source == "depth":
                arguments.append(built.depth)
            elif source == "player":
                arguments.append(course[game.to_move(built.root)])
            else:
                arguments.append(spec[source])
        return entry(*arguments)

    def snapshot(built):
        return _snapshot(built.handed)

    return {"build": build, "helpers": helpers, "loading_helpers": loading_helpers, "call": call,
            "snapshot": snapshot}
