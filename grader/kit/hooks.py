"""The grader-side hooks of a declared exercise, built from its game and its ``[student]`` table.

``grader.judging.exercise`` asks for an exercise's hooks (the case bank, the reference, the checks,
pictures, shrinking); for a folder whose exercise.toml has a ``[game]`` table it gets a
``KitHooks`` instead of loading an ``exercise.py``. The sandbox side is the kit's generic
driver, configured by a two-line file generated here (in the user's cache, keyed by content),
so the harness loads it like any exercise's driver.

Check kinds a rubric may name: ``answers`` (value, then move), ``value``, ``move``,
``shape`` (the declared container, exactly), ``evaluations`` (which positions were evaluated,
against alpha-beta's or minimax's own set), ``restored`` (or ``board-restored``: the state handed over
is as it was after every call that returned), plus the core's ``unchanged`` and ``consistent``.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path

from grader.vocabulary.answers import Answer
from grader.kit import bank as kit_bank
from grader.kit import answer_shape, declaration, groups, pictures, student_api
from grader.kit.by_identity import ByIdentity
from grader.kit.game import Game, to_plain
from grader.kit.generated import cached_file, configured_driver
from grader.kit.move_answer import moves_text
from grader.kit.search import Searcher
from grader.kit.traces import evaluated_paths

DRIVER = Path(__file__).with_name("driver.py")
SIZE_CAP = 100_000
GROUP_WORDS = {"fixtures": "hand-made positions", "reachable": "reachable positions", "random": "random positions"}


TRACE_CAP = 20000  # evaluations logged per case; a search that asks more is cut off, and says so
MAX_PATH = 400  # moves from a case's root: no game the kit grades is longer (a longer path is no honest question)
SHARED_CAP = 5_000  # positions (and values) remembered per bank case: a search past it is answered, not remembered


class KitOracle:
    """The grading process's side of one case's evaluations (``utility``, ``evaluate``).

    The child asks with the state's path from the root (a state the kit handed out) or, for any
    other state, its plain data; the position is found here, from the case's own root, and the
    value computed here, so what is logged is exactly what was asked. Without a root (while the
    file loads) only plain data is answered and nothing is logged. A question of the wrong shape
    is the child's tampering; a state the game's own function fails on is the student's error,
    raised in their code.
    """

    # The same question gets the same answer (a position's value by the game's rules): a later run of the case
    # may hand the child what it asked before (``grader.sandbox.session.Session.run``).
    replayable = True

    def __init__(self, game: Game, root=None, shared=None):
        self.game = game
        # Positions by path and values by (op, path, side), shared by every oracle of the same bank case
        # (``KitHooks.oracle``): a bulk worker asks the same cases of every submission, and a check asks them
        # twice. Only the log is this oracle's own.
        if shared is not None:
            self.positions, self.values = shared
        else:
            self.positions, self.values = ({(): root} if root is not None else None), {}
        self.evaluated: list = []
        self.truncated = False

    def _position(self, where):
        if type(where) is dict:
            if list(where) != ["state"]:
                raise ValueError("not a position")
            return "?", self.game.decode(where["state"])
        if self.positions is None or type(where) is not list or not all(type(i) is int for i in where):
            raise ValueError("not a position")
        if len(where) > MAX_PATH:
            raise ValueError("a path longer than any game here")
        path = tuple(where)
        positions = self.positions
        state = positions.get(path)
        if state is not None:
            return where, state
        known = len(path)
        while path[:known] not in positions:  # the longest prefix already found, then one move at a time
            known -= 1
        state = positions[path[:known]]
        for end in range(known + 1, len(path) + 1):
            moves = self.game.actions(state)
            if not 0 <= path[end - 1] < len(moves):
                raise ValueError("not a path of this case")
            state = self.game.result(state, moves[path[end - 1]])
            if len(positions) < SHARED_CAP:
                positions[path[:end]] = state
        return where, state

    def ask(self, message):
        if type(message) is not list or len(message) != 4 or message[0] != "e":
            raise ValueError("not an evaluation")
        _, op, where, side = message
        if op not in ("utility", "evaluate") or type(side) is not int or side not in (0, 1):
            raise ValueError("not an evaluation")
        try:
            logged, state = self._position(where)
        except ValueError:
            raise
        except Exception as exc:  # the game could not read the plain data: the student's state
            return {"error": f"{op}() cannot read this state: {type(exc).__name__}: {exc}"[:300]}
        if self.positions is not None:
            if len(self.evaluated) < TRACE_CAP:
                self.evaluated.append(logged)
            else:
                self.truncated = True
        key = (op, tuple(logged), side) if logged != "?" else None
        if key is not None and key in self.values:
            return self.values[key]
        try:  # through the kit's Game: a course-style f(state) is asked for the player as the kit asks it
            value = getattr(self.game, op)(state, (self.game.max_player, self.game.min_player)[side])
        except Exception as exc:  # noqa: BLE001 - the game's function failed on the student's state
            return {"error": f"{op}() raised {type(exc).__name__}: {exc}"[:300]}
        if key is not None and len(self.values) < SHARED_CAP:
            self.values[key] = value
        return value

    def tell(self, message):
        raise ValueError("the kit's helpers tell nothing")

    def trace(self) -> dict:
        return {"evaluated": self.evaluated, **({"truncated": True} if self.truncated else {})}


class KitHooks:
    """Everything the judge asks an exercise, answered from the game and the declaration."""

    def __init__(self, exercise):
        self.exercise = exercise
        self.decl = declaration.read(exercise.meta)
        self.game_path = (exercise.folder / self.decl["module"]).resolve()
        self.game = Game.from_file(self.game_path, f"_minimax_grader_game_{exercise.id.replace('-', '_')}")
        self.searcher = Searcher(self.game, self.decl["depth_counts"])
        named = [self.decl["state_view"]] if self.decl["state_view"] else []
        named += [h["function"] for h in self.decl["helpers"].values() if h["op"] == "function"]
        missing = [name for name in named if not callable(getattr(self.game.module, name, None))]
        if missing:
            raise declaration.DeclarationError(f"[student] names {', '.join(missing)}, which {self.game_path.name} "
                                               "does not define as a function")
        self._check_view()
        self._check_stated_values()
        refused = (declaration.unknown_groups(self.decl, exercise.checks)
                   or declaration.vacuous_checks(self.decl, exercise.checks, self._handed_immutable()))
        if refused:
            raise declaration.DeclarationError(refused)
        self._evaluations: dict[str, tuple] = {}
        self._sizes: dict = {}
        self._oracle_memory = ByIdentity(1024)
        exercise.meta.setdefault("group_words", dict(GROUP_WORDS))  # how reports name the kit's groups

    def _check_view(self) -> None:
        """The game's operations handed to the student (``moves``, ``play``...) are called with the view ``state_view``
        makes, not with a state: on the starts they must give the moves they give for the state itself, or every
        search, the instructor's own included, raises or plays another game (one line, at loading)."""
        name = self.decl["state_view"]
        if not name or not any(h["op"] in ("actions", "result") for h in self.decl["helpers"].values()):
            return
        view, module = getattr(self.game.module, name), self.game.module
        for start in self.game.starts[:3]:
            try:
                expected, seen = list(module.actions(start)), list(module.actions(view(start)))
                same = seen == expected and all(
                    self.game.encode(module.result(view(start), move)) == self.game.encode(module.result(start, move))
                    for move in expected)
            except Exception as exc:  # noqa: BLE001 - the instructor's rules on a view: say what they did
                raise declaration.DeclarationError(
                    f"[student] state_view = {name!r}: the game's actions and result are called with the view, and "
                    f"they raised {type(exc).__name__} on {name}({start!r}): {exc}"[:400]) from None
            if not same:
                raise declaration.DeclarationError(
                    f"[student] state_view = {name!r}: the game's actions and result are called with the view, and on "
                    f"{name}({start!r}) they do not give what they give on the position itself (make them take the "
                    "view, or hand over the game's own functions: { function = ... })"[:400])

    def _check_stated_values(self) -> None:
        """A hand-made position's stated ``value`` is the kit reference's, or the exercise does not load (one line)."""
        try:
            stated = kit_bank.stated_values(self.game, self.decl, self.exercise.fixtures_path)
        except kit_bank.FixtureError as exc:
            raise declaration.DeclarationError(f"fixtures: {exc}") from None
        for case_id, case_input, known in stated:
            value = self.searcher.value(self.state_of(case_input), case_input.get("depth"))
            if not _same_number(known, value):
                depth = "" if case_input.get("depth") is None else f" at depth {case_input['depth']}"
                raise declaration.DeclarationError(
                    f"the hand-made position {case_id} states value {known!r}, but it is worth "
                    f"{value!r}{depth} by the game's rules (correct the value, or the position)")

    def _handed_immutable(self) -> bool:
        """Whether the student is handed a position no search can change (a tuple of numbers, say)."""
        if self.decl["state_view"]:
            return False
        try:
            hash(self.game.decode(self.game.encode(self.game.starts[0])))
        except TypeError:
            return False
        except Exception:  # a game that cannot say: assume it may be changed
            return False
        return True

    # -- what the core loads ---------------------------------------------------------------------

    def driver_path(self, asking: bool | None = None) -> Path:
        """A driver file for the harness: the kit's generic driver, configured with this declaration.

        ``asking=True``: a driver whose child asks the grader for every evaluation even where grading does
        not need it (a tournament counts its budget in evaluations asked, ``grader.tournament.agents``)."""
        return configured_driver("kit-drivers", self.exercise.id, "the kit driver, configured", DRIVER,
                                 "_minimax_grader_kit_driver", self._child_declaration(asking), self.rules_path())

    @cached_property
    def evaluations_are_evidence(self) -> bool:
        """Whether which positions were evaluated is evidence here: a check of kind ``evaluations`` judges it,
        or the mistake naming reads it (``KitMistakes.trace_evidence``, where the search is depth-limited:
        where the evaluation was asked against the limit). Decided from the declaration alone, never from
        anything a child says. Only then does the child ask the grader for every evaluation (a round trip
        each, logged); otherwise the child's copy of the game keeps its evaluation functions and the kit's
        driver answers them itself (``driver._Here``), with nothing logged and nothing to forge."""
        return self.decl["depth_limited"] or any(spec.kind == "evaluations" for spec in self.exercise.checks)

    def _child_declaration(self, asking: bool | None = None) -> dict:
        asking = self.evaluations_are_evidence if asking is None else asking
        return self.decl if asking else {**self.decl, "evaluate_in_child": True}

    def rules_path(self) -> Path:
        """The game module the sandbox's driver loads: the instructor's own, or, when its ``utility`` or
        ``evaluate`` gives MAX's value alone (``f(state)``), a generated module that asks it in the kit's
        form ``f(state, player)`` (the driver calls every game the same way)."""
        turned = [name for name, alone in self.game.max_valued.items() if alone]
        if not turned:
            return self.game_path
        lines = [f'"""Generated by minimax-grader for {self.exercise.id}: {self.game_path.name} with '
                 f'{" and ".join(turned)} asked for a player."""',
                 "import importlib.util as _u",
                 f"_spec = _u.spec_from_file_location('_minimax_grader_kit_rules', {str(self.game_path)!r})",
                 "_rules = _u.module_from_spec(_spec)",
                 # from its source, never a bytecode file beside it (see harness.load_driver)
                 f"with open({str(self.game_path)!r}, 'rb') as _source:",
                 f"    exec(compile(_source.read(), {str(self.game_path)!r}, 'exec', dont_inherit=True), _rules.__dict__)",
                 "globals().update({k: v for k, v in vars(_rules).items() if not k.startswith('__')})", ""]
        for name in turned:
            lines += [f"def {name}(state, player, _own=_rules.{name}):",
                      "    value = _own(state)",
                      "    return value if player == PLAYERS[0] else -value", ""]
        return cached_file("kit-rules", self.exercise.id, "\n".join(lines))

    def driver_files(self) -> list[Path]:
        rules = self.rules_path()
        return [DRIVER.resolve(), self.game_path] + ([rules] if rules != self.game_path else [])

    @cached_property
    def extra_turns(self) -> bool:
        """Whether a player may move twice in a row: only then do the families that assume alternation differ
        from the rules (``Game.has_extra_turns``)."""
        return self.game.has_extra_turns()

    def oracle(self, case_input) -> KitOracle | None:
        """The grader's side of a case's evaluations, from its root position (what it found before about the
        same case, the very input object, is found again: positions and values, never the log). None where
        evaluations are no evidence: the child then asks nothing, and a question is its tampering."""
        if not self.evaluations_are_evidence:
            return None
        return self.asking_oracle(case_input)

    def asking_oracle(self, case_input) -> KitOracle:
        """The grader's side of a case's evaluations whether or not grading needs them (see ``driver_path``)."""
        return KitOracle(self.game, shared=self._oracle_memory.get(case_input, lambda: ({(): self.state_of(case_input)}, {})))

    def loading_oracle(self, asking: bool | None = None) -> KitOracle | None:
        asking = self.evaluations_are_evidence if asking is None else asking
        return KitOracle(self.game) if asking else None

    @cached_property
    def mistakes(self):
        from grader.kit.families import KitMistakes
        from grader.kit.moves_only import moves_only, told_apart_by_moves

        return KitMistakes(self, moves_only, told_apart_by_moves)

    # -- the student's API, said by api_mismatch and written by the student's door (kit/student_api.py) --

    API_ANSWER_KINDS = student_api.ANSWER_KINDS

    @property
    def API_PROVIDES(self) -> list[str]:
        return student_api.provides(self.decl)

    @property
    def API_OBJECTS(self) -> dict[str, str]:
        return student_api.state_types(self.game, self.decl)

    @property
    def API_NAMES(self) -> list[str]:
        return student_api.known_names(self.decl)

    def stand_ins(self, case_input) -> str:
        return student_api.stand_ins(self.exercise.id, self.decl, self.game, self, case_input)

    # -- the bank ----------------------------------------------------------------------------------

    def fixture_cases(self, folder: Path) -> list[dict]:
        return (kit_bank.fixture_cases(self.game, self.decl, folder) + kit_bank.reachable_cases(self.game, self.decl)
                + groups.cases(self.game, self.decl, kit_bank._input))

    def strategy(self):
        return kit_bank.strategy(self.game, self.decl)

    def state_of(self, case_input):
        return self.game.decode(case_input["state"])

    def reference(self, case_input, module=None) -> dict:
        state, depth = self.state_of(case_input), case_input.get("depth")
        return {"value": self.searcher.value(state, depth),
                "moves": [self.game.move_data(a) for a in self.searcher.best_moves(state, depth)]}

    # -- reading an answer in the declared shape ---------------------------------------------------

    def parts(self, answer: Answer) -> tuple[dict | None, str | None]:
        """({"value": Answer, "move": Answer}, None), or (None, what is wrong with the shape).

        Every check and every mistake family reads the same answer again, so the split is kept on the
        answer itself (an Answer never changes once decoded)."""
        found = answer.__dict__.get("_kit_parts")
        if found is None or found[0] is not self.decl:
            found = (self.decl, answer_shape.split(self.decl["returns"], answer, self.decl["function"]))
            object.__setattr__(answer, "_kit_parts", found)
        return found[1]

    def _returns_text(self) -> str:
        return answer_shape.words(self.decl["returns"])

    def show_expected(self, case_input, expected) -> str:
        """The right answer as the student returns it: ``[-1, -1, 0]``, ``(1, (0, 2)) or (1, (2, 1))``."""
        return answer_shape.show_expected(self.decl["returns"], expected)

    def value_problem(self, answer: Answer, expected) -> str | None:
        parts, problem = self.parts(answer)
        if problem or "value" not in parts:
            return problem
        value = parts["value"]
        if not value.is_number:
            return f"returned {answer.describe()}: the value must be a number, not {value.describe()}"
        if not value.equals_number(expected["value"]):
            if answer.describe() == value.text:  # the answer is the value alone: say it once
                return f"returned {value.text}, but the position is worth {expected['value']!r}"
            return f"returned {answer.describe()}: value {value.text}, but the position is worth {expected['value']!r}"
        return None

    def move_problem(self, answer: Answer, expected) -> str | None:
        parts, problem = self.parts(answer)
        if problem or "move" not in parts:
            return problem
        move, best = parts["move"], expected["moves"]
        if not best:
            if not answer_shape.is_no_move(self.decl["returns"], move):
                return (f"returned {answer.describe()}: there is no move to make here, so the answer is "
                        f"{self.show_expected(None, expected)}")
            return None
        if any(_same_move(move, option) for option in best):
            return None
        return (f"returned {answer.describe()}: {move.text} is not an optimal move here; "
                f"{moves_text(best)} {'keeps' if len(best) == 1 else 'keep'} the value {expected['value']!r}")

    def verify(self, case_input, expected, answer: Answer):
        return self.value_problem(answer, expected) or self.move_problem(answer, expected)

    # -- check kinds (check_<kind>) -----------------------------------------------------------------

    def _answered(self, outcome):
        problem = outcome.did_not_answer(self.exercise.limits.call_timeout)
        if problem and "skipped" not in outcome.raw:
            return f"{problem}, expected {self.show_expected(outcome.case.input, outcome.expected)}"
        return problem

    def check_value(self, outcome, spec):
        return self._answered(outcome) or self.value_problem(outcome.answer, outcome.expected)

    def check_move(self, outcome, spec):
        return self._answered(outcome) or self.move_problem(outcome.answer, outcome.expected)

    def check_shape(self, outcome, spec):
        if outcome.raw.get("answer") is None:
            return None  # no answer: checks.per_case_check fails the case if the rubric wanted one
        answer = outcome.answer
        parts, problem = self.parts(answer)
        if problem:
            return problem
        container = self.decl["returns"]["container"]
        if container is not None and answer.kind != container and not self.decl["returns"]["any_sequence"]:
            return f"returned {answer.describe()}, a {answer.kind}; the declared answer is a {container}: {self._returns_text()}"
        value = parts.get("value")
        if value is not None and not value.is_number:
            return f"returned {answer.describe()}: the value must be an int or a float, not {value.describe()}"
        no_move = self.decl["returns"]["no_move"]
        if self.decl["returns"]["spread"] and not all(type(i.value) is type(n) and i.kind == type(n).__name__
                                                      for i, n in zip(parts["move"].items, no_move)):
            return f"returned {answer.describe()}: the move's parts must be of the types of {no_move!r}"
        return None

    def check_restored(self, outcome, spec):
        """The state handed over is exactly as it was after every call that returned (a call cut short by
        an exception has nothing to show here, and checks.per_case_check fails it where an answer was wanted):
        what a search that tries moves in place must undo."""
        if outcome.raw.get("answer") is None or not outcome.raw.get("mutated"):
            return None
        state = self.decl["state_name"] or "state"
        late = outcome.late_change(state)
        if late:
            return late
        change = outcome.raw.get("change")  # where, in words, as the child saw it (driver._change_words)
        where = f" ({change})" if change else ""
        return f"the {state} was different after the call{where}: a move tried during the search was not undone"

    check_board_restored = check_restored  # the name a rubric over a board gives it

    def reference_evaluations(self, case_input, pruning: str | None = None) -> list[tuple]:
        """The paths a correct search evaluates here: alpha-beta's (left to right) or every leaf's."""
        pruning = pruning or ("strict" if self.decl["search"] == "alphabeta" else "none")
        key = json.dumps([case_input, pruning], sort_keys=True)
        if key not in self._evaluations:
            state = self.state_of(case_input)
            _, paths = self.searcher.alphabeta(state, case_input.get("depth"), self.decl["alpha"], self.decl["beta"],
                                               pruning)
            self._evaluations[key] = tuple(paths)
        return list(self._evaluations[key])

    def check_evaluations(self, outcome, spec):
        if "skipped" in outcome.raw or outcome.raw.get("timed_out") or outcome.raw.get("raised"):
            return None  # no answer: checks.per_case_check fails the case (nothing to judge)
        trace = outcome.raw.get("trace") or {}
        if trace.get("truncated"):
            return "evaluated far too many positions (the trace was cut off)"
        done = evaluated_paths(trace)
        if done is None:
            return "evaluated a position the search was never handed (a copy, or one made by hand)"
        wanted = [tuple(p) for p in self.reference_evaluations(outcome.case.input)]
        if sorted(done) == sorted(wanted):
            return None
        extra = sorted(set(done) - set(wanted))
        missing = sorted(set(wanted) - set(done))
        twice = len(done) - len(set(done))
        words = [f"asked for {len(done)} evaluations where a correct {self.decl['search']} asks for {len(wanted)}"]
        if extra:
            words.append(f"{len(extra)} of positions it should not score (first {_path_text(extra[0])})")
        if missing:
            words.append(f"none for {len(missing)} it should score (first {_path_text(missing[0])})")
        if twice:
            again = next(p for i, p in enumerate(done) if p in done[:i])
            words.append(f"{twice} for a position it had already scored (first {_path_text(again)})")
        return "; ".join(words)

    # -- showing and shrinking a case ---------------------------------------------------------------

    def size(self, case_input) -> int:
        state, depth = self.state_of(case_input), case_input.get("depth")
        key = (self.game.ident(state), depth)
        if key not in self._sizes:  # asked again and again while shrinking and naming
            self._sizes[key] = self._size(state, depth)
        return self._sizes[key]

    def _size(self, state, depth) -> int:
        searcher, memo = self.searcher, {}

        def count(n, left):
            key = (n, left)
            found = memo.get(key)
            if found is None:
                if searcher.ended(n) or left == 0 or len(memo) > SIZE_CAP:
                    found = 1
                else:
                    found = 1 + sum(count(child, searcher.depth_below(n, child, left)) for child in searcher.kids(n))
                memo[key] = found
            return found

        if self.decl["depth_to_end"]:  # equal searches: the one with fewer moves left (a full board before a won one)
            return count(searcher.node(state), depth) * 1000 + min(self.game.moves_left(state), 999)
        return count(searcher.node(state), depth)

    def call_text(self, case_input) -> str:
        state = self.state_of(case_input)
        shown = []
        for name, source in self.decl["arguments"].items():
            if source == "state":
                shown.append(self.decl["state_name"] or name)
            elif source == "depth":
                shown.append(str(case_input.get("depth")))
            elif source == "player":
                shown.append(repr(self._course_player(state)))
            else:
                shown.append(repr(self.decl[source]).replace("inf", "math.inf"))
        return f"{self.decl['function']}({', '.join(shown)})"

    def _course_player(self, state):
        return self.decl["players"]["max" if self.searcher.role(state) == "max" else "min"]

    def caption(self, case_input) -> str:
        state = self.state_of(case_input)
        if self.game.is_terminal(state):
            return f"the game is over here (worth {self.game.utility(state, self.game.max_player)!r} to MAX)"
        role = self.searcher.role(state)
        depth = case_input.get("depth")
        left = "" if depth is None else f", depth {depth}"
        return f"{self._player_name(state, role)} to move{left}"

    def _player_name(self, state, role: str) -> str:
        """The player to move as the declaration writes it: "player 0 (MAX)", "white (MAX)", "MAX (True)"."""
        course = self._course_player(state)
        if type(course) is str:
            return role.upper() if course.upper() == role.upper() else f"{course} ({role.upper()})"
        if type(course) is int:
            return f"player {course} ({role.upper()})"
        return f"{role.upper()} ({course!r})"

    def picture(self, case_input) -> str:
        return pictures.text(self.game, self.state_of(case_input), self.caption(case_input))

    def picture_svg(self, case_input) -> str:
        state = self.state_of(case_input)
        return pictures.svg(self.game.render(state) or str(self.game.encode(state)), self.caption(case_input))

    def show_answer(self, answer: Answer):
        return answer.describe()

    def drawing(self, case_input) -> dict | None:
        """A grid game (the game's ``cells(state)``: rows of marks) as plain data for the HTML report's board."""
        cells = getattr(self.game.module, "cells", None)
        if not callable(cells):
            return None
        return {"kind": "board", "rows": cells(self.state_of(case_input)), "caption": self.caption(case_input)}

    def drawing_marks(self, case_input, answer: Answer, expected) -> dict | None:
        """On a grid game whose moves are cells: the student's move (when it is a cell) and the best ones."""
        parts, problem = self.parts(answer)
        move = None if problem or "move" not in parts else parts["move"].value
        best = [m for m in expected.get("moves") or [] if type(m) is list and len(m) == 2]
        yours = list(move) if type(move) in (list, tuple) and len(move) == 2 and all(type(v) is int for v in move) else None
        rows = (self.drawing(case_input) or {}).get("rows") or []
        if yours is not None and not (0 <= yours[0] < len(rows) and 0 <= yours[1] < len(rows[yours[0]])):
            yours = None
        return {"yours": yours, "best": best} if best or yours else None

    def admits(self, case_input, group: str) -> bool:
        """Whether ``group`` could have asked this input: a declared group's filters (finished or not, moves
        left) hold for its position; any other group takes any position. What the shrinker and the
        localisation ask in a group's name stays inside it."""
        rule = self.decl["groups"].get(group)
        if rule is None:
            return True
        return groups.admits(self.game, rule, self.state_of(case_input))

    def shrink_candidates(self, case_input) -> list[dict]:
        """Smaller searches: the same position with less depth, then each position one move on."""
        state, depth = self.state_of(case_input), case_input.get("depth")
        found = []
        to_end = self.decl["depth_to_end"]  # the depth is the moves left: it shrinks with the position only
        if depth and not to_end:
            found.append({**case_input, "depth": depth - 1})
        if not self.game.is_terminal(state):
            for child in (self.game.result(state, action) for action in self.game.actions(state)):
                found.append({**case_input, "state": self.game.encode(child),
                              **({"depth": self.game.moves_left(child)} if to_end else {})})
        return found


def _same_number(stated, value) -> bool:
    from grader.vocabulary.findings import same_number

    if type(stated) not in (int, float) or type(value) not in (int, float):
        return stated == value
    return stated == value or same_number(stated, value)


def _same_move(answer: Answer, option) -> bool:
    """The answer is this move, with exact types (a list or a tuple for a sequence, ints as ints)."""
    if type(option) is list:
        return (answer.kind in ("list", "tuple") and len(answer.items) == len(option)
                and all(_same_move(item, part) for item, part in zip(answer.items, option)))
    if option is None:
        return answer.kind == "none"
    kind = {int: "int", str: "str", float: "float", bool: "bool"}.get(type(option))
    return answer.kind == kind and answer.value == option


def _path_text(path) -> str:
    return "the root" if not path else "after moves " + " then ".join(f"#{i + 1}" for i in path)


def group_words() -> dict:
    return dict(GROUP_WORDS)


__all__ = ["KitHooks", "to_plain"]
