"""A class is frozen before any student code runs: what a neighbour is graded on cannot be changed.

``batch.grade`` reads, hashes and copies every submission into a private read-only folder first;
workers grade those copies and check their hash again.
"""

from __future__ import annotations

import json
import os
import stat

from conftest import SUBMISSIONS
from grader.bulk import batch
from grader.judging import submissions
from grader.bulk.executor import LocalPool
from grader.sandbox import frozen

CORRECT = (SUBMISSIONS / "ctp-26" / "correct" / "published_style.py").read_bytes()
WRONG = b"def minimax(node, max_depth, player_a_moves):\n    return 0\n"


def test_frozen_copy_is_private_read_only_and_keeps_the_hashed_bytes(tmp_path):
    original = tmp_path / "class" / "alice.py"
    original.parent.mkdir()
    original.write_bytes(CORRECT)
    sub = submissions.load(original)
    copies = frozen.open_class(tmp_path / "out" / ".staging")
    try:
        path = copies.freeze(sub, 0)
        original.write_bytes(WRONG)  # changed after the freeze: the copy is what was hashed
        assert path.name == "alice.py" and path.read_bytes() == CORRECT
        assert stat.S_IMODE(copies.root.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o555
        assert batch.content_key(submissions.load(path)) == batch.content_key(sub)
    finally:
        copies.close()
    assert not copies.root.exists()


def test_a_folder_submission_is_frozen_whole(tmp_path):
    folder = tmp_path / "class" / "bob"
    folder.mkdir(parents=True)
    (folder / "minimax.py").write_bytes(CORRECT)
    (folder / "helpers.py").write_bytes(b"X = 1\n")
    (folder / "test_mine.py").write_bytes(b"import pytest\n")
    sub = submissions.load(folder)
    copies = frozen.open_class(tmp_path / "staging")
    try:
        path = copies.freeze(sub, 0)
        assert path.name == "bob" and sorted(p.name for p in path.iterdir()) == ["helpers.py", "minimax.py"]
        assert batch.content_key(submissions.load(path)) == batch.content_key(sub)
    finally:
        copies.close()


def test_a_file_changed_since_it_was_hashed_is_not_frozen(tmp_path):
    original = tmp_path / "carol.py"
    original.write_bytes(CORRECT)
    sub = submissions.load(original)
    original.write_bytes(WRONG)
    copies = frozen.open_class(tmp_path / "staging")
    try:
        assert copies.freeze(sub, 0) is None
    finally:
        copies.close()


class _ChangingPool(LocalPool):
    """Plays a hostile neighbour that got at the class before the workers did: it rewrites one
    student's original file and one student's frozen copy once every task is handed out."""

    def __init__(self, original, victim):
        super().__init__(1)
        self.original, self.victim = original, victim

    def run(self, job, tasks):
        tasks = list(tasks)
        self.frozen_path = tasks[0].path
        self.original.write_bytes(WRONG)
        for task in tasks:
            if task.display.endswith(self.victim):
                copy = os.path.join(task.path)
                os.chmod(os.path.dirname(copy), 0o755)
                os.chmod(copy, 0o644)
                with open(copy, "wb") as handle:
                    handle.write(WRONG)
        yield from super().run(job, tasks)


def test_workers_grade_the_frozen_bytes_and_refuse_a_changed_copy(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_bytes(CORRECT)
    (klass / "dave.py").write_bytes(CORRECT.replace(b"Style:", b"Style (dave):"))
    out = tmp_path / "out"
    pool = _ChangingPool(klass / "alice.py", "dave.py")
    outcome = batch.grade([klass], "ctp-26", out, seed=3, examples=5, executor=pool)
    assert outcome.failures == []
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    by_student = {entry["student"]: entry for entry in document["submissions"]}
    assert by_student["alice"]["status"] == "passed"  # graded on what was handed in, not on the rewrite
    assert (by_student["dave"]["status"], by_student["dave"]["error"]) == ("error", frozen.CHANGED)
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []  # nothing frozen is left in --out
    assert not os.path.exists(os.path.dirname(os.path.dirname(pool.frozen_path)))  # and the private copy is gone


def test_a_sessions_staged_copy_is_read_only_and_removed_with_its_scratch(tmp_path):
    from grader.judging import exercise as exercises
    from grader.sandbox import launch
    from grader.sandbox.session import Session

    original = tmp_path / "erin.py"
    original.write_bytes(CORRECT)
    session = Session(original, exercises.load("ctp-26"), launch.Launcher("spawn", isolated=False))
    staged = session.staged.entry
    try:
        assert staged.read_bytes() == CORRECT
        assert stat.S_IMODE(staged.stat().st_mode) == 0o444
        assert stat.S_IMODE(staged.parent.stat().st_mode) == 0o555
    finally:
        session.close()
    assert not session.scratch.exists()
