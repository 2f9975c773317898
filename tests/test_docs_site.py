"""The documentation site in docs/ builds without a single warning, and every page is reachable.

The build is the one .ci/run does (``python -m sphinx -W``), into a temporary folder, so a
broken link between pages, a heading out of order, a code block that does not lex or a
docstring autodoc cannot read fails here first. Reachability is read from the environment
Sphinx saves: starting at the index, following every toctree, each page of docs/ is reached.
That an orphan page does fail a ``-W`` build is checked too, on a copy with one page added.
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytestmark = pytest.mark.slow


def _sphinx(source: Path, out: Path, builder: str = "html") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
                           "-d", str(out / "doctrees"), str(source), str(out / builder)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          # autodoc imports this checkout's grader, wherever the pages were copied
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))})


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs-site")
    return out, _sphinx(DOCS, out)


def test_the_site_builds_with_warnings_as_errors(built):
    out, done = built
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    pages = sorted(p.stem for p in DOCS.glob("*.md"))
    assert [p for p in pages if not (out / "html" / f"{p}.html").is_file()] == []


def test_every_page_is_reachable_from_the_index(built):
    out, done = built
    assert done.returncode == 0, done.stderr
    with open(out / "doctrees" / "environment.pickle", "rb") as saved:
        env = pickle.load(saved)
    reached, todo = set(), ["index"]
    while todo:
        page = todo.pop()
        if page not in reached:
            reached.add(page)
            todo.extend(env.toctree_includes.get(page, []))
    pages = {p.stem for p in DOCS.glob("*.md")}
    assert pages == set(env.found_docs)
    assert sorted(pages - reached) == []


def test_the_python_api_page_carries_the_docstrings(built):
    out, _ = built
    page = (out / "html" / "api.html").read_text(encoding="utf-8")
    for name in ("grader.doors.api.check", "grader.judging.result.SubmissionResult", "grader.export.junit.to_junit",
                 "grader.bulk.batch.grade"):
        assert f'id="{name}"' in page, name
    assert "Grade the submission at" in page  # check's docstring itself, not only its signature


def test_an_orphan_page_fails_the_build(tmp_path):
    copy = tmp_path / "docs"
    shutil.copytree(DOCS, copy, ignore=shutil.ignore_patterns("_build"))
    (copy / "stray.md").write_text("# A page no toctree lists\n", encoding="utf-8")
    done = _sphinx(copy, tmp_path / "out", builder="dummy")
    assert done.returncode != 0
    complaints = [line for line in done.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert complaints and all("stray" in line and "toctree" in line for line in complaints), done.stderr


def test_the_readme_links_into_the_site():
    """The README is the landing page: its relative links (to docs/*.md, read as they are on GitHub) all exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)#\s]+)", readme) if "://" not in t]
    assert targets and [t for t in targets if not (ROOT / t).exists()] == []
    linked = {Path(t).stem for t in targets if t.startswith("docs/") and t.endswith(".md")}
    assert sorted({p.stem for p in DOCS.glob("*.md")} - {"index"} - linked) == []  # every page, from the README too
    assert len(readme.splitlines()) <= 200
    commands = readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert commands[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()  # the test command, verbatim


def test_the_readme_s_sample_report_is_what_its_first_command_prints():
    """The 120th helper found the README's report (2/10, published-cases passing, "9 of 43") unlike what its own
    first command printed (0/10, published-cases failing, "22 of 43"): every line of the sample, in order, must be
    a line of the real report ("..." marks what is left out)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("```sh\n", 1)[1].splitlines()[0]
    sample = command.split("minimax-grader check ", 1)[1].strip()
    shown = readme.split("A report looks like this (abridged):\n\n```text\n", 1)[1].split("```", 1)[0].splitlines()
    run = subprocess.run([sys.executable, "-m", "grader", "check", sample], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env={k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "GITHUB_ACTIONS")})
    assert run.returncode == 1, run.stderr
    printed = iter(run.stdout.splitlines())
    for line in shown:
        if line.strip() == "...":
            continue
        assert any(line == real for real in printed), f"not printed (or out of order): {line!r}"
