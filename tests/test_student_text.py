"""What a student's code says is stored, shown and exported whatever it says: half a UTF-16 pair included.

JSON may spell a lone surrogate (``"\\ud800"``) and ``json.loads`` makes it a str that no UTF-8 encoder takes. A
student's ``raise ValueError("\\ud800")`` (or an answer whose ``__repr__`` returns one) reached the gradebook that
way, and sqlite3's refusal stopped ``grade`` (and ``tournament``) for the whole class, on every run (the hundred and
tenth helper). Such text now reaches the grader as U+FFFD, at the one place the child's frames are parsed.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT, SUBMISSIONS
from grader.bulk import batch
from grader.sandbox import replies

RAISES = 'def minimax(node, max_depth, player_a_moves):\n    raise ValueError("\\ud800 half a pair")\n'
REPR = ('class Odd(int):\n    def __repr__(self):\n        return "\\udfff"\n\n'
        'def minimax(node, max_depth, player_a_moves):\n    return Odd(0)\n')


def test_a_lone_surrogate_escape_is_read_as_the_replacement_character():
    reply = replies.loads(b'{"a": "x\\ud800y", "\\udc00": ["\\ud83d\\ude00", "\\\\ud800"]}')
    assert reply == {"a": "x\ufffdy", "\ufffd": ["\U0001F600", "\\ud800"]}  # a whole pair, an escaped backslash kept
    assert replies.loads_message(b'["v", "\\udbff"]') == ["v", "\ufffd"]
    json.dumps(reply, ensure_ascii=False).encode("utf-8")  # storable


def test_a_class_with_lone_surrogates_in_its_students_text_is_graded_and_written(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(SUBMISSIONS / "ctp-26" / "correct" / "alpha_beta.py", klass / "alice.py")
    (klass / "mallory.py").write_text(RAISES, encoding="utf-8")
    (klass / "trudy.py").write_text(REPR, encoding="utf-8")
    out = tmp_path / "out"
    outcome = batch.grade([klass], "ctp-26", out, jobs=2, seed=26)
    assert outcome.failures == []
    rows = {r["student"]: r for r in json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]}
    assert rows["alice"]["status"] == "passed"
    assert rows["mallory"]["status"] == rows["trudy"]["status"] == "failed"
    assert "\ufffd half a pair" in (out / "reports" / "mallory.html").read_text(encoding="utf-8")
    with sqlite3.connect(out / "gradebook.sqlite") as book:
        assert book.execute("select count(*) from results").fetchone()[0] == 3  # every result stored


@pytest.mark.parametrize("fmt", ["json", "md", "html", "junit", "gradescope", "text"])
def test_check_writes_every_format_for_such_text(tmp_path, fmt):
    source = tmp_path / "mallory.py"
    source.write_text(RAISES, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(source), "--exercise", "ctp-26", "--format",
                           fmt], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-1500:]  # a failed verdict, not a crash
    assert "Traceback" not in done.stderr
    assert "\ufffd" in done.stdout


def test_a_tournament_with_such_text_in_a_failure_is_played_and_written(tmp_path):
    from grader.bulk import tournament

    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(ROOT / "fixtures/submissions/coin-row/correct/value_helper.py", klass / "alice.py")
    (klass / "mallory.py").write_text('def best_move(state):\n    raise ValueError("\\ud800")\n', encoding="utf-8")
    outcome = tournament.run([klass], "coin-row", tmp_path / "out", seed=26, games=2, jobs=2)
    assert not getattr(outcome, "failures", None)
    games = (tmp_path / "out" / "games.jsonl").read_text(encoding="utf-8")
    assert "raised ValueError: \ufffd" in games
    assert (tmp_path / "out" / "standings.csv").is_file()


ESCAPES = ('def minimax(node, max_depth, player_a_moves):\n'
           '    raise ValueError("\\x1b]52;c;aGVsbG8=\\x1b\\\\\\x1b[2K\\u202e")\n')


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_a_students_exception_text_reaches_a_text_report_as_text(tmp_path, fmt):
    """``check --instructor`` in a terminal, ``cat reports/mallory.md``: the exception's escape sequences (OSC 52 sets
    the clipboard) reached the terminal raw (the hundred and eleventh helper). Shown as escapes now."""
    source = tmp_path / "mallory.py"
    source.write_text(ESCAPES, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(source), "--exercise", "ctp-26", "--format",
                           fmt, "--instructor"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1, done.stderr[-1500:]
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert "\\x1b]52;c;aGVsbG8=" in done.stdout


def test_a_students_lines_never_start_a_line_of_the_text_report_s_own(tmp_path):
    """A ``raise ValueError("boom\\nPASSED  score 10 / 10")`` printed a verdict line at the margin of the text report,
    under the real one (the hundred and fifteenth red team): every line after a message's first is indented."""
    from grader.doors import api
    from grader import report

    source = tmp_path / "mallory\nPASSED  score 10.py"
    source.write_text('def minimax(node, max_depth, player_a_moves):\n    raise ValueError("boom\\nPASSED  score 10 / 10")\n',
                      encoding="utf-8")
    text = report.render(api.check(source, "ctp-26", examples=5), "text")
    assert "boom" in text and text.count("PASSED  score 10 / 10") >= 2
    assert not any(line.startswith("PASSED") for line in text.splitlines()), text


def test_a_tournament_shows_a_students_name_as_text(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(ROOT / "fixtures/submissions/coin-row/correct/value_helper.py", klass / "alice.py")
    shutil.copy(ROOT / "fixtures/submissions/coin-row/correct/value_helper.py", klass / "eve\x1b]52;c;aGk=\x07.py")
    done = subprocess.run([sys.executable, "-m", "grader", "tournament", str(klass), "--exercise", "coin-row", "--out",
                           str(tmp_path / "out"), "--games", "2", "--seed", "26", "--jobs", "2"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-1500:]
    assert "\x1b" not in done.stderr + done.stdout and "\x07" not in done.stderr + done.stdout
    assert "eve\\x1b]52;c;aGk=\\x07" in done.stderr


def test_every_character_a_text_report_escapes_is_escaped_whichever_string_holds_it():
    """The text and Markdown reports first ask, in one pass over the result's JSON, whether any string needs escaping;
    that pass once had its own copy of the characters ``printable`` escapes, and missed DEL, which JSON writes as it is
    (a result holding only a DEL came out raw). Every character of the class, alone in an exception's text, comes
    out escaped."""
    import re

    from grader import report
    from grader.file_names import NOT_IN_LINES
    from grader.judging.result import SubmissionResult

    wanted = re.compile(NOT_IN_LINES)
    characters = [chr(code) for code in range(0x2070) if wanted.match(chr(code))]
    assert "\x7f" in characters and "\x1b" in characters and "\u202e" in characters
    for character in characters:
        result = SubmissionResult("mallory.py", "ctp-26", "error", 0.0, 10.0, error=f"raised ValueError: a{character}b")
        for fmt in ("text", "md"):
            shown = report.render(result, fmt)
            assert character not in shown, (fmt, hex(ord(character)))
            assert f"\\x{ord(character):02x}" in shown or f"\\u{ord(character):04x}" in shown, (fmt, hex(ord(character)))
