"""A forged reply is the forger's error, never the grader's: the parent reads replies as hostile input.

Student code can write a correctly framed reply on the child's reply descriptor (nonce, sequence
number and descriptor are all in its memory). Nested deep enough, such a reply once made
``json.loads`` raise RecursionError in the parent: ``check`` died with a traceback and ``grade``
recorded a grader failure, stored nothing and failed the same way on every run. The reply is now
bounded in depth before it is parsed and must have exactly the harness's keys, types and counts.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SUBMISSIONS
from grader.sandbox import replies

FORGER = SUBMISSIONS / "hostile" / "forge_deep_reply.py"
HONEST = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[:2]
TAMPERED = "tampered with the result channel"
MODES = ("deep", "extra_key", "huge", "wide_answer", "bad_type")


def forger(folder: Path, mode: str) -> Path:
    """The fixture with another forgery chosen (its MODE line)."""
    source = FORGER.read_text(encoding="utf-8")
    assert 'MODE = "deep"' in source
    path = folder / f"forge_{mode}.py"
    path.write_text(source.replace('MODE = "deep"', f'MODE = "{mode}"'), encoding="utf-8")
    return path


# -- the parser, without a child -----------------------------------------------------------

def test_deep_nesting_is_refused_before_parsing_and_quickly():
    for deep in (b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000, b"[" * 5_000):
        started = time.perf_counter()
        with pytest.raises(replies.Refused):
            replies.loads(b'{"results": ' + deep + b"}")
        assert time.perf_counter() - started < 1.0


def test_what_the_harness_nests_is_accepted_and_strings_do_not_count():
    nested = {"t": "list", "v": []}
    for _ in range(replies.ANSWER_DEPTH):  # an answer as deep as the harness sends: 3 JSON levels per level
        nested = {"t": "dict", "v": [["k", nested]]}
    reply = {"results": [{"id": "c1", "answer": nested, "raised": "[" * 3000}]}
    assert replies.loads(json.dumps(reply).encode()) == reply
    replies.check_run(reply, [{"id": "c1"}])
    assert replies.depth_within(b"[" * replies.MAX_DEPTH + b"]" * replies.MAX_DEPTH)
    assert not replies.depth_within(b"[" * (replies.SURE_REFUSED + 1) + b"]" * (replies.SURE_REFUSED + 1))
    assert not replies.depth_within(b'[[["]"' * 200 + b"]" * 400)  # closing brackets inside strings do not count
    assert not replies.depth_within(b"[{" * 100 + b"}]" * 100)
    assert replies.depth_within(b'["' + b"[" * 10_000 + b'"]')
    assert replies.depth_within(b'["\\"' + b"[" * 10_000 + b'"]')  # an escaped quote does not end the string


def test_the_depth_scan_is_linear_on_hostile_strings():
    """Unclosed strings full of escaped quotes make a naive string pattern quadratic: not this one."""
    for data in (b'"\\"' * 2_000_000, b'"' + b"\\" * 4_000_001, b'["' * 2_000_000, b"[]" * 4_000_000,
                 b'"["' * 2_000_000, b"[" * 9 + b"[[[[[[[[[]]]]]]]]]" * 400_000):
        started = time.perf_counter()
        replies.depth_within(data)
        assert time.perf_counter() - started < 3.0, data[:10]


@pytest.mark.parametrize("reply, why", [
    ({"results": [{"id": "c1", "trace": {"evaluated": []}}]}, "a trace from the child (the grader keeps its own log)"),
    ({"results": [{"id": "c1", "verdict": "passed"}]}, "extra result key"),
    ({"results": [{"id": "c1"}], "score": 10}, "extra reply key"),
    ({"results": [{"id": "c2"}]}, "another case's id"),
    ({"results": [{"id": "c1"}, {"id": "c1"}]}, "more results than cases"),
    ({"results": [{"id": "c1", "answer": {"t": "list", "v": [{"t": "none"}] * 300}}]}, "an answer past its items"),
    ({"results": [{"id": "c1", "answer": {"t": "list", "v": 5}}]}, "an answer of the wrong shape"),
    ({"results": [{"id": "c1", "answer": {"t": "int", "v": True}}]}, "a bool tagged as an int"),
    ({"results": [{"id": "c1", "raised": "x" * (replies.TEXT + 1)}]}, "a message past its length"),
    ({"results": [{"id": "c1", "timed_out": False}]}, "a flag the harness never sends false"),
    ({"fatal": "passed"}, "an unknown fatal"),
])
def test_only_the_harness_keys_types_and_counts(reply, why):
    with pytest.raises(replies.Refused):
        replies.check_run(reply, [{"id": "c1"}])


def test_load_reply_keys():
    replies.check_init({"ok": True, "parts": {"graded": ["rules"], "supplied": []}})
    replies.check_init({"ok": False, "error": "syntax error"})
    for bad in ({"ok": True, "score": 10}, {"ok": "yes"}, {"ok": True, "parts": {"graded": [1]}},
                {"ok": True, "parts": {"graded": [], "extra": []}}):
        with pytest.raises(replies.Refused):
            replies.check_init(bad)


def test_the_caps_are_the_harness_own():
    source = (ROOT / "grader" / "sandbox" / "harness.py").read_text(encoding="utf-8")
    for name in ("ANSWER_DEPTH", "ANSWER_ITEMS"):
        found = re.search(rf"^{name} = (.+?)(\s+#.*)?$", source, re.M)
        assert found and eval(found.group(1)) == getattr(replies, name), name


# -- a forging submission, graded --------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_each_forgery_is_the_forgers_error(tmp_path, mode):
    from grader.doors import api

    result = api.check(forger(tmp_path, mode), "ctp-26", examples=10)
    assert (result.status, result.score, result.error) == ("error", 0.0, TAMPERED)


def test_check_prints_one_line_and_exits_normally(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(FORGER), "-e", "ctp-26", "--examples", "10"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-2000:]
    assert done.returncode == 1, (done.returncode, done.stderr[-800:])
    assert [line for line in done.stdout.splitlines() if line.startswith("ERROR")] == [f"ERROR  {TAMPERED}"]


def test_grade_stores_the_forger_and_keeps_its_neighbours(tmp_path):
    """``grade`` over a class (fork server): exit 0, honest neighbours full marks, the forger's result
    stored as its own error, and a second run grades nothing again."""
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copyfile(FORGER, klass / "forger.py")
    for path in HONEST:
        shutil.copyfile(path, klass / f"honest_{path.name}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(tmp_path / "out"),
               "--examples", "10", "-j", "2"]
    first = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "Traceback" not in first.stderr and "the grader failed" not in first.stderr, first.stderr[-2000:]
    students = {e["student"]: e for e in json.loads((tmp_path / "out" / "results.json").read_text())["submissions"]}
    assert (students["forger"]["status"], students["forger"]["score"], students["forger"]["error"]) == \
        ("error", 0.0, TAMPERED)
    for path in HONEST:
        data = students[f"honest_{path.stem}"]
        assert (data["status"], data["score"]) == ("passed", data["max_score"]), data["error"]
    again = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "0 to grade" in again.stderr, again.stderr[-1000:]


@pytest.mark.parametrize("sandbox,user", [("bwrap", "root"), ("bwrap", "nobody"), ("posix", "root"), ("posix", "nobody")])
def test_a_deep_reply_is_the_forgers_error_under_every_launcher_and_user(sandbox, user):
    """The same in a class graded by ``grade`` (fork server), under bubblewrap and posix + Landlock, as
    root and as an ordinary user (uid 65534): exit 0, the forger's own one-line error, neighbours intact."""
    import tempfile

    from test_walls import _as, _usable, hand_over

    _usable(sandbox, landlock_on=True)
    work = Path(tempfile.mkdtemp(prefix="minimax-deep-reply-"))
    try:
        os.chmod(work, 0o755)
        klass = work / "class"
        klass.mkdir()
        (work / "cache").mkdir()
        shutil.copyfile(FORGER, klass / "forger.py")
        for path in HONEST[:2]:
            shutil.copyfile(path, klass / f"honest_{path.name}")
        hand_over(work)
        command, env = _as(user, work)
        done = subprocess.run(command + ["-m", "grader", "grade", str(klass), "-e", "ctp-26", "--out", str(work / "out"),
                                         "--sandbox", sandbox, "--examples", "5", "-j", "1"],
                              capture_output=True, text=True, env=env, cwd=work, timeout=300)
        assert done.returncode == 0, done.stderr[-1500:]
        students = {e["student"]: e for e in json.loads((work / "out" / "results.json").read_text())["submissions"]}
    finally:
        subprocess.run(["rm", "-rf", str(work)], check=False)
    assert (students["forger"]["status"], students["forger"]["score"], students["forger"]["error"]) == ("error", 0.0, TAMPERED)
    for path in HONEST[:2]:
        data = students[f"honest_{path.stem}"]
        assert (data["status"], data["score"]) == ("passed", data["max_score"]), data["error"]


def test_the_common_questions_read_without_json_are_what_json_reads():
    """The quick path (a node's value, an evaluation by path, the case note) gives exactly json.loads's value,
    and refuses to guess: any other spelling (leading zeros, no space, a side of 2) goes the defensive way."""
    import random

    rng = random.Random(21)
    shapes = [["v", 0], ["v", 12], ["case", 0], ["case", 246], ["e", "utility", [], 0]]
    shapes += [["e", rng.choice(["utility", "evaluate"]), [rng.randrange(200000) for _ in range(rng.randrange(30))],
                rng.randrange(2)] for _ in range(500)]
    for message in shapes:
        data = json.dumps(message).encode()
        assert replies._NODE.match(data) or replies._CASE.match(data) or replies._BY_PATH.match(data), data
        assert replies.loads_question(data) == json.loads(data)
    for odd in [b'["v", 012]', b'["v",12]', b'["e", "utility", [01], 0]', b'["e", "utility", [1], 2]', b'["v", -1]',
                b'["e", "other", [1], 0]', b'["v", 1] ']:
        assert not (replies._NODE.match(odd) or replies._CASE.match(odd) or replies._BY_PATH.match(odd)), odd
    with pytest.raises(replies.Refused):
        replies.loads_question(b'["v", 012]')  # not JSON at all: refused by the defensive reading
    assert replies.loads_question(b'["v",12]') == ["v", 12]  # JSON, spelt otherwise: read the slow way
