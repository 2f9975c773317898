"""The HTML report's pictures: the counterexample drawn once as inline SVG, the first wrong node
highlighted with its expected and returned values; no empty table in an error report; a link
back to the class summary from a report graded in bulk. The page is opened in headless Chromium."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import browser  # tests/browser.py

from grader.doors import api
from grader import report
from grader.report import svg

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures" / "submissions"


@pytest.fixture(scope="module")
def failing_html():
    result = api.check(SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py", "ctp-26")
    return result, report.render(result, "html")


def test_the_counterexample_tree_is_drawn_once_with_the_wrong_node_marked(failing_html):
    result, html = failing_html
    drawn = [c for c in result.checks if c.counterexample is not None]
    trees = {_key(c.counterexample.input) for c in drawn}
    assert len(drawn) >= 2  # several checks fail; the ones drawing the same tree share its picture...
    assert html.count('class="counterexample-picture"') == len(trees)  # ...each tree drawn once
    assert html.count("The same tree as above goes wrong here too") == len(drawn) - len(trees)
    where = next(c.counterexample.localisation for c in drawn if c.counterexample.localisation)
    marked = re.findall(r'<g class="node wrong" data-node="([^"]*)"', html)
    assert where["node"] in marked and len(marked) <= len(trees)
    assert f"expected {where['expected']!r}, yours {where['actual']!r}" in html


def test_the_picture_renders_in_chromium(failing_html, tmp_path):
    browser.require_chromium()
    _, html = failing_html
    page_file = tmp_path / "report.html"
    page_file.write_text(html, encoding="utf-8")
    page = browser.open_page(page_file, width=1200, height=1600)
    assert page.console_errors == [] and page.requests == []
    assert not browser.looks_blank(page.screenshot)
    assert "expected 0, yours 1" in page.text  # the SVG's text is on the page, beside the wrong node


def test_boards_are_drawn_too():
    result = api.check(SUBMISSIONS / "tictactoe" / "buggy" / "returns_bare_score.py", "tictactoe")
    html = report.render(result, "html")
    boards = {_key(c.counterexample.input) for c in result.checks if c.counterexample is not None}
    assert html.count('class="counterexample-picture"') == len(boards) >= 1  # each board once
    assert "expected [-1, -1, 0], yours 0" in html


def test_an_error_report_has_no_empty_table(tmp_path):
    result = api.check(SUBMISSIONS / "bad" / "syntax_error.py", "ctp-26")
    assert result.status == "error" and result.checks == []
    html = report.render(result, "html")
    assert "<table" not in html and "<svg" not in html
    assert "| result |" not in report.render(result, "md")


def test_svg_text_is_escaped():
    drawing = {"kind": "tree", "root": {"id": "/a", "label": "<script>x</script>", "detail": "value 1", "children": []}}
    picture = str(svg.to_svg(drawing, {"node": "/a", "expected": "<b>", "actual": 1}))
    assert "<script>" not in picture and "&lt;script&gt;" in picture and "&lt;b&gt;" in picture


def test_a_report_graded_in_bulk_links_back_to_the_class_summary(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ada.py", "bob.py"):
        (folder / name).write_bytes((SUBMISSIONS / "ctp-26" / "buggy" / "always_max.py").read_bytes()
                                    + f"\n# {name}\n".encode())
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "grader", "grade", str(folder), "--exercise", "ctp-26", "--out", str(out),
                          "--seed", "26", "--jobs", "1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    pages = sorted((out / "reports").glob("*.html"))
    assert len(pages) == 2
    for page in pages:
        html = page.read_text(encoding="utf-8")
        href = re.search(r'<a href="([^"]+)">&larr; class summary</a>', html)
        assert href and (page.parent / href.group(1)).resolve() == (out / "summary.html").resolve()
        assert (out / "summary.html").is_file()


def test_a_single_check_has_no_summary_link(failing_html):
    assert "class summary" not in failing_html[1]


def test_a_board_marks_the_students_move_and_the_best_ones():
    result = api.check(SUBMISSIONS / "tictactoe" / "buggy" / "one_ply_search.py", "tictactoe")
    drawn = next(c.counterexample for c in result.checks if c.name == "optimal-moves")
    marks = drawn.drawing["marks"]
    assert marks["yours"] not in marks["best"] and marks["best"]
    html = report.render(result, "html")
    pictures = html.count('class="counterexample-picture"')
    assert pictures >= 1 and html.count('class="yours"') == pictures
    assert "green: the best moves; red frame: yours" in html


def test_a_game_tree_marks_the_chosen_move_and_the_best_ones():
    result = api.check(SUBMISSIONS / "best-move" / "buggy" / "one_ply_search.py", "best-move")
    drawn = next(c.counterexample for c in result.checks if c.name == "hand-made-games")
    assert drawn.drawing["kind"] == "tree"
    marks = drawn.drawing["marks"]
    assert marks["yours_node"] not in marks["best_nodes"]
    picture = str(svg.to_svg(drawn.drawing))
    assert 'stroke="#b00020" stroke-width="3"' in picture and "#d8f0dc" in picture
    assert "green: the best moves; red frame: yours" in picture


def test_a_narrow_tree_is_wide_enough_for_its_whole_legend():
    """One move from the root: the picture is as wide as its legend, so the legend is never cut off."""
    import re

    drawing = {"kind": "tree", "root": {"id": "r", "label": "root", "detail": "player 1 to move",
                                        "children": [{"id": "m", "label": "move 7", "detail": "value 0"}]},
               "marks": {"best_nodes": ["m"], "yours_node": "m"}}
    picture = str(svg.to_svg(drawing))
    legend = "green: the best moves; red frame: yours"
    assert legend in picture
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', picture)[1])
    assert width >= 11 * 0.55 * len(legend)  # 11 px text: about 0.55 em per character


def _key(case_input) -> str:
    import json

    return json.dumps(case_input, sort_keys=True)


def test_the_red_note_beside_the_first_wrong_node_is_covered_by_nothing(tmp_path):
    """The note sits on the wrong node's row, to its right: a neighbour on that row covered it ("expected -0.75,
    your" and the rest under the next box: the hundred and thirteenth helper's report). Measured as Chromium lays the
    text out, for a wrong node with a sibling to its right, one with a cousin there, and a wrong leaf, with a long
    answer: the note's box meets no node's box and stays inside the picture."""
    import browser

    browser.require_chromium()

    def node(name, *children):
        return {"id": name, "label": f"Move {name[-1]}", "detail": "value 1.25, B", "children": list(children)}

    tree = node("/r", node("/r/x", node("/r/x/v"), node("/r/x/w")), node("/r/z", node("/r/z/v"), node("/r/z/w")))
    pictures = []
    for wrong, actual in (("/r/x", 2.5), ("/r/x/w", "raised ValueError: max() arg is an empty sequence"),
                          ("/r/z/v", -0.75)):
        pictures.append(str(svg.to_svg({"kind": "tree", "root": tree},
                                        {"node": wrong, "expected": -0.75, "actual": actual})))
    page = tmp_path / "pictures.html"
    page.write_text("<!doctype html><meta charset=utf-8><body>" + "".join(pictures) + "</body>", encoding="utf-8")
    script = """[...document.querySelectorAll('svg')].map(svg => {
        const box = e => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
        const note = svg.querySelector('g.wrong text[fill="#b00020"]');
        return {note: box(note), nodes: [...svg.querySelectorAll('rect')].map(box),
                own: box(svg.querySelector('g.wrong rect')), width: svg.viewBox.baseVal.width};
    })"""
    seen = browser.open_page(page, script=script).evaluated
    assert len(seen) == 3
    for picture in seen:
        left, top, right, bottom = picture["note"]
        assert right <= picture["width"], picture
        for rect in picture["nodes"]:
            if rect == picture["own"]:
                continue
            apart = right <= rect[0] or rect[2] <= left or bottom <= rect[1] or rect[3] <= top
            assert apart, (picture["note"], rect)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_evidence_is_what_the_grader_saw_where_no_mistake_is_named(fmt):
    """"Why the grader thinks so" under ``no-known-mistake``, which thinks nothing (the hundred and thirteenth
    helper): what it saw, there; the reasons for a named mistake keep their heading."""
    from grader.judging.result import Mistake, SubmissionResult

    for code, heading in (("no-known-mistake", "What the grader saw: wrong on 3"),
                          ("always-max", "Why the grader thinks so: wrong on 3")):
        result = SubmissionResult("ann.py", "ctp-26", "failed", 2.0, 10.0,
                                  mistakes=[Mistake(code, "text", "question?", "wrong on 3 of 9 cases")])
        assert heading in report.render(result, fmt)
