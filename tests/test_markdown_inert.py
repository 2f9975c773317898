"""What a submission chooses to say is text in every Markdown output, never Markdown or HTML of its own.

The forty-fifth red team's submission printed ``<script>`` tags, raised an exception whose text closed a code
span and opened a script, and returned an object whose ``repr`` was a script: the HTML report and the class
summary escaped all of it (jinja2's autoescape), the Markdown report and Gradescope's Markdown output carried it
raw. ``grader.report.markdown`` makes such text inert; these tests render real results.
"""
from __future__ import annotations

import json
import re

from grader import report
from grader.doors import api
from grader.export import gradescope
from grader.report import markdown

HOSTILE_WORDS = '''
class Boom(Exception):
    def __str__(self):
        return "`</code><script>alert('exc')</script> [click](http://evil.example) **PASS**"


class Weird:
    def __repr__(self):
        return "<img src=x onerror=alert('repr')>"


def minimax(node, max_depth, player_a_moves):
    if max_depth == 2:
        raise Boom()
    return Weird()
'''


def _raw_html(text: str) -> list[str]:
    """HTML tags Markdown would pass through: those outside code spans and fenced blocks (inside, text is text)."""
    text = re.sub(r"(?ms)^(`{3,})[^\n]*\n.*?^\1`*$", "", text)  # fenced blocks
    text = re.sub(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", "", text)  # code spans, each closed by a run as long as its opening
    return re.findall(r"<(?:script|img|/code)\b", text)


def test_text_escapes_html_links_emphasis_and_line_starts():
    assert markdown.text("<script>x</script>") == "&lt;script&gt;x&lt;/script&gt;"
    assert markdown.text("[a](http://e) ![b](c)") == "\\[a\\](http://e) !\\[b\\](c)"
    assert markdown.text("**PASS** `x` a|b ~~s~~") == "\\*\\*PASS\\*\\* \\`x\\` a\\|b \\~\\~s\\~\\~"
    assert markdown.text("# PASS\n- one") == "\\# PASS - one"  # one line, its start no heading
    assert markdown.text("12. item") == "12\\. item"
    # what the grader itself writes stays as it reads
    assert markdown.text("minimax(root, 2, True): returned 10, expected 7 (fails on 3 of 4 trees)") == \
        "minimax(root, 2, True): returned 10, expected 7 (fails on 3 of 4 trees)"


def test_code_spans_and_fences_outlast_the_backticks_inside():
    assert markdown.code("a`b") == "``a`b``"
    assert markdown.code("`x") == "`` `x ``"
    assert markdown.fence("x\n```\ny").startswith("````text\n") and markdown.fence("x\n```\ny").endswith("\n````")


def test_a_submission_s_words_are_inert_in_the_markdown_report_and_gradescope(tmp_path):
    path = tmp_path / "says_things.py"
    path.write_text(HOSTILE_WORDS, encoding="utf-8")
    result = api.check(path, "ctp-26", examples=4, sandbox="posix")
    messages = " ".join(c.message or "" for c in result.checks)
    assert "<script>" in messages or "<img" in messages  # the words are there to be made inert
    html = report.render(result, "html")
    assert "<script>alert" not in html and "<img src=x" not in html  # (jinja2's autoescape, as before)
    md = report.render(result, "md")
    assert not _raw_html(md), _raw_html(md)
    assert "&lt;script&gt;" in md or "&lt;img" in md
    assert "](http://evil.example)" not in md.replace("\\]", "")
    graded = json.loads(gradescope.to_json(result))
    for text in [graded["output"]] + [test["output"] for test in graded["tests"]]:
        assert not _raw_html(text), text
