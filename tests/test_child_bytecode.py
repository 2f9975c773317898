"""A child reads its own modules' bytecode instead of compiling them (grader/sandbox/bytecode.py): the grader makes a
fresh bytecode file beside each source and hands the sandbox those files; the harness runs as ``__main__`` through
the import system, which reads its bytecode where a script named on the command line is always compiled."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import ROOT
from grader.sandbox import bytecode


def _source(folder: Path, text: str = "print('first')\n") -> Path:
    path = folder / "module.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_or_stale_bytecode_file_is_written_and_a_fresh_one_kept(tmp_path):
    source = _source(tmp_path)
    (cached,) = bytecode.beside([source], [tmp_path])
    assert Path(cached) == Path(importlib.util.cache_from_source(str(source)))
    written = Path(cached).stat().st_mtime_ns
    assert bytecode.beside([source], [tmp_path]) == [cached] and Path(cached).stat().st_mtime_ns == written  # kept
    later = time.time() + 5
    source.write_text("print('second, longer')\n", encoding="utf-8")
    os.utime(source, (later, later))
    assert bytecode.beside([source]) == []  # stale, and not in a folder of the grader's: neither written nor handed
    assert bytecode.beside([source], [tmp_path]) == [cached]
    head = Path(cached).read_bytes()[:16]
    assert int.from_bytes(head[8:12], "little") == int(later) and int.from_bytes(head[12:16], "little") == source.stat().st_size


def test_a_hash_checked_file_is_replaced_and_nothing_is_handed_where_none_can_be_written(tmp_path, monkeypatch):
    import py_compile

    source = _source(tmp_path)
    cached = importlib.util.cache_from_source(str(source))
    py_compile.compile(str(source), cfile=cached, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    assert bytecode.beside([source], [tmp_path]) == [cached]
    assert Path(cached).read_bytes()[4:8] == b"\0\0\0\0"  # checked by the source's time and size now
    other = _source(tmp_path / "other" if (tmp_path / "other").mkdir() is None else tmp_path)

    def refused(*args, **kwargs):
        raise PermissionError("read-only install")

    monkeypatch.setattr(py_compile, "compile", refused)
    assert bytecode.beside([other, tmp_path / "missing.py", tmp_path / "notes.txt"], [tmp_path]) == []


def test_nothing_is_written_outside_the_graders_folders(tmp_path):
    """An instructor's exercise folder or a student's gets no ``__pycache__`` of the grader's making."""
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    theirs.mkdir()
    ours.mkdir()
    source = _source(theirs)
    assert bytecode.beside([source], [ours]) == []
    assert sorted(p.name for p in theirs.iterdir()) == ["module.py"]


def test_a_script_run_as_main_reads_its_bytecode(tmp_path):
    """The bytecode is what runs: a source changed afterwards with its size and time kept (which the interpreter
    cannot tell) still runs the compiled text. Named on the command line, the script is compiled from source."""
    source = _source(tmp_path, "import sys; print('compiled', __name__, sys.argv[1:])\n")
    stamp = source.stat()
    assert bytecode.beside([source], [tmp_path])
    source.write_text("import sys; print('sourced!', __name__, sys.argv[1:])\n", encoding="utf-8")
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    ran = subprocess.run([sys.executable, "-I", "-S", "-B", *bytecode.run_as_main(source), "a", "b"],
                         capture_output=True, text=True, timeout=60)
    assert ran.stdout.split() == ["compiled", "__main__", "['a',", "'b']"], ran.stderr
    named = subprocess.run([sys.executable, "-I", "-S", "-B", str(source), "a"], capture_output=True, text=True,
                           timeout=60)
    assert named.stdout.split()[0] == "sourced!"


SEES_ITS_BYTECODE = '''
import os, sys


def _seen():
    harness = sys.modules["__main__"]
    cached = [getattr(harness, "__cached__", None)]
    cached += [getattr(module, "__cached__", None) for name, module in sorted(sys.modules.items())
               if name in ("_minimax_grader_guard", "_minimax_grader_seal", "_minimax_grader_runner")]
    cached.append(get_value.__globals__.get("__cached__"))  # the driver's: the helper the grader put here is its
    return " ".join("%s=%s" % (os.path.basename(path or "none"), path is not None and os.path.isfile(path))
                    for path in cached)


def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("SEEN[" + _seen() + "]")
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandboxes' views are Linux's")
@pytest.mark.parametrize("command", ["check", "grade"])
@pytest.mark.parametrize("sandbox", ["bwrap", "posix"])
def test_a_child_sees_the_bytecode_of_the_harness_and_its_modules(sandbox, command):
    """Inside the sandbox (bwrap binds single files; Landlock fences reads), a cold child and a fork server's child
    find the bytecode of the harness (run as ``__main__``), the guard, the seal, the runner and the driver."""
    if sandbox == "bwrap":
        from grader.sandbox import bwrap

        if bwrap.problem():
            pytest.skip(f"bubblewrap unusable here: {bwrap.problem()}")
    work = Path(tempfile.mkdtemp(prefix="minimax-bytecode-"))
    try:
        probe = work / "class" / "probe.py"
        probe.parent.mkdir()
        probe.write_text(SEES_ITS_BYTECODE, encoding="utf-8")
        # The grader writes its package's bytecode where the user lets Python write bytecode at all
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["MINIMAX_GRADER_CACHE"] = str(work / "cache")
        if command == "check":
            done = subprocess.run([sys.executable, "-m", "grader", "check", str(probe), "-e", "ctp-26", "-f", "json",
                                   "--examples", "2", "--sandbox", sandbox], capture_output=True, text=True, env=env,
                                  cwd=ROOT, timeout=240)
            assert done.returncode in (0, 1), done.stderr[-1500:]
            entry = json.loads(done.stdout)
        else:
            done = subprocess.run([sys.executable, "-m", "grader", "grade", str(probe.parent), "-e", "ctp-26", "--out",
                                   str(work / "out"), "--sandbox", sandbox, "--examples", "2", "-j", "1"],
                                  capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
            assert done.returncode == 0, done.stderr[-1500:]
            (entry,) = json.loads((work / "out" / "results.json").read_text(encoding="utf-8"))["submissions"]
            assert entry["sandbox"]["mode"] == f"{sandbox}+fork-server"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = " ".join(c["message"] for c in entry["checks"])
    seen = text.split("SEEN[", 1)[1].split("]", 1)[0].split()
    tag = sys.implementation.cache_tag
    if command == "grade":  # the fork server's harness is a module, not __main__: the child's __main__ is the server
        seen = seen[1:]
    else:
        assert seen[0] == f"harness.{tag}.pyc=True", seen
        seen = seen[1:]
    if sandbox == "posix":
        # The driver loads before the child drops to its throw-away uid, which cannot look into the grader's cache
        # folder afterwards (where the probe looks): whether it is there the probe cannot say
        seen = [item for item in seen if not item.startswith("driver.")]
    expected = ("driver", "guard", "runner", "seal") if sandbox == "bwrap" else ("guard", "runner", "seal")
    assert sorted(seen) == sorted(f"{name}.{tag}.pyc=True" for name in expected), seen
