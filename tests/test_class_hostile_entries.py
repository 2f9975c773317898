"""What one student puts in a class folder costs nobody else their result: entries made to hurt the grader itself.

Found by the hundred and tenth helper, who attacked the grading process rather than the sandbox: a refused link to
``/dev/zero`` or to a FIFO, and a ``.zip`` that is 8 MB of text, were read whole after discovery had refused them
(past 20 GB, a hang for good, 3.9 GB); a zip or a folder nested a thousand folders deep raised RecursionError in
discovery or in the staging folder's removal. Each stopped ``grade`` for the whole class, on every run. Each is
now that student's one line, and the class is graded and written. Real ``grade`` processes, under a memory cap
and a time limit (a regression fails the test, it does not take the machine down).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import SUBMISSIONS

CAP = 3 << 30  # bytes of address space for the grading process: far above an honest class of three


def _capped():
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


# Runs ``grade`` and prints the largest resident size (KiB) of it and every process it waited for, on its last line
MEASURED = ("import resource, subprocess, sys\n"
            "done = subprocess.run(sys.argv[1:])\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
            "sys.exit(done.returncode)\n")


def _grade(klass, out, scratch=None):
    env = {**os.environ, "TMPDIR": str(scratch)} if scratch is not None else None
    done = subprocess.run([sys.executable, "-c", MEASURED, sys.executable, "-m", "grader", "grade", str(klass),
                           "--exercise", "ctp-26", "--out", str(out), "--seed", "26", "--jobs", "2"],
                          capture_output=True, text=True, timeout=240, preexec_fn=_capped, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    # Under the cap a read of /dev/zero ends in MemoryError, which the reader took for "no such definition": the
    # largest process says whether anything was read whole (a child of the sandbox stays under its 512 MiB)
    assert int(done.stdout.split()[-1]) < 1 << 20, "a process of the grade took more than 1 GiB"
    return {r["student"]: r for r in json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]}


@pytest.fixture
def klass(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py", folder / "alice.py")
    shutil.copy(SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py", folder / "bob.py")
    return folder


def _the_others_are_graded(rows):
    assert rows["alice"]["status"] == "passed" and rows["bob"]["status"] == "failed"


def _deep_zip(path, levels, under=""):
    """``solution.py`` plus two members that make ``d/d/.../d`` ``levels`` deep (one mkdir per member)."""
    half = "d/" * (levels // 2)
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(SUBMISSIONS / "ctp-26" / "correct" / "negamax.py", "solution.py")
        archive.writestr(f"{under}{half}keep.txt", "x")
        archive.writestr(f"{under}{half}{half}keep.txt", "x")


def _chain(top, levels):
    """``top/d/d/.../d``, ``levels`` deep, one ``mkdir`` at a time (``os.makedirs`` recurses once per level)."""
    made = [str(top)]
    for _ in range(levels):
        made.append(made[-1] + "/d")
        os.mkdir(made[-1])
    return made


def _unchain(made):
    for folder in reversed(made[1:]):
        os.rmdir(folder)


@pytest.mark.parametrize("made", ["a link to /dev/zero", "a link to a FIFO beside it", "8 MB of text named .zip"])
def test_an_entry_discovery_refuses_is_never_read(klass, tmp_path, made):
    if made == "a link to /dev/zero":
        (klass / "mallory.py").symlink_to("/dev/zero")
    elif made == "a link to a FIFO beside it":
        os.mkfifo(klass / "notes")
        (klass / "mallory.py").symlink_to("notes")
    else:
        line = "x = [" + ", ".join(str(n) for n in range(2000)) + "]\n"
        (klass / "mallory.zip").write_text("def minimax(node, d, a):\n    return 0\n" + line * ((8 << 20) // len(line)))
    rows = _grade(klass, tmp_path / "out")
    _the_others_are_graded(rows)
    assert rows["mallory"]["status"] == "error" and rows["mallory"].get("entry_line") is None


@pytest.mark.parametrize("made", ["a zip 1,800 folders deep", "a zip 1,800 deep under node_modules",
                                  "a folder 1,100 deep"])
def test_a_submission_nested_a_thousand_folders_deep_is_its_own_error(klass, tmp_path, made):
    if made.startswith("a zip"):
        _deep_zip(klass / "mallory.zip", 1800, under="assets/node_modules/" if "node_modules" in made else "")
        words = "nested more than 32 folders deep; not unpacked"
    else:
        deep = klass / "mallory"
        deep.mkdir()
        shutil.copy(SUBMISSIONS / "ctp-26" / "correct" / "negamax.py", deep / "solution.py")
        chain = _chain(deep, 1100)
        words = "nested more than 32 folders deep"
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    try:
        rows = _grade(klass, tmp_path / "out", scratch)
        _the_others_are_graded(rows)
        assert rows["mallory"]["status"] == "error" and words in rows["mallory"]["error"]
        assert not [n for n in os.listdir(scratch) if n.startswith("minimax-grader-unpacked-")]  # removed, however deep
    finally:  # pytest's own removal of old temporary folders recurses too: whatever is left here is removed by rm
        if not made.startswith("a zip"):
            _unchain(chain)
        subprocess.run(["rm", "-rf", str(scratch)], check=False)


def test_two_one_file_folders_with_the_same_bytes_are_graded_apart_and_neither_names_the_other(tmp_path):
    """``alice/alice_minimax_v3.py`` and ``bob/bob_secret_name.py``, byte for byte the same: one gradebook row for
    both made bob's report name alice's file (its tracebacks and paths are the file's own)."""
    from grader.bulk import batch

    klass = tmp_path / "class"
    for student, name in (("alice", "alice_minimax_v3.py"), ("bob", "bob_secret_name.py")):
        (klass / student).mkdir(parents=True)
        shutil.copy(SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py", klass / student / name)
    outcome = batch.grade([klass], "ctp-26", tmp_path / "out", jobs=2, seed=26)
    assert outcome.graded_now == 2
    assert "alice_minimax_v3" not in (tmp_path / "out" / "reports" / "bob.html").read_text(encoding="utf-8")
    assert "bob_secret_name" not in (tmp_path / "out" / "reports" / "alice.html").read_text(encoding="utf-8")


def test_an_archive_of_big_list_literals_is_not_parsed_whole_by_discovery(klass, tmp_path):
    """Two 4 MiB files of one list literal each (a 2 MB zip, within every cap of the archive): discovery parsed both
    whole, the first tree still held, to tell whether the archive held one program or several students' (2.9 GB)."""
    import random

    chooser = random.Random(0)
    big = "DATA = [" + ",".join(chooser.choice("0123456789") for _ in range(2_090_000)) + "]\n"
    with zipfile.ZipFile(klass / "mallory.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(SUBMISSIONS / "ctp-26" / "correct" / "negamax.py", "solution.py")
        archive.writestr("table1.py", big)
        archive.writestr("table2.py", big)
    rows = _grade(klass, tmp_path / "out")  # the largest process under 1 GiB
    _the_others_are_graded(rows)
    assert rows["mallory"]["status"] == "error"  # its own one line (an archive of several "submissions", here)


def test_a_student_whose_id_is_a_file_name_keeps_it_for_their_report(tmp_path):
    """``_alice.py`` (its report named "alice" once made safe) took ``reports/alice.html``, and alice's own report was
    ``alice~2.html``: an instructor who hands out reports/<id>.html would have sent alice someone else's."""
    from grader.bulk import batch

    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py", klass / "alice.py")
    shutil.copy(SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py", klass / "_alice.py")
    batch.grade([klass], "ctp-26", tmp_path / "out", jobs=2, seed=26)
    rows = {r["student"]: r for r in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]}
    assert rows["alice"]["report"] == "reports/alice.html" and rows["alice"]["status"] == "passed"
    assert rows["_alice"]["report"] != "reports/alice.html"
    assert "_alice.py" in (tmp_path / "out" / rows["_alice"]["report"]).read_text(encoding="utf-8")


def test_names_in_the_class_folder_reach_the_terminal_as_text_never_as_commands(klass, tmp_path):
    """A file named with an escape sequence (OSC 52 sets the clipboard of terminals that honour it) or a newline
    (a line of its own: ``::`` starts a GitHub Actions command) reached ``grade``'s lines intact."""
    (klass / "README\x1b]52;c;aGVsbG8=\x1b\\.txt").write_text("notes")
    # (and a line the grading process's parser warns about, with the file's name: the hundred and eleventh helper)
    (klass / "eve\x1b[2K\n::error::forged.py").write_text(
        (SUBMISSIONS / "ctp-26" / "correct" / "negamax.py").read_text() + "\n_unused = [0x1for _ in ()]\n")
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(klass), "--exercise", "ctp-26", "--out",
                           str(tmp_path / "out"), "--seed", "26"], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "\x1b" not in done.stderr and "\x1b" not in done.stdout
    assert not any(line.startswith("::") for line in done.stderr.splitlines())
    assert "README\\x1b]52;c;aGVsbG8=\\x1b\\.txt" in done.stderr  # shown, as text
    assert "eve\\x1b[2K\\x0a::error::forged.py" in done.stderr
