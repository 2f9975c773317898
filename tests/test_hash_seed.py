"""Every child hashes strings with one fixed seed, under every launcher, so a submission whose answers hang on the
order of a set of strings gets the same verdict in every run.

Python picks a new string-hash seed per process unless ``PYTHONHASHSEED`` says otherwise, and a child started
with ``-I`` ignores the environment altogether: two gradings of the same file (a student's self-check and the
class's run, two runs of ``grade``, two fork servers) could disagree. The child now runs ``-s -P`` with an
environment the grader writes whole, the seed in it (``launcher.child_env``); these tests fail with the old flags.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from samples import graded_under
from test_evidence import LAUNCHERS
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.sandbox import launcher


@pytest.fixture(scope="module")
def ctp26_small():
    exercise = exercises.load("ctp-26")
    return exercise, banks.build(exercise, seed=11, examples=4)

PROBE = '''
import os
import sys


def minimax(node, max_depth, player_a_moves):
    seen = {
        "hash": hash("minimax-grader"),
        "order": "".join(set("abcdefghij")),
        "python_variables": sorted(name for name in os.environ if name.startswith("PYTHON")),
        "safe_path": sys.flags.safe_path,
        "no_user_site": sys.flags.no_user_site,
    }
    raise RuntimeError("SEEN" + repr(seen) + "END")
'''


def _seen(result) -> dict:
    import ast

    text = " ".join(c.message for c in result.checks)
    return ast.literal_eval(text.split("SEEN", 1)[1].split("END", 1)[0])


def _with_seed(code: str) -> str:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONHASHSEED": launcher.HASH_SEED}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60).stdout.strip()


@pytest.mark.parametrize("sandbox, warm", LAUNCHERS)
def test_every_child_hashes_with_the_graders_seed(sandbox, warm, ctp26_small, tmp_path):
    exercise, bank = ctp26_small
    probe = tmp_path / "hash_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    seen = _seen(graded_under(probe, exercise, bank, sandbox, warm))
    assert seen["hash"] == int(_with_seed("print(hash('minimax-grader'))"))
    assert seen["order"] == _with_seed("print(''.join(set('abcdefghij')))")
    # what -I gave and the new flags keep: no PYTHON* variable of the grader's reaches the child, nothing is
    # imported from the current folder or from the user's site-packages
    assert seen["python_variables"] == ["PYTHONHASHSEED"]
    assert seen["safe_path"] and seen["no_user_site"]


def test_the_graders_own_python_variables_never_reach_a_child(ctp26_small, tmp_path, monkeypatch):
    """The child now reads its environment (``-E`` is gone): what the grader was started with must not be it."""
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYTHONHASHSEED", "12345")
    monkeypatch.setenv("PYTHONWARNINGS", "error")
    (tmp_path / "sitecustomize.py").write_text("raise SystemExit('the grader’s PYTHONPATH was read')\n")
    exercise, bank = ctp26_small
    probe = tmp_path / "hash_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    seen = _seen(graded_under(probe, exercise, bank, "posix", False))
    assert seen["python_variables"] == ["PYTHONHASHSEED"]
    assert seen["hash"] == int(_with_seed("print(hash('minimax-grader'))"))


SET_ORDER_SEARCH = '''
def minimax(node, max_depth, player_a_moves):
    """Wrong in a way that hangs on the order of a set of names: the first child the set yields is followed."""
    children = get_next_valid_moves(node)
    if max_depth == 0 or not children:
        return get_value(node)
    by_name = {child.name: child for child in children}
    first = next(iter(set(by_name)))
    return minimax(by_name[first], max_depth - 1, not player_a_moves)
'''


def _without_times(data):
    """The report less how long things took (which no two runs share)."""
    if isinstance(data, dict):
        return {key: _without_times(value) for key, value in data.items() if "seconds" not in key}
    if isinstance(data, list):
        return [_without_times(value) for value in data]
    return data


def test_two_runs_of_check_agree_on_a_search_that_follows_a_sets_order(tmp_path):
    """Two separate processes (each its own children) grade the same file alike, to the byte."""
    source = tmp_path / "set_order.py"
    source.write_text(SET_ORDER_SEARCH, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHONHASHSEED")}

    def report(seed: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "grader", "check", str(source), "--exercise", "ctp-26",
                               "--format", "json"], capture_output=True, text=True, cwd=ROOT, timeout=300,
                              env=dict(env, PYTHONHASHSEED=seed))
        assert done.returncode == 1, done.stderr
        return _without_times(json.loads(done.stdout))

    # the grader's own processes hash with other seeds; the children do not
    first, second = report("1"), report("2")
    assert first["score"] < first["max_score"]
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
