"""The "Your own exercises" guide of the documentation, followed word for word in an empty folder.

The snippets are read from the guide's page, docs/writing-exercises.md, itself (never copied
here): a code block after ``<!-- guide-file: PATH -->`` is written to PATH, one after
``<!-- guide-student: PATH -->`` replaces PATH's ``[student]`` part, and every line of one after
``<!-- guide-run -->`` is run from the folder, with the relative paths the guide shows
(``minimax-grader`` being this interpreter's ``-m grader``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "writing-exercises.md"
STEP = re.compile(r"<!-- guide-(file|student|run)(?::\s*(\S+))? -->\s*\n```\w*\n(.*?)```", re.S)


def guide_steps() -> list[tuple[str, str | None, str]]:
    text = GUIDE.read_text(encoding="utf-8")
    assert text.startswith("# Your own exercises"), "the guide is the page's own text, from its title on"
    return [(kind, target, body) for kind, target, body in STEP.findall(text)]


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    """Every step of the guide, in order, from an empty folder; the output of each command."""
    folder = tmp_path_factory.mktemp("instructor")
    outputs = []
    for kind, target, body in guide_steps():
        if kind == "file":
            (folder / target).write_text(body, encoding="utf-8")
        elif kind == "student":
            path = folder / target
            text = path.read_text(encoding="utf-8")
            assert "[student]" in text, "the scaffold writes the [student] part last"
            path.write_text(text[:text.index("[student]")] + body, encoding="utf-8")
        else:
            for line in body.strip().splitlines():
                words = shlex.split(line)
                assert words[0] == "minimax-grader"
                done = subprocess.run([sys.executable, "-m", "grader", *words[1:]], cwd=folder, env={**os.environ},
                                      capture_output=True, text=True, timeout=300)
                outputs.append((words, done))
    return folder, outputs


def test_the_guide_has_the_steps_this_test_follows():
    kinds = [kind for kind, _, _ in guide_steps()]
    assert kinds.count("file") == 3 and kinds.count("student") == 1 and kinds.count("run") == 2


def test_the_scaffold_and_the_listing(followed):
    folder, outputs = followed
    (new, scaffolded), (listing, listed) = outputs[0], outputs[1]
    assert new[1] == "new-exercise" and scaffolded.returncode == 0, scaffolded.stderr
    assert (folder / "my-exercises" / "nim-class" / "positions" / "starts.json").is_file()
    assert listed.returncode == 0 and "nim-class" in [line.split()[0] for line in listed.stdout.splitlines()]


def test_a_correct_and_a_buggy_submission_graded_from_the_relative_folder(followed):
    _, outputs = followed
    (_, correct), (_, buggy) = outputs[2], outputs[3]
    assert correct.returncode == 0 and "PASSED" in correct.stdout, correct.stdout + correct.stderr
    assert buggy.returncode == 1 and "FAILED" in buggy.stdout
    assert "no-alternation" in buggy.stdout and "heap 0:" in buggy.stdout  # the mistake named, the board drawn
