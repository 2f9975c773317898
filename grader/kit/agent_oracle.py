"""The grading process's side of one case of an object-route exercise: positions, scores, the clock.

The child's board object asks here for everything that is evidence (see ``agent_driver``): a
position expanded, a score or a utility asked, the clock read, a move of a full game. Each question is answered from the case's own root, by path, and recorded in
order; what the checks read is this record, never what the child says it did.

The clock is virtual: every recorded expansion, score, utility and clock read costs one tick, and
``time_left()`` answers ``clock - ticks`` (in the course's milliseconds). A search therefore runs out
of time at the same call on every machine and under any load; the wall-clock limit is a guard only.
Each move of a full game has its own clock, started by the grading process when it hands the position
over (the case's start, then each answer to the previous move): the child never starts or resets it.
"""

from __future__ import annotations

TRACE_CAP = 30000
MAX_PATH = 120
CUT_OFF = 100  # recorded calls past the end of the clock after which a search is stopped (its questions refused)
BOARD_STOPPED = "the grader's board stopped your search"  # how a search the board stopped is told (and read back)
SLACK = 20  # recorded calls a search may make after the clock ran out before it reads the clock again
# Positions one case keeps by path (an honest search of these games reaches a few thousand): past it a position is
# worked out from the longest kept prefix and not kept. Expansion notes come one way, and random paths of a copy of
# the rules the child carries made the grading process hold 0.5 GB (the forty-seventh red team).
POSITION_CAP = 50_000


def reach(rules, known: dict, path: tuple, cap: int):
    """The position ``path`` leads to, walked from the longest prefix of it in ``known`` (which holds ``()``, the
    root), each position on the way kept in ``known`` while it holds fewer than ``cap``; ValueError for a path that
    leads nowhere. The oracle answers by it, and the judge reads a record's paths by it (``AgentHooks._at``)."""
    at = len(path)
    while path[:at] not in known:
        at -= 1
    state = known[path[:at]]
    for end in range(at + 1, len(path) + 1):
        moves = rules.moves_for(state, rules.to_move(state))
        if not 0 <= path[end - 1] < len(moves):
            raise ValueError("not a path of this case")
        state = rules.result(state, moves[path[end - 1]])
        if len(known) < cap:
            known[path[:end]] = state
    return state


class AgentOracle:
    def __init__(self, rules, case_input: dict | None = None, baseline=None):
        self.rules = rules
        self.case = case_input or {}
        self.root = rules.decode(self.case["state"]) if case_input else None
        self.positions = {(): self.root}
        self.events: list = []
        self.truncated = False
        self.ticks = 0
        self.clock = float(self.case.get("clock", 1e9))
        self.move_start = 0
        self.game = [] if self.case.get("task", {}).get("kind") == "game" else None
        self.game_state = self.root
        self.baseline = baseline
        self.timed = "clock" in self.case  # a clock that can run out: every tick is a question
        self.cut_off = False

    def _log(self, event) -> None:
        if len(self.events) < TRACE_CAP:
            self.events.append(event)
        else:
            self.truncated = True

    def position(self, where):
        if self.root is None or type(where) is not list or not all(type(i) is int for i in where):
            raise ValueError("not a position")
        if len(where) > MAX_PATH:
            raise ValueError("a path longer than any game here")
        return reach(self.rules, self.positions, tuple(where), POSITION_CAP)

    def case_over(self) -> None:
        """The case's call has returned (the session begins the next, or the run ends): no question is answered
        here again, so the positions go; the record stays for the checks."""
        self.positions = {(): self.root}

    def _seat(self, seat):
        if type(seat) is not int or seat not in (0, 1):
            raise ValueError("not a player")
        return seat

    def ask(self, message):
        if type(message) is not list or not message or type(message[0]) is not str:
            raise ValueError("not a question of the object route")
        kind = message[0]
        if kind in ("x", "e", "u", "t") and self.timed and self.ticks - self.move_start > self.clock + CUT_OFF:
            self.cut_off = True
            # Said as the grader's, not the student's (it reaches them as a ValueError out of the board's method,
            # which read as theirs: the 121st helper)
            # Counted from where time_left() reaches 0, not from where it fell below the threshold (the point every
            # other message calls "the clock ran out"): said so, or a report read "ran out after 51 calls ... went on
            # for 111 more" beside "stopped 100 calls after the clock ran out" (the 125th helper)
            return {"error": f"{BOARD_STOPPED}: time_left() had reached 0 {CUT_OFF} recorded calls before, and it "
                             "had not raised the timeout"}
        if kind == "x" and len(message) == 3:
            path = list(message[1]) + [message[2]] if type(message[1]) is list else None
            self.position(path)
            self.ticks += 1
            self._log(["x", path])
            return 1
        if kind in ("e", "u") and len(message) == 3:
            state, seat = self.position(message[1]), self._seat(message[2])
            self.ticks += 1
            self._log([kind, message[1], seat])
            if kind == "u":
                return self.rules.utility(state, seat)
            return self.rules.SCORES[self.case.get("task", {}).get("score") or "improved"](state, seat)
        if kind == "t" and len(message) == 1:
            self.ticks += 1
            left = self.clock - (self.ticks - self.move_start)
            self._log(["t", left])
            return left
        if kind == "p" and len(message) == 2 and self.game is not None:
            return self._play(message[1])
        raise ValueError("not a question of the object route")

    def _play(self, move):
        """A move of the full game: the agent's (checked, timed), then the baseline's reply; the next move's
        clock starts here, when the grader hands the position back. Only the grader starts a move's clock:
        nothing the child says resets it. ``None`` asks the baseline to move first, on its own turn only."""
        state = self.game_state
        seat = self.case.get("seat", 0)
        mover = self.rules.to_move(state)
        if (move is None) != (mover != seat):
            raise ValueError("not a move of this game")  # the agent moves on its turn only, the baseline on its own
        played = []
        if move is not None:
            used = self.ticks - self.move_start
            legal = self.rules.moves_for(state, mover)
            key = tuple(move) if type(move) is list and len(move) == 2 and all(type(v) is int for v in move) else None
            shown = list(key) if key is not None else (move[:60] if type(move) is str else repr(move)[:60])
            record = {"move": shown, "ticks": used, "late": used > self.clock, "legal": key in legal,
                      "state": self.rules.encode(state)}
            self.game.append(record)
            if key not in legal:
                return {"illegal": True}
            state = self.rules.result(state, key)
            played.append(list(key))
        mover = self.rules.to_move(state)
        options = self.rules.moves_for(state, mover)
        if options:
            reply = self.baseline(state, mover, self.case.get("task", {}).get("opponent_score"))
            state = self.rules.result(state, reply)
            played.append(list(reply))
        self.game_state = state
        self.move_start = self.ticks  # the agent's next move: its clock starts as the grader answers
        return {"played": played}

    def tell(self, message):
        """Where no clock can run out, expansions and clock reads come one way (no round trip to wait for)."""
        if self.timed or self.root is None or type(message) is not list or not message:
            raise ValueError("not a note of the object route")
        if message[0] == "x" or message == ["t"]:
            self.ask(message)
            return
        raise ValueError("not a note of the object route")

    def trace(self) -> dict:
        found = {"events": self.events}
        if self.truncated:
            found["truncated"] = True
        if self.cut_off:
            found["cut_off"] = True
        if self.game is not None:
            found["game"] = self.game
            found["final"] = self.rules.encode(self.game_state)
        return found
