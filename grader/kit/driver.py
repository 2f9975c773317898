"""The sandbox side of every kit exercise: the game's states and instrumented helpers.

Runs in the child next to the student's code, imports only the standard library (and the
instructor's game module, by path), never the grader package. ``configure`` is called by the
small driver file the grader generates for each exercise (``grader.kit.hooks``) with the
declaration as plain data; it returns the driver interface the harness expects
(``build``, ``helpers``, ``call``, ``snapshot``, ``loading_helpers``).

Every state the student is handed is registered by identity with its path from the root
(the indices of the actions that led to it). An evaluation (``utility``, ``evaluate``) is a
question to the grading process, which logs it and computes the value itself: by the path for
a state the kit handed out, from the state's plain data for any other (logged as ``"?"``).
Nothing the child keeps is evidence, and the child never holds a value it has not asked for.
"""

import importlib.util
import json

_type = type
_id = id


def _load_game(path):
    spec = importlib.util.spec_from_file_location("_minimax_grader_kit_game", path)
    module = importlib.util.module_from_spec(spec)
    with open(path, "rb") as handle:  # from its source, never a bytecode file beside it (see harness.load_driver)
        exec(compile(handle.read(), path, "exec", dont_inherit=True), module.__dict__)
    return module


def _to_plain(value):
    """A state as JSON-ready data (as the grader's ``kit.game.to_plain`` makes it)."""
    kind = _type(value)
    if kind is list or kind is tuple:
        return [_to_plain(item) for item in value]
    if kind is dict:
        return {str(k): _to_plain(v) for k, v in value.items()}
    if _plain_kind(kind) is not None:
        return value
    raise ValueError(f"{_type_name(kind)} is not part of a position of this game")


def _from_plain(value):
    if _type(value) is list:
        return tuple(_from_plain(item) for item in value)
    if _type(value) is dict:
        return {k: _from_plain(v) for k, v in value.items()}
    return value


_name_of_type = type.__dict__["__name__"].__get__  # ``kind.__name__`` would ask a student's metaclass
_dict_items = dict.items
_NoneType = type(None)


def _plain_kind(kind):
    """The tag of a plain value's exact type, or None. By identity, one type at a time: ``kind in (int, ...)`` (or a
    dict or set of types) compares or hashes ``kind``, and a class whose metaclass has its own ``__eq__`` or
    ``__hash__`` then ran it on the harness's thread, in the snapshot after a call (the hundred and fifteenth red
    team)."""
    if kind is int:
        return "int"
    if kind is float:
        return "float"
    if kind is str:
        return "str"
    if kind is bool:
        return "bool"
    if kind is _NoneType:
        return "NoneType"
    return None


def _type_name(kind):
    """A type's name as plain text: exactly a ``str``, or ``"?"``. A class's ``__name__`` may be set to a ``str``
    subclass of the student's, whose ``__eq__`` ran where two snapshots were compared and whose ``__str__`` ran
    where the words of a change were written, both on the harness's thread (the hundred and fifteenth red team)."""
    name = _name_of_type(kind)
    return name if _type(name) is str and name.isidentifier() else "?"


SNAPSHOT_ITEMS = 100_000  # items ``_snapshot`` describes, past which the rest is one mark


def _snapshot(value, depth=0, budget=None):
    """Exactly what a value holds, by exact type, never calling a method of a foreign object.

    Tuples all the way down: the harness keeps the "before" snapshot while student code runs, and
    code that finds it with ``gc`` must not be able to rewrite it in place to match a changed state.
    A dict key that is not a plain value is described by its type and identity, never its ``repr``.
    At most ``SNAPSHOT_ITEMS`` items: a cell set to a list holding itself a hundred times made this walk 100**12
    items on the harness's thread (the hundred and sixteenth red team).
    """
    if budget is None:
        budget = [SNAPSHOT_ITEMS]
    kind = _type(value)
    budget[0] -= 1
    if depth > 12 or budget[0] < 0:
        return ("deep",)
    plain = _plain_kind(kind)
    if plain is not None:
        return (plain, value)
    if kind is list or kind is tuple:
        items = []
        for item in value:
            if budget[0] < 0:  # the rest not walked at all: a row of ten million cells costs no more than the budget
                items.append(("deep",))
                break
            items.append(_snapshot(item, depth + 1, budget))
        return ("list" if kind is list else "tuple", tuple(items))
    if kind is dict:
        items = []
        for k, v in _dict_items(value):
            if budget[0] < 0:
                items.append(("deep",))
                break
            items.append((repr(k) if _plain_kind(_type(k)) is not None else ("key", _type_name(_type(k)), _id(k)),
                          _snapshot(v, depth + 1, budget)))
        return ("dict", tuple(items))
    return ("object", _type_name(kind), _id(value))


def _size(described):
    """How many items a ``_snapshot`` description holds (the driver's own tuples: nothing of the student's)."""
    if _type(described) is not tuple or len(described) != 2 or _type(described[1]) is not tuple \
            or described[0] not in ("list", "tuple", "dict"):
        return 1
    if described[0] == "dict":
        return 1 + sum(_size(pair[1]) for pair in described[1] if _type(pair) is tuple and len(pair) == 2)
    return 1 + sum(_size(item) for item in described[1])


def _after_budget(before):
    """The items the look after a call may walk: twice what the state held before (a state the call made huge is
    a change found in as many steps as the state had), never more than the walk before the call had: a state of
    more than ``SNAPSHOT_ITEMS`` items is then cut at the very same place both times, and an unchanged one compares
    equal (the hundred and eighteenth helper's reading)."""
    return min(_size(before) * 2 + 64, SNAPSHOT_ITEMS)


CHANGE_CAP = 400  # characters of ``_change_words``'s words (the grading process refuses a longer "change": replies)
SHOWN_CAP = 60  # characters of one value there


def _change_words(was, now, name="state"):
    """Where the state handed to the student differs after the call from the state before it (two ``_snapshot``
    descriptions), in words for the report: ``board[1][1] is 'X' where it was ' '`` (``name``: the declaration's
    name for the state) points at the move a search tried and did not undo. None where nothing differs or the descriptions are not this module's. Words only:
    the verdict is the harness's comparison; nothing here calls a method of anything (plain tuples and values)."""
    if _type(was) is not tuple or _type(now) is not tuple:
        return None
    path = ""
    for _ in range(14):  # _snapshot nests at most 12 deep
        if was == now:
            return None
        if len(was) != 2 or len(now) != 2 or was[0] != now[0] or was[0] not in ("list", "tuple", "dict") \
                or len(was[1]) != len(now[1]):
            break
        for number, (one, other) in enumerate(zip(was[1], now[1])):
            if one != other:
                break
        if was[0] == "dict":
            if one[0] != other[0]:  # another key in this place
                break
            path += f"[{one[0] if _type(one[0]) is str else '?'}]"
            was, now = one[1], other[1]
        else:
            path += f"[{number}]"
            was, now = one, other
    words = f"{name[:SHOWN_CAP]}{path} is {_shown(now)} where it was {_shown(was)}"
    return words if len(words) <= CHANGE_CAP else words[:CHANGE_CAP - 1] + "…"


def _shown(described):
    """One ``_snapshot`` description as a student reads it: a value as Python writes it, a container by its size."""
    kind = described[0] if _type(described) is tuple and described else None
    if kind in ("list", "tuple", "dict") and len(described) == 2:
        count = len(described[1])
        noun = "key" if kind == "dict" else "item"
        return f"a {kind} of {count} {noun}{'' if count == 1 else 's'}"
    if kind == "object" and len(described) == 3:
        return "an object" if described[1] == "?" else f"a {described[1][:SHOWN_CAP]} object"  # _type_name's
    if kind == "deep":
        return "something nested deeper"
    if len(described) == 2:
        text = repr(described[1])
        return text if len(text) <= SHOWN_CAP else text[:SHOWN_CAP - 1] + "…"
    return "something else"


class Built:
    """One case: the root state, freshly decoded, what the student is handed for it, and the depth."""

    def __init__(self, root, depth, handed):
        self.root = root
        self.depth = depth
        self.handed = handed


class Registry:
    """The states handed to the student in one call, by identity, with their paths from the root.

    A state that can change in place (a list, a dict, an object: the game's own states, or the view ``state_view``
    hands over) is its path only while it holds what it held when it was handed out, read as the game encodes it
    (``encode``: an object's attributes too, which a snapshot of the object itself shows only as its identity):
    one the student changed (a search that plays a move on the board, evaluates, and takes it back) is asked by
    what it holds now, as the stand-ins at home would evaluate it, never as the position it was (``lookup``)."""

    def __init__(self, root, view=None, encode=None):
        self.paths = {_id(root): ()}
        self.keep = [root]  # alive for the whole call, so no id is reused
        self.encode = encode
        # id -> what a changeable state held when handed out; empty where the states are plain tuples and numbers
        self.held = {} if _unchangeable(root) and (view is None or view is root) else {_id(root): self._held(root)}
        if view is not None and view is not root:  # the student holds the view: the root, asked by its path
            self.add(view, ())

    def _held(self, state):
        """What a changeable state holds, to compare: its encoding (plain data of exact types), or a mark equal to
        nothing where the game cannot encode it (then it is never taken for the position it was handed out as)."""
        if self.encode is None:
            return _snapshot(state)
        try:
            return self.encode(state)
        except Exception:  # noqa: BLE001 - the game's encode on what the student made of a state
            return object()

    def lookup(self, state):
        """The state's path while it is as it was handed out; None for any other state."""
        found = self.paths.get(_id(state))
        if found is not None and self.held:
            before = self.held.get(_id(state))
            if before is not None and self._held(state) != before:
                return None
        return found

    def path(self, state):
        found = self.lookup(state)
        return "?" if found is None else list(found)

    def where(self, state, encode):
        """How the grader finds the state: its path when the kit handed it out, else its plain data."""
        found = self.lookup(state)
        return list(found) if found is not None else {"state": encode(state)}

    def add(self, state, path):
        if _id(state) not in self.paths:
            self.paths[_id(state)] = path
            self.keep.append(state)
            if self.held or not _unchangeable(state):
                self.held[_id(state)] = self._held(state)


def _unchangeable(value, depth=0) -> bool:
    """Whether nothing in ``value`` can change in place: plain values (``_plain_kind``, which compares no type with
    ``==``), in tuples and frozensets of them."""
    kind = _type(value)
    if _plain_kind(kind) is not None:
        return True
    if (kind is tuple or kind is frozenset) and depth < 6 and len(value) <= 400:
        return all(_unchangeable(item, depth + 1) for item in value)
    return False


_EVALUATIONS = ("utility", "evaluate")


def _withhold_evaluations(game, handed):
    """Take the game's evaluation functions out of the child's copy of the game: their values are
    the grader's to give (and to log). Kept only where another function of the game calls one by
    name (an ``is_terminal`` built on ``utility``), which the child then needs, or where the
    declaration hands it to the student as a plain function (``handed``)."""
    functions = [value for value in vars(game).values() if _type(value) is _type(_withhold_evaluations)]
    for name in _EVALUATIONS:
        used = any(name in function.__code__.co_names for function in functions
                   if function.__name__ not in _EVALUATIONS)
        if not used and name not in handed and name in vars(game):
            delattr(game, name)
    for value in list(vars(game).values()):  # the instructor's own module behind a generated one (kit.hooks.rules_path)
        if _type(value) is _type(json) and value.__name__ == "_minimax_grader_kit_rules":
            _withhold_evaluations(value, handed)


class _Here:
    """Evaluations answered in the child, for an exercise none of whose checks or mistake naming reads which
    positions were evaluated (the grader decides that from the declaration: ``evaluate_in_child``). The same
    answer the grading process's oracle (``grader.kit.hooks.KitOracle``) gives, found the same way: the
    position at the state's path from the case's own root, never the object the student may have changed,
    or the state's plain data read back for any other state. No round trip to the grader and no log: there
    is no evidence here to keep, and the values are the game's rules, which the answers are checked against."""

    def __init__(self, game, decode, encode, root_data):
        self.game = game
        self.decode = decode
        self.encode = encode
        self.positions = {(): decode(root_data)} if root_data is not None else {}

    def position(self, registry, state):
        path = registry.lookup(state)
        if path is None or () not in self.positions:
            return self.decode(self.encode(state))
        found = self.positions.get(path)
        if found is None:
            known = len(path)
            while path[:known] not in self.positions:
                known -= 1
            found = self.positions[path[:known]]
            for end in range(known + 1, len(path) + 1):
                found = self.positions[path[:end]] = self.game.result(found, list(self.game.actions(found))[path[end - 1]])
        return found

    def value(self, op, registry, state, side):
        position = self.position(registry, state)
        try:
            value = getattr(self.game, op)(position, self.game.PLAYERS[side])
        except Exception as exc:  # noqa: BLE001 - as the oracle words it
            raise ValueError(f"{op}() raised {_type(exc).__name__}: {exc}"[:300]) from None
        if _type(value) not in (int, float, bool, _type(None)):
            value = json.loads(json.dumps(value))  # what the oracle's answer would be, read back from JSON
        return value


def configure(declaration_json, game_path):
    """The driver interface for one declared exercise."""
    spec = json.loads(declaration_json)
    game = _load_game(game_path)
    here = bool(spec.get("evaluate_in_child"))
    if not here:
        _withhold_evaluations(game, {h.get("function") for h in spec["helpers"].values() if h["op"] == "function"}
                              | {spec.get("state_view")})
    players = game.PLAYERS
    course = {players[0]: spec["players"]["max"], players[1]: spec["players"]["min"]}
    by_course = [(spec["players"]["max"], players[0]), (spec["players"]["min"], players[1])]
    decode = getattr(game, "decode", None) or _from_plain
    custom_encode = getattr(game, "encode", None)

    def encode(state):
        return _to_plain(custom_encode(state) if custom_encode else state)
    view = getattr(game, spec["state_view"]) if spec.get("state_view") else None  # e.g. a fresh, mutable board

    def game_player(value):
        for shown, player in by_course:
            if _type(shown) is _type(value) and shown == value:
                return player
        raise ValueError(f"{value!r} is not a player here (the players are {by_course[0][0]!r} and {by_course[1][0]!r})")

    def build(case_input):
        root = decode(case_input["state"])
        built = Built(root, case_input.get("depth"), view(root) if view else root)
        if here:
            built.here = _Here(game, decode, encode, case_input["state"])
        return built

    def make_helper(op, fixed, registry, link, function=None, local=None):
        if op == "function":  # a function of the game, handed over as it is (it knows no registry)
            return getattr(game, function)
        if op == "actions":
            def helper(state):
                return list(game.actions(state))
        elif op == "result":
            def helper(state, action):
                moves = list(game.actions(state))
                if action not in moves:
                    raise ValueError(f"{action!r} is not a legal move here (legal: {moves!r})")
                child = game.result(state, action)
                parent = registry.lookup(state)
                if parent is not None:
                    registry.add(child, parent + (moves.index(action),))
                return child
        elif op == "is_terminal":
            def helper(state):
                return game.is_terminal(state)
        elif op == "to_move":
            def helper(state):
                return course[game.to_move(state)]
        else:  # utility or evaluate: an evaluation of a position, asked of the grader (which logs it)
            if local is not None:  # ... or answered here, where the declaration makes it no evidence (_Here)
                def evaluation(state, side):
                    return local.value(op, registry, state, side)
            else:
                ask = link.ask
                paths, lookup = registry.paths, registry.lookup
                head = b'["e", "%s", [' % op.encode("ascii")

                def evaluation(state, side):
                    # A state the kit handed out is asked by its path, written as json.dumps writes it (the
                    # grader's quick reader expects exactly that text): thousands of questions per submission.
                    path = lookup(state) if registry.held else paths.get(_id(state))
                    if path is not None and _type(side) is int:
                        question = head + b", ".join([b"%d" % step for step in path]) + b"], %d]" % side
                    else:
                        question = ["e", op, registry.where(state, encode), side]
                    value = ask(question)
                    if _type(value) is dict:  # the game's own function raised on this state
                        raise ValueError(str(value.get("error", "this state cannot be evaluated"))[:300])
                    return value

            if fixed is not None:
                fixed_side = 0 if fixed == "max" else 1

                def helper(state):
                    return evaluation(state, fixed_side)
            else:
                def helper(state, player):
                    return evaluation(state, players.index(game_player(player)))
        return helper

    def helpers(built, link):
        registry = Registry(built.root, built.handed, encode)
        local = getattr(built, "here", None)
        return {name: make_helper(h["op"], h["player"], registry, link, h.get("function"), local)
                for name, h in spec["helpers"].items()}

    def loading_helpers(link):
        """While the student's file loads: the constants and helpers that work without a case. An
        evaluation still asks the grader (from the state's plain data): a helper kept from loading
        time and called while a case runs is logged with that case like any other question."""
        start = Registry(object())
        local = _Here(game, decode, encode, None) if here else None
        found = {name: make_helper(h["op"], h["player"], start, link, h.get("function"), local)
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

    def changed(built, before):
        """Whether the call changed the state it was handed: its snapshot now against ``before``, walking at most
        twice as many items as ``before`` holds (a state the call made huge, or made to hold itself, is a change
        found in as many steps as the state had, not a walk of what the student built)."""
        return _snapshot(built.handed, 0, [_after_budget(before)]) != before

    def change_of(built, before):
        """What the call changed in the state it was handed, in words (the harness asks where it found a change)."""
        return _change_words(before, _snapshot(built.handed, 0, [_after_budget(before)]),
                             spec.get("state_name") or "state")

    return {"build": build, "helpers": helpers, "loading_helpers": loading_helpers, "call": call,
            "snapshot": snapshot, "changed": changed, "change_of": change_of}
