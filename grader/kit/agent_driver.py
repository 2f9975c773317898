"""The sandbox side of an exercise declared through the kit's object route (``[agent]``).

Runs in the child next to the student's code; standard library only, never imports ``grader``.
The student is handed a board OBJECT whose methods and properties carry the course's names
(``[agent.board]``: course name = kit operation), player objects, a score function and a
clock. Reading the board (legal moves, locations, whose turn) is computed here from the
instructor's rules; everything that is evidence is a question to the grading process, which
answers and records it (``grader.kit.agent_oracle``):

- ``["x", path, i]``: a position expanded (``forecast_move``), the i-th legal move from ``path``;
- ``["e", path, seat]`` and ``["u", path, seat]``: the score function and ``utility`` asked;
- ``["t"]``: the clock read; the grader counts recorded calls and answers the time left (a
  virtual clock: a timeout happens at the same call on every machine, under any load);
- ``["p", move]``: a move of a full game played (the grader referees it, answers the baseline's reply
  and starts the clock of the next move itself).
A path is the list of move indices from the case's root; the child never holds a value it did not ask for.
Nothing else is said: where a search's depths begin and end is read by the grader from the record.
A case's session closes when its call returns: a thread the call left running is refused from then on
(its question never reaches the grader, so it cannot land in the next case's record).
"""

import _thread
import importlib.util
import json

_type = type
_id = id
_OPS_PROPERTIES = ("active_player", "inactive_player", "move_count", "width", "height")


def _load(path):
    spec = importlib.util.spec_from_file_location("_minimax_grader_agent_rules", path)
    module = importlib.util.module_from_spec(spec)
    with open(path, "rb") as handle:  # from its source, never a bytecode file beside it (see harness.load_driver)
        exec(compile(handle.read(), path, "exec", dont_inherit=True), module.__dict__)
    return module


def _plain(value):
    if _type(value) in (list, tuple):
        return [_plain(v) for v in value]
    if value is None or _type(value) in (int, float, str, bool):
        return value
    return repr(value)[:60]


FROZEN_ITEMS = 100_000  # items ``_frozen`` describes, past which the rest is one mark (a list that holds itself)


def _frozen(value, budget, depth=0):
    """What the board's state (or its path) holds, for the harness to compare before and after a call: exact built-in
    containers and plain values by content, anything else by its type's and its own identity. Types are compared by
    identity and nothing's method runs: the board is the student's, who can put an object of theirs in its ``_state``
    slot, and ``repr`` of it, which this was, ran their ``__repr__`` on the harness's thread (the hundred and fifteenth
    red team's follow-up: it took the "mutated" mark out of the harness's result). Tuples all the way down, as every
    snapshot: nothing can rewrite it in place while the student's code runs."""
    kind = _type(value)
    budget[0] -= 1
    if depth > 16 or budget[0] < 0:
        return ("deep",)
    if kind is tuple or kind is list:
        items = []
        for item in value:
            if budget[0] < 0:  # the rest not walked at all
                items.append(("deep",))
                break
            items.append(_frozen(item, budget, depth + 1))
        return ("tuple" if kind is tuple else "list", tuple(items))
    if kind is int or kind is float or kind is str or kind is bool or value is None:
        return ("value", kind is int, kind is float, kind is str, kind is bool, value)
    if kind is dict:
        items = []
        for key, item in _dict_items(value):
            if budget[0] < 0:
                items.append(("deep",))
                break
            items.append((_frozen(key, budget, depth + 1), _frozen(item, budget, depth + 1)))
        return ("dict", tuple(items))
    return ("object", _id(kind), _id(value))


_dict_items = dict.items


def _frozen_size(described):
    """How many items a description of ``_frozen``'s (or a snapshot of them) holds: the driver's own tuples."""
    if _type(described) is not tuple:
        return 1
    return 1 + sum(_frozen_size(item) for item in described if _type(item) is tuple)


def _after_items(before):
    """The items the look after a call may walk in each part of the board: twice what ``before`` held, never more than
    the look before the call had (a board of more than ``FROZEN_ITEMS`` is cut at the same place both times)."""
    return min(_frozen_size(before) * 2 + 64, FROZEN_ITEMS)


class Opponent:
    """The other player: a plain object the board knows by identity (the course passes players around)."""

    def __repr__(self):
        return "<the opponent>"


class Built:
    def __init__(self, case, root):
        self.case = case
        self.root = root
        self.link = None
        self.board = None


def configure(declaration_json, rules_path):
    spec = json.loads(declaration_json)
    rules = _load(rules_path)
    board_names = spec["board"]

    class Session:
        """One case: the link to the grader and the two players, seat by seat."""

        def __init__(self, link, players, timed=True, clock=1e9):
            self.link = link
            self.players = players
            self.timed = timed  # a case whose clock can run out asks at every tick; any other only tells
            self.clock = clock
            self.ticks = 0
            self.lock = _thread.allocate_lock()  # a question in flight is answered before the session closes
            self.closed = False

        def close(self):
            with self.lock:
                self.closed = True

        def _send(self, how, message):
            with self.lock:
                if self.closed:
                    raise RuntimeError("this call of the grader's has ended: a thread left running after it is "
                                       "answered no more")
                return how(message)

        def note(self, message):
            """An expansion or a clock read where no clock can run out: recorded, one way (no round trip)."""
            self.ticks += 1
            if self.timed:
                return self.ask(message)
            self._send(self.link.tell, message)
            return self.clock - self.ticks if message[0] == "t" else 1

        def seat(self, player):
            for seat, known in enumerate(self.players):
                if known is player:
                    return seat
            raise ValueError(f"{player!r} is not a player of this game")

        def ask(self, message):
            if message[0] in ("e", "u"):
                self.ticks += 1
            answer = self._send(self.link.ask, message)
            if _type(answer) is dict and "error" in answer:
                raise ValueError(str(answer["error"])[:300])
            return answer

    def make_board_class():
        namespace = {"__slots__": ("_state", "_path", "_session"), "__module__": "isolation"}

        def legal_moves(self, player=None):
            seat = rules.to_move(self._state) if player is None else self._session.seat(player)
            return list(rules.moves_for(self._state, seat))

        def _expand(self, move):
            moves = rules.moves_for(self._state, rules.to_move(self._state))
            key = tuple(move) if _type(move) in (list, tuple) else move
            if key not in moves:
                raise ValueError(f"{move!r} is not a legal move here (legal: {moves!r})")
            index = moves.index(key)
            self._session.note(["x", self._path, index])
            return rules.result(self._state, key), self._path + [index]

        def forecast(self, move):
            state, path = _expand(self, move)
            return Board(state, path, self._session)

        def apply_move(self, move):
            self._state, self._path = _expand(self, move)

        def copy(self):
            return Board(self._state, self._path, self._session)

        def active_player(self):
            return self._session.players[rules.to_move(self._state)]

        def inactive_player(self):
            return self._session.players[1 - rules.to_move(self._state)]

        def opponent(self, player):
            return self._session.players[1 - self._session.seat(player)]

        def _over(self):
            return not rules.moves_for(self._state, rules.to_move(self._state))

        def is_winner(self, player):
            return _over(self) and self._session.seat(player) != rules.to_move(self._state)

        def is_loser(self, player):
            return _over(self) and self._session.seat(player) == rules.to_move(self._state)

        def utility(self, player):
            return self._session.ask(["u", self._path, self._session.seat(player)])

        def location(self, player):
            return rules.location(self._state, self._session.seat(player))

        def move_count(self):
            return rules.move_count(self._state)

        def width(self):
            return rules.WIDTH

        def height(self):
            return rules.HEIGHT

        def blank_cells(self):
            return rules.blank_cells(self._state)

        def to_string(self):
            return rules.render(self._state)

        def is_legal(self, move):
            key = tuple(move) if _type(move) in (list, tuple) else move
            return key in rules.moves_for(self._state, rules.to_move(self._state))

        def hash_of(self):
            return hash(self._state)

        ops = {"legal_moves": legal_moves, "forecast": forecast, "apply_move": apply_move, "copy": copy,
               "active_player": active_player, "inactive_player": inactive_player, "opponent": opponent,
               "is_winner": is_winner, "is_loser": is_loser, "utility": utility, "location": location,
               "move_count": move_count, "width": width, "height": height, "blank_cells": blank_cells,
               "to_string": to_string, "is_legal": is_legal, "hash": hash_of}
        for name, op in board_names.items():
            function = ops[op]
            namespace[name] = property(function) if op in _OPS_PROPERTIES else function
        namespace["__repr__"] = lambda self: "<Board>\n" + rules.render(self._state)
        return _type("Board", (), namespace)

    BoardClass = make_board_class()

    def Board(state, path, session):
        board = object.__new__(BoardClass)
        board._state, board._path, board._session = state, path, session
        return board

    def build(case_input):
        built = Built(case_input, rules.decode(case_input["state"]))
        built.board = Board(built.root, [], None)  # handed over once the call begins (its session then)
        return built

    # The slots' own getters, taken now: the student holds the board, and gave it a class of theirs (a subclass
    # with a ``_state`` property, ``__slots__ = ()``) that showed the board as it was (the hundred and sixteenth red
    # team); a board whose class is not exactly this one is a change, and is not looked into
    state_of, path_of = BoardClass.__dict__["_state"].__get__, BoardClass.__dict__["_path"].__get__

    def snapshot(built, budget=FROZEN_ITEMS):
        board = built.board  # the harness vouches for ``built`` (seal.call_seal: its class, its dict, its values)
        if _type(board) is not BoardClass:
            return ("not the board", _id(_type(board)), _id(board))
        try:
            return ("board", _frozen(state_of(board), [budget]), _frozen(path_of(board), [budget]))
        except AttributeError:  # a slot emptied (``del board._state``)
            return ("slot emptied",)

    def changed(built, before):
        """The board now against ``before``, walking at most twice as many items as ``before`` holds: a state the
        call made to hold itself is a change found in as many steps as the board had."""
        return snapshot(built, _after_items(before)) != before

    def helpers(built, link):
        built.link = link
        return {}

    def loading_helpers(link):
        return {}

    def resolve(namespace):
        return dict(namespace)

    def lookup(namespace, name, what):
        found = namespace.get(name)
        if found is None:
            raise NameError(f"the submission defines no {what} named {name}")
        return found

    def clock_of(session):
        def time_left():
            return session.note(["t"])
        return time_left

    def score_of(session):
        def score(game, player):
            return session.ask(["e", game._path, session.seat(player)])
        return score

    def construct(namespace, task, session, score, depth):
        cls = lookup(namespace, task["class"], "class")
        kwargs = {}
        for keyword, source in task["constructor"].items():
            if source == "score":
                kwargs[keyword] = score
            elif source == "depth":
                kwargs[keyword] = depth if depth is not None else 3
            elif source == "threshold":
                kwargs[keyword] = task["threshold"]
        kwargs.update(task.get("constants") or {})
        return cls(**kwargs)

    def arguments(task, board, session, depth):
        found = []
        for source in task["arguments"]:
            if source == "game":
                found.append(board)
            elif source == "depth":
                found.append(depth)
            elif source == "time_left":
                found.append(clock_of(session))
            elif source == "legal_moves":
                found.append(board.__class__.__dict__[_legal_name](board) if _legal_name else [])
            elif source in ("alpha", "beta"):
                found.append(float(built_bounds[0][0 if source == "alpha" else 1]))
            elif source == "maximizing":
                found.append(True)
        return found

    _legal_name = next((name for name, op in board_names.items() if op == "legal_moves"), None)
    built_bounds = [(-float("inf"), float("inf"))]

    def call(namespace, built):
        session = Session(built.link, [None, None], "clock" in built.case)
        try:
            return run(namespace, built, session)
        finally:
            session.close()  # a thread the call left running asks no more (see the module's docstring)

    def run(namespace, built, session):
        task = built.case["task"]
        kind = task["kind"]
        seat = built.case.get("seat", 0)
        opponent = Opponent()
        players = session.players
        if kind == "heuristic":
            players[seat], players[1 - seat] = Opponent(), opponent
            board = built.board
            board._session = session
            function = lookup(namespace, task["function"], "function")
            return [function(board, players[0]), function(board, players[1])]
        score = score_of(session) if task.get("score") else lookup(namespace, task.get("own_score", "custom_score"),
                                                                     "function")
        agent = construct(namespace, task, session, score, built.case.get("depth", 3))
        players[seat], players[1 - seat] = agent, opponent
        agent.time_left = clock_of(session)
        built_bounds[0] = tuple(built.case.get("bounds") or (-float("inf"), float("inf")))
        timeout = task.get("timeout_exception")
        try:
            if kind == "game":
                return play(agent, task, session, built, seat)
            board = built.board
            board._session = session
            method = getattr(agent, task["method"])
            return method(*arguments(task, board, session, built.case.get("depth")))
        except BaseException as exc:
            if timeout and _type(exc).__name__ == timeout:
                return {"raised": timeout}
            raise

    def play(agent, task, session, built, seat):
        state, path = built.root, []
        for _ in range(rules.WIDTH * rules.HEIGHT + 2):
            mover = rules.to_move(state)
            moves = rules.moves_for(state, mover)
            if not moves:
                return {"game": "over"}
            if mover == seat:
                board = Board(state, list(path), session)
                move = agent.get_move(*arguments(task, board, session, None))
                answer = session.ask(["p", _plain(move)])
            else:
                move, answer = None, session.ask(["p", None])
            if answer.get("illegal"):
                return {"game": "illegal"}
            for played in answer["played"]:
                key = tuple(played)
                index = rules.moves_for(state, rules.to_move(state)).index(key)
                state, path = rules.result(state, key), path + [index]
        return {"game": "over"}

    # Made here, so in no namespace the harness looks through for the grader's classes: named for it to seal
    # whole (the board's class reads as the course's module's, and a student holds its instances; a property
    # of theirs put in place of ``_state`` would run in ``build``, on the harness's thread, between two calls).
    return {"build": build, "helpers": helpers, "loading_helpers": loading_helpers, "call": call,
            "snapshot": snapshot, "changed": changed, "resolve": resolve, "SEALED_CLASSES": (Session, BoardClass)}
