"""Issue 12, the instructor's class: nobody lost, numbers that add up, nothing left behind,
the grader's own failures never stored, and a change to an exercise regrades.

The grading runs are small (a handful of students, few random cases) so the file stays
quick on a busy machine; nothing here asserts on time.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bulk_class import SAMPLES
from grader.bulk import batch
from grader.bulk.gradebook import Gradebook

CORRECT = (SAMPLES / "correct" / "functional.py").read_text()
ALWAYS_MAX = (SAMPLES / "buggy" / "always_max.py").read_text()
SEED = 12


def run_grade(*args, env=None):
    return subprocess.run([sys.executable, "-m", "grader", "grade", *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=env)


def zip_of(path: Path, members: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def five_students(folder: Path) -> Path:
    folder.mkdir(parents=True)
    zip_of(folder / "classA.zip", {"kim.py": CORRECT, "lee.py": ALWAYS_MAX, "max.py": CORRECT})
    zip_of(folder / "classB.zip", {"ann/solution.py": CORRECT, "ben/solution.py": "def minimax(:\n"})
    (folder / "README.txt").write_text("how to hand in")
    return folder


def results(out: Path) -> dict[str, dict]:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    return {s["student"]: s for s in document["submissions"]}


# -- discovery that never loses a student --------------------------------------------------


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    base = tmp_path_factory.mktemp("five")
    folder = five_students(base / "downloads")
    done = run_grade(folder, "--exercise", "ctp-26", "--out", base / "out", "--seed", SEED, "--examples", "20",
                     "--jobs", "2", "--lms", "canvas", "--lms", "moodle")
    return {"base": base, "folder": folder, "out": base / "out", "run": done}


def test_five_students_in_two_nested_class_zips(five):
    assert five["run"].returncode == 0, five["run"].stderr
    graded = results(five["out"])
    assert set(graded) == {"kim", "lee", "max", "ann", "ben"}
    assert graded["lee"]["status"] == "failed" and graded["ben"]["status"] == "error"
    assert graded["kim"]["submission"] == f"{five['folder']}/classA.zip/kim.py"


def test_the_account_is_printed_before_grading_saved_and_shown(five):
    stderr = five["run"].stderr
    skip_line = f"skipped {five['folder']}/README.txt: "
    assert skip_line in stderr
    assert stderr.index(skip_line) < stderr.index("grading 5 submissions")
    account = json.loads((five["out"] / "discovery.json").read_text(encoding="utf-8"))
    assert account["submissions"] == 5
    assert [s["path"] for s in account["skipped"]] == [f"{five['folder']}/README.txt"]
    assert {g["student"] for g in account["graded"]} == set(results(five["out"]))
    page = (five["out"] / "summary.html").read_text(encoding="utf-8")
    assert "What was found" in page and f"{five['folder']}/README.txt" in page


def test_the_counts_agree_from_first_line_to_last(five):
    stderr = five["run"].stderr
    announced = int(re.search(r"grading (\d+) submissions", stderr).group(1))
    progress = [int(m) for m in re.findall(r"^\[(\d+)/5\]", stderr, re.M)]
    final = re.search(r"done in [0-9.]+ s: (\d+) submissions.*passed (\d+), failed (\d+), error (\d+)", stderr)
    last_counts = re.findall(r"passed (\d+), failed (\d+), error (\d+)\)$", stderr, re.M)[-1]
    with open(five["out"] / "grades.csv", newline="", encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    document = json.loads((five["out"] / "results.json").read_text(encoding="utf-8"))
    page = (five["out"] / "summary.html").read_text(encoding="utf-8")
    assert announced == 5 and progress[-1] == 5 and int(final.group(1)) == 5
    assert tuple(map(int, last_counts)) == tuple(map(int, final.groups()[1:])) == (3, 1, 1)
    assert len(rows) == document["count"] == 5
    assert (document["passed"], document["failed"], document["error"]) == (3, 1, 1)
    assert page.count('<tr data-status=') == 5 and "5 submissions" in page


def test_nothing_temporary_is_left_in_out(five):
    names = {p.name for p in five["out"].iterdir()}
    assert names == {"gradebook.sqlite", "results.json", "grades.csv", "reports", "summary.html", "discovery.json",
                     "canvas.csv", "moodle.csv"} | {n for n in names if n.startswith("gradebook.sqlite-")}


def test_archives_are_unpacked_outside_out_and_removed_even_after_an_exception(tmp_path, monkeypatch):
    import tempfile

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    folder = five_students(tmp_path / "downloads")

    class Exploding:
        def run(self, job, tasks):
            assert any(scratch.iterdir()), "the archives should be unpacked while grading"
            raise RuntimeError("the executor broke")
            yield  # a generator, like every executor

        def close(self):
            pass

    (tmp_path / "out").mkdir()
    (tmp_path / "out" / batch.STAGING).mkdir()  # what an older grader left behind
    with pytest.raises(RuntimeError):
        batch.grade([folder], "ctp-26", tmp_path / "out", seed=SEED, examples=5, executor=Exploding())
    # (hypothesis's private home, made here where this test is the process's first to draw a bank, is removed when
    # the process ends: paths.private_folder)
    assert [p for p in scratch.iterdir() if not p.name.startswith("minimax-grader-hypothesis-")] == []
    assert not (tmp_path / "out" / batch.STAGING).exists()


# -- usage errors before work ------------------------------------------------------------------


def test_a_path_that_does_not_exist_is_a_usage_error_before_anything_is_created(tmp_path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text(CORRECT)
    for paths in ([tmp_path / "nothere"], [tmp_path / "class", tmp_path / "nothere"]):
        done = run_grade(*paths, "--exercise", "ctp-26", "--out", tmp_path / "out")
        assert done.returncode == 2, done.stderr
        assert f"no such file or folder: {tmp_path / 'nothere'}" in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "out").exists()


def test_a_folder_with_no_submissions_creates_nothing(tmp_path):
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "notes.txt").write_text("x")
    done = run_grade(tmp_path / "class", "--exercise", "ctp-26", "--out", tmp_path / "out")
    assert done.returncode == 2 and "found no submissions" in done.stderr and "notes.txt" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_value_error_while_grading_is_the_graders_failure_not_a_usage_error(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from grader.doors import api, cli

    def broken(*args, **kwargs):
        raise ValueError("a bug in the grader")

    monkeypatch.setattr(batch, "grade", broken)
    (tmp_path / "alice.py").write_text(CORRECT)
    done = CliRunner().invoke(cli.cli, ["grade", str(tmp_path), "--exercise", "ctp-26", "--out", str(tmp_path / "o")])
    assert done.exit_code == 3 and "the grader failed: ValueError: a bug in the grader" in done.output
    assert "Usage" not in done.output

    monkeypatch.setattr(api, "check", broken)
    done = CliRunner().invoke(cli.cli, ["check", str(tmp_path / "alice.py"), "--exercise", "ctp-26"])
    assert done.exit_code != 2 and "Usage" not in done.output


# -- the gradebook holds only the students' results -----------------------------------------


def own_ctp26(base: Path) -> Path:
    """A copy of ctp-26 with its reference inside it (an instructor's exercises folder)."""
    from grader import paths

    target = base / "exercises" / "ctp-26"
    shutil.copytree(paths.exercises_dir() / "ctp-26", target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "reference").mkdir()
    shutil.copy(paths.reference_dir() / "ctp_26.py", target / "reference")
    shutil.copytree(paths.fixtures_dir() / "trees" / "ctp-26", target / "fixtures" / "trees" / "ctp-26")
    return base / "exercises"


def test_a_broken_reference_is_not_stored_exits_3_and_is_retried_then_an_edit_regrades(tmp_path):
    exercises = own_ctp26(tmp_path)
    reference = exercises / "ctp-26" / "reference" / "ctp_26.py"
    good = reference.read_text()
    reference.write_text(good.replace("def minimax(node, max_depth, player_a_moves, game):",
                                      "def minimax(node, max_depth, player_a_moves, game):\n"
                                      "    raise RuntimeError('the reference is broken')\n"
                                      "\n\ndef _unused(node, max_depth, player_a_moves, game):", 1))
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "alice.py").write_text(CORRECT)
    (tmp_path / "class" / "bob.py").write_text(ALWAYS_MAX)
    command = [tmp_path / "class", "--exercise", "ctp-26", "--exercises-dir", exercises, "--out", tmp_path / "out",
               "--seed", SEED, "--examples", "10", "--jobs", "1"]

    broken = run_grade(*command)
    assert broken.returncode == 3, broken.stderr
    assert "the grader itself failed" in broken.stderr
    with Gradebook(tmp_path / "out" / batch.GRADEBOOK) as book:
        assert book.count() == 0
    assert {r["status"] for r in results(tmp_path / "out").values()} == {"error"}

    again = run_grade(*command)  # tried again, not reused
    assert again.returncode == 3 and "2 to grade, 0 already in the gradebook" in again.stderr

    reference.write_text(good)  # fixed: a change of the reference is a change of the exercise
    fixed = run_grade(*command)
    assert fixed.returncode == 0, fixed.stderr
    assert {s: r["status"] for s, r in results(tmp_path / "out").items()} == {"alice": "passed", "bob": "failed"}
    unchanged = run_grade(*command)
    assert "0 to grade, 2 already in the gradebook" in unchanged.stderr

    reference.write_text(good + "\n# an edit of the reference\n")
    edited = run_grade(*command)
    assert edited.returncode == 0 and "2 to grade, 0 already in the gradebook" in edited.stderr


def test_the_fingerprint_covers_the_reference_and_the_hooks(tmp_path):
    from grader.judging import exercise

    exercises = own_ctp26(tmp_path)
    before = exercise.load("ctp-26", [exercises]).fingerprint
    for name in ("reference/ctp_26.py", "exercise.py"):
        path = exercises / "ctp-26" / name
        path.write_text(path.read_text() + "\n# changed\n")
        after = exercise.load("ctp-26", [exercises]).fingerprint
        assert after != before, name
        before = after


def test_the_fingerprint_leaves_out_the_statement_alone(tmp_path):
    """A typo fixed in the statement changes no verdict: the gradebook keeps every row (it regraded the class)."""
    from grader.judging import exercise

    exercises = own_ctp26(tmp_path)
    before = exercise.load("ctp-26", [exercises]).fingerprint
    loaded = exercise.load("ctp-26", [exercises])
    loaded.statement_path.write_text(loaded.statement_path.read_text() + "\nA typo fixed.\n")
    assert exercise.load("ctp-26", [exercises]).fingerprint == before
    path = exercises / "ctp-26" / "exercise.toml"
    path.write_text(path.read_text() + "\n# changed\n")
    assert exercise.load("ctp-26", [exercises]).fingerprint != before


# -- parts not handed in count as zero in grade ------------------------------------------------


def test_parts_not_handed_in_count_zero_for_the_instructor(tmp_path):
    from grader.doors import api
    from grader.judging import exercise

    isolation = exercise.load("aima-isolation")
    only_rules = SAMPLES.parent / "aima-isolation" / "correct" / "only_gamestate"
    alone = api.check(only_rules, "aima-isolation").to_dict()
    assert alone["status"] == "passed" and alone["max_score"] < isolation.max_score  # check: what is there

    (tmp_path / "class").mkdir()
    shutil.copytree(only_rules, tmp_path / "class" / "rita")
    outcome = batch.grade([tmp_path / "class"], "aima-isolation", tmp_path / "out", seed=SEED, jobs=1)
    assert outcome.counts == {"passed": 0, "failed": 1, "error": 0}
    rita = results(tmp_path / "out")["rita"]
    assert rita["max_score"] == isolation.max_score and rita["score"] == alone["score"]
    assert rita["status"] == "failed"
    supplied_checks = [c for c in rita["checks"] if c["message"] and c["message"].startswith("not handed in")]
    assert supplied_checks and all(c["score"] == 0 and c["max_score"] > 0 for c in supplied_checks)
    assert sum(c["max_score"] for c in rita["checks"]) == isolation.max_score


def test_counting_every_part_is_idempotent_and_leaves_whole_submissions_alone():
    from grader.judging import exercise
    from grader.bulk import part_credit

    isolation = exercise.load("aima-isolation")
    whole = {"status": "passed", "score": isolation.max_score, "max_score": isolation.max_score,
             "parts": {"graded": [p["name"] for p in isolation.parts], "supplied": []}, "checks": []}
    assert part_credit.count_every_part(whole, isolation) is whole
    part = {"status": "passed", "score": 3.5, "max_score": 3.5, "parts": {"graded": ["gamestate"], "supplied": ["minimax"]},
            "checks": [{"name": c.name, "status": "skipped" if c.params.get("part") == "minimax" else "passed",
                        "score": 0.0, "max_score": 0.0, "message": ""} for c in isolation.checks]}
    once = part_credit.count_every_part(part, isolation)
    assert once["status"] == "failed" and once["max_score"] == isolation.max_score
    assert part_credit.count_every_part(once, isolation) == once


def test_the_gradebook_refuses_anything_but_a_result(tmp_path):
    with Gradebook(tmp_path / "book.sqlite") as book:
        for bad in (None, {"status": "grader-failed"}, "passed"):
            with pytest.raises(ValueError):
                book.record("k", "ctp-26", "v", 1, "f", 0, bad)
        assert book.count() == 0


def test_the_progress_bar_ends_at_the_announced_total(monkeypatch):
    """Students known before grading (gradebook, unreadable) and identical ones count on the bar too."""
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("CI", raising=False)
    terminal = Terminal()
    bar = batch.make_progress(terminal)
    bar.start(4, 1, 7, "ctp-26", to_grade=2, unreadable=1)
    bar.count("passed", fresh=False)           # from the gradebook
    bar.count("error", fresh=False)            # unreadable
    bar.count("failed", "bob", n=2)            # one verdict, two identical submissions
    assert bar.done == bar.total == 4 and bar.counts == {"passed": 1, "failed": 2, "error": 1}
    bar.finish(batch.Outcome(out=Path("."), seed=7, total=4, graded_now=1, reused=1,
                             counts={"passed": 1, "failed": 2, "error": 1}))
    shown = terminal.getvalue()
    assert "grading 4 submissions" in shown and "4/4" in shown and "done in" in shown and ": 4 submissions" in shown


def test_the_default_is_one_worker_per_cpu_the_grader_may_use(monkeypatch):
    """A worker and its child share one CPU while they talk: a spare worker would only take turns with
    another pair. The CPUs counted are the ones this process may run on (taskset, a container)."""
    from grader.bulk import executor

    monkeypatch.setattr(executor.os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    monkeypatch.setattr(executor.os, "cpu_count", lambda: 8)
    assert executor.default_jobs() == 3
    assert executor.LocalPool().jobs == 3
    monkeypatch.delattr(executor.os, "sched_getaffinity", raising=False)  # macOS, Windows
    assert executor.default_jobs() == 8


def test_section_exports_named_together_are_classes_with_sections_only(tmp_path):
    """Of several archives named on the command line each is one student's (nothing inside tells an export from a
    student's archive made to look like one); ``--sections`` says they are exports. Named without it, where every one
    of them holds several submissions, nothing is graded: exit 2 and one line saying what to type, not a class's
    outputs overwritten with two error rows (the hundred and thirteenth helper). One student's archive among them is
    enough for the run to go on, each archive its owner's (no student can stop the class)."""
    folder = five_students(tmp_path / "downloads")
    named = [folder / "classA.zip", folder / "classB.zip"]
    plain = run_grade(*named, "--exercise", "ctp-26", "--out", tmp_path / "plain", "--seed", SEED, "--examples", 5)
    assert plain.returncode == 2, plain.stderr[-1500:]
    assert not (tmp_path / "plain").exists()
    errors = [line for line in plain.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "give --sections" in errors[0] and "Traceback" not in plain.stderr, plain.stderr
    owner = zip_of(tmp_path / "dave.zip", {"solution.py": CORRECT})
    mixed = run_grade(*named, owner, "--exercise", "ctp-26", "--out", tmp_path / "mixed", "--seed", SEED,
                      "--examples", 5)
    assert mixed.returncode == 0, mixed.stderr[-1500:]
    assert set(results(tmp_path / "mixed")) == {"classA", "classB", "dave"}
    assert all("--sections" in r["error"] for s, r in results(tmp_path / "mixed").items() if s != "dave")
    told = run_grade(*named, "--sections", "--exercise", "ctp-26", "--out", tmp_path / "told", "--seed", SEED,
                     "--examples", 5)
    assert told.returncode == 0, told.stderr[-1500:]
    assert set(results(tmp_path / "told")) == {"kim", "lee", "max", "ann", "ben"}
    # The folder that holds the exports, a late student's file beside them: --sections reads its archives as exports
    (folder / "zoe.py").write_text(CORRECT)
    whole = run_grade(folder, "--sections", "--exercise", "ctp-26", "--out", tmp_path / "folder", "--seed", SEED,
                      "--examples", 5)
    assert whole.returncode == 0, whole.stderr[-1500:]
    assert set(results(tmp_path / "folder")) == {"kim", "lee", "max", "ann", "ben", "zoe"}


def test_a_folder_of_another_exercises_results_is_refused_before_anything_changes(tmp_path):
    """Grading ctp-26 into an --out that held another exercise's results replaced its grades.csv, results.json and
    summary and removed all its reports, without a word (the 133rd helper)."""
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_text("def minimax(node, max_depth, player_a_moves):\n    return 7\n", encoding="utf-8")
    out = tmp_path / "out"
    batch.grade([klass], "ctp-26", out, seed=1, jobs=1, examples=2)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "gradebook.sqlite"}
    with pytest.raises(batch.UsageProblem, match="holds the results of exercise ctp-26 .*give --out a folder"):
        batch.grade([klass], "alphabeta", out, seed=1, jobs=1, examples=2)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "gradebook.sqlite"}
    assert after == before
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--exercise", "alphabeta", "--out",
                           str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "holds the results of exercise ctp-26" in done.stderr, done.stderr
