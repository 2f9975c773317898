"""Shared test set-up: a private grader cache per test session, and the project's paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.register_assert_rewrite("samples")  # its shared assertions explain their failures as a test's do

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SUBMISSIONS = FIXTURES / "submissions"

# Set before any grader module computes a cache path, and inherited by every subprocess the
# tests start, so tests never touch the user's real cache and always start from nothing. Removed
# when the process that made it ends (pytest's, not a worker's that inherited it): hundreds of
# them were left in /tmp.
if "MINIMAX_GRADER_CACHE" not in os.environ:
    from grader.paths import private_folder

    os.environ["MINIMAX_GRADER_CACHE"] = private_folder("minimax-grader-test-cache-")


@pytest.fixture(autouse=True)
def _interpreter_settings_put_back():
    """The interpreter-wide settings the harness's own code changes (the switch interval, the collector) as they
    were before each test. Tests that run the harness's runner in this process leave them as a child leaves them:
    a switch interval of one second and the collector off made a later test of the same worker, whose three threads
    take turns, wait 30 s where it takes 0.2 s alone."""
    import gc
    import sys

    interval, enabled, threshold = sys.getswitchinterval(), gc.isenabled(), gc.get_threshold()
    yield
    sys.setswitchinterval(interval)
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def ctp26():
    from grader.judging import exercise

    return exercise.load("ctp-26")


@pytest.fixture(scope="session")
def ctp26_bank(ctp26):
    from grader.judging import bank

    return bank.build(ctp26)
