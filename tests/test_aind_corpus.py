"""The AIND isolation corpus written apart from the grader (fixtures/mistake-corpus-pending/aind-isolation*):
every correct file passes and every buggy file fails, on both halves of the split (verdicts, not names:
the naming rates are measured by benchmarks/mistake_naming.py --corpus fixtures/mistake-corpus-pending)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "mistake-corpus-pending"
_spec = importlib.util.spec_from_file_location("_corpus_split", ROOT / "fixtures" / "mistake-corpus" / "split.py")
split = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(split)

FILES = [(half, exercise, code, path) for half, entries in split.split(CORPUS).items()
         for exercise, code, path in entries if exercise.startswith("aind-isolation")]


def test_the_corpus_has_both_templates_and_both_halves():
    assert {e for _, e, _, _ in FILES} == {"aind-isolation", "aind-isolation-custom-player"}
    assert {h for h, _, _, _ in FILES} == {"tuning", "held_out"}
    assert any(code == "correct" for _, _, code, _ in FILES)


@pytest.mark.parametrize("half,exercise,code,path", FILES,
                         ids=[f"{h}:{p.relative_to(CORPUS)}" for h, _, _, p in FILES])
def test_correct_files_pass_and_buggy_files_fail(half, exercise, code, path):
    from grader.doors import api

    result = api.check(path, exercise)
    assert result.error is None, result.error
    assert result.status == ("passed" if code == "correct" else "failed"), [
        (c.name, c.status, c.message) for c in result.checks if c.status != "passed"]
