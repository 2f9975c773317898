"""Near duplicates in a graded class: the ``results.json`` field and the summary page's side-by-side view."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from grader.bulk import batch
from grader.report import summary
from grader.similarity import corpus, view

SEED = 4242
KIND = "ctp-26"


class _InProcess:
    """Grades in this process, one by one: the executor seam, without a worker pool (tests only)."""

    def run(self, job, tasks):
        from grader.judging import bank, exercise, judge, submissions
        from grader.sandbox import launch

        ex = exercise.load(job.exercise)
        cases = bank.build(ex, seed=job.seed, examples=job.examples)
        for task in tasks:
            sub = submissions.load(task.path)
            sub.display = task.display
            yield task, judge.grade(sub, ex, cases, launch.choose(job.sandbox)).to_dict()

    def close(self):
        pass


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """alice wrote one solution; bob and dave (a folder) handed in disguised copies of it;
    carol wrote her own; erin's does not parse."""
    base = tmp_path_factory.mktemp("dups")
    folder = base / "class"
    folder.mkdir()
    root = corpus.corpus_root()
    shutil.copy(root / "independent" / KIND / "ivo_while_index.py", folder / "alice.py")
    shutil.copy(root / "copies" / KIND / "ivo_while_index__c1.py", folder / "bob.py")
    (folder / "dave").mkdir()
    shutil.copy(root / "copies" / KIND / "ivo_while_index__c2.py", folder / "dave" / "solution.py")
    shutil.copy(root / "independent" / KIND / "eli_sign.py", folder / "carol.py")
    (folder / "erin.py").write_text("def minimax(node, max_depth, player_a_moves)\n    return 0\n")
    batch.grade([folder], KIND, base / "out", seed=SEED, executor=_InProcess())
    return base / "out"


def test_results_json_lists_the_copies_by_student_id(graded):
    document = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    ids = {s["student"] for s in document["submissions"]}
    assert {"alice", "bob", "carol", "dave", "erin"} <= ids
    clusters = document["near_duplicates"]
    assert [c["students"] for c in clusters] == [["alice", "bob", "dave"]]
    assert 0.6 <= clusters[0]["similarity"] <= 1.0
    assert set(clusters[0]["students"]) <= ids


def test_summary_shows_each_cluster_side_by_side_self_contained(graded):
    page = (graded / "summary.html").read_text(encoding="utf-8")
    section = page[page.index('<section id="near-duplicates">'):page.index("</section>")]
    assert "Group 1: 3 submissions" in section
    for student in ("alice", "bob", "dave"):
        assert f'href="reports/{student}.html">{student}</a>' in section
    assert "carol" not in section and "erin" not in section
    assert section.count('class="side"') == 3
    assert 'class="shared"' in section                       # the lines the members share are marked
    assert "get_next_valid_moves" in section                 # the code itself is on the page
    assert "<script" not in section.lower()                   # the section works without scripts
    assert not re.search(r"<script[^>]*\bsrc=", page, re.I)  # the page's one script is inline
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched


def test_code_is_escaped_and_an_empty_result_says_so():
    texts = {"ann": "def minimax(a, b, c):\n    if b < 1 and a > 0:\n        return '<script>x</script>'\n",
             "ben": "def minimax(a, b, c):\n    if b < 1 and a > 0:\n        return '<script>x</script>'\n"}
    clusters = [{"students": ["ann", "ben"], "similarity": 1.0}]
    page = summary.summarise([], exercise=KIND, seed=1, grader_version="test")
    page["near_duplicates"] = view.context(clusters, texts, {"ann": "reports/ann.html"})
    html = summary.render(page)
    assert "&lt;script&gt;" in html and "<script>x" not in html
    assert "b &lt; 1 and a &gt; 0" in html
    assert '<a href="reports/ann.html">ann</a>' in html and ">ben <span" in html  # no report link: plain id

    page["near_duplicates"] = []
    assert "No near-duplicate submissions were found." in summary.render(page)
    del page["near_duplicates"]
    assert "near-duplicates" not in summary.render(page)  # not looked for: no section at all


def test_outputs_without_a_comparison_carry_no_field(tmp_path):
    batch.write_outputs(tmp_path, [], exercise=KIND, seed=1)
    assert "near_duplicates" not in json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    batch.write_outputs(tmp_path, [], exercise=KIND, seed=1, near_duplicates=([], {}))
    assert json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["near_duplicates"] == []


def test_shared_lines_are_marked_up_to_names():
    texts = {"a": "def f(x):\n    return helper(x, 1) + 2\nprint(1)\n", "b": "def g(y):\n    return helper(y, 7) + 9\n"}
    members = view.context([{"students": ["a", "b"], "similarity": 0.9}], texts)[0]["members"]
    shared = {m["student"]: [line["shared"] for line in m["lines"]] for m in members}
    assert shared == {"a": [True, True, False], "b": [True, True]}
