"""The object-route walkthrough of docs/writing-exercises.md, followed word for word in an empty folder.

Like the Nim guide's test (tests/test_exercise_guide.py), the snippets are read from the page itself:
a code block after ``<!-- object-guide-file: PATH -->`` is written to PATH, and every line of one after
``<!-- object-guide-run -->`` is run from the folder. The exercise it declares has no grader code.
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
STEP = re.compile(r"<!-- object-guide-(file|run)(?::\s*(\S+))? -->\s*\n```\w*\n(.*?)```", re.S)


def steps():
    return STEP.findall(GUIDE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("instructor")
    outputs = []
    for kind, target, body in steps():
        if kind == "file":
            (folder / target).parent.mkdir(parents=True, exist_ok=True)
            (folder / target).write_text(body, encoding="utf-8")
            continue
        for line in body.strip().splitlines():
            words = shlex.split(line)
            assert words[0] == "minimax-grader"
            done = subprocess.run([sys.executable, "-m", "grader", *words[1:]], cwd=folder, env={**os.environ},
                                  capture_output=True, text=True, timeout=300)
            outputs.append((words, done))
    return folder, outputs


def test_the_walkthrough_has_its_steps():
    kinds = [kind for kind, _, _ in steps()]
    assert kinds.count("file") == 4 and kinds.count("run") == 1


def test_the_declared_exercise_has_no_grader_code(followed):
    folder, outputs = followed
    # (Python's own bytecode cache of the rules, written where a machine lets it, is no file of the exercise: a fresh
    # machine without PYTHONDONTWRITEBYTECODE has one there, and this listing failed the README's second command)
    assert sorted(p.name for p in (folder / "my-exercises" / "kings").iterdir()
                  if p.name != "__pycache__") == ["exercise.toml", "kings.py"]
    listing = outputs[0][1]
    assert listing.returncode == 0 and "kings" in [line.split()[0] for line in listing.stdout.splitlines() if line]


def test_a_correct_and_a_buggy_agent(followed):
    _, outputs = followed
    (_, correct), (_, buggy) = outputs[1], outputs[2]
    assert correct.returncode == 0 and "PASSED" in correct.stdout, correct.stdout + correct.stderr
    assert buggy.returncode == 1 and "FAILED" in buggy.stdout, buggy.stdout + buggy.stderr
    assert "scores-from-active-player" in buggy.stdout
    assert "1" in buggy.stdout and "#" in buggy.stdout  # the board drawn: the kings and the visited cells
