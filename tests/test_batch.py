"""Grading a whole class: verdicts equal to ``check``, re-runs, outputs, the CLI, the pages.

One class is graded once per test session (the expensive part) and looked at from several
sides: every fixture sample handed in twice under different ids, plus one of each malformed
input. Speed is printed, never asserted (the machine is shared).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bulk_class import MALFORMED, ROOT, build_class, samples
from grader.doors import api
from grader.bulk import batch
from grader.bulk.gradebook import Gradebook

SEED = 4242
# Every correct style and the buggy ones behind each family of mistake: enough to see every
# verdict path without paying for all 37 samples three times on a shared two-core machine.
SAMPLE = samples("correct")[::3] + samples("buggy")[::2]
VOLATILE = ("duration_seconds", "sandbox", "submission", "student", "report")


def comparable(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in VOLATILE}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("bulk")
    students = build_class(base / "class", SAMPLE, copies=3, malformed=True)
    started = time.monotonic()
    outcome = batch.grade([base / "class"], "ctp-26", base / "out", seed=SEED, jobs=2)
    first = time.monotonic() - started
    print(f"\nfirst run: {outcome.total} students, {outcome.graded_now} distinct submissions graded in {first:.2f} s")
    return {"base": base, "students": students, "outcome": outcome, "first": first, "out": base / "out"}


def results_of(out: Path) -> dict[str, dict]:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["student"]: s for s in document["submissions"]}


def test_every_verdict_equals_check(graded):
    results = results_of(graded["out"])
    alone = {}
    for student, written in graded["students"].items():
        key = (written.is_dir(), (written / "solution.py" if written.is_dir() else written).read_bytes())
        if key not in alone:  # identical folders: one check stands for all of them
            alone[key] = api.check(written, "ctp-26", seed=SEED).to_dict()
        assert comparable(results[student]) == comparable(alone[key]), student
        assert results[student]["status"] == alone[key]["status"]
    assert {r["status"] for r in results.values()} == {"passed", "failed", "error"}
    from grader.sandbox import forkserver

    if forkserver.available():  # the speed comes from the warm fork server: make sure it was used
        graded = [r for r in results.values() if r["checks"]]
        assert graded and all(r["sandbox"]["mode"].endswith("+fork-server") for r in graded)


def test_duplicates_are_graded_once(graded):
    outcome = graded["outcome"]
    # One per file student and one per group of identical folders (the binary .py is refused before grading).
    assert outcome.graded_now == 2 * len(SAMPLE)
    assert outcome.total == len(graded["students"]) + len(MALFORMED)
    with Gradebook(graded["out"] / batch.GRADEBOOK) as book:
        assert book.count() == outcome.graded_now


def test_malformed_inputs_each_give_one_error_and_the_batch_goes_on(graded):
    results = results_of(graded["out"])
    for student in MALFORMED:
        assert results[student]["status"] == "error", student
        error = results[student]["error"]
        assert error and "\n" not in error, student
    assert "not a text file" in results["zz-binary"]["error"] or "UTF-8" in results["zz-binary"]["error"]
    assert "zip bomb" in results["zz-bomb"]["error"]
    assert "outside its folder" in results["zz-traversal"]["error"]
    assert "no Python file" in results["zz-empty"]["error"]
    assert "leads outside" in results["zz-escape"]["error"]
    assert sum(r["status"] == "passed" for r in results.values()) == 3 * len([p for p in SAMPLE if p.parent.name == "correct"])


def test_unchanged_rerun_grades_nothing(graded):
    started = time.monotonic()
    again = batch.grade([graded["base"] / "class"], "ctp-26", graded["out"], jobs=2)  # seed comes from the gradebook
    seconds = time.monotonic() - started
    print(f"\nunchanged re-run: {seconds:.2f} s vs first run {graded['first']:.2f} s "
          f"({seconds / graded['first']:.2%} of it)")
    assert again.seed == SEED
    # Every gradable submission comes from the gradebook; the malformed inputs are no one's row.
    assert again.graded_now == 0 and again.reused == graded["outcome"].total - len(MALFORMED)
    assert graded["outcome"].reused == 0  # and on the first run, nothing did


def test_a_changed_submission_is_regraded_alone(graded, tmp_path):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(graded["out"], out)
    folder = tmp_path / "class"
    shutil.copytree(graded["base"] / "class", folder, symlinks=True)
    target = next(folder.glob("correct-*-1.py"))
    target.write_text(target.read_text() + "\n# a late fix\n")
    again = batch.grade([folder], "ctp-26", out, jobs=1)
    assert again.graded_now == 1


def test_outputs_exist_and_parse(graded):
    out = graded["out"]
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert document["seed"] == SEED and document["exercise"] == "ctp-26"
    assert len(document["submissions"]) == graded["outcome"].total
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["id"] for r in rows] == [s["student"] for s in document["submissions"]]
    assert set(rows[0]) >= {"id", "score", "max_score", "status", "mistakes"}
    by_id = {r["id"]: r for r in rows}
    assert by_id["buggy-always_max-1"]["mistakes"] == "; ".join(
        m["code"] for m in results_of(out)["buggy-always_max-1"]["mistakes"])
    assert (out / "grades.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    for submission in document["submissions"]:
        html = out / submission["report"]
        assert html.is_file() and html.with_suffix(".md").is_file()
        assert f"seed {SEED}" in html.read_text(encoding="utf-8")
    summary = (out / "summary.html").read_text(encoding="utf-8")
    assert "<svg" in summary and f"seed {SEED}" in summary
    for needle in ("Pass rate per check", "Most frequent mistakes", "Errors and timeouts", "Slowest submissions", "always-max"):
        assert needle in summary
    assert "http://" not in summary.replace("http://www.w3.org/2000/svg", "") and "https://" not in summary


@pytest.mark.parametrize("layout", ["file", "in-a-folder"])
def test_a_file_name_that_is_not_utf8_costs_that_student_alone(tmp_path, layout):
    """One student's file named with bytes that are not UTF-8 (the forty-fifth red team): the class run used to
    stop before grading anyone ("surrogates not allowed") and wrote no results at all. Now that student gets one
    line, the others their grades, and every output is written."""
    import os

    klass = tmp_path / "class"
    klass.mkdir()
    correct = samples("correct")[0]
    (klass / "alice.py").write_bytes(correct.read_bytes())
    odd = os.fsdecode(b"\xff.py")
    if layout == "file":
        (klass / odd).write_bytes(correct.read_bytes())
    else:
        (klass / "carol").mkdir()
        (klass / "carol" / "solution.py").write_bytes(correct.read_bytes())
        (klass / "carol" / odd).write_text("x = 1\n")
    out = tmp_path / "out"
    outcome = batch.grade([klass], "ctp-26", out, seed=5, jobs=1, examples=4)
    assert outcome.failures == []
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    by_id = {s["student"]: s for s in document["submissions"]}
    assert by_id["alice"]["status"] == "passed"
    other = by_id["carol" if layout == "in-a-folder" else "\ufffd"]
    assert other["status"] == "error" and "is not valid UTF-8: rename the file" in other["error"], other["error"]
    for name in ("grades.csv", "summary.html"):
        assert (out / name).read_text(encoding="utf-8-sig")


def test_csv_defuses_formulas():
    from grader.export import csv as grades_csv

    text = grades_csv.render([("=HYPERLINK(\"http://x\")", {"score": 1.0, "max_score": 10.0, "status": "failed",
                                                            "mistakes": [{"code": "+1"}], "error": "-boom\nsecond line"})])
    rows = list(csv.reader(text.lstrip("\ufeff").splitlines()))
    assert rows[1][0].startswith("'=") and rows[1][4] == "'+1" and rows[1][5] == "'-boom second line"
    assert rows[1][1] == "1.0"


def test_cli_exit_code_and_fresh_secret_seed(tmp_path):
    folder = tmp_path / "class"
    build_class(folder, samples("correct")[:1] + samples("buggy")[:1], malformed=False)
    (folder / "broken.py").write_text("def minimax(:\n")
    command = [sys.executable, "-m", "grader", "grade", str(folder), "--exercise", "ctp-26", "--out", str(tmp_path / "out"), "--jobs", "1"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr  # failing and broken students are not the grader's failure
    assert "passed 1, failed 1, error 1" in first.stderr
    seed = json.loads((tmp_path / "out" / "results.json").read_text())["seed"]
    with Gradebook(tmp_path / "out" / batch.GRADEBOOK) as book:
        assert book.seed("ctp-26") == seed
    assert seed != 26  # not the public seed students self-check with
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and f"seed {seed}" in again.stderr and "0 graded now" in again.stderr
    missing = subprocess.run(command[:4] + ["--exercise", "no-such-exercise", "--out", str(tmp_path / "o2")],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2


def test_summary_and_a_report_render_in_chromium(graded):
    sys.path.insert(0, str(ROOT / "tests"))
    import browser

    browser.require_chromium()
    out = graded["out"]
    report = out / results_of(out)["buggy-always_max-1"]["report"]
    for page_path in (out / "summary.html", report):
        page = browser.open_page(page_path)
        assert page.console_errors == [], page_path
        assert page.requests == [], page_path
        assert not browser.looks_blank(page.screenshot), page_path
    summary = browser.open_page(out / "summary.html")
    assert "Class summary" in summary.text and "always-max" in summary.text


class _Terminal:
    """A stream that says it is a terminal, for the progress bar."""

    def __init__(self):
        import io

        self.buffer = io.StringIO()

    def isatty(self):
        return True

    def write(self, text):
        return self.buffer.write(text)

    def flush(self):
        pass


def test_progress_bar_on_a_terminal_and_plain_lines_elsewhere(monkeypatch):
    import io

    monkeypatch.delenv("CI", raising=False)
    outcome = batch.Outcome(out=Path("."), seed=1, total=2, graded_now=2, counts={"passed": 1, "failed": 1, "error": 0})
    terminal = _Terminal()
    bar = batch.make_progress(terminal)
    assert isinstance(bar, batch.RichProgress)
    bar.start(2, 0, 1, "ctp-26")
    bar.count("passed", "alice")
    bar.count("failed", "bob")
    bar.finish(outcome)
    shown = terminal.buffer.getvalue()
    assert "2/2" in shown and "/s" in shown and "1 passed" in shown and "1 failed" in shown

    plain = io.StringIO()
    lines = batch.make_progress(plain)
    assert type(lines) is batch.Progress
    lines.start(2, 0, 1, "ctp-26")
    lines.count("error", "carol")
    text = plain.getvalue()
    assert "[1/2] error  carol" in text and "ETA" in text and "error 1" in text and "\x1b[" not in text


def test_a_task_that_kills_its_workers_comes_back_as_a_grader_failure(tmp_path):
    from grader.bulk.executor import Job, LocalPool, Task

    # A job the workers cannot even start (no such exercise): each dies, the task is retried once.
    pool = LocalPool(1)
    answers = list(pool.run(Job(exercise="no-such-exercise", seed=1), [Task(key="k", path=str(tmp_path), display="x")]))
    assert answers == [(Task(key="k", path=str(tmp_path), display="x"), None)]
    assert pool.workers == []


class _InProcess:
    """Another engine behind the executor seam: grades in this process, one by one (tests only)."""

    def __init__(self, fail: bool = False):
        self.fail = fail

    def run(self, job, tasks):
        from grader.judging import bank, exercise, judge, submissions
        from grader.sandbox import launch

        ex = exercise.load(job.exercise)
        cases = bank.build(ex, seed=job.seed, examples=job.examples)
        for task in tasks:
            if self.fail:
                yield task, None
                continue
            sub = submissions.load(task.path)
            sub.display = task.display
            yield task, judge.grade(sub, ex, cases, launch.choose(job.sandbox)).to_dict()

    def close(self):
        pass


def test_another_executor_plugs_in_and_grader_failures_are_listed_not_stored(tmp_path):
    folder = tmp_path / "class"
    build_class(folder, samples("correct")[:1] + samples("buggy")[:1])
    done = batch.grade([folder], "ctp-26", tmp_path / "out", seed=SEED, executor=_InProcess())
    assert done.graded_now == 2 and not done.failures
    statuses = sorted(r["status"] for r in results_of(tmp_path / "out").values())
    assert statuses == ["failed", "passed"]

    broken = batch.grade([folder], "ctp-26", tmp_path / "out2", seed=SEED, executor=_InProcess(fail=True))
    assert len(broken.failures) == 2 and broken.graded_now == 0
    listed = results_of(tmp_path / "out2")
    assert all(r["status"] == "error" and r["error"] == batch.GRADER_FAILED for r in listed.values())
    with Gradebook(tmp_path / "out2" / batch.GRADEBOOK) as book:
        assert book.count() == 0  # the next run grades them again


def test_outputs_are_rewritten_exactly_when_their_bytes_change(tmp_path):
    """A re-run leaves identical files alone (no new inode), and a file that differs only in its
    line endings is rewritten: the comparison is of bytes, not of text read back."""
    path = tmp_path / "grades.csv"
    batch._write(path, "id,score\r\nalice,1\r\n")
    first = path.stat().st_ino
    batch._write(path, "id,score\r\nalice,1\r\n")
    assert path.stat().st_ino == first
    batch._write(path, "id,score\nalice,1\n\n")  # as many characters, other line endings
    assert path.read_bytes() == b"id,score\nalice,1\n\n" and path.stat().st_ino != first
    batch._write(path, "é\n")
    assert path.read_bytes() == "é\n".encode("utf-8")


def test_one_per_line_json_round_trips():
    for document in ({"exercise": "x", "submissions": []}, {"a": "é", "submissions": [{"b": [1, 2]}, {"c": None}]}):
        text = batch._one_per_line(document, "submissions")
        assert json.loads(text) == document
        lines = [line.strip().rstrip(",") for line in text.splitlines()]
        assert all(json.dumps(item, ensure_ascii=False) in lines for item in document["submissions"])


def _key_of(path):
    from grader.judging import submissions

    return batch.content_key(submissions.load(path))


def test_workers_started_before_the_bank_wait_for_it_and_then_grade(tmp_path, monkeypatch):
    """``LocalPool.start_early``: the workers start (imports, exercise, sandbox probe) while the grader draws the
    case bank, and read it only once ``run`` says it is on disk; they are the very processes that then grade."""
    from grader.bulk.executor import Job, LocalPool, Task
    from grader.judging import bank as banks
    from grader.judging import exercise as exercises

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))  # this seed's bank is nowhere yet
    exercise = exercises.load("ctp-26")
    job = Job(exercise="ctp-26", seed=424242, examples=12)
    cached = banks._cache_path(exercise, job.seed, job.examples)
    pool = LocalPool(2)
    pool.start_early(job, 5)
    try:
        early = [worker.process.pid for worker in pool.workers]
        assert len(early) == 2 and all(worker.process.poll() is None for worker in pool.workers)
        time.sleep(1.0)  # room to misbehave: a worker that did not wait would draw and store the bank meanwhile
        assert not cached.exists()
        banks.build(exercise, seed=job.seed, examples=job.examples)
        tasks = [Task(key=_key_of(sample), path=str(sample), display=sample.name) for sample in samples("correct")[:3]]
        graded = []
        for task, result in pool.run(job, tasks):
            assert [worker.process.pid for worker in pool.workers] == early
            graded.append((task.display, result["status"], result.get("error")))
        assert sorted(graded) == sorted((task.display, "passed", None) for task in tasks)
    finally:
        pool.close()


def test_a_worker_started_early_for_another_job_is_let_go(tmp_path, monkeypatch):
    """Started early for one job, run with another (nothing in grader does that, another caller might): those
    workers are stopped, fresh ones grade."""
    from grader.bulk.executor import Job, LocalPool, Task

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    pool = LocalPool(1)
    pool.start_early(Job(exercise="ctp-26", seed=1, examples=8), 1)
    early = pool.workers[0].process
    sample = samples("correct")[0]
    answers = list(pool.run(Job(exercise="ctp-26", seed=2, examples=8),
                            [Task(key=_key_of(sample), path=str(sample), display="s")]))
    assert [(result["status"], result.get("error")) for _, result in answers] == [("passed", None)]
    assert early.poll() is not None


def test_a_run_into_the_same_out_leaves_no_report_of_a_student_it_does_not_have(tmp_path):
    """Two section archives first read as two students, then graded right into the same ``--out``: the reports of the
    two "students" stayed beside the class's and read as theirs (the hundred and thirteenth helper). Reports this run
    does not write are removed; whatever else is kept in the folder stays."""
    klass = tmp_path / "class"
    klass.mkdir()
    for name in ("bob", "carol"):
        (klass / f"{name}.py").write_text((ROOT / "fixtures/submissions/ctp-26/correct/functional.py").read_text())
    out = tmp_path / "out"
    batch.grade([klass], "ctp-26", out, seed=SEED, jobs=1, examples=5)
    assert {p.name for p in (out / "reports").iterdir()} == {"bob.html", "bob.md", "carol.html", "carol.md", ".written"}
    (out / "reports" / "notes.txt").write_text("mine")
    (out / "reports" / "notes-for-TAs.md").write_text("mine too")  # a suffix of the grader's, not written by it
    (klass / "carol.py").unlink()
    batch.grade([klass], "ctp-26", out, seed=SEED, jobs=1, examples=5)
    assert {p.name for p in (out / "reports").iterdir()} == {"bob.html", "bob.md", "notes.txt", "notes-for-TAs.md",
                                                             ".written"}


def test_students_are_listed_as_people_sort_names(tmp_path):
    """Capitals first ("Ben" before "ann") is how bytes sort, not names (the hundred and thirteenth helper's LMS
    files): every output lists the class case-insensitively."""
    klass = tmp_path / "class"
    klass.mkdir()
    for name in ("carl", "Ben", "ann"):
        (klass / f"{name}.py").write_text((ROOT / "fixtures/submissions/ctp-26/correct/functional.py").read_text())
    batch.grade([klass], "ctp-26", tmp_path / "out", seed=SEED, jobs=1, examples=2, lms=("canvas",))
    listed = [s["student"] for s in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]]
    assert listed == ["ann", "Ben", "carl"]
    rows = [r[0] for r in csv.reader((tmp_path / "out" / "canvas.csv").read_text(encoding="utf-8-sig").splitlines())]
    assert rows[2:] == ["ann", "Ben", "carl"]
