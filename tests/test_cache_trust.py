"""What the grading process itself reads back from disk is never something a child could have written.

The user's cache folder can be written by a child of an unconfined run (``--sandbox posix`` without Landlock, which
``grade`` refuses unless told to accept it, and ``check`` warns about). The report templates' compiled code is read
with ``pickle`` and ``marshal`` by jinja2, so it is kept beside the templates in the package instead, exactly as
trusted as they are (``report.template_bytecode``)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from grader import report

CORRECT = ROOT / "fixtures" / "submissions" / "ctp-26" / "correct" / "functional.py"


class _Payload:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"echo planted > {self.marker}",))


def test_template_code_planted_in_the_cache_never_runs_in_the_grader(tmp_path):
    """A jinja2 bytecode file for every template, planted where the grader kept them before (its cache's
    ``templates`` folder) with a pickle that runs a command, is never read: the report renders, nothing runs."""
    import jinja2.bccache

    cache = tmp_path / "cache"
    planted = cache / "templates"
    planted.mkdir(parents=True)
    marker = tmp_path / "ran"
    for name in report.TEMPLATES.iterdir():
        if name.suffix == ".j2":
            key = jinja2.bccache.BytecodeCache().get_cache_key(name.name, str(name))
            payload = jinja2.bccache.bc_magic + pickle.dumps(_Payload(str(marker)), 2)
            (planted / f"__jinja2_{key}.cache").write_bytes(payload)
    env = {**os.environ, "MINIMAX_GRADER_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(CORRECT), "-e", "ctp-26", "--examples", "2"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
    assert done.returncode == 0, done.stderr[-800:]
    assert "PASS" in done.stdout
    assert not marker.exists()


def test_the_templates_compiled_code_is_kept_beside_them_where_that_folder_can_be_written(monkeypatch):
    import jinja2

    kept = report.template_bytecode(jinja2)
    assert kept is not None and Path(kept.directory) == report.TEMPLATES / "__pycache__"
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # a read-only install: compiled in each process
    assert report.template_bytecode(jinja2) is None
    environment = report.new_environment(autoescape=True)
    assert environment.bytecode_cache is None
    assert environment.from_string("{{ 1 + 1 }}").render() == "2"


def test_hypothesis_keeps_nothing_in_the_users_cache(tmp_path):
    """Hypothesis gets a private folder per process, removed at exit, never the user's cache: a FIFO left in place of
    one of its constants files there hung the grader for good (the hundred-and-ninth helper), and constants left
    there would steer what a later run draws for its bank."""
    script = ("import os, sys; from grader import paths; from grader.judging.hypothesis_setup import hypothesis; "
              "from hypothesis import configuration; hypothesis(); home = str(configuration.storage_directory().path); "
              "print(home); print(os.path.commonpath([home, str(paths.cache_dir())]) == str(paths.cache_dir())); "
              "print(oct(os.stat(home).st_mode & 0o777))")
    env = {**os.environ, "MINIMAX_GRADER_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    home, inside_cache, mode = done.stdout.split()
    assert inside_cache == "False" and mode == "0o700"
    assert not os.path.exists(home)  # removed as the process ended
