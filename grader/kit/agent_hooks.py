"""The grader-side hooks of an exercise declared through the kit's object route (``[agent]``).

``grader.judging.exercise`` hands an ``AgentHooks`` to the judge for a folder whose exercise.toml
has an ``[agent]`` table: no grader code of the exercise's own. The sandbox side is the kit's
``agent_driver``, configured by a small generated file; the evidence is the record of
``agent_oracle``; the references are ``agent_search``'s; the mistakes are named by ``agent_mistakes``.

Check kinds a rubric may name (each over the groups of its ``[[agent.tasks]]``):
``interface`` (a move is a pair of ints; ``(value, move)`` in that shape), ``move`` (an optimal move,
any of them; the value too when returned), ``expanded`` (the set of positions expanded, against
minimax's), ``scored`` (the exact set of leaves scored, all from the searching player's view; for
alpha-beta following the student's own expansion order, pruning on a reached or a passed bound),
``timeout`` (the course's timeout exception raised once the clock runs out, nothing asked after it),
``iterative`` (depths 1, 2, 3, ... until the clock runs out; the move of the last completed depth),
``no-move`` (the no-legal-moves answer), ``game`` (a full game against a baseline with no illegal move,
error or timeout) and ``heuristic`` (floats, from the given player's view, the board left alone).

Every check reads only what the grading process answered (the oracle's record) and plain answers:
a search that raised or never answered earns nothing on the checks of its record; the depths of an
iterative deepening are read from the positions it expanded, never from anything the child says.
"""

from __future__ import annotations

import json
import random
from functools import cached_property
from pathlib import Path

from grader.kit import agent_declaration, agent_pictures
from grader.kit.by_identity import ByIdentity
from grader.kit.agent_oracle import SLACK, AgentOracle, reach
from grader.kit.agent_search import INF, AgentSearch
from grader.kit.errors import DeclarationError
from grader.kit.game import load_module
from grader.kit.generated import configured_driver
from grader.vocabulary.answers import Answer

DRIVER = Path(__file__).with_name("agent_driver.py")
REACHED_CAP = 50_000  # positions _at keeps by path, in all (about 30 MiB of isolation positions)
WIN_SEARCH_CAP = 20_000  # positions of a depth-limited tree the grader searches to confirm a win (_wins_within)
GROUP_WORDS = {}


def path_of(event) -> tuple:
    return tuple(event[1])


def add_with_prefixes(found: set, path: tuple) -> None:
    """``path`` and every prefix of it but the root into ``found``; longest first, stopping at one already there
    (its own prefixes are then there too), so a record's paths cost about one step per position they reach."""
    for end in range(len(path), 0, -1):
        if path[:end] in found:
            return
        found.add(path[:end])


def unused_forecasts(events, leaf) -> set:
    """The expansions a search made from a position it then scored as a leaf (``leaf(path)``: at the depth limit,
    or a finished game), and never looked at again (no score, utility or expansion at or below them): the children
    an eager search forecasts before it looks at the depth. Nothing the grading process answered depends on them,
    and a search can make the same boards from its own copy of the rules without telling (the thirty-sixth red
    team's forger): judged, they cost only the search that tells. So the checks of one search leave them out
    (``expanded_of``, ``timeout_reading``); an expansion on the way to anything scored, one a correct search makes,
    or a sibling of a position scored above the depth limit (a look to sort the moves: the forty-eighth red team
    asked such scores to hide the forecasts it made after the clock ran out) is never left out."""
    scored = {path for path in (path_of(e) for e in events if e[0] in ("e", "u")) if leaf(path)}
    gone_into = set()  # every proper prefix of a recorded position: the search went below it
    for event in events:
        if event[0] in ("x", "e", "u"):
            add_with_prefixes(gone_into, path_of(event)[:-1])
    return {path for path in (path_of(e) for e in events if e[0] == "x")
            if path and path[:-1] in scored and path not in scored and path not in gone_into}


class AgentHooks:
    # The checks that rest on what the child notes rather than on what the grading process answered: a board's
    # ``forecast_move`` runs in the child (the game must be playable there) and tells each expansion as it
    # runs, and the virtual clock ticks on those notes too. A search that makes its boards another way (its own
    # copy of the rules) tells only the expansions it wants (the thirty-sixth red team; docs/security.md, the
    # object route), so reports say these checks were observed inside the student's process, as "tree left
    # unchanged" is. Scores, utilities and moves are the grading process's own evidence.
    sandbox_evidence_kinds = frozenset({"expanded", "timeout", "iterative", "game"})

    def __init__(self, exercise):
        self.exercise = exercise
        agent = exercise.meta.get("agent") or {}
        if not agent.get("rules"):
            raise DeclarationError("[agent] must name the game's rules: rules = \"mygame.py\"")
        self.rules_path = (exercise.folder / str(agent["rules"])).resolve()
        if not self.rules_path.is_file():
            raise DeclarationError(f"[agent] rules = {agent['rules']!r}: no such file in the exercise's folder")
        self.rules = load_module(self.rules_path, f"_minimax_grader_agent_rules_{exercise.id.replace('-', '_')}")
        self.decl = agent_declaration.read(exercise.meta, self.rules)
        self.tasks = {t["group"]: t for t in self.decl["tasks"]}
        words = {t["group"]: f"{t['group']} positions" for t in self.decl["tasks"]}
        exercise.meta.setdefault("group_words", words)
        self._refs: dict = {}
        self._roots = ByIdentity(4096)  # each case's decoded root, by its input: one object, so _at can remember by it
        self._reached = ByIdentity(4096)  # each root's positions by path (see _at)
        self._reached_count = 0
        # _looks, scored_of and order_of of each record, by depth: a bulk worker's hooks live for the whole class, and an
        # entry holds its record, so few are kept (a record is judged within one submission, by a few dozen lookups)
        self._looked = ByIdentity(256)
        self._finished = ByIdentity(4096)  # each root's positions by path: finished or not (see _over_at)
        self._wins: dict = {}  # (case, depth): a forced win there, by the grader's own search (see _wins_within)

    # -- what the core loads ---------------------------------------------------------------------

    def driver_path(self) -> Path:
        return configured_driver("agent-drivers", self.exercise.id, "the object-route driver", DRIVER,
                                 "_minimax_grader_agent_driver", self.decl, self.rules_path)

    def driver_files(self) -> list[Path]:
        return [DRIVER.resolve(), self.rules_path]

    def baseline(self, state, seat, score_name: str | None = None):
        """The opponent of a full game: greedy on the task's score (``score_name``; "improved" by default), the first
        best move in the rules' order."""
        options = self.rules.moves_for(state, seat)
        score = self.rules.SCORES[score_name or "improved"]
        return max(options, key=lambda m: (score(self.rules.result(state, m), seat), -options.index(m)))

    def oracle(self, case_input) -> AgentOracle:
        return AgentOracle(self.rules, case_input, self.baseline)

    def loading_oracle(self) -> AgentOracle:
        return AgentOracle(self.rules)

    def arena(self, table: dict):
        """What a class tournament asks of this exercise (``[tournament]``: see ``agent_arena``)."""
        from grader.kit.agent_arena import AgentArena

        return AgentArena(self, table)

    @cached_property
    def mistakes(self):
        from grader.kit.agent_mistakes import AgentMistakes

        return AgentMistakes(self)

    # -- the bank ----------------------------------------------------------------------------------

    def _playout(self, rng, plies):
        state = self.rules.decode(self.rules.encode(self.rules.start_positions()[0]))
        for _ in range(plies):
            moves = self.rules.moves_for(state, self.rules.to_move(state))
            if not moves:
                return state
            state = self.rules.result(state, rng.choice(moves))
        return state

    def _over(self, state) -> bool:
        return not self.rules.moves_for(state, self.rules.to_move(state))

    def _search_size(self, state, depth, cap: int = 2000) -> int:
        """Positions of the depth-limited tree from ``state``, counted up to just past ``cap``."""
        count, frontier = 0, [(state, depth)]
        while frontier and count <= cap:
            s, d = frontier.pop()
            count += 1
            if d:
                frontier.extend((self.rules.result(s, m), d - 1) for m in self.rules.moves_for(s, self.rules.to_move(s)))
        return count

    def fixture_cases(self, folder: Path) -> list[dict]:
        cases = []
        n = int(self.rules.WIDTH) * int(self.rules.HEIGHT)  # how long random play runs scales with the board
        for task in self.decl["tasks"]:
            rng = random.Random(f"{self.exercise.id}:{task['group']}")
            made = []
            kind = task["kind"]
            depths = task.get("depths") or [None]
            wanted = task["positions"] * (len(depths) if kind in ("search", "bounds") else 1)
            tries = 0
            while len(made) < wanted and tries < 5000:
                tries += 1
                number = len(made)
                depth = depths[number % len(depths)]
                entry = {"task": task}
                if kind in ("search", "bounds"):
                    state = self._playout(rng, rng.randint(max(2, n // 4), max(2, n * 53 // 100)))
                    if self._over(state) or self._search_size(state, depth) > 300:
                        continue
                    entry["depth"] = depth
                    if kind == "bounds":
                        entry["bounds"] = task["bounds"] or [-2.0, 2.0]
                elif kind == "no-moves":
                    state = self._playout(rng, n + 11)
                    entry["depth"] = depth
                    if "time_left" in task["arguments"]:  # get_move: a clock that runs out, should it search on
                        entry["clock"] = task["clock"]
                elif kind == "timeout":
                    state = self._playout(rng, rng.randint(max(2, n // 12), max(2, n // 5)))
                    if self._over(state):
                        continue
                    entry["depth"] = max(depths)
                    entry["clock"] = task["clock"]
                elif kind == "iterative":
                    state = self._playout(rng, rng.randint(max(2, n // 5), max(2, n * 37 // 100)))
                    if self._over(state) or len(self.rules.moves_for(state, self.rules.to_move(state))) < 2:
                        continue
                    entry["clock"] = task["clock"] + 13 * number  # the clock runs out at other points of the search
                elif kind == "game":
                    state = self._playout(rng, 2)  # both players placed: the game proper begins
                    entry["clock"] = task["clock"]
                    entry["depth"] = depths[0] if depths[0] is not None else 3
                    entry["seat"] = number % 2
                else:  # heuristic: unfinished positions and finished ones
                    state = self._playout(rng, n + 11 if number % 3 == 2 else rng.randint(2, max(2, n * 3 // 5)))
                if kind != "game":
                    entry["seat"] = self.rules.to_move(state)
                entry["state"] = self.rules.encode(state)
                key = json.dumps(entry, sort_keys=True)
                if any(json.dumps(c, sort_keys=True) == key for c in made):
                    continue
                made.append(entry)
            cases += [{"id": f"{task['group']}-{i + 1}", "group": task["group"], "input": entry}
                      for i, entry in enumerate(made)]
        return cases

    def strategy(self):
        raise DeclarationError("an object-route exercise asks its own positions (random_examples = 0)")

    def shrink_candidates(self, case_input) -> list[dict]:
        return []  # the positions are small already; a full game or a clock case has no smaller version

    def size(self, case_input) -> int:
        return int(case_input.get("depth") or 0) * 100 + len(case_input["state"].get("blocked", []))

    # -- references --------------------------------------------------------------------------------

    def state_of(self, case_input):
        """The case's root position, decoded once per input (positions are never changed in place: the rules
        make a new one for each move, as the oracle and the searcher rely on)."""
        return self._roots.get(case_input, lambda: self.rules.decode(case_input["state"]))

    def searcher(self, task) -> AgentSearch:
        return AgentSearch(self.rules, task.get("score"))

    def reference(self, case_input, module=None) -> dict:
        """The public hook (the judge's; ``grade``'s workers wrap it with a memo of their own)."""
        return self._reference(case_input)

    def _reference(self, case_input) -> dict:
        """The reference search of a case; what the checks use inside, whatever wraps the public hook."""
        task = case_input["task"]
        if task["kind"] not in ("search", "no-moves"):
            return {"kind": task["kind"]}
        key = json.dumps(case_input, sort_keys=True)
        if key not in self._refs:
            state = self.state_of(case_input)
            value, moves, expanded, scored = self.searcher(task).minimax(state, case_input["depth"], case_input["seat"])
            self._refs[key] = {"kind": task["kind"], "value": value, "moves": [list(m) for m in moves],
                               "expanded": sorted(expanded), "scored": sorted(scored)}
        return self._refs[key]

    def variant(self, case_input, depth=None, swapped="") -> dict:
        state = self.state_of(case_input)
        depth = case_input["depth"] if depth is None else depth
        value, moves, expanded, scored = self.searcher(case_input["task"]).minimax(state, depth, case_input["seat"],
                                                                                   swapped)
        return {"value": value, "moves": [list(m) for m in moves], "expanded": set(expanded), "scored": set(scored)}

    def alphabeta_sets(self, case_input, order, bounds=None, fresh: str = "") -> list[set]:
        state = self.state_of(case_input)
        alpha, beta = bounds or case_input.get("bounds") or (-INF, INF)
        search = self.searcher(case_input["task"])
        return [set(search.alphabeta(state, case_input["depth"], case_input["seat"], order, alpha, beta, equal,
                                     fresh)[1]) for equal in (True, False)]

    # -- the record --------------------------------------------------------------------------------

    @staticmethod
    def events(outcome) -> list:
        return (outcome.raw.get("trace") or {}).get("events") or []

    def _looks(self, outcome, depth):
        """(finished?, by path, the parents whose children were scored to sort them): a child above the depth
        limit scored while unfinished, or any child scored twice (once to sort, once when searched). Worked out
        once per record and depth: the checks and the diagnosis ask it again and again (see ``_at``)."""
        over, looks = self._looked.get(self.events(outcome), lambda: self._work_out_looks(outcome, depth), tag=depth)
        return dict(over), set(looks)

    def _work_out_looks(self, outcome, depth):
        state = self.state_of(outcome.case.input)
        over, counts, looks = {}, {}, set()
        for event in self.events(outcome):
            if event[0] in ("e", "u"):
                path = path_of(event)
                if path not in over:
                    over[path] = self._over_at(state, path)
                counts[path] = counts.get(path, 0) + 1
                if event[0] == "e" and depth is not None and len(path) < depth and (not over[path] or counts[path] > 1):
                    looks.add(path[:-1])
        return over, looks

    def scored_of(self, outcome, depth=None) -> tuple[set, list]:
        scored, seats = self._looked.get(self.events(outcome), lambda: self._work_out_scored(outcome, depth),
                                         tag=("scored", depth))
        return set(scored), list(seats)

    def _work_out_scored(self, outcome, depth=None) -> tuple[set, list]:
        """(leaves scored, seats asked): score-function calls, and ``utility`` asked on a finished position.

        A score asked above the depth limit of an unfinished position is a look ahead to sort the moves
        (a search never ends there), so it is no leaf; a finished child of a parent whose children were
        sorted is a leaf only when the search came back to score it again. Every seat asked counts."""
        depth = outcome.case.input.get("depth") if depth is None else depth
        over, looks = self._looks(outcome, depth)
        scored, seats, seen = set(), [], {}
        for event in self.events(outcome):
            if event[0] not in ("e", "u"):
                continue
            path = path_of(event)
            if event[0] == "u" and not over[path]:
                continue
            seats.append(event[2])
            seen[path] = seen.get(path, 0) + 1
            if depth is None or len(path) >= depth or (over[path] and (path[:-1] not in looks or seen[path] > 1)):
                scored.add(path)
        return scored, seats

    def _over_at(self, state, path) -> bool:
        """Whether the position ``path`` leads to from ``state`` is finished, remembered as ``_at`` remembers it."""
        finished = self._finished.get(state, dict)
        found = finished.get(path)
        if found is None:
            found = finished[path] = self._over(self._at(state, path))
        return found

    def _at(self, state, path):
        """The position ``path`` leads to from ``state``, remembered by path for each root (``agent_oracle.reach``, as
        the oracle answers): the record is read by several checks and the diagnosis, each looking up every path it
        holds, and each walk from the root cost a rules step per move (the forty-seventh red team's agent scored
        6,000 deep positions a call, made without ``forecast_move``: judging it took five minutes of the grader's
        CPU). At most REACHED_CAP positions are kept in all; past that the memory starts again."""
        if self._reached_count > REACHED_CAP:
            self._reached.clear()
            self._finished.clear()
            self._reached_count = 0
        reached = self._reached.get(state, lambda: {(): state})
        before = len(reached)
        found = reach(self.rules, reached, tuple(path), REACHED_CAP)
        self._reached_count += len(reached) - before
        return found

    def unused_of(self, outcome) -> set:
        """``unused_forecasts`` of the record of one search of the case's depth, worked out once per record; none
        where the case is no such search (iterative deepening: its passes are read by ``deepening_passes``)."""
        case_input = outcome.case.input
        depth = case_input.get("depth")
        if depth is None or (case_input.get("task") or {}).get("kind") in ("iterative", "game"):
            return set()
        state = self.state_of(case_input)

        def leaf(path):
            return len(path) >= depth or self._over_at(state, path)

        return set(self._looked.get(self.events(outcome), lambda: unused_forecasts(self.events(outcome), leaf),
                                    tag="unused"))

    def expanded_of(self, outcome) -> set:
        """The positions the search expanded, but for the forecasts it never used (``unused_forecasts``)."""
        return {path_of(e) for e in self.events(outcome) if e[0] == "x"} - self.unused_of(outcome)

    def order_of(self, outcome, depth=None) -> dict:
        order = self._looked.get(self.events(outcome), lambda: self._work_out_order(outcome, depth), tag=("order", depth))
        return {parent: list(children) for parent, children in order.items()}

    def _work_out_order(self, outcome, depth=None) -> dict:
        """The student's own order of the children of each position: the order in which the search
        first went into each (an expansion below it, or its score as a leaf). Children forecast all at
        once, or scored only to sort them, are not yet gone into."""
        depth = outcome.case.input.get("depth") if depth is None else depth
        order: dict = {}
        events = [e for e in self.events(outcome) if e[0] in ("x", "e", "u")]
        over, looks = self._looks(outcome, depth)
        seen: dict = {}
        for event in events:
            path = path_of(event)
            inside = len(path) - 1
            if event[0] != "x":
                seen[path] = seen.get(path, 0) + 1
                leaf = depth is None or len(path) >= depth or (over[path] and (path[:-1] not in looks or seen[path] > 1))
                inside = len(path) if leaf else inside
            for k in range(1, inside + 1):
                children = order.setdefault(path[:k - 1], [])
                if path[k - 1] not in children:
                    children.append(path[k - 1])
        return order

    # -- reading an answer -------------------------------------------------------------------------

    def _move_of(self, answer: Answer, task):
        """(move as a list, problem): the move part of an answer in the task's declared shape."""
        whole = answer
        if task["returns"] == "(value, move)":
            if answer.kind not in ("tuple", "list") or len(answer.items) != 2 or not answer.items[0].is_number:
                return None, f"returned {answer.describe()}: the answer is a pair (value, move)"
            answer = answer.items[1]
        if answer.kind not in ("tuple", "list") or len(answer.items) != 2 or any(i.kind != "int" for i in answer.items):
            if whole is not answer:
                return None, (f"returned {whole.describe()}: the answer is a pair (value, move), the move a pair of "
                              "ints (row, col)")
            return None, f"returned {answer.describe()}: a move is a pair of ints (row, col)"
        return [i.value for i in answer.items], None

    def _answer(self, outcome):
        problem = outcome.did_not_answer(self.exercise.limits.call_timeout)
        if problem:
            return None, problem
        return outcome.answer, None

    def _timeout_answer(self, answer: Answer) -> bool:
        name = self.decl["timeout_exception"]
        return answer.kind == "dict" and [(k, i.value) for k, i in answer.items] == [("raised", name)]

    def judges_answer(self, case_input) -> bool:
        """Whether the case's answer is the student's own, to be called right or not on its own: not a full game's,
        which is the grader's summary of it ("{'game': 'illegal'} is a right answer on its own" told the 130th
        helper's student the opposite of the check above it). Every other task's answer is what a method returned."""
        return case_input["task"]["kind"] != "game"

    def verify(self, case_input, expected, answer: Answer):
        kind = case_input["task"]["kind"]
        if kind == "search":
            return self._move_problem(case_input, expected, answer)
        if kind == "no-moves":
            return self._no_move_problem(case_input, answer)
        return None

    def legal_moves(self, case_input) -> list[list]:
        """The moves of the player to move at the case's root, as lists (the shape an answer's move is read in)."""
        state = self.state_of(case_input)
        return [list(m) for m in self.rules.moves_for(state, self.rules.to_move(state))]

    def illegal_kind(self, case_input, move: list) -> str | None:
        """None where ``move`` is legal at the case's root; "no-move" where it is the declared no-move answer though
        the player has moves; "illegal" for any other move the position does not allow."""
        if move in self.legal_moves(case_input):
            return None
        return "no-move" if move == list(self.decl["no_move"]) else "illegal"

    def _move_problem(self, case_input, expected, answer: Answer):
        task = case_input["task"]
        if self._timeout_answer(answer):
            return f"raised {self.decl['timeout_exception']} although the clock had plenty of time left"
        move, problem = self._move_of(answer, task)
        if problem:
            return problem
        illegal = self.illegal_kind(case_input, move)  # was "not an optimal move": the 130th helper's gina
        if illegal is not None:
            legal = self.legal_moves(case_input)
            shown = ", ".join(f"({m[0]}, {m[1]})" for m in legal[:8]) + (", ..." if len(legal) > 8 else "")
            if illegal == "no-move":
                return f"returned the no-move answer {tuple(move)}, but the player to move has legal moves here: {shown}"
            return (f"returned the move ({move[0]}, {move[1]}), which is not a legal move in this position (the legal "
                    f"moves: {shown})")
        if move not in expected["moves"]:
            best = " or ".join(f"({m[0]}, {m[1]})" for m in expected["moves"][:4])
            return (f"returned the move ({move[0]}, {move[1]}), which is not an optimal move at depth "
                    f"{case_input['depth']}; the best {'is' if len(expected['moves']) == 1 else 'are'} {best} "
                    f"(worth {expected['value']!r} to the searching player)")
        if task["returns"] == "(value, move)":
            value = answer.items[0].value
            if not answer.items[0].equals_number(expected["value"]):
                return f"returned the value {value!r}, but the position is worth {expected['value']!r} at depth {case_input['depth']}"
        return None

    def _no_move_problem(self, case_input, answer: Answer):
        no_move = list(self.decl["no_move"])
        if self._timeout_answer(answer):
            return f"raised {self.decl['timeout_exception']} instead of answering {tuple(no_move)}"
        if case_input["task"]["returns"] == "(value, move)":
            if answer.kind in ("tuple", "list") and len(answer.items) == 2:
                answer = answer.items[1]
        if answer.kind in ("tuple", "list") and [i.value for i in answer.items] == no_move and \
                all(i.kind == "int" for i in answer.items):
            return None
        return f"returned {answer.describe()}: the player to move has no legal move here, so the answer is {tuple(no_move)}"

    # -- check kinds (check_<kind>) -----------------------------------------------------------------

    def check_interface(self, outcome, spec):
        answer, problem = self._answer(outcome)
        if problem:
            return f"{problem}: no answer to read"  # a search that raised or never answered shows no interface
        if self._timeout_answer(answer):
            return f"raised {self.decl['timeout_exception']} although the clock had plenty of time left: no move to read"
        return self._move_of(answer, outcome.case.input["task"])[1]

    def check_move(self, outcome, spec):
        answer, problem = self._answer(outcome)
        return problem or self._move_problem(outcome.case.input, outcome.expected, answer)

    def check_no_move(self, outcome, spec):
        answer, problem = self._answer(outcome)
        return problem or self._no_move_problem(outcome.case.input, answer)

    def _sets_text(self, case_input, done: set, wanted: set, what: str, search: str) -> str:
        state = self.state_of(case_input)
        extra, missing = sorted(done - wanted), sorted(wanted - done)
        words = [f"{what} {len(done)} positions where a correct {search} {what} {len(wanted)}"]
        if extra:
            words.append(f"{len(extra)} it should not ({agent_pictures.path_text(self.rules, state, extra[0])})")
        if missing:
            words.append(f"missed {len(missing)} ({agent_pictures.path_text(self.rules, state, missing[0])})")
        return "; ".join(words)

    def _traced(self, outcome):
        """Why the record of a search case shows no whole search, if it does not: a search that raised, timed
        out or never answered stopped somewhere (nothing to compare, so no points), and one that asked past
        the record's cap was cut off."""
        answer, problem = self._answer(outcome)
        if problem:
            return f"{problem}, so the search never finished: nothing to compare"
        if self._timeout_answer(answer):
            return (f"raised {self.decl['timeout_exception']} although the clock had plenty of time left, so the "
                    "search never finished: nothing to compare")
        if (outcome.raw.get("trace") or {}).get("truncated"):
            return "asked far too many questions (the record was cut off)"
        return None

    def check_expanded(self, outcome, spec):
        problem = self._traced(outcome)
        if problem:
            return problem
        done = self.expanded_of(outcome)
        wanted = {tuple(p) for p in self._reference(outcome.case.input)["expanded"]}
        if done == wanted:
            return None
        return self._sets_text(outcome.case.input, done, wanted, "expanded", "minimax")

    def check_scored(self, outcome, spec):
        problem = self._traced(outcome)
        if problem:
            return problem
        case_input = outcome.case.input
        done, seats = self.scored_of(outcome)
        seat = case_input["seat"]
        if any(s != seat for s in seats):
            wrong = sum(1 for s in seats if s != seat)
            return (f"asked the score of {wrong} of {len(seats)} positions for the other player: a position is scored "
                    f"from the view of the player searching (player {seat + 1}), whoever is to move there")
        task = case_input["task"]
        if task["search"] == "alphabeta" or task["kind"] == "bounds":
            options = self.alphabeta_sets(case_input, self.order_of(outcome))
            if done in options:
                return None
            wanted = min(options, key=lambda s: len(s ^ done))
            return (self._sets_text(case_input, done, wanted, "scored", "alpha-beta (in your move order)")
                    + self._look_aheads(outcome, done))
        wanted = {tuple(p) for p in self._reference(case_input)["scored"]}
        if done == wanted:
            return None
        return self._sets_text(case_input, done, wanted, "scored", "minimax") + self._look_aheads(outcome, done)

    def _look_aheads(self, outcome, done: set) -> str:
        """The scores asked that ``scored_of`` read as looks ahead to sort the moves (above the depth limit, of an
        unfinished position), said where there are any: "scored 0 positions" over a search that asked the score
        function four times read as wrong to the student who wrote it (the 121st helper)."""
        above = {path_of(event) for event in self.events(outcome) if event[0] == "e"} - done
        if not above:
            return ""
        return (f" ({len(above)} other position{'s' if len(above) != 1 else ''} scored above the depth limit "
                "count as looking ahead to sort the moves, not as positions the search scored)")

    def timeout_reading(self, outcome) -> dict:
        """When the clock ran out (a tick), when the search first read it as run out, what it asked after."""
        case_input = outcome.case.input
        limit = float(case_input["clock"]) - float(case_input["task"]["threshold"])
        ticks, ran_out, noticed, before_notice, after_notice = 0, None, None, 0, 0
        unused = self.unused_of(outcome)
        for event in self.events(outcome):
            if event[0] not in ("x", "e", "u", "t"):
                continue
            ticks += 1  # every recorded call ticked the clock the grading process answered from
            if event[0] == "x" and noticed is None and path_of(event) in unused:
                continue  # not counted against the search: a forecast made without telling would not be (once the
                # search has read that the time is up, every forecast counts: the forty-eighth red team's)
            if ran_out is None and float(case_input["clock"]) - ticks < float(case_input["task"]["threshold"]):
                ran_out = ticks
            if noticed is not None:
                after_notice += event[0] != "t"
            elif event[0] == "t" and event[1] < case_input["task"]["threshold"]:
                noticed = ticks
            elif ran_out is not None and event[0] != "t":
                before_notice += 1
        return {"ran_out": ran_out, "noticed": noticed, "late": before_notice, "after": after_notice, "limit": limit,
                "ticks": ticks}

    def _whole_search(self, outcome) -> bool:
        """Whether the record is a whole, correct search of the case's depth (one that fits in the clock).

        Minimax: every position of the depth-limited tree expanded (cheap to rule out: a tree with more
        positions than the record holds is not whole). Alpha-beta: every root child gone into, then the
        exact leaves alpha-beta scores in the student's own order."""
        case_input = outcome.case.input
        state, depth = self.state_of(case_input), case_input["depth"]
        done = self.expanded_of(outcome)
        if case_input["task"]["search"] == "alphabeta":
            roots = len(self.rules.moves_for(state, self.rules.to_move(state)))
            if {p[0] for p in done if p} != set(range(roots)):
                return False
            return self.scored_of(outcome)[0] in self.alphabeta_sets(case_input, self.order_of(outcome))
        if self._search_size(state, depth) - 1 != len(done):
            return False
        return done == {tuple(p) for p in self.variant(case_input)["expanded"]}

    def check_timeout(self, outcome, spec):
        """A timeout case counts where a correct search is larger than the clock: a search that ended before
        the clock ran out passes only when its record is a whole correct search (then the case could not
        test the clock), never for raising, answering nothing, or stopping early."""
        name = self.decl["timeout_exception"]
        seen = self.timeout_reading(outcome)
        if seen["ran_out"] is None:
            answer, problem = self._answer(outcome)
            if problem:
                return f"{problem} before the clock ran out"
            if self._timeout_answer(answer):
                return f"raised {name} after {seen['ticks']} recorded calls, before the clock ran out"
            if (outcome.raw.get("trace") or {}).get("truncated") or not self._whole_search(outcome):
                return (f"the search ended after {seen['ticks']} recorded calls, before the clock ran out, without "
                        f"searching depth {outcome.case.input['depth']} whole: search until the time is up, then "
                        f"raise {name}")
            return None  # a whole correct search that fits in the clock: nothing to judge
        if seen["noticed"] is None:
            return (f"the clock ran out after {seen['ran_out']} recorded calls, but the search never read it again and "
                    f"went on for {seen['late']} more (check time_left() in every call of the search, not only at the root)")
        if seen["late"] > SLACK:
            return (f"the clock ran out after {seen['ran_out']} recorded calls, but the search went on for "
                    f"{seen['late']} more before it read the clock (at most {SLACK} are allowed)")
        if seen["after"]:
            return f"read that the time was up, then still asked {seen['after']} more positions or scores"
        answer, problem = self._answer(outcome)
        if problem:
            return f"{problem}: once the time is up, raise {name}"
        if not self._timeout_answer(answer):
            return f"returned {answer.describe()} once the time was up: raise {name} instead"
        return None

    def deepening_passes(self, outcome) -> list[dict]:
        """The searches from the root one after another, read from the record alone (nothing the child says).

        A search goes into each root child once (an expansion below it, or its score); going back into one
        begins the next search. A search that first forecasts and scores every root child to sort them, then
        forecasts them again, shows as a "look" (root children only) before its body: a look is merged into
        the deeper search that follows it. Each pass: its first and last tick, its depth (the longest path
        it expanded, a score or utility asked at or below it) and its events."""
        segments, entered, tick = [], set(), 0
        for event in self.events(outcome):
            if event[0] not in ("x", "e", "u", "t"):
                continue
            tick += 1
            if event[0] == "t":
                continue
            path = path_of(event)
            if not segments or (event[0] == "x" and len(path) == 1 and path[0] in entered):
                segments.append({"start": tick, "end": tick, "depth": 0, "events": []})
                entered = set()
            segment = segments[-1]
            segment["events"].append(event)
            segment["end"] = tick
            if path and (len(path) > 1 or event[0] != "x"):
                entered.add(path[0])
        for segment in segments:
            # Its depth: the longest path it expanded with a score or a utility asked at or below it, in this pass.
            # A forecast nothing was asked below (an eager search's leaves' children, whether the leaf was scored
            # or the clock ran out first: the forty-eighth red team's) could have been made without telling.
            answered = set()
            for event in segment["events"]:
                if event[0] in ("e", "u"):
                    add_with_prefixes(answered, path_of(event))
            segment["depth"] = max((len(path_of(e)) for e in segment["events"]
                                    if e[0] == "x" and path_of(e) in answered), default=0)
        passes: list[dict] = []
        for i, segment in enumerate(segments):
            following = segments[i + 1] if i + 1 < len(segments) else None
            if passes and segment["depth"] <= 1 and following is not None and (
                    following["depth"] >= 2 or i + 2 == len(segments)):
                following.update(start=segment["start"], events=segment["events"] + following["events"],
                                 depth=max(following["depth"], 1))
                continue  # a look, merged into the search it sorted the moves for (the last one maybe cut early)
            if len(passes) == 1 and segment["depth"] <= 1 and passes[0]["depth"] <= 1 and not passes[0].get("sorted"):
                passes[0].update(end=segment["end"], events=passes[0]["events"] + segment["events"], sorted=True)
                continue  # depth 1 sorted by a look, then searched: one pass
            passes.append(segment)
        return passes

    def iterative_reading(self, outcome) -> dict:
        """The depths searched in turn, where the clock ran out and was read, and which depths are whole."""
        passes = self.deepening_passes(outcome)
        seen = self.timeout_reading(outcome)
        depths = [p["depth"] for p in passes]
        return {"passes": passes, "depths": depths, "ran_out": seen["ran_out"], "noticed": seen["noticed"],
                "after": seen["after"], "ticks": seen["ticks"]}

    def check_iterative(self, outcome, spec):
        """Iterative deepening judged from the record: searches of depth 1, 2, 3, ... from the root, each no
        deeper than its depth and each whole one reaching it, the last one begun cut off by the clock (or
        the game solved), and the returned move a best move of the last depth completed."""
        answer, problem = self._answer(outcome)
        if problem:
            return problem
        name = self.decl["timeout_exception"]
        if self._timeout_answer(answer):
            return f"get_move let {name} out: catch it and return the best move found"
        seen = self.iterative_reading(outcome)
        passes = seen["passes"]
        if not passes:
            return "get_move searched no position (it never called forecast_move)"
        depths = seen["depths"]
        # The last pass may be cut before it reached its depth; every earlier one is whole.
        wanted = list(range(1, len(depths) + 1))
        if depths[:-1] != wanted[:-1] or depths[-1] > wanted[-1]:
            if len(depths) >= 2 and depths[-1] == 1 and depths[:-1] == wanted[:len(depths) - 1]:
                pass  # the next depth's look, cut by the clock
            elif self._deepened_to_a_win(outcome.case.input, passes):
                pass  # a won game: from the pass that proved the win on, no line goes deeper than that win
            else:
                return (f"searched the depths {depths[:8]} in turn (read from the positions it expanded), where "
                        "iterative deepening searches 1, 2, 3, ... from the root")
        state = self.state_of(case_input := outcome.case.input)
        last = passes[-1]
        if seen["ran_out"] is None:
            if self._solved(case_input, len(depths)):
                completed = [len(depths)]
            else:
                return (f"stopped after depth {len(depths)} with time left on the clock (it ran out after none of "
                        f"its {seen['ticks']} recorded calls): iterate until time_left() says the time is up")
        else:
            if seen["noticed"] is None:
                return (f"the clock ran out during depth {len(depths)}, but get_move never read it again: iterate "
                        "until time_left() says the time is up")
            if seen["noticed"] < last["start"]:
                return "read that the time was up, then began another depth"
            if seen["noticed"] > last["end"] + 3:
                return (f"read the clock {seen['noticed'] - last['end']} times after its last search without "
                        "searching: the clock is to run out during a search")
            # Read before the last pass's last event: that pass was cut. Read after it: cut just before its
            # next expansion, or whole with the next depth cut before its first one (either is honest).
            k = len(depths)
            completed = [k - 1] if seen["noticed"] < last["end"] else [k - 1, k]
        move, problem = self._move_of(answer, {"returns": "move"})
        if problem:
            return problem
        best = []
        for depth in completed:
            if depth < 1:
                best += [list(m) for m in self.rules.moves_for(state, self.rules.to_move(state))]
                continue
            moves, whole = self.pass_choice(case_input, passes[depth - 1], depth)
            if not whole and depth != len(depths):
                # a depth another one followed valued every move of the root: one forecast of the next depth's
                # first move, cut by the clock, does not make a depth cut short a completed one (the forty-eighth
                # red team returned the move of a half-searched depth that way)
                return (f"began depth {depth + 1} before depth {depth} had valued every move of the root: the move "
                        "of a depth cut short by the clock is not to be trusted")
            if whole or depth != len(depths) or len(completed) == 1:
                best += moves  # the last pass, read after its last event, counts only if it valued every root move
        if move not in best:
            shown = " or ".join(f"({m[0]}, {m[1]})" for m in best[:4]) or "no move"
            return (f"returned ({move[0]}, {move[1]}), but the last depth completed ({completed[-1]}) chose "
                    f"{shown}: the move of a depth cut short by the clock is not to be trusted")
        return None

    def _deepened_to_a_win(self, case_input, passes) -> bool:
        """Depths 1, 2, 3, ... until a pass proves a win at the root, each later pass no deeper than its number:
        a search that stops at a won move (nothing can beat it) reads as shallow as the win, pass after pass, as
        it deepens until the clock runs out (the fiftieth review's textbook search, on a late-game position)."""
        won = False
        for number, one_pass in enumerate(passes, start=1):
            if not (0 if number == len(passes) else 1) <= one_pass["depth"] <= number:  # the last may be cut at once
                return False
            if won:
                continue
            top = self._pass_reading(case_input, one_pass, number)[2]
            won = top is not None and top >= INF and self._wins_within(case_input, number)
            if not won and one_pass["depth"] != number and number != len(passes):
                return False
        return won

    def pass_choice(self, case_input, one_pass: dict, depth: int) -> tuple[list, bool]:
        """The moves a search of ``depth`` chose, read from its record: the values the grading process
        answered for the leaves it scored (for the seats it asked), taken up the positions it expanded,
        MAX where the searching player moves, MIN elsewhere. A correct search's choice, and a search's
        own choice even where its leaves are scored from the wrong view (that is another check's mistake).
        A finished position it expanded and never asked about (a search that tells a won or lost game by the
        board's own ``is_winner``/``is_loser``) is worth its utility for the searching player: the grading process
        knows it. Also whether the search is whole at the root: it valued every root move, or one it valued is a
        proven win (a search may stop at a won move: nothing after it can be better; the fiftieth review's
        textbook search did); a search the clock cut short is not."""
        moves, whole, _top = self._pass_reading(case_input, one_pass, depth)
        return moves, whole

    def _pass_reading(self, case_input, one_pass: dict, depth: int) -> tuple[list, bool, float | None]:
        """``pass_choice``'s moves and wholeness, and the best value it read at the root (None: no root move)."""
        root = self.state_of(case_input)
        score = self.rules.SCORES[case_input["task"].get("score") or "improved"]
        me = self.rules.to_move(root)
        leaves, children = {}, {}
        for event in one_pass["events"]:
            path = path_of(event)
            if event[0] == "x":
                children.setdefault(path[:-1], [])
                if path not in children[path[:-1]]:
                    children[path[:-1]].append(path)
            elif event[0] in ("e", "u"):
                at = self._at(root, path)
                if len(path) >= depth or self._over(at):
                    leaves[path] = self.rules.utility(at, event[2]) if event[0] == "u" else score(at, event[2])

        def value(path):
            if path in leaves and (len(path) >= depth or path not in children):
                return leaves[path]
            found = [v for v in (value(c) for c in children.get(path, [])) if v is not None]
            if not found:
                if path and path not in children and self._over_at(root, path):
                    return self.rules.utility(self._at(root, path), me)
                return None
            at = self._at(root, path)
            mover = self.rules.to_move(at)
            if mover == me:
                return max(found)
            if min(found) >= INF and len(found) < len(self.rules.moves_for(at, mover)):
                # a win where the opponent moves needs every reply to lose (no search prunes there): one reply
                # forecast along a line of the search's choosing is no win (the fifty-first red team's forgers)
                return None
            return min(found)

        moves = self.rules.moves_for(root, me)
        values = {c[0]: value(c) for c in children.get((), [])}
        values = {i: v for i, v in values.items() if v is not None}
        if not values:
            return [], False, None
        top = max(values.values())
        # whole: every root move valued, or a win read from the record that the rules confirm at this depth
        whole = len(values) == len(moves) or (top >= INF and self._wins_within(case_input, depth))
        return [list(moves[i]) for i, v in values.items() if v == top], whole, top

    def _wins_within(self, case_input, depth) -> bool:
        """Whether the searching player has a forced win within ``depth`` plies, by the grader's own search:
        what makes a pass that stopped at a won move whole, never the record alone."""
        key = (json.dumps(case_input, sort_keys=True), depth)
        if key not in self._wins:
            # Past WIN_SEARCH_CAP positions the grader does not search (a record of wrong-seat scores can read a win
            # at any depth it reaches: the search it would cost is the grader's CPU): no confirmed win then.
            small = self._search_size(self.state_of(case_input), depth, WIN_SEARCH_CAP) <= WIN_SEARCH_CAP
            self._wins[key] = small and self.variant(case_input, depth)["value"] >= INF
        return self._wins[key]

    def _solved(self, case_input, depth) -> bool:
        """Whether a search of ``depth`` already ends every line in a finished game (deeper changes nothing)."""
        state = self.state_of(case_input)
        found = self.variant(case_input, depth)
        return all(self._over(self._at(state, p)) for p in found["scored"])

    def check_game(self, outcome, spec):
        trace = outcome.raw.get("trace") or {}
        for number, record in enumerate(trace.get("game") or []):
            if not record["legal"]:
                return f"move {number + 1}: played {record['move']!r}, which is not a legal move in that position"
            if record["late"]:
                return (f"move {number + 1}: took {record['ticks']} recorded calls, past the clock of "
                        f"{outcome.case.input['clock']:g} (a timeout)")
        problem = outcome.did_not_answer(self.exercise.limits.call_timeout)
        if problem:
            return f"{problem} during the game"
        answer = outcome.answer
        if not (answer.kind == "dict" and [(k, i.value) for k, i in answer.items] == [("game", "over")]):
            return f"the game did not end normally ({answer.describe()})"
        final = trace.get("final")
        if final is None or not self._over(self.rules.decode(final)):  # the grader's own game, not the child's word
            return "the game was left unfinished (the grader's board still has moves to play)"
        return None

    def check_heuristic(self, outcome, spec):
        answer, problem = self._answer(outcome)
        if problem:
            return problem
        if outcome.raw.get("mutated"):
            return outcome.late_change("board") or "changed the board it was asked about (a score function only looks)"
        if answer.kind not in ("list", "tuple") or len(answer.items) != 2 or any(i.kind != "float" for i in answer.items):
            shown = answer.items[0].describe() if answer.kind in ("list", "tuple") and answer.items else answer.describe()
            return f"returned {shown}: a score is a float"
        state = self.state_of(outcome.case.input)
        if self._over(state):
            loser = self.rules.to_move(state)
            mine, theirs = answer.items[1 - loser].value, answer.items[loser].value
            if not mine > theirs:
                return (f"on a finished game, scored {mine!r} for the winner (player {2 - loser}) and {theirs!r} "
                        f"for the loser: a score is from the view of the player it is asked for")
        return None

    # -- showing a case ------------------------------------------------------------------------------

    def declared_skeleton(self) -> str:
        """The code every submission of this exercise writes because the declaration says so, as Python: the timeout
        exception, each class with its constructor's keywords and the methods the tasks call, each score function,
        and the board's operations under the course's names. Near-duplicate detection takes it out before it
        compares (``similarity.sources.exercise_texts``): in a class too small for the idiom discount, an exercise
        without a starter had five independent agents in one cluster at 0.57, on this shared interface alone (the
        130th helper)."""
        decl, lines = self.decl, []
        if decl.get("timeout_exception"):
            lines += [f"class {decl['timeout_exception']}(Exception):", "    pass", "", ""]
        functions = sorted({t["function"] for t in decl["tasks"] if t["kind"] == "heuristic"}
                           | {t["own_score"] for t in decl["tasks"] if t.get("own_score")})
        for name in functions:
            lines += [f"def {name}(game, player):", "    return 0.0", "", ""]
        keywords = list(decl.get("constructor", {}))
        for name, methods in self._declared_classes().items():
            lines += [f"class {name}:", f"    def __init__(self, {', '.join(keywords)}):"]
            lines += [f"        self.{keyword} = {keyword}" for keyword in keywords] or ["        pass"]
            for method, arguments in methods:
                lines += ["", f"    def {method}(self, {', '.join(arguments)}):"]
                lines += [f"        game.{name}()" for name, op in decl["board"].items() if op not in agent_declaration.OPS_PROPERTIES]
                lines += [f"        game.{name}" for name, op in decl["board"].items() if op in agent_declaration.OPS_PROPERTIES]
                lines += ["        return None"]
            lines += ["", ""]
        return "\n".join(lines) + "\n"

    def _declared_classes(self) -> dict[str, list[tuple[str, list]]]:
        """Each class the tasks construct, with the (method, arguments) they call on it, in the declaration's order."""
        classes: dict[str, list] = {}
        for task in self.decl["tasks"]:
            if task["kind"] != "heuristic":
                methods = classes.setdefault(task["class"], [])
                if (task["method"], task["arguments"]) not in methods:
                    methods.append((task["method"], task["arguments"]))
        return classes

    def vocabulary(self) -> set[str]:
        """The names the declaration fixes, which a copier cannot rename: classes, methods, constructor keywords,
        score functions, the timeout exception and the board's operations under the course's names."""
        decl = self.decl
        names = set(decl.get("board", {})) | set(decl.get("constructor", {}))
        if decl.get("timeout_exception"):
            names.add(decl["timeout_exception"])
        for task in decl["tasks"]:
            names |= {task.get(key) for key in ("class", "method", "function", "own_score") if task.get(key)}
        return names

    @cached_property
    def API_CALLS(self) -> list[str]:
        """How the grader calls the student's code: each class once, constructed with the keywords it is given (the
        constants too), then the methods the tasks call, and each score function (an error about an import ended "the
        grader calls AlphaBetaAgent()", the entry point with no arguments: the 130th helper; one form per method ran
        past the error's 600 characters on aind-isolation: the 134th helper)."""
        tasks = self.decl["tasks"]
        forms = []
        for name, methods in self._declared_classes().items():
            keywords = dict.fromkeys(keyword for task in tasks if task.get("class") == name and task["kind"] != "heuristic"
                                     for keyword in [*(task.get("constructor") or {}), *(task.get("constants") or {})])
            calls = " and ".join(f".{method}({', '.join(arguments)})" for method, arguments in methods)
            forms.append(f"{name}({', '.join(keywords)}) with {calls}")
        functions = dict.fromkeys(task["function"] for task in tasks if task["kind"] == "heuristic")
        return forms + [f"{name}(game, player)" for name in functions]

    def call_text(self, case_input) -> str:
        task = case_input["task"]
        if task["kind"] == "heuristic":
            return f"{task['function']}(game, player) for each player"
        args = []
        for keyword, source in task["constructor"].items():
            value = {"depth": case_input.get("depth", 3), "score": f"{task.get('score') or 'your'}_score",
                     "threshold": task["threshold"]}[source]
            args.append(f"{keyword}={value}")
        args += [f"{k}={v!r}" for k, v in task.get("constants", {}).items()]
        player = f"{task['class']}({', '.join(args)})"
        if task["kind"] == "game":
            return f"a full game: {player} as player {case_input['seat'] + 1} against a greedy player"
        shown = {"game": "game", "depth": str(case_input.get("depth")), "time_left": "time_left",
                 "legal_moves": "game.get_legal_moves()", "maximizing": "True"}
        bounds = case_input.get("bounds") or [-INF, INF]
        shown["alpha"], shown["beta"] = repr(bounds[0]), repr(bounds[1])
        call = f"{player}.{task['method']}({', '.join(shown[a] for a in task['arguments'])})"
        if task["kind"] in ("timeout", "iterative"):
            call += f" with {case_input['clock']:g} ms on the clock (one per recorded call)"
        return call

    def caption(self, case_input) -> str:
        state = self.state_of(case_input)
        if self._over(state):
            return f"player {self.rules.to_move(state) + 1} to move has no legal move (the game is over)"
        return f"player {self.rules.to_move(state) + 1} to move"

    def picture(self, case_input) -> str:
        """The board as text, and whose turn it is there (the HTML board said it; the text and Markdown did not)."""
        return self.rules.render(self.state_of(case_input)) + "\n" + self.caption(case_input)

    def picture_svg(self, case_input) -> str:
        expected = self._reference(case_input)
        return agent_pictures.svg(self.rules, self.state_of(case_input), {"best": expected.get("moves") or []})

    def drawing(self, case_input) -> dict:
        return {"kind": "board", "rows": self.rules.cells(self.state_of(case_input)), "caption": self.caption(case_input)}

    def drawing_marks(self, case_input, answer: Answer, expected) -> dict | None:
        best = expected.get("moves") or []
        move = None
        if case_input["task"]["kind"] == "search":
            move = self._move_of(answer, case_input["task"])[0]
        return {"yours": move, "best": best} if best or move else None

    def show_expected(self, case_input, expected):
        if expected.get("kind") == "search":
            return " or ".join(f"({m[0]}, {m[1]})" for m in expected["moves"]) or "no move"
        if expected.get("kind") == "no-moves":
            return repr(tuple(self.decl["no_move"]))
        return {"timeout": f"raise {self.decl['timeout_exception']}", "iterative": "the move of the last completed depth",
                "game": "a full game with legal moves in time", "heuristic": "two floats",
                "bounds": "the leaves alpha-beta scores within the bounds given"}.get(expected.get("kind"), "")

    def show_answer(self, answer: Answer):
        if self._timeout_answer(answer):
            return f"raised {self.decl['timeout_exception']}"
        return answer.describe()

    def admits(self, case_input, group: str) -> bool:
        return case_input["task"]["group"] == group


def group_words() -> dict:
    return dict(GROUP_WORDS)
