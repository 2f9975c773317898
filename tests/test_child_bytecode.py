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
    assert bytecode.beside([source], [tmp_path], write=False) == []  # stale: not handed over
    assert bytecode.beside([source], [tmp_path]) == [cached]
    head = Path(cached).read_bytes()[:16]
    assert int.from_bytes(head[8:12], "little") == int(later) and int.from_bytes(head[12:16], "little") == source.stat().st_size
    Path(cached).unlink()  # removed since (a clean-up): never handed over as if it were still there
    assert bytecode.beside([source], [tmp_path], write=False) == []


def test_hash_checked_files_are_kept_unchecked_ones_replaced(tmp_path):
    import py_compile

    modes = py_compile.PycInvalidationMode
    for mode, kept in ((modes.CHECKED_HASH, True), (modes.UNCHECKED_HASH, False)):
        folder = tmp_path / mode.name
        folder.mkdir()
        source = _source(folder)
        cached = importlib.util.cache_from_source(str(source))
        py_compile.compile(str(source), cfile=cached, invalidation_mode=mode)
        assert bytecode.beside([source], [folder], write=False) == ([cached] if kept else [])
        assert bytecode.beside([source], [folder]) == [cached]
        assert (Path(cached).read_bytes()[4:8] == b"\0\0\0\0") is not kept  # rewritten, checked by time and size


def test_nothing_is_compiled_where_it_cannot_be_kept(tmp_path, monkeypatch):
    """A read-only install without fresh bytecode: nothing compiled (it could not be written), nothing handed."""
    import py_compile

    source = _source(tmp_path)
    compiled = []
    monkeypatch.setattr(py_compile, "compile", lambda *args, **kwargs: compiled.append(args))
    monkeypatch.setattr(bytecode, "_writable", lambda folder: False)
    assert bytecode.beside([source, tmp_path / "missing.py", tmp_path / "notes.txt"], [tmp_path]) == []
    assert compiled == []


def test_only_the_graders_own_folders_bytecode_is_handed_over(tmp_path):
    """A fresh bytecode file outside the folders given (the grader's cache, an instructor's or a student's folder) is
    never handed to a child, whoever wrote it, and nothing is written there."""
    theirs, ours = tmp_path / "theirs", tmp_path / "ours"
    theirs.mkdir()
    ours.mkdir()
    source = _source(theirs)
    assert bytecode.beside([source], [ours]) == []
    assert sorted(p.name for p in theirs.iterdir()) == ["module.py"]
    import py_compile

    py_compile.compile(str(source), cfile=importlib.util.cache_from_source(str(source)))
    assert bytecode.beside([source], [ours]) == []


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
    cached.append(sys.modules["anytree"].__cached__)  # the child library's, from the grader's copy of it
    return " ".join("%s=%s" % (os.path.basename(path or "none"), path is not None and os.path.isfile(path))
                    for path in cached)


def minimax(node, max_depth, player_a_moves):
    raise RuntimeError("SEEN[" + _seen() + "]")
'''


def _graded(probe: Path, sandbox: str, command: str, work: Path) -> dict:
    """``check`` or ``grade`` (one worker, its fork server) of ``probe``: the submission's result as JSON."""
    # The grader writes its package's bytecode where the user lets Python write bytecode at all
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["MINIMAX_GRADER_CACHE"] = str(work / "cache")
    if command == "check":
        done = subprocess.run([sys.executable, "-m", "grader", "check", str(probe), "-e", "ctp-26", "-f", "json",
                               "--examples", "2", "--sandbox", sandbox], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=240)
        assert done.returncode in (0, 1), done.stderr[-1500:]
        return json.loads(done.stdout)
    out = Path(tempfile.mkdtemp(prefix="out-", dir=work))
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(probe.parent), "-e", "ctp-26", "--out",
                           str(out), "--sandbox", sandbox, "--examples", "2", "--seed", "26", "-j", "1"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=240)
    assert done.returncode == 0, done.stderr[-1500:]
    (entry,) = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert entry["sandbox"]["mode"] == f"{sandbox}+fork-server"
    return entry


def _usable(sandbox: str) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the sandboxes' views are Linux's")
    if sandbox == "bwrap":
        from grader.sandbox import bwrap

        if bwrap.problem():
            pytest.skip(f"bubblewrap unusable here: {bwrap.problem()}")


@pytest.mark.parametrize("sandbox,command", [("bwrap", "check"), ("bwrap", "grade"), ("posix", "check")])
def test_a_child_sees_the_bytecode_of_the_harness_and_its_modules(sandbox, command):
    """A cold child runs the harness as ``__main__`` from its bytecode (``run_as_main``: a script named on the command
    line has none); inside bubblewrap, which binds single files, a cold child and a fork server's child find the
    bytecode of the harness's modules (``beside``), and of their library (anytree), which the grader's copy of it
    carries. Posix children read the package's ``__pycache__`` as it is."""
    _usable(sandbox)
    work = Path(tempfile.mkdtemp(prefix="minimax-bytecode-"))
    try:
        probe = work / "class" / "probe.py"
        probe.parent.mkdir()
        probe.write_text(SEES_ITS_BYTECODE, encoding="utf-8")
        entry = _graded(probe, sandbox, command, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = " ".join(c["message"] for c in entry["checks"])
    seen = dict(item.split("=") for item in text.split("SEEN[", 1)[1].split("]", 1)[0].split())
    tag = sys.implementation.cache_tag
    # __main__ is the harness in a cold child, the fork server in its children (both run through run_as_main); the
    # driver, which the grader writes to its cache, is never read from bytecode (see bytecode.py)
    main = "harness" if command == "check" else "zygote"
    assert {name: seen.get(f"{name}.{tag}.pyc") for name in (main, "guard", "runner", "seal")} == \
        dict.fromkeys((main, "guard", "runner", "seal"), "True"), seen
    if sandbox == "bwrap":  # (a posix child of root's grader drops to a uid that cannot look into the cache)
        assert seen.get(f"driver.{tag}.pyc") == "False", seen
        assert seen.get(f"__init__.{tag}.pyc") == "True", seen  # anytree's, made with the copy (childlib._installed)


ALWAYS_MAX = ROOT / "fixtures" / "submissions" / "ctp-26" / "buggy" / "always_max.py"


def _plant_bytecode(source: Path, text: str) -> None:
    """A bytecode file of ``text`` where the import system looks for ``source``'s, its header made to match
    ``source`` as it is (time and size), as a child of an unconfined run could write it."""
    import py_compile

    planted = source.with_name("planted_source.txt")
    planted.write_text(text, encoding="utf-8")
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.parent.mkdir(exist_ok=True)
    py_compile.compile(str(planted), cfile=str(cached), dfile=str(source))
    planted.unlink()
    status = source.stat()
    data = bytearray(cached.read_bytes())
    data[8:16] = (int(status.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + (status.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cached.write_bytes(bytes(data))
    cached.chmod(0o644)


def _plant(cache: Path, what: str) -> None:
    """Code that stops the child, left in the grader's cache where a child of an unconfined run could leave it."""
    stop = "raise SystemExit('PLANTED code ran')\n"
    if what == "driver bytecode":
        (driver,) = cache.glob("tree-drivers/ctp-26-*/driver.py")
        _plant_bytecode(driver, stop)
        return
    (library,) = cache.glob("childlib-*/anytree/__init__.py")
    if what == "library bytecode":
        _plant_bytecode(library, stop)
    else:  # the library's source, its time kept as it was
        status = library.stat()
        library.write_text(stop + library.read_text(encoding="utf-8"), encoding="utf-8")
        os.utime(library, ns=(status.st_atime_ns, status.st_mtime_ns))


@pytest.mark.parametrize("what,sandbox,command", [
    ("driver bytecode", "bwrap", "check"), ("driver bytecode", "bwrap", "grade"),
    ("driver bytecode", "posix", "check"), ("driver bytecode", "posix", "grade"),
    ("library source", "bwrap", "check"), ("library source", "posix", "grade"),
    ("library bytecode", "bwrap", "grade"), ("library bytecode", "posix", "check")])
def test_code_planted_in_the_cache_is_never_run(what, sandbox, command):
    """The grader's cache is trusted for nothing (a child of an unconfined run can write it): a bytecode file planted
    beside the driver the grader wrote there, its header made to match, is never read (the hundred-and-seventh
    helper's planted driver answered every case right for an ``always_max``: bound into bubblewrap children, and
    read by posix children, which load the driver before they lock themselves down); nor is a source or a bytecode
    file of the child's library copy changed there (the copy is checked byte for byte and built again)."""
    _usable(sandbox)
    work = Path(tempfile.mkdtemp(prefix="minimax-planted-"))
    try:
        probe = work / "class" / "always_max.py"
        probe.parent.mkdir()
        shutil.copyfile(ALWAYS_MAX, probe)
        honest = _graded(probe, sandbox, command, work)  # writes the driver and the library's copy into this cache
        _plant(work / "cache", what)
        again = _graded(probe, sandbox, command, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert "PLANTED" not in json.dumps(again)
    assert (again["status"], again["score"], again.get("error")) == (honest["status"], honest["score"], honest.get("error"))


def _kit_loaders():
    """The child-side loaders of a game's rules, as the child has them (the kit's drivers, loaded by path)."""
    loaders = []
    for file, function in (("driver.py", "_load_game"), ("agent_driver.py", "_load")):
        spec = importlib.util.spec_from_file_location(f"_loaders_{function}", ROOT / "grader" / "kit" / file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        loaders.append(getattr(module, function))
    return loaders


@pytest.mark.parametrize("which", [0, 1], ids=["kit driver", "agent driver"])
def test_a_games_rules_are_loaded_from_their_source_never_a_bytecode_file_beside_them(tmp_path, which):
    """The kit's drivers load a game's rules (an exercise's folder, or a module the grader generated in its cache)
    from the source, as ``harness.load_driver`` loads the driver: a bytecode file planted beside it, its header
    made to match, ran in posix children and fork servers before they locked themselves down (the hundred-and-eighth
    helper's planted rules wrote into the cache again from there)."""
    rules = tmp_path / "rules.py"
    rules.write_text("SOURCE = 'the source ran'\n", encoding="utf-8")
    _plant_bytecode(rules, "raise SystemExit('PLANTED code ran')\n")
    assert _kit_loaders()[which](str(rules)).SOURCE == "the source ran"


def test_bytecode_planted_beside_generated_rules_is_never_run(tmp_path, monkeypatch):
    """A course's rules whose ``utility(state)`` gives MAX's value are wrapped in a module the grader generates in
    its cache (``kit-rules``): never read from a bytecode file planted beside it, under posix (which loads the
    driver before its lock-down; bubblewrap binds single files). (The game's own module, in the exercise's folder,
    is the instructor's: its bytecode is exactly as writable as its source, docs/security.md.)"""
    from test_kit_declared_games import BEST_MOVE, COURSE_NIM, RIGHT_BEST_MOVE, grade, make_exercise

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("MINIMAX_GRADER_SANDBOX", "posix")
    base = make_exercise(tmp_path / "exercises", "nim-course-planted", BEST_MOVE, game=COURSE_NIM)
    honest = grade(base, "nim-course-planted", RIGHT_BEST_MOVE)
    assert honest.status == "passed", (honest.error, [(c.name, c.message) for c in honest.checks])
    (target,) = (tmp_path / "cache").glob("kit-rules/nim-course-planted-*.py")
    _plant_bytecode(target, "raise SystemExit('PLANTED code ran')\n")
    again = grade(base, "nim-course-planted", RIGHT_BEST_MOVE)
    assert (again.status, again.score, again.error) == (honest.status, honest.score, honest.error)
