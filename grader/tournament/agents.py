"""The players of a tournament: baselines in this process, every submitted agent in its own sandbox.

Every player answers ``choose(state)`` with a ``Choice``: the move (an action of the game, or
None when the player failed), the budget it used (positions scored) and, on a failure, the one
line that says why it lost. Baselines are trusted code over the exercise's kit (its game and its
reference searcher). A ``Sandboxed`` agent is a student's (or an instructor's) file: one
sandboxed session per series of games (a pairing's), opened at its first move and opened afresh
after a game it lost by a failure, asked one case per move, exactly as the grader asks a graded case; its budget is the number of evaluations the child asked the grading
process for during that move (``Budgeted``, around the exercise's own oracle), never a number or
a time the child reports. Past the budget every further question is refused (the child's helper
raises) and the move is lost as an overrun, whatever the child does next.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
from dataclasses import dataclass

from grader.sandbox.session import GraderFault, SandboxFailure, Session
from grader.vocabulary.answers import Answer

OVER_BUDGET = "the move's budget is spent"


@dataclass(frozen=True)
class Choice:
    move: object = None
    used: int = 0
    failure: str | None = None


def seeded(*parts) -> random.Random:
    """A random stream named by its parts (the same on every machine and Python: sha256, not hash())."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class Budgeted:
    """The exercise's oracle for one move, counting every evaluation asked; past ``budget`` it refuses."""

    def __init__(self, inner, budget: int):
        self.inner = inner
        self.budget = budget
        self.asked = 0

    def ask(self, message):
        self.asked += 1
        if self.asked > self.budget:
            if type(message) is not list or len(message) != 4 or message[0] != "e":
                raise ValueError("not an evaluation")  # the same refusal the oracle makes: tampering
            return {"error": f"{OVER_BUDGET}: {self.budget} positions scored"}
        return self.inner.ask(message)

    def tell(self, message):
        return self.inner.tell(message)

    def trace(self) -> dict:
        return {"asked": self.asked}


def rules_of(exercise, declaration=None):
    """The game a tournament's referee plays: the kit's game, or the object route's rules under the same names."""
    if exercise.kit is not None:
        return exercise.kit.game
    from grader.tournament.declaration import arena_of

    return arena_of(exercise).game


class _Arena:
    """The exercise as a tournament's session sees it: its own limits, and each move's oracle budgeted.

    For an object-route exercise (``declaration.route == "object"``) the driver and the oracles are the
    exercise's own (``AgentHooks.arena``): the budget is its virtual clock, every tick a question counted."""

    def __init__(self, exercise, limits, budget: int, declaration=None):
        from grader.tournament.declaration import arena_of

        self._exercise = exercise
        self.limits = limits
        self.budget = budget
        self.oracles: list = []
        self.face = arena_of(exercise) if declaration is not None and declaration.route == "object" else None

    def __getattr__(self, name):
        return getattr(self._exercise, name)

    @property
    def driver_path(self):
        """A driver whose child asks for every evaluation: the budget is counted in them, even for an exercise
        whose grading lets the child evaluate by itself (nothing there rests on them)."""
        if self.face is not None:
            return self.face.driver_path()
        return self._exercise.kit.driver_path(asking=True)

    def hook(self, name, default=None):
        if self.face is not None and name in ("loading_oracle", "oracle"):
            if name == "loading_oracle":
                return self.face.loading_oracle

            def counted(case_input):
                oracle = self.face.oracle(case_input, self.budget)
                self.oracles.append(oracle)
                return oracle

            return counted
        if name == "loading_oracle":
            return lambda: self._exercise.kit.loading_oracle(asking=True)
        if name != "oracle":
            return self._exercise.hook(name, default)
        make = self._exercise.kit.asking_oracle

        def budgeted(case_input):
            oracle = Budgeted(make(case_input), self.budget)
            self.oracles.append(oracle)
            return oracle

        return budgeted


def limits_for(exercise, declaration, games: int = 1):
    """One call per move under the guard; a series' session under a guard per move it may make."""
    guard = declaration.move_guard
    moves = (declaration.max_plies // 2 + 2) * games
    total = guard * moves + exercise.limits.load_timeout
    return dataclasses.replace(exercise.limits, call_timeout=guard, submission_timeout=total,
                               cpu_seconds=max(exercise.limits.cpu_seconds, int(math.ceil(total))))


def same_move(answer: Answer, plain) -> bool:
    """The answer is this move, by exact type (a list or a tuple for a sequence)."""
    if type(plain) is list:
        return (answer.kind in ("list", "tuple") and len(answer.items) == len(plain)
                and all(same_move(item, part) for item, part in zip(answer.items, plain)))
    if plain is None:
        return answer.kind == "none"
    kind = {int: "int", str: "str", float: "float", bool: "bool"}.get(type(plain))
    return answer.kind == kind and answer.value == plain


class Sandboxed:
    """A submitted agent: its file in a sandboxed session of its own for one game."""

    def __init__(self, path: str, exercise, declaration, launcher, games: int = 1):
        self.path = path
        self.exercise = exercise
        self.kit = exercise.kit
        self.game = rules_of(exercise)
        self.declaration = declaration
        self.launcher = launcher
        self.arena = _Arena(exercise, limits_for(exercise, declaration, games), declaration.budget, declaration)
        self.session: Session | None = None
        self.dead: str | None = None
        self.moves = 0

    def _open(self) -> None:
        from grader.judging import submissions

        make = getattr(self.launcher, "session_class", None) or Session
        self.session = make(submissions.load(self.path), self.arena, self.launcher)
        try:
            loaded = self.session.open()
        except GraderFault:
            raise
        except SandboxFailure as failure:
            self.dead = f"could not start: {failure.reason}"
            return
        if not loaded.get("ok"):
            self.dead = "could not load: " + str(loaded.get("error") or "the file did not load").splitlines()[0][:200]

    def choose(self, state) -> Choice:
        if self.session is None:
            self._open()
        if self.dead:
            return Choice(failure=self.dead)
        self.moves += 1
        if self.arena.face is not None:
            case_input = self.arena.face.case(state, self.declaration.depth, self.declaration.budget)
        else:
            case_input = {"state": self.game.encode(state)}
            if self.declaration.depth is not None:
                case_input["depth"] = self.declaration.depth
        before = len(self.arena.oracles)
        try:
            raw = self.session.run([{"id": f"move-{self.moves}", "input": case_input}])[0]
        except SandboxFailure as failure:
            self.dead = failure.reason
            used = self.arena.oracles[before].asked if len(self.arena.oracles) > before else 0
            return Choice(used=used, failure=self._over(used) or failure.reason)
        used = raw.get("trace", {}).get("asked", 0)
        over = self._over(used)
        if over:
            return Choice(used=used, failure=over)
        if raw.get("timed_out"):
            return Choice(used=used, failure=f"timed out (the {self.declaration.move_guard:g} s guard per move)")
        if raw.get("raised"):
            return Choice(used=used, failure=f"raised {str(raw['raised']).splitlines()[0][:200]}")
        if raw.get("answer") is None:
            return Choice(used=used, failure="gave no answer")
        answer = Answer.decode(raw["answer"])
        if self.arena.face is not None:
            move, problem = self.arena.face.move(answer, state)
            return Choice(used=used, failure=problem[:200]) if problem else Choice(move=move, used=used)
        parts, problem = self.kit.parts(answer)
        if problem:
            return Choice(used=used, failure=problem[:200])
        move = parts["move"]
        for action in self.game.actions(state):
            if same_move(move, self.game.move_data(action)):
                return Choice(move=action, used=used)
        return Choice(used=used, failure=f"illegal move {move.text[:60]}")

    def _over(self, used: int) -> str | None:
        if used > self.declaration.budget:
            return f"over budget (more than {self.declaration.budget} {self.declaration.unit} in one move)"
        return None

    def restart(self) -> None:
        """After a game it lost by a failure: the next move starts a fresh process (and loads the file again)."""
        self.close()
        self.session, self.dead = None, None

    def close(self) -> None:
        if self.session is not None:
            self.session.close()


class Baseline:
    """A declared baseline over the exercise's game and reference searcher (trusted, in this process)."""

    def __init__(self, spec: dict, exercise, game_index: int, seed):
        self.spec = spec
        self.kit = exercise.kit
        self.game = rules_of(exercise)
        self.seed, self.game_index = seed, game_index
        self.face = None
        if self.kit is None:
            from grader.tournament.declaration import arena_of

            self.face = arena_of(exercise)

    def _rng(self, state) -> random.Random:
        """The stream a choice in ``state`` draws from: named by the seed, the baseline, the game's number in its
        pairing and the position, never by the opponent. Named by the game's id (which holds both players), the
        random player played differently against each student: two agents with byte-identical code met different
        games, ranked apart and scored different rubric points (the 133rd helper)."""
        return seeded(self.seed, self.spec["id"], self.game_index, json.dumps(self.game.encode(state), sort_keys=True))

    def choose(self, state) -> Choice:
        if self.face is not None:  # the object route's baselines: over its rules and its named scores
            move, used = self.face.baseline(self.spec, state, self._rng(state))
            return Choice(move=move, used=used)
        actions = self.game.actions(state)
        kind = self.spec["kind"]
        if kind == "random":
            return Choice(move=actions[self._rng(state).randrange(len(actions))])
        maximising = self.game.to_move(state) == self.game.max_player
        if kind == "greedy":
            score = self.game.evaluate if self.game.has_evaluate else self.game.utility
            values = [score(self.game.result(state, a), self.game.max_player) for a in actions]
            best = max(values) if maximising else min(values)
            return Choice(move=actions[values.index(best)], used=len(actions))
        searcher, depth = self.kit.searcher, self.spec["depth"]
        _, scored = searcher.alphabeta(state, depth, pruning="strict" if kind == "alphabeta" else "none")
        best = searcher.best_moves(state, depth)
        return Choice(move=best[0] if best else actions[0], used=len(scored))

    def restart(self) -> None:
        pass

    def close(self) -> None:
        pass
