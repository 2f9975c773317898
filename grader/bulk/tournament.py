"""A class tournament end to end: agents found, games scheduled, played through an executor, written.

``run`` discovers the students' agents as ``grade`` discovers submissions, freezes them (read,
hashed and copied before any agent runs), schedules every game (``grader.tournament.schedule``)
and hands the pairings not yet recorded to an executor (the local pool, or Dask) as tasks of a
``kind = "tournament"`` job; a worker plays a pairing's games as one series (``Arena.play``: one
sandboxed process per agent per series, a fresh one after a failure) and answers their records.
This thread is the only writer: each series' records are appended to ``games.jsonl`` (and synced)
as they arrive, so a run killed at any moment loses at most the series being played, and a re-run
plays only the series with a game whose key (the configuration, the game's id and both agents'
content hashes) the journal does not hold. At the end the journal is rewritten in schedule order (the
same seed and agents give the same bytes, whatever order the games finished in), and the
outputs are written from it alone: ``standings.csv``, ``leaderboard.html``, a page per agent, a
replay per game, and the rubric's points as contract results in ``gradebook.sqlite``,
``grades.csv`` and the LMS files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.file_names import for_terminal
from grader.version import __version__
from grader.bulk import discover as discovery
from grader.bulk.batch import LMS_FILES, NothingToGrade, UsageProblem, _write, content_key, write_lms
from grader.bulk.executor import Executor, Job, LocalPool, Task
from grader.bulk.gradebook import Gradebook
from grader.judging import exercise as exercises
from grader.sandbox import frozen
from grader.tournament import declaration as declarations
from grader.tournament import referee, schedule, standings

GAMES = "games.jsonl"
GRADEBOOK = "gradebook.sqlite"


@dataclass
class Outcome:
    out: Path
    seed: int
    games: int = 0             # in the schedule
    played_now: int = 0
    reused: int = 0            # already in the journal
    failures: list[str] = field(default_factory=list)  # games the grader itself failed on (played again next run)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    standings: dict | None = None


def book_name(exercise_id: str) -> str:
    """The gradebook's exercise name for a tournament's points (beside the exercise's own grades)."""
    return f"{exercise_id}:tournament"


def run(paths: list[Path], exercise_id: str, out: Path, *, games: int | None = None, seed: int | None = None,
        round_robin: bool = False, jobs: int | None = None, executor: Executor | None = None,
        exercises_dirs: list[Path] | None = None, sandbox: str | None = None, lms: tuple[str, ...] = (),
        roster: dict | None = None, stream=None) -> Outcome:
    started = time.monotonic()
    stream = stream or open(os.devnull, "w")
    out, paths = Path(out), [Path(p) for p in paths]
    exercise = exercises.load(exercise_id, exercises_dirs)
    try:
        declared = declarations.read(exercise)
    except declarations.TournamentError as exc:
        raise UsageProblem(str(exc)) from None
    count = games or declared.games
    if count < 2 or count % 2:
        raise UsageProblem(f"--games {count}: an even number of at least 2 (each opening is played from both sides)")
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageProblem(f"no such file or folder: {', '.join(missing)}")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-unpacked-", ignore_cleanup_errors=True) as staging:
        survey = discovery.survey(paths, Path(staging))
        if not survey.found:
            raise NothingToGrade(f"found no agents in {', '.join(str(p) for p in paths)}")
        for line in survey.lines():
            print(f"minimax-grader: {for_terminal(line)}", file=stream)
        out.mkdir(parents=True, exist_ok=True)
        class_copy = frozen.open_class(Path(staging))
        try:
            with Gradebook(out / GRADEBOOK) as book:
                outcome = _run(survey.found, exercise, declared, book, out, count=count, seed=seed,
                               round_robin=round_robin, jobs=jobs, executor=executor, exercises_dirs=exercises_dirs,
                               sandbox=sandbox, class_copy=class_copy, stream=stream, lms=lms, roster=roster)
        finally:
            class_copy.close()
    outcome.seconds = time.monotonic() - started
    print(f"minimax-grader: {outcome.games} games ({outcome.played_now} played now, {outcome.reused} from {GAMES}); "
          f"seed {outcome.seed}; {outcome.seconds:.1f} s", file=stream)
    return outcome


def _run(found, exercise, declared, book, out: Path, *, count, seed, round_robin, jobs, executor, exercises_dirs,
         sandbox, class_copy, stream, lms, roster) -> Outcome:
    from grader.judging import submissions

    name = book_name(exercise.id)
    if seed is None:
        seed = book.seed(name)
    if seed is None:
        seed = secrets.randbits(32)
    book.remember_seed(name, seed)
    agents: dict[str, dict] = {}
    students: list[str] = []
    unplayable: dict[str, str] = {}
    reserved = {b["id"] for b in declared.baselines}
    for number, item in enumerate(sorted(found, key=lambda f: f.student)):
        sub = None
        if item.problem is None:
            sub = submissions.load(item.path)
        if sub is None or sub.problem:
            unplayable[item.student] = (item.problem or sub.problem)
            continue
        path = class_copy.freeze(sub, number) or sub.path
        # A student named like a baseline ("random") plays as "random (student)": one student's file name never
        # stops the class's tournament, and the grades still go to the student's own name.
        agent_id = item.student if item.student not in reserved else f"{item.student} (student)"
        agents[agent_id] = {"id": agent_id, "kind": "student", "path": str(path), "display": item.display,
                            "key": content_key(sub), "student": item.student}
        students.append(agent_id)
    baselines = [b["id"] for b in declared.baselines]
    for spec in declared.baselines:
        agents[spec["id"]] = dict(spec, key=_file_key(spec.get("path")))
    config = hashlib.sha256(json.dumps([exercise.id, exercise.fingerprint, __version__, seed, count,
                                        repr(declared)], sort_keys=True).encode()).hexdigest()[:16]
    planned = schedule.games(schedule.pairings(students, baselines, round_robin), count)
    for game in planned:
        game["key"] = hashlib.sha256(json.dumps([config, game["id"], agents[game["max"]]["key"],
                                                 agents[game["min"]]["key"]]).encode()).hexdigest()[:24]
    journal = out / GAMES
    recorded = _read_journal(journal)
    outcome = Outcome(out=out, seed=seed, games=len(planned))
    series: dict[tuple, list[dict]] = {}
    for game in planned:
        series.setdefault(tuple(game["pairing"]), []).append(game)
    # A pairing's games are one task (one process per agent for the series): a series counts as played only
    # when every one of its games is in the journal, else it is played again whole (the same records).
    pending = [games for games in series.values() if any(g["key"] not in recorded for g in games)]
    outcome.reused = len(planned) - sum(len(games) for games in pending)
    print(f"minimax-grader: {len(planned)} games of {len(students)} agents ({len(planned) - outcome.reused} to play); "
          f"seed {seed}", file=stream)
    tasks = [Task(key=hashlib.sha256("".join(g["key"] for g in games).encode()).hexdigest()[:24],
                  path=json.dumps({"games": games, "agents": {n: agents[n] for n in games[0]["pairing"]}}),
                  display=" vs ".join(games[0]["pairing"])) for games in pending]
    keys = {task.key: [g["key"] for g in games] for task, games in zip(tasks, pending)}
    job = Job(exercise=exercise.id, seed=seed, exercises_dirs=tuple(str(d) for d in exercises_dirs or ()),
              sandbox=sandbox, warm=False, kind="tournament")
    executor = executor or LocalPool(jobs)
    try:
        with open(journal, "a", encoding="utf-8") as handle:
            if handle.tell() and not journal.read_bytes().endswith(b"\n"):
                handle.write("\n")  # a line cut short by a kill stays alone on its line (and is skipped)
            for task, result in executor.run(job, tasks):
                if result is None or len(result.get("games") or ()) != len(keys[task.key]):
                    outcome.failures.append(f"{task.display}: the grader itself failed on these games "
                                            "(played again next run)")
                    continue
                lines = []
                for key, record in zip(keys[task.key], result["games"]):
                    record["key"] = key
                    recorded[key] = record
                    lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
                handle.write("".join(lines))
                handle.flush()
                os.fsync(handle.fileno())
                outcome.played_now += len(lines)
                print(f"minimax-grader: {outcome.played_now} of {len(planned) - outcome.reused} games played "
                      f"({for_terminal(task.display)})", file=stream)
    finally:
        executor.close()
    records = [recorded[g["key"]] for g in planned if g["key"] in recorded]
    _write(journal, "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records))
    outcome.standings = write_outputs(out, records, exercise, declared, students, baselines, agents, seed, book,
                                      unplayable)
    entries = outcome.standings["entries"]
    outcome.notes += write_lms(out, entries, exercise=book_name(exercise.id), lms=lms, roster=roster)
    return outcome


def _file_key(path: str | None) -> str | None:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else None


def _read_journal(path: Path) -> dict[str, dict]:
    """The games recorded so far, by key; a line cut short by a crash (the last one) is skipped."""
    found: dict[str, dict] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return found
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("key"), str):
            found[record["key"]] = record
    return found


def write_outputs(out: Path, records: list[dict], exercise, declared, students: list[str], baselines: list[str],
                  agents: dict, seed: int, book: Gradebook, unplayable: dict[str, str]) -> dict:
    from grader.export import csv as csv_export
    from grader.report import tournament_pages

    board = standings.standings(records, students, baselines)
    name = book_name(exercise.id)
    entries = []
    for student in students:
        result = standings.rubric(student, agents[student]["display"], exercise.id, declared, board["table"], seed)
        book.record(agents[student]["key"], name, __version__, seed, exercise.fingerprint, 0, result)
        entries.append({"student": agents[student].get("student", student), "result": result})
    for student, problem in sorted(unplayable.items()):
        top = sum(t.points for t in declared.thresholds)
        entries.append({"student": student, "result": {"submission": student, "exercise": exercise.id, "status": "error",
                                                       "score": 0.0, "max_score": top, "checks": [], "mistakes": [],
                                                       "error": problem}})
    entries.sort(key=lambda e: e["student"])
    _write(out / "standings.csv", _standings_csv(board))
    _write(out / "grades.csv", csv_export.render([(e["student"], e["result"]) for e in entries]))
    pages = tournament_pages.render_all(board, records, exercise=exercise.id, title=exercise.title, seed=seed,
                                        declared={"depth": declared.depth, "budget": declared.budget,
                                                  "move_guard": declared.move_guard, "unit": declared.unit,
                                                  "opening_moves": declared.opening_moves},
                                        pictures=_pictures(exercise, records))
    for relative, text in pages.items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        _write(out / relative, text)
    board["entries"] = entries
    return board


def _pictures(exercise, records: list[dict]):
    """A function drawing each position of a game, for the replay pages: the grid of marks where the game
    draws cells (``cells``, the object route's), with the cell just moved to, else its text rows (``render``)."""
    from grader.tournament.agents import rules_of

    rules = rules_of(exercise)
    grid = getattr(rules, "cells", None)

    def frame(state, move=None):
        if grid is not None:
            return {"cells": grid(state), "moved": move}
        return rules.render(state) or json.dumps(rules.encode(state))

    def draw(record: dict) -> list:
        state = rules.decode(record["start"])
        frames = [frame(state)]
        for move in [*record["opening_moves"], *(m["move"] for m in record["moves"] if m.get("move") is not None)]:
            action = next(a for a in rules.actions(state) if rules.move_data(a) == move)
            state = rules.result(state, action)
            frames.append(frame(state, move))
        return frames

    return draw


def _standings_csv(board: dict) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    opponents = board["students"] + board["baselines"]
    writer.writerow(["rank", "agent", "baseline", "rating", "rating_error", "games", "won", "lost", "drawn", "win_rate",
                     "win_rate_low", "win_rate_high", "failures"] + [f"vs {o} (won|lost)" for o in opponents])
    for row in board["rows"]:
        cells = []
        for other in opponents:
            cell = board["table"].get((row["agent"], other))
            cells.append("" if cell is None else f"{cell['won']}|{cell['lost']}")
        writer.writerow([row["rank"], row["agent"], row["baseline"], f"{row['rating']:.1f}", f"{row['error']:.1f}",
                         row["games"], row["won"], row["lost"], row["drawn"], f"{row['rate']:.4f}", f"{row['low']:.4f}",
                         f"{row['high']:.4f}", "; ".join(f"{k}: {v}" for k, v in row["failures"].items())] + cells)
    return buffer.getvalue()


# -- the worker's side: one game per task ------------------------------------------------------


class Arena:
    """What a worker keeps for a whole tournament: the exercise, its declaration, the launcher."""

    def __init__(self, job: dict):
        from grader.sandbox import launch

        launch.start_choosing(job.get("sandbox"))
        self.exercise = exercises.load(job["exercise"], [Path(d) for d in job.get("exercises_dirs") or ()])
        self.declared = declarations.read(self.exercise)
        self.launcher = launch.choose(job.get("sandbox"))
        self.seed = job["seed"]

    def play(self, spec: dict) -> dict | None:
        """{"games": the series' records}, or None when the grader itself failed (said on stderr, never recorded)."""
        try:
            return {"games": referee.play_series(spec["games"], spec["agents"], self.exercise, self.declared,
                                                 self.launcher, self.seed)}
        except Exception as exc:  # noqa: BLE001 - one series' failure must not take the others down
            print(for_terminal(f"minimax-grader worker: the grader failed on {' vs '.join(spec['games'][0]['pairing'])}: "
                               f"{type(exc).__name__}: {exc}"[:400]), file=sys.stderr, flush=True)
            return None


def serve(job: dict, lines, answers) -> None:
    """The pool worker's loop for a tournament job: a game per line in, its record per line out."""
    arena = Arena(job)
    for line in lines:
        if not line.strip():
            continue
        task = json.loads(line)["task"]
        record = arena.play(json.loads(task["path"]))
        answers.write(json.dumps({"key": task["key"], "result": record}) + "\n")
        answers.flush()
