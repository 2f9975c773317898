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
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.file_names import for_terminal
from grader.version import __version__
from grader.judging import bank as banks
from grader.bulk import discover as discovery
from grader.judging import exercise as exercises
from grader.bulk import part_credit
from grader.bulk.executor import Executor, Job, LocalPool, Task
from grader.bulk.gradebook import Gradebook
from grader.sandbox import frozen
from grader.similarity import sources as similar
from grader.similarity import view as similar_view

GRADEBOOK = "gradebook.sqlite"
STAGING = ".staging"      # where older versions unpacked archives; removed if found
DISCOVERY = "discovery.json"
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
    notes: list[str] = field(default_factory=list)     # what the instructor should know (unmatched roster ids...)
    seconds: float = 0.0


class Progress:
    """Plain log lines (not a TTY, a CI log); ``RichProgress`` draws a bar instead.

    Every count is of students, from the first line to the last: the announced total, the
    running counts (a verdict shared by identical submissions counts once per student; those
    known before grading, from the gradebook or unreadable, are counted at the start) and the
    final line all add up to the same number as the rows of ``grades.csv``.
    """

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.counts = {"passed": 0, "failed": 0, "error": 0}
        self.total = 0
        self.done = 0      # students counted so far
        self.graded = 0    # verdicts that arrived in this run (for the rate)
        self.started = time.monotonic()

    def account(self, lines: list[str]) -> None:
        """What discovery found and left out, before any grading starts."""
        for line in lines:
            print(for_terminal(line), file=self.stream, flush=True)

    def start(self, total: int, already: int, seed: int, exercise: str, *, to_grade: int | None = None,
              unreadable: int = 0) -> None:
        self.total, self.done, self.graded = total, 0, 0
        self.started = time.monotonic()
        print(self._announce(total, already, seed, exercise, to_grade, unreadable), file=self.stream, flush=True)

    @staticmethod
    def _announce(total, already, seed, exercise, to_grade, unreadable) -> str:
        to_grade = total - already - unreadable if to_grade is None else to_grade
        return (f"grading {total} submission{'s' if total != 1 else ''} of {exercise} with seed {seed}: "
                f"{to_grade} to grade, {already} already in the gradebook, {unreadable} that cannot be graded")

    def count(self, status: str, student: str | None = None, fresh: bool = True, n: int = 1) -> None:
        self.counts[status] = self.counts.get(status, 0) + n
        self.done += n
        if fresh:
            self.graded += 1
            elapsed = time.monotonic() - self.started
            who = for_terminal(student or "") if n == 1 else f"{for_terminal(student or '')} (and {n - 1} identical)"
            print(f"[{self.done}/{self.total}] {status:<6} {who}  ({self._line(elapsed)})", file=self.stream, flush=True)

    def _line(self, elapsed: float) -> str:
        rate = self.graded / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"{rate:.1f}/s, ETA {eta:.0f} s; passed {self.counts['passed']}, failed {self.counts['failed']}, "
                f"error {self.counts['error']}")

    def finish(self, outcome: Outcome) -> None:
        counted = sum(outcome.counts.values())
        print(f"done in {outcome.seconds:.1f} s: {counted} submission{'s' if counted != 1 else ''} "
              f"({outcome.graded_now} graded now, {outcome.reused} from the gradebook); "
              f"passed {outcome.counts['passed']}, failed {outcome.counts['failed']}, error {outcome.counts['error']}; "
              f"results in {for_terminal(str(outcome.out))}", file=self.stream, flush=True)


class RichProgress(Progress):
    """A rich progress bar with the rate, the ETA and running passed/failed/error counts."""

    def account(self, lines: list[str]) -> None:
        from rich.console import Console

        console = Console(file=self.stream, highlight=False)
        for line in lines:
            console.print(for_terminal(line), markup=False)

    def start(self, total: int, already: int, seed: int, exercise: str, *, to_grade: int | None = None,
              unreadable: int = 0) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

        self.console = Console(file=self.stream, highlight=False)
        self.console.print(self._announce(total, already, seed, exercise, to_grade, unreadable), markup=False)
        self.bar = Bar(TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                       TimeRemainingColumn(), TextColumn("{task.fields[counts]}"), console=self.console, transient=False)
        self.total, self.done, self.graded = total, 0, 0
        self.started = time.monotonic()
        self.task = self.bar.add_task("grading", total=total, completed=0, rate="", counts=self._counts())
        self.bar.start()

    def _counts(self) -> str:
        return (f"[green]{self.counts['passed']} passed[/] [red]{self.counts['failed']} failed[/] "
                f"[magenta]{self.counts['error']} error[/]")

    def count(self, status: str, student: str | None = None, fresh: bool = True, n: int = 1) -> None:
        self.counts[status] = self.counts.get(status, 0) + n
        self.done += n
        if fresh:
            self.graded += 1
        elapsed = max(time.monotonic() - self.started, 1e-6)
        self.bar.update(self.task, advance=n, rate=f"{self.graded / elapsed:.1f}/s", counts=self._counts())

    def finish(self, outcome: Outcome) -> None:
        self.bar.stop()
        super().finish(outcome)


class UsageProblem(Exception):
    """The command cannot run as given (a path that does not exist, nothing to grade): exit 2, nothing created."""


class NothingToGrade(UsageProblem):
    """The paths hold no submission at all: an instructor's mistake, not a graded batch."""


def make_progress(stream=None) -> Progress:
    stream = stream or sys.stderr
    if stream.isatty() and not os.environ.get("CI"):
        return RichProgress(stream)
    return Progress(stream)


def grade(paths: list[Path], exercise_id: str, out: Path, *, jobs: int | None = None, seed: int | None = None,
          exercises_dirs: list[Path] | None = None, sandbox: str | None = None, executor: Executor | None = None,
          progress: Progress | None = None, warm: bool = True, examples: int | None = None,
          lms: tuple[str, ...] = (), roster: dict | None = None, sections: bool = False) -> Outcome:
    """Grade every submission under ``paths`` into ``out``.

    Everything that can be refused is refused before ``out`` is touched: an unknown exercise,
    a path that does not exist, paths that hold no submission. Archives are unpacked into a
    temporary folder outside ``out`` that is removed however the run ends.
    """
    started = time.monotonic()
    out = Path(out)
    paths = [Path(p) for p in paths]
    exercise = exercises.load(exercise_id, exercises_dirs)  # an unknown exercise leaves no --out folder behind
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageProblem(f"no such file or folder: {', '.join(missing)}")
    other = _results_of_another_exercise(out, exercise.id)
    if other is not None:
        raise UsageProblem(f"{out} holds the results of exercise {other} (its results.json): grading {exercise.id} "
                           "there would replace its grades and summary and remove its reports; give --out a folder "
                           "of its own")
    progress = progress or Progress(open(os.devnull, "w"))
    # A folder that cannot be removed (whatever a submission's files made of it) never costs the class its outputs
    with tempfile.TemporaryDirectory(prefix="minimax-grader-unpacked-", ignore_cleanup_errors=True) as staging:
        survey = discovery.survey(paths, Path(staging), sections)
        if survey.sections_needed:
            raise UsageProblem(survey.sections_needed)
        if not survey.found:
            raise NothingToGrade(f"found no submissions in {', '.join(str(p) for p in paths)}"
                                 + "".join(f"; skipped {s.path}: {s.reason}" for s in survey.skipped[:5]))
        progress.account(survey.lines())
        out.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(out / STAGING, ignore_errors=True)  # left by an older version of the grader
        with Gradebook(out / GRADEBOOK) as book:
            outcome, entries, students = _grade_found(survey.found, exercise, book, out, seed=seed, jobs=jobs,
                                                      exercises_dirs=exercises_dirs, sandbox=sandbox,
                                                      executor=executor, progress=progress, warm=warm,
                                                      examples=examples, frozen_root=Path(staging))
        # Read while the unpacked archives still exist: the comparison needs every student's text.
        near_duplicates = similar.for_class({e["found"].student: e["submission"].files for e in students
                                             if e["submission"] is not None and e["submission"].problem is None},
                                            exercise)
    lms_notes = write_lms(out, entries, exercise=exercise.id, lms=lms, roster=roster)
    outcome.notes += lms_notes
    write_outputs(out, entries, exercise=exercise.id, seed=outcome.seed, discovered=survey.account(),
                  near_duplicates=near_duplicates, lms={"files": [LMS_FILES[n] for n in dict.fromkeys(lms)],
                                                        "notes": lms_notes} if lms else None)
    outcome.seconds = time.monotonic() - started
    progress.finish(outcome)
    return outcome


def _grade_found(found, exercise, book, out, *, seed, jobs, exercises_dirs, sandbox, executor, progress, warm,
                 examples, frozen_root: Path) -> tuple[Outcome, list[dict], list[dict]]:
    if seed is None:
        seed = book.seed(exercise.id)
    if seed is None:
        seed = secrets.randbits(32)  # fresh and secret: nobody has seen these cases
    book.remember_seed(exercise.id, seed)
    examples = exercise.random_examples if examples is None else examples  # as banks.build counts them
    outcome = Outcome(out=out, seed=seed, total=len(found))
    students = _load_submissions(found)
    done = {key: part_credit.count_every_part(result, exercise)
            for key, result in book.done(exercise.id, __version__, seed, exercise.fingerprint, examples).items()}
    tasks: dict[str, Task] = {}
    sharing: dict[str, int] = {}  # students behind each content key: a task's verdict counts for each of them
    # Every submission is read, hashed and copied (read-only, in a private folder outside --out)
    # before any student code runs: nothing one submission does can change what another is graded on.
    class_copy = frozen.open_class(frozen_root)
    job = Job(exercise=exercise.id, seed=seed, examples=examples,
              exercises_dirs=tuple(str(d) for d in exercises_dirs or ()), sandbox=sandbox, warm=warm)
    executor = executor or LocalPool(jobs)
    try:
        for entry in students:
            key = entry["key"]
            if key is not None:
                sharing[key] = sharing.get(key, 0) + 1
                if key not in done and key not in tasks:
                    path = class_copy.freeze(entry["submission"], len(tasks)) or entry["submission"].path
                    tasks[key] = Task(key=key, path=str(path), display=entry["found"].display)
        # The workers start while the bank is drawn (they need it only once they grade): see LocalPool.start_early
        if tasks and hasattr(executor, "start_early"):
            executor.start_early(job, len(tasks))
        bank = banks.build(exercise, seed=seed, examples=examples)  # once, cached on disk for every worker
        known = [("error" if e["key"] is None else done[e["key"]].get("status", "error"))
                 for e in students if e["key"] is None or e["key"] in done]
        outcome.reused = sum(1 for e in students if e["key"] is not None and e["key"] in done)
        progress.start(len(students), outcome.reused, seed, exercise.id, to_grade=len(students) - len(known),
                       unreadable=len(known) - outcome.reused)
        for status in known:
            progress.count(status, fresh=False)
        for task, result in executor.run(job, list(tasks.values())):
            if result is None:
                outcome.failures.append(f"{task.display}: the grader itself failed on this submission "
                                        f"(not stored; the next run grades it again)")
                progress.count("error", task.display, n=sharing[task.key])
                continue
            result = part_credit.count_every_part(result, exercise)
            book.record(task.key, exercise.id, __version__, seed, exercise.fingerprint, bank.examples, result)
            done[task.key] = result
            outcome.graded_now += 1
            progress.count(result.get("status", "error"), task.display, n=sharing[task.key])
    finally:
        executor.close()
        class_copy.close()
    return outcome, _assemble(students, done, exercise, bank, sandbox, outcome), students


def _load_submissions(found: list[discovery.Found]) -> list[dict]:
    from grader.judging import submissions

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
    if sub.is_folder and len(sub.files) > 1:  # the folder's hash covers its files' names
        return sub.sha256
    # One file, alone or in a folder: its hash is of its bytes only (``alice/alice_v3.py`` and ``bob/bob_final.py``
    # with the same bytes shared a row, and bob's report named alice's file: the hundred and tenth helper)
    return hashlib.sha256(f"{sub.entry_file.name}\0{sub.sha256}".encode()).hexdigest()


def _assemble(students: list[dict], done: dict[str, dict], exercise, bank, sandbox, outcome: Outcome) -> list[dict]:
    """One entry per student, sorted by id: the stored result, relabelled with the student's own path."""
    entries = []
    names: set[str] = set()
    # A student whose id is a file name as it is keeps it: ``_alice.py`` (made "alice") took ``reports/alice.html`` and
    # alice got ``alice~2.html``, which an instructor handing out reports/<id>.html sends to the wrong student (the
    # hundred and tenth helper). Names are given in two rounds: ids that need no change, then the rest.
    ordered = sorted(students, key=lambda s: (s["found"].student.casefold(), s["found"].student))  # as people sort names
    given = {}
    for exact in (True, False):
        for item in ordered:
            student = item["found"].student
            if id(item) not in given and (discovery.safe_name(student) == student) is exact:
                given[id(item)] = _report_name(student, names)
    launcher = None
    for item in ordered:
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
        name = given[id(item)]
        entries.append({"student": found.student, "name": name, "report": f"{REPORTS}/{name}.html", "result": result,
                        "lms_id": found.lms_id, "named_by_lms": found.named_by_lms})
    return entries


def _error_result(found: discovery.Found, sub, exercise, bank, launcher) -> dict:
    """What ``check`` says about a submission that cannot be graded, without starting anything."""
    from grader.judging import judge, submissions

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


def write_outputs(out: Path, entries: list[dict], *, exercise: str, seed: int, discovered: dict | None = None,
                  near_duplicates=None, lms: dict | None = None) -> None:
    """``near_duplicates``: ``(clusters, texts)`` from ``grader.similarity.sources.for_class``, or None
    when they were not looked for (the field is then absent, never an empty list that says "none").
    ``lms``: the LMS import files written beside (``files``) and the roster's notes (``notes``), for the summary
    page: they were only on the terminal, and the summary linked no LMS file (the hundred and thirteenth helper)."""
    from grader import report
    from grader.export import csv as csv_export
    from grader.report import summary

    reports = out / REPORTS
    reports.mkdir(exist_ok=True)
    written = set()
    for entry in entries:
        for fmt in ("html", "md"):
            written.add(f"{entry['name']}.{fmt}")
            _write(reports / f"{entry['name']}.{fmt}", report.render(entry["result"], fmt, summary="../summary.html"))
    _remove_other_reports(reports, written)
    submissions = [{"student": e["student"], "report": e["report"], **e["result"]} for e in entries]
    counts = {s: sum(1 for e in entries if e["result"]["status"] == s) for s in ("passed", "failed", "error")}
    document = {"exercise": exercise, "seed": seed, "grader_version": __version__, "count": len(entries),
                **counts, "submissions": submissions}
    if near_duplicates is not None:
        document["near_duplicates"] = near_duplicates[0]
    _write(out / "results.json", _one_per_line(document, "submissions"))
    _write(out / "grades.csv", csv_export.render([(e["student"], e["result"]) for e in entries]))
    if discovered is not None:
        _write(out / DISCOVERY, json.dumps(discovered, indent=1, ensure_ascii=False) + "\n")
    page = summary.summarise(entries, exercise=exercise, seed=seed, grader_version=__version__, discovered=discovered)
    page["lms"] = lms
    if near_duplicates is not None:
        page["near_duplicates"] = similar_view.context(*near_duplicates, {e["student"]: e["report"] for e in entries})
    _write(out / "summary.html", summary.render(page))


def _results_of_another_exercise(out: Path, exercise_id: str) -> str | None:
    """The exercise whose results ``out`` already holds, where it is not ``exercise_id`` (None otherwise, or where
    there is nothing readable to say so). A class of another exercise graded into the same folder replaced its
    grades.csv, results.json and summary and removed all its reports, without a word (the 133rd helper)."""
    try:
        held = json.loads((out / "results.json").read_text(encoding="utf-8")).get("exercise")
    except (OSError, ValueError, AttributeError):
        return None
    return str(held) if held and str(held) != exercise_id else None


WRITTEN = ".written"  # in the reports folder: the reports the last run wrote, one name a line


def _remove_other_reports(reports: Path, written: set[str]) -> None:
    """The reports an earlier run into the same ``--out`` wrote for students this run does not have (a run that read
    two section archives as two students, then the right one): they would be read as this class's. Only what the
    grader wrote, by the list it keeps of them (``WRITTEN``): an instructor's own notes there stay (the hundred and
    fourteenth helper's ``notes-for-TAs.md`` was removed by a rule by suffix)."""
    listed = reports / WRITTEN
    try:
        before = set(listed.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        before = set()
    for name in before - written:
        if name and "/" not in name and "\\" not in name and not name.startswith("."):
            path = reports / name
            try:
                if path.is_file() and not path.is_symlink():
                    path.unlink()
            except OSError:
                pass
    _write(listed, "".join(f"{name}\n" for name in sorted(written)))


LMS_FILES = {"canvas": "canvas.csv", "moodle": "moodle.csv"}


def write_lms(out: Path, entries: list[dict], *, exercise: str, lms: tuple[str, ...], roster: dict | None) -> list[str]:
    """Each requested LMS's import file; returns the notes on the roster (students it does not name, rows of it no
    student matched: ``roster.people_for``)."""
    import importlib

    from grader.export.roster import Student, people_for

    if not lms:
        return []
    pairs = [(e["student"], e["result"]) for e in entries]
    people, notes = people_for([Student(e["student"], e.get("lms_id", ""), e.get("named_by_lms", False))
                                for e in entries], roster, ", ".join(LMS_FILES[n] for n in dict.fromkeys(lms)))
    for name in dict.fromkeys(lms):
        module = importlib.import_module(f"grader.export.{name}")
        _write(out / LMS_FILES[name], module.render(pairs, assignment=exercise, roster=people))
    return [] if roster is None else notes


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
