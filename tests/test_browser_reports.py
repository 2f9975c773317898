"""The HTML report as a person sees it, in real headless Chromium (skipped only when it is absent)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import browser  # tests/browser.py (tests/ is on sys.path under pytest's default import mode)

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures/submissions/ctp-26"


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    browser.require_chromium()
    folder = tmp_path_factory.mktemp("html")
    pages = {}
    for label, submission in (("failing", SUBMISSIONS / "buggy/always_max.py"), ("passing", SUBMISSIONS / "correct/negamax.py")):
        out = folder / f"{label}.html"
        run = subprocess.run([sys.executable, "-m", "grader", "check", str(submission), "--format", "html", "--output", str(out)],
                             capture_output=True, text=True, timeout=120)
        assert out.is_file(), run.stderr
        pages[label] = browser.open_page(out)
    return pages


@pytest.mark.parametrize("label", ["failing", "passing"])
def test_the_report_renders_cleanly_and_offline(reports, label):
    page = reports[label]
    assert page.console_errors == []
    assert page.requests == []  # self-contained: no fonts, scripts, images or trackers from anywhere
    assert not browser.looks_blank(page.screenshot)
    assert len(browser.colours(page.screenshot)) > 2


def test_pass_and_fail_are_said_in_words_not_only_colour(reports):
    failing, passing = reports["failing"].text, reports["passing"].text
    assert "FAILED" in failing and "FAIL" in failing.split()
    assert "PASSED" in passing and "PASS" in passing.split()
    assert "FAIL" not in passing
    # The failing page draws the counterexample tree (an SVG picture whose labels are text): the
    # exercise's own tree, since a failing published case is shown as itself.
    assert "Move W" in failing and "value 10, A" in failing


def test_the_helper_sees_console_errors_requests_and_blank_pages(tmp_path):
    browser.require_chromium()
    noisy = tmp_path / "noisy.html"
    noisy.write_text('<!doctype html><title>noisy</title><img src="http://example.invalid/pixel.png">'
                     '<script>console.error("boom"); undefined_function();</script>', encoding="utf-8")
    page = browser.open_page(noisy)
    assert page.title == "noisy"
    assert any("boom" in e for e in page.console_errors)
    assert any("undefined_function" in e for e in page.console_errors)
    assert page.requests == ["http://example.invalid/pixel.png"]
    assert browser.looks_blank(page.screenshot)  # nothing visible on a white page
