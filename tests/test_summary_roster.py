"""The class summary's roster: every student, sortable and filterable, complete without scripts,
with the mean saying plainly that a submission that could not be graded counts 0."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser

import pytest

from grader.export import csv as grades_csv
from grader.report import summary


def entry(student, score, status, mistakes=(), seconds=0.1, error=None):
    return {"student": student, "report": f"reports/{student}.html",
            "result": {"status": status, "score": score, "max_score": 10.0, "duration_seconds": seconds, "error": error,
                       "mistakes": [{"code": c, "explanation": f"{c} explained"} for c in mistakes], "checks": []}}


ENTRIES = [
    entry("zoe", 10.0, "passed", seconds=0.3),
    entry("amy", 2.0, "failed", ["always-max"], seconds=0.9),
    entry("kai", 0.0, "error", seconds=0.0, error="syntax error in kai.py, line 1"),
    entry("bea", 6.0, "failed", ["depth-off-by-one", "always-max"], seconds=0.5),
]
DISCOVERED = {"submissions": 4, "graded": [{"student": e["student"], "from": f"class/{e['student']}.py", "problem": None}
                                           for e in ENTRIES],
              "skipped": [{"path": "class/README.md", "reason": "neither a Python file (.py), a folder nor a .zip archive"}]}


class _Rows(HTMLParser):
    """The roster table's rows as a browser without scripts shows them."""

    def __init__(self):
        super().__init__()
        self.in_roster, self.rows, self.cell, self.hidden_filters = False, [], None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == "roster-table":
            self.in_roster = True
        elif tag == "div" and attrs.get("id") == "roster-filters":
            self.hidden_filters = "hidden" in attrs
        elif self.in_roster and tag == "tr" and "data-status" in attrs:
            self.rows.append([])
        elif self.in_roster and tag == "td" and self.rows:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_roster = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


@pytest.fixture(scope="module")
def page():
    return summary.render(summary.summarise(ENTRIES, exercise="ctp-26", seed=7, grader_version="x", discovered=DISCOVERED))


def test_every_student_is_listed_and_readable_without_scripts(page):
    parser = _Rows()
    parser.feed(page)
    assert [r[0] for r in parser.rows] == ["amy", "bea", "kai", "zoe"]
    amy = parser.rows[0]
    assert amy[1] == "2 / 10" and amy[2] == "failed" and "always-max" in amy[3] and amy[4] == "0.90" and amy[5] == "report"
    assert "syntax error in kai.py" in parser.rows[2][3]
    assert parser.hidden_filters is True  # the controls appear only when the script runs
    for student in ("amy", "bea", "kai", "zoe"):
        assert f'href="reports/{student}.html"' in page


def test_links_to_the_data_and_the_account(page):
    assert 'href="grades.csv"' in page and 'href="results.json"' in page and 'href="discovery.json"' in page
    assert "class/README.md" in page and "What was found" in page


def test_the_mean_counts_errors_as_zero_like_the_csv_and_says_so(page):
    rows = list(csv.DictReader(grades_csv.render([(e["student"], e["result"]) for e in ENTRIES]).lstrip("\ufeff").splitlines()))
    csv_mean = sum(float(r["score"]) for r in rows) / len(rows)
    shown = float(re.search(r"<strong>([0-9.]+)</strong>mean score", page).group(1))
    assert shown == pytest.approx(csv_mean, abs=0.005) == 4.5
    assert "could not be graded counts 0" in page
    assert "the mean is 6.00" in page  # and, beside it, the mean of the graded ones only


def test_filters_offer_every_status_and_mistake_present(page):
    assert re.findall(r'<option value="(passed|failed|error)"', page) == ["passed", "failed", "error"]
    assert {"always-max", "depth-off-by-one"} <= set(re.findall(r'<option value="([a-z-]+)">', page))


def test_sorting_and_filtering_work_in_chromium(tmp_path, page):
    import browser

    browser.require_chromium()
    path = tmp_path / "summary.html"
    path.write_text(page, encoding="utf-8")
    script = """(() => {
      const visible = () => Array.from(document.querySelectorAll('#roster-table tbody tr'))
                                 .filter(r => !r.hidden).map(r => r.cells[0].textContent.trim());
      const out = {start: visible(), filtersShown: !document.getElementById('roster-filters').hidden};
      const status = document.getElementById('filter-status');
      status.value = 'failed'; status.dispatchEvent(new Event('change'));
      out.failed = visible();
      out.count = document.getElementById('roster-shown').textContent;
      status.value = ''; status.dispatchEvent(new Event('change'));
      const mistake = document.getElementById('filter-mistake');
      mistake.value = 'depth-off-by-one'; mistake.dispatchEvent(new Event('change'));
      out.mistake = visible();
      mistake.value = ''; mistake.dispatchEvent(new Event('change'));
      const score = document.querySelectorAll('#roster-table thead th button')[1];
      score.click(); out.ascending = visible();
      score.click(); out.descending = visible();
      return out;
    })()"""
    shown = browser.open_page(path, script=script, height=1400)
    assert shown.console_errors == [] and shown.requests == []
    assert not browser.looks_blank(shown.screenshot)
    result = shown.evaluated
    assert result["start"] == ["amy", "bea", "kai", "zoe"] and result["filtersShown"] is True
    assert result["failed"] == ["amy", "bea"] and result["count"] == "2 of 4 shown"
    assert result["mistake"] == ["bea"]
    assert result["ascending"] == ["kai", "amy", "bea", "zoe"]
    assert result["descending"] == ["zoe", "bea", "amy", "kai"]


def test_the_histograms_axis_names_bin_edges_that_do_not_run_together():
    """Under a 19.5-point rubric each bin's range ("11.7–13.65") was printed under its bar and ran into the next
    one's; the axis now names the edges (each bar's range is its tooltip), each short enough for its bar."""
    bins = summary.histogram([19.5, 12.0, 3.0], 19.5)
    drawn = summary.svg_bars(bins)
    step = drawn["ticks"][1]["x"] - drawn["ticks"][0]["x"]
    assert [t["text"] for t in drawn["ticks"]][:3] == ["0", "1.95", "3.9"] and drawn["ticks"][-1]["text"] == "19.5"
    assert all(len(t["text"]) * 7 < step for t in drawn["ticks"]), drawn["ticks"]
    page = summary.render(summary.summarise(ENTRIES, exercise="ctp-26", seed=7, grader_version="x", discovered=DISCOVERED))
    assert "with a score in 0–1</title>" in page and ">0–1</text>" not in page
