"""Grading a whole class: discover, skip what the gradebook already knows, grade the rest, write.

The flow is one direction. Discovery turns the instructor's folders and archives into
``Found`` entries; each distinct submission (by content hash) that the gradebook has no
current row for becomes one executor task; results come back in any order to this thread,
the only writer, which commits each to the gradebook as it arrives. The outputs
(``results.json``, ``grades.csv``, one report per student, ``summary.html``) are always
written from the gradebook's rows at the end, so an interrupted run followed by a re-run
writes exactly what one uninterrupted run would have.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader import __version__
from grader import bank as banks
from grader import discover as discovery
from grader import exercise as exercises
from grader.executor import Executor, Job, LocalPool, Task
from grader.gradebook import Gradebook

GRADEBOOK = "gradebook.sqlite"
STAGING = ".staging"
REPORTS = "reports"


GRADER_FAILED = "the grader itself failed while grading this submission; run grade again"


@dataclass
class Outcome:
    out: Path
    seed: int
    total: int = 0
    graded_now: int = 0           # distinct submissions graded in this run
    reused: int = 0               # students whose result came from the gradebook
    counts: dict = field(default_factory=lambda: {"passed": 0, "failed": 0, "error": 0})
    failures: list[str] = field(default_factory=list)  # the grader's own failures
    seconds: float = 0.0


class Progress:
    """Plain log lines (not a TTY, a CI log); ``RichProgress`` draws a bar instead."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.counts = {"passed": 0, "failed": 0, "error": 0}
        self.total = 0
        self.done = 0
        self.started = time.monotonic()

    def start(self, total: int, already: int, seed: int, exercise: str) -> None:
        self.total, self.done = total, 0
        self.started = time.monotonic()
        print(f"grading {total} submission{'s' if total != 1 else ''} of {exercise} with seed {seed} "
              f"({already} already in the gradebook)", file=self.stream, flush=True)

    def count(self, status: str, student: str | None = None, fresh: bool = True) -> None:
        self.counts[status] = self.counts.get(status, 0) + 1
        if fresh:
            self.done += 1
            elapsed = time.monotonic() - self.started
            print(f"[{self.done}/{self.total}] {status:<6} {student}  ({self._line(elapsed)})", file=self.stream, flush=True)

    def _line(self, elapsed: float) -> str:
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"{rate:.1f}/s, ETA {eta:.0f} s; passed {self.counts['passed']}, failed {self.counts['failed']}, "
                f"error {self.counts['error']}")

    def finish(self, outcome: Outcome) -> None:
        print(f"done in {outcome.seconds:.1f} s: {outcome.graded_now} graded now, {outcome.reused} from the gradebook; "
              f"passed {outcome.counts['passed']}, failed {outcome.counts['failed']}, error {outcome.counts['error']}; "
              f"results in {outcome.out}", file=self.stream, flush=True)


class RichProgress(Progress):
    """A rich progress bar with the rate, the ETA and running passed/failed/error counts."""

    def start(self, total: int, already: int, seed: int, exercise: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

        self.console = Console(file=self.stream)
        self.console.print(f"grading {total} submission(s) of [bold]{exercise}[/] with seed {seed} ({already} already in the gradebook)")
        self.bar = Bar(TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                       TimeRemainingColumn(), TextColumn("{task.fields[counts]}"), console=self.console, transient=False)
        self.total, self.done = total, 0
        self.started = time.monotonic()
        self.task = self.bar.add_task("grading", total=total, completed=0, rate="", counts=self._counts())
        self.bar.start()

    def _counts(self) -> str:
        return (f"[green]{self.counts['passed']} passed[/] [red]{self.counts['failed']} failed[/] "
                f"[magenta]{self.counts['error']} error[/]")

    def count(self, status: str, student: str | None = None, fresh: bool = True) -> None:
        self.counts[status] = self.counts.get(status, 0) + 1
        if fresh:
            self.done += 1
            elapsed = max(time.monotonic() - self.started, 1e-6)
            self.bar.update(self.task, advance=1, rate=f"{self.done / elapsed:.1f}/s", counts=self._counts())
        else:
            self.bar.update(self.task, counts=self._counts())

    def finish(self, outcome: Outcome) -> None:
        self.bar.stop()
        super().finish(outcome)


class NothingToGrade(Exception):
    """The paths hold no submission at all: an instructor's mistake, not a graded batch."""


def make_progress(stream=None) -> Progress:
    stream = stream or sys.stderr
    if stream.isatty() and not os.environ.get("CI"):
        return RichProgress(stream)
    return Progress(stream)


def grade(paths: list[Path], exercise_id: str, out: Path, *, jobs: int | None = None, seed: int | None = None,
          exercises_dirs: list[Path] | None = None, sandbox: str | None = None, executor: Executor | None = None,
          progress: Progress | None = None, warm: bool = True, examples: int | None = None) -> Outcome:
    started = time.monotonic()
    out = Path(out)
    exercise = exercises.load(exercise_id, exercises_dirs)  # an unknown exercise leaves no --out folder behind
    out.mkdir(parents=True, exist_ok=True)
    progress = progress or Progress(open(os.devnull, "w"))
    with Gradebook(out / GRADEBOOK) as book:
        if seed is None:
            seed = book.seed(exercise.id)
        if seed is None:
            seed = secrets.randbits(32)  # fresh and secret: nobody has seen these cases
        book.remember_seed(exercise.id, seed)
        bank = banks.build(exercise, seed=seed, examples=examples)  # once, cached on disk for every worker
        outcome = Outcome(out=out, seed=seed)

        found = discovery.discover([Path(p) for p in paths], out / STAGING)
        if not found:
            raise NothingToGrade(f"found no submissions in {', '.join(str(p) for p in paths)}")
        outcome.total = len(found)
        students = _load_submissions(found)
        done = book.done(exercise.id, __version__, seed, exercise.fingerprint, bank.examples)
        tasks: dict[str, Task] = {}
        for entry in students:
            key = entry["key"]
            if key is not None and key not in done and key not in tasks:
                tasks[key] = Task(key=key, path=str(entry["submission"].path), display=entry["found"].display)

        already = sum(1 for e in students if e["key"] in done)
        outcome.reused = already
        progress.start(len(tasks), already, seed, exercise.id)
        job = Job(exercise=exercise.id, seed=seed, examples=bank.examples,
                  exercises_dirs=tuple(str(d) for d in exercises_dirs or ()), sandbox=sandbox, warm=warm)
        executor = executor or LocalPool(jobs)
        try:
            for task, result in executor.run(job, list(tasks.values())):
                if result is None:
                    outcome.failures.append(f"{task.display}: the grader itself failed on this submission")
                    progress.count("error", task.display)
                    continue
                book.record(task.key, exercise.id, __version__, seed, exercise.fingerprint, bank.examples, result)
                done[task.key] = result
                outcome.graded_now += 1
                progress.count(result.get("status", "error"), task.display)
        finally:
            executor.close()

        entries = _assemble(students, done, exercise, bank, sandbox, outcome)
    write_outputs(out, entries, exercise=exercise.id, seed=seed)
    outcome.seconds = time.monotonic() - started
    progress.finish(outcome)
    return outcome


def _load_submissions(found: list[discovery.Found]) -> list[dict]:
    from grader import submissions

    out = []
    for item in found:
        sub = None
        if item.problem is None:
            sub = submissions.load(item.path)
            sub.display = item.display
        out.append({"found": item, "submission": sub, "key": content_key(sub)})
    return out


def content_key(sub) -> str | None:
    """The gradebook key of a gradable submission: its content hash, and the file's name when it is one file.

    The name is part of what the student's code sees (tracebacks say "line 12 of alice.py"),
    so two students handing in the same bytes under different names are graded apart and
    neither report names the other's file. Identical folders (``solution.py`` each) share a row.
    """
    if sub is None or sub.problem is not None:
        return None
    if sub.is_folder:
        return sub.sha256
    return hashlib.sha256(f"{sub.entry_file.name}\0{sub.sha256}".encode()).hexdigest()


def _assemble(students: list[dict], done: dict[str, dict], exercise, bank, sandbox, outcome: Outcome) -> list[dict]:
    """One entry per student, sorted by id: the stored result, relabelled with the student's own path."""
    entries = []
    names: set[str] = set()
    launcher = None
    for item in sorted(students, key=lambda s: s["found"].student):
        found, sub, key = item["found"], item["submission"], item["key"]
        if key is not None and key in done:
            result = dict(done[key])
            result["submission"] = found.display
        else:
            if launcher is None:
                from grader.sandbox import launch

                launcher = launch.choose(sandbox)
            if key is not None:
                # The grader failed on it (already in outcome.failures; the command exits 3). It is listed,
                # as an error that says so, but never stored: the next run grades it again.
                sub = type(sub)(path=sub.path, display=found.display, problem=GRADER_FAILED)
            result = _error_result(found, sub, exercise, bank, launcher)
        outcome.counts[result["status"]] = outcome.counts.get(result["status"], 0) + 1
        name = _report_name(found.student, names)
        entries.append({"student": found.student, "name": name, "report": f"{REPORTS}/{name}.html", "result": result})
    return entries


def _error_result(found: discovery.Found, sub, exercise, bank, launcher) -> dict:
    """What ``check`` says about a submission that cannot be graded, without starting anything."""
    from grader import judge, submissions

    if sub is None:
        sub = submissions.Submission(path=Path(found.display), display=found.display, problem=found.problem)
    return judge.grade(sub, exercise, bank, launcher).to_dict()


def _report_name(student: str, taken: set[str]) -> str:
    base = discovery.safe_name(student)
    name, n = base, 1
    while name.lower() in taken:
        n += 1
        name = f"{base}~{n}"
    taken.add(name.lower())
    return name


# -- outputs -------------------------------------------------------------------------------


def write_outputs(out: Path, entries: list[dict], *, exercise: str, seed: int) -> None:
    from grader import report
    from grader.export import csv as csv_export
    from grader.report import summary

    reports = out / REPORTS
    reports.mkdir(exist_ok=True)
    for entry in entries:
        for fmt in ("html", "md"):
            _write(reports / f"{entry['name']}.{fmt}", report.render(entry["result"], fmt, summary="../summary.html"))
    submissions = [{"student": e["student"], "report": e["report"], **e["result"]} for e in entries]
    counts = {s: sum(1 for e in entries if e["result"]["status"] == s) for s in ("passed", "failed", "error")}
    document = {"exercise": exercise, "seed": seed, "grader_version": __version__, "count": len(entries),
                **counts, "submissions": submissions}
    _write(out / "results.json", _one_per_line(document, "submissions"))
    _write(out / "grades.csv", csv_export.render([(e["student"], e["result"]) for e in entries]))
    page = summary.summarise(entries, exercise=exercise, seed=seed, grader_version=__version__)
    _write(out / "summary.html", summary.render(page))


def _one_per_line(document: dict, key: str) -> str:
    """JSON with the list under ``key`` one item per line: readable and diffable, and written by the
    C encoder (an indented dump goes through the pure-Python one, slow for a class of hundreds)."""
    head = json.dumps({k: v for k, v in document.items() if k != key}, indent=1, ensure_ascii=False)
    items = ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in document[key])
    listed = f"[\n{items}\n ]" if items else "[]"
    return f'{head[:-2]},\n "{key}": {listed}\n}}\n'


def _write(path: Path, text: str) -> None:
    """Atomically: a reader (or a crash) never sees half a file. A file that already says exactly
    this is left alone (a re-run rewrites nothing it does not change)."""
    data = text.encode("utf-8")
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)
