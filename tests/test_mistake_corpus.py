"""Mistake naming on the corpus written apart from the grader: the held-out targets and the tuning figures.

The corpus (``fixtures/mistake-corpus``) is split by its own fixed rule; the held-out variants are
read here only to be graded, never to choose anything. Grading runs as ``grade`` does (a warm pool,
``benchmarks/mistake_naming.py``). The held-out half is graded whole (some 330 variants, about a minute
and a half on two idle cores): the targets of issue 22 are per exercise as well as overall (at least
92 % right and at most 2 % wrong overall, no exercise below 85 % right or above 5 % wrong), and a
share of a handful of variants per exercise says nothing at that grain. The tuning half is graded on
a fixed, named subset: per (exercise, mistake code), the first ``TUNING_PER_CODE`` (one) variant in the
split's own order. The benchmark measures the whole corpus.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from conftest import ROOT

HELD_OUT_PER_CODE = None  # every held-out variant
TUNING_PER_CODE = 1
# Issue 22's targets, measured (2026-11-26, 330 held-out variants): 92.4 % right / 1.2 % wrong overall; the
# lowest exercise 86.7 % right (best-move, coin-row), the highest 4.0 % wrong (aima-isolation).
RIGHT_TARGET, WRONG_TARGET = 0.92, 0.02  # overall, on the held-out half
EXERCISE_RIGHT, EXERCISE_WRONG = 0.85, 0.05  # every exercise, on the held-out half


def _benchmark():
    spec = importlib.util.spec_from_file_location("_mistake_naming_benchmark", ROOT / "benchmarks" / "mistake_naming.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


BENCH = _benchmark()


@pytest.fixture(scope="module")
def halves():
    return BENCH.halves()


def test_the_split_is_the_corpus_own_rule_and_both_halves_hold_variants(halves):
    assert halves["tuning"] and halves["held_out"]
    tuning = {p for _, _, p in halves["tuning"]}
    assert not tuning & {p for _, _, p in halves["held_out"]}


def test_held_out_half_meets_the_targets(halves):
    tallies = BENCH.measure(BENCH.first_per_code(halves["held_out"], HELD_OUT_PER_CODE), jobs=2)
    # Only the rates are shown on failure: which held-out variant missed is not for tuning.
    rates = {name: (t.total, round(t.share("right"), 3), round(t.share("wrong"), 3)) for name, t in tallies.items()}
    # Plain numbers only: an assertion on a tally would print its misses (held-out variants by name).
    shares = {name: (t.share("right"), t.share("wrong")) for name, t in tallies.items()}
    del tallies
    assert rates["overall"][0] > 0
    right, wrong = shares.pop("overall")
    assert right >= RIGHT_TARGET, rates
    assert wrong <= WRONG_TARGET, rates
    assert set(shares) == {exercise for exercise, _, _ in halves["held_out"]}
    short = {name: rates[name] for name, (right, wrong) in shares.items()
             if right < EXERCISE_RIGHT or wrong > EXERCISE_WRONG}
    assert not short, rates


def test_the_two_games_declared_from_the_guide_are_in_the_corpus_with_both_halves(halves):
    """twin-heaps and coin-row, written apart before their naming was tuned, are part of the measured corpus;
    the split is by the path below the corpus root, so moving them in changed no variant's half."""
    for exercise in ("twin-heaps", "coin-row"):
        for half in ("tuning", "held_out"):
            assert any(e == exercise for e, _, _ in halves[half]), (exercise, half)
    counts = {}
    for half in ("tuning", "held_out"):
        for exercise, _, _ in halves[half]:
            counts[exercise] = counts.get(exercise, 0) + 1
    assert (counts["twin-heaps"], counts["coin-row"]) == (64, 60)


def test_tuning_half_figures(halves):
    tallies = BENCH.measure(BENCH.first_per_code(halves["tuning"], TUNING_PER_CODE), jobs=2)
    overall = tallies["overall"]
    assert overall.total > 0
    assert overall.share("right") >= RIGHT_TARGET, overall.misses
    assert overall.share("wrong") <= WRONG_TARGET, overall.misses


def test_a_variant_is_counted_by_its_first_named_mistake():
    result = {"status": "failed", "mistakes": [{"code": "always-max"}, {"code": "mutates-tree"}]}
    assert BENCH.outcome_of(result, "always-max")[0] == "right"
    assert BENCH.outcome_of(result, "mutates-tree")[0] == "wrong"
    assert BENCH.outcome_of({"status": "failed", "mistakes": [{"code": "no-known-mistake"}]}, "x")[0] == "none"
    assert BENCH.outcome_of({"status": "passed", "mistakes": []}, "x")[0] == "none"
    assert BENCH.outcome_of(None, "x")[0] == "none"


def test_the_benchmark_prints_both_halves_labelled(tmp_path):
    import subprocess

    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mistake_naming.py"), "--jobs", "2",
                          "--exercise", "nim", "--per-code", "1"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "TUNING half" in run.stdout and "HELD-OUT half" in run.stdout and "never used to choose" in run.stdout
    held_out = run.stdout.split("HELD-OUT half", 1)[1]
    assert "miss:" not in held_out  # the held-out misses are never listed
