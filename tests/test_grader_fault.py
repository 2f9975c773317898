"""A child that fails before any student code runs is the grader's failure, never the student's.

The driver is loaded and the child locked down before the submission's first line: when that
breaks (a driver made unreadable by an earlier vandal, Landlock refusing), the result must not
be stored against the student (``worker.grade_one`` returns None, so the next run grades them
again), instead of "the submission broke the grader's harness".
"""

from __future__ import annotations

import importlib.util

import pytest
from pathlib import Path

from conftest import SUBMISSIONS
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.bulk import worker
from grader.sandbox import launch
from grader.sandbox.session import GraderFault

HONEST = sorted((SUBMISSIONS / "ctp-26" / "correct").glob("*.py"))[0]


@pytest.fixture()
def broken_driver(tmp_path, monkeypatch):
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=3, examples=4)
    driver = tmp_path / "driver.py"
    driver.write_text("raise PermissionError(13, 'Permission denied', '/checkout/exercises/ctp-26/driver.py')\n")
    monkeypatch.setattr(type(exercise), "driver_path", property(lambda self: driver))
    return exercise, bank


@pytest.mark.parametrize("sandbox", ["posix", "spawn"])
def test_a_driver_that_does_not_load_is_the_graders_failure(broken_driver, sandbox):
    exercise, bank = broken_driver
    with pytest.raises(GraderFault, match="could not be set up"):
        judge.grade(submissions.load(HONEST), exercise, bank, launch.choose(sandbox))


def test_the_batch_stores_no_result_for_a_graders_failure(broken_driver, capsys):
    exercise, bank = broken_driver
    result, warm = worker.grade_one(submissions.load(HONEST), exercise, bank, launch.choose("posix"), None)
    assert result is None and warm is None
    assert "the grader failed on" in capsys.readouterr().err


def test_a_damaged_child_library_is_rebuilt(tmp_path, monkeypatch):
    """A copy set to mode 000 (or missing a file) would fail every later child: it is built again."""
    import os

    from grader.sandbox import childlib

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    try:
        first = childlib.child_sys_path()[0]
        package = os.path.join(first, "anytree")
        assert childlib.usable(type(tmp_path)(first))
        for damage in (lambda: os.chmod(os.path.join(package, "__init__.py"), 0), lambda: os.chmod(package, 0),
                       lambda: os.remove(os.path.join(package, "__init__.py")), lambda: os.chmod(first, 0),
                       lambda: os.chmod(first, 0o700)):  # the grader reads it, a child of a dropped uid does not
            damage()
            childlib.child_sys_path.cache_clear()
            assert childlib.child_sys_path()[0] == first
            assert childlib.usable(type(tmp_path)(first))
            assert os.stat(os.path.join(package, "__init__.py")).st_mode & 0o444
            assert os.stat(package).st_mode & 0o500 == 0o500 and os.stat(first).st_mode & 0o555 == 0o555
        assert [p.name for p in (tmp_path / "cache").iterdir()] == [os.path.basename(first)]  # nothing left aside
    finally:
        childlib.child_sys_path.cache_clear()


def _altered_in_place(path):
    """The file's bytes changed, its size and times kept: what a stat could not tell from the original."""
    import os

    status = os.stat(path)
    data = bytearray(open(path, "rb").read())
    data[-2] = ord("#") if data[-2] != ord("#") else ord(" ")
    open(path, "wb").write(bytes(data))
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))


def test_a_child_library_copy_changed_in_any_way_is_built_again_and_an_intact_one_kept(tmp_path, monkeypatch):
    """The cache is trusted for nothing (a child of an unconfined run can write it): the copy must hold the installed
    library's files and their bytecode byte for byte, and nothing else, or it is built again; one found intact is
    used as it is. Its bytecode is the installed library's, fresh for the copied sources, so a child reads it."""
    import os

    from grader.sandbox import bytecode, childlib

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    try:
        first = childlib.child_sys_path()[0]
        package = os.path.join(first, "anytree")
        init = os.path.join(package, "__init__.py")
        cached = importlib.util.cache_from_source(init)
        assert bytecode._matches(cached, init)  # fresh: the child's import system reads it
        kept = os.stat(init).st_ino
        childlib.child_sys_path.cache_clear()
        assert childlib.child_sys_path()[0] == first and os.stat(init).st_ino == kept  # intact: not copied again
        outside = tmp_path / "outside.py"
        for damage in (lambda: _altered_in_place(init), lambda: _altered_in_place(cached),
                       lambda: open(os.path.join(package, "planted.py"), "w").close(),
                       lambda: open(os.path.join(package, "__pycache__", "planted.cpython-311.pyc"), "w").close(),
                       lambda: os.link(init, outside),  # a second name, elsewhere, that could be written later
                       lambda: (outside.write_bytes(open(init, "rb").read()), os.remove(init), os.symlink(outside, init)),
                       lambda: os.remove(cached)):
            damage()
            childlib.child_sys_path.cache_clear()
            assert not childlib.usable(type(tmp_path)(first))
            assert childlib.child_sys_path()[0] == first
            assert childlib.usable(type(tmp_path)(first)) and bytecode._matches(cached, init)
            assert not os.path.exists(os.path.join(package, "planted.py")) and not os.path.islink(init)
            if outside.exists():
                outside.unlink()
    finally:
        childlib.child_sys_path.cache_clear()


def test_landlock_failing_in_the_child_is_the_graders_failure(monkeypatch):
    """The child could not fence itself: no student code runs, and nothing is stored against them."""
    from grader.sandbox import landlock
    from grader.sandbox import session as sessions

    launcher = launch.choose("posix")
    if not getattr(launcher, "landlock", 0):
        pytest.skip("no Landlock here")
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=3, examples=4)
    monkeypatch.setattr(sessions.landlock, "rules", lambda readable, writable: {"read": [12345], "write": []})
    assert sessions.landlock is landlock
    with pytest.raises(GraderFault, match="could not be set up"):
        judge.grade(submissions.load(HONEST), exercise, bank, launcher)


def test_a_child_imports_every_module_of_its_libraries_where_their_folder_is_private(monkeypatch):
    """A grader running as root keeps the child's libraries in its cache, under a private /root: a child that drops
    to a throw-away uid could import only the parts of anytree already loaded (``anytree.exporter`` failed). There
    the child loads every module of them first (``identity.preload``); where the folder is readable, nothing more."""
    import shutil
    import tempfile

    from grader.sandbox import childlib, identity

    base = Path(tempfile.mkdtemp(dir="/tmp"))  # under /tmp (mode 1777): traversable by anyone once opened up
    cache = base / "cache"
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(cache))
    childlib.child_sys_path.cache_clear()
    identity.readable_by_others.cache_clear()
    try:
        folder = childlib.child_sys_path()[0]
        names = childlib.module_names()
        base.chmod(0o755)
        cache.chmod(0o755)
        readable = identity.readable_by_others(folder)
        preloaded_readable = identity.preload()
        identity.readable_by_others.cache_clear()
        cache.chmod(0o700)
        private = identity.readable_by_others(folder)
        preloaded_private = identity.preload()
    finally:
        childlib.child_sys_path.cache_clear()
        identity.readable_by_others.cache_clear()
        shutil.rmtree(base, ignore_errors=True)
    assert {"anytree", "anytree.exporter.dictexporter", "anytree.importer.dictimporter"} <= set(names)
    assert names.index("anytree") < names.index("anytree.exporter") < names.index("anytree.exporter.dictexporter")
    assert (readable, private) == (True, False)
    assert not set(names) & set(preloaded_readable) and set(names) <= set(preloaded_private)


def test_the_child_s_library_modules_are_listed_once_per_folder(monkeypatch):
    """``identity.preload`` runs for every submission graded as root: the copy it lists never changes under its
    name, so it is walked once, not once a submission."""
    from grader.sandbox import childlib

    folders = childlib.child_sys_path()  # found (and checked, which walks the libraries too) before counting
    walks = []
    real_rglob = Path.rglob
    def counted_rglob(self, pattern):  # only walks of the copy count: another thread's rglob is not this one's
        if any(Path(folder) in (self, *self.parents) for folder in folders):
            walks.append(self)
        return real_rglob(self, pattern)

    monkeypatch.setattr(Path, "rglob", counted_rglob)
    childlib._module_names.cache_clear()
    try:
        first, second = childlib.module_names(), childlib.module_names()
    finally:
        childlib._module_names.cache_clear()
    assert first == second and "anytree" in first
    assert len(walks) == len(childlib.CHILD_LIBRARIES) * len(folders)
    first.append("changed by a caller")
    assert "changed by a caller" not in childlib.module_names()  # a fresh list each time


def test_a_listing_of_a_copy_caught_half_made_is_not_kept(monkeypatch, tmp_path):
    """Another grader process that found the copy broken moves it aside and copies it again under the same name
    (``childlib._discard``): a walk in between sees no library at all, and that must not stand for the process's
    life (every later child as root would import nothing of anytree before it drops its uid)."""
    from grader.sandbox import childlib

    empty = tmp_path / "childlib-being-copied"
    empty.mkdir()
    monkeypatch.setattr(childlib, "child_sys_path", lambda: [str(empty)])
    childlib._module_names.cache_clear()
    try:
        assert childlib.module_names() == []
        (empty / "anytree").mkdir()
        (empty / "anytree" / "__init__.py").write_text("")
        assert childlib.module_names() == ["anytree"]  # walked again, once the copy is whole
    finally:
        childlib._module_names.cache_clear()


def test_a_fork_server_whose_home_was_removed_is_replaced():
    """A fork server's home removed under it (by another process of the grader's user: a hand clearing /dev/shm,
    logind's RemoveIPC at logout) made every later submission of that worker "the grader failed": now that
    submission is graded cold and the worker starts a fork server with a home of its own."""
    import shutil

    from grader.sandbox import forkserver

    if not forkserver.available():
        pytest.skip("no fork server on this platform")
    job = {"exercise": "ctp-26", "seed": 3, "examples": 4, "sandbox": "posix"}
    prepared = worker._prepare(job, start_server=True)
    exercise, bank, launcher = worker._load(job, prepared)
    warm = worker._warm(launcher, exercise, bank, prepared[2])
    assert warm is not None, "no fork server"
    try:
        first, warm = worker.grade_one(submissions.load(HONEST), exercise, bank, launcher, warm)
        old_home = warm.server.home
        shutil.rmtree(old_home)
        second, warm = worker.grade_one(submissions.load(HONEST), exercise, bank, launcher, warm)
        assert second is not None and (second.status, second.score) == (first.status, first.score) == ("passed", 10.0)
        assert second.sandbox["mode"] == "posix", "graded cold while the fork server is replaced"
        assert warm is not None and warm.server.home != old_home and warm.server.home.is_dir()
        third, warm = worker.grade_one(submissions.load(HONEST), exercise, bank, launcher, warm)
        assert (third.status, third.sandbox["mode"]) == ("passed", "posix+fork-server")
    finally:
        if warm is not None:
            warm.close()


def test_an_altered_copy_that_cannot_be_moved_aside_is_never_used(tmp_path, monkeypatch, capsys):
    """A copy that fails the check is never used as found, even where it cannot be moved aside (the
    hundred-and-eighth helper's folder of mode 555, which an ordinary user cannot move to another parent): the
    grader says which folder, in one line, and ``check`` exits 3 without a traceback."""
    import os
    import subprocess
    import sys

    from grader.sandbox import childlib

    cache = tmp_path / "cache"
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(cache))
    childlib.child_sys_path.cache_clear()
    try:
        first = childlib.child_sys_path()[0]
        init = os.path.join(first, "anytree", "__init__.py")
        with open(init, "a", encoding="utf-8") as handle:
            handle.write("raise SystemExit('PLANTED')\n")
        monkeypatch.setattr(childlib, "_discard", lambda target: None)
        childlib.child_sys_path.cache_clear()
        with pytest.raises(childlib.ChildLibraryError, match="was altered and cannot be replaced: remove that folder"):
            childlib.child_sys_path()
    finally:
        childlib.child_sys_path.cache_clear()
    script = ("import sys; from grader.sandbox import childlib; childlib._discard = lambda target: None; "
              "from grader.doors import cli; sys.argv = ['grader', 'check', %r, '-e', 'ctp-26', '--examples', '2']; "
              "cli.main()" % str(SUBMISSIONS / "ctp-26" / "correct" / "functional.py"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MINIMAX_GRADER_CACHE": str(cache)})
    assert done.returncode == 3 and "PLANTED" not in done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        f"minimax-grader: the grader failed: ChildLibraryError: the copy of the sandbox's library at {first} was "
        "altered and cannot be replaced: remove that folder (MINIMAX_GRADER_DEBUG=1 shows where)"]


def test_an_altered_copy_in_a_folder_of_mode_555_is_replaced_by_an_ordinary_user(tmp_path):
    """An ordinary user cannot move a folder it cannot write to another parent (Linux): the copy is made writable
    first, then moved aside and built again (it was used as found, unchecked: the hundred-and-eighth helper)."""
    import shutil
    import tempfile

    from test_hostile import _unprivileged_python

    work = Path(tempfile.mkdtemp(dir="/tmp"))  # (pytest's own folders are private to root)
    work.chmod(0o777)
    try:
        command, env = _unprivileged_python(work)
        done = _run_unprivileged(command, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.split() == ["True", "True", "True"]


def _run_unprivileged(command, env):
    import subprocess

    script = """
import os
from grader.sandbox import childlib
first = childlib.child_sys_path()[0]
init = os.path.join(first, "anytree", "__init__.py")
original = open(init, "rb").read()
with open(init, "ab") as handle:
    handle.write(b"raise SystemExit('PLANTED')\\n")
os.chmod(first, 0o555)
childlib.child_sys_path.cache_clear()
again = childlib.child_sys_path()[0]
print(again == first, open(init, "rb").read() == original, childlib.usable(type(childlib.paths.cache_dir())(again)))
"""
    return subprocess.run(command + ["-c", script], capture_output=True, text=True, env=env, timeout=120)


def test_a_fifo_in_the_cache_never_blocks_the_grader(tmp_path, monkeypatch):
    """A FIFO put in place of a file of the library's copy, or of a driver the grader wrote, is opened without
    waiting for a writer and refused (the copy is built again, the driver written again): reading it blocked the
    grader for good (the hundred-and-eighth helper)."""
    import os
    import threading

    from grader.kit import generated
    from grader.sandbox import childlib

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    results = {}

    def attempt():
        first = childlib.child_sys_path()[0]
        config = os.path.join(first, "anytree", "config.py")
        os.remove(config)
        os.mkfifo(config)
        childlib.child_sys_path.cache_clear()
        results["library"] = (childlib.child_sys_path()[0] == first, os.path.isfile(config))
        driver = generated.cached_file("tree-drivers", "fifo", "print('driver')\n", "driver.py")
        os.remove(driver)
        os.mkfifo(driver)
        again = generated.cached_file("tree-drivers", "fifo", "print('driver')\n", "driver.py")
        results["driver"] = (again == driver, driver.read_text(encoding="utf-8"))

    try:
        worker = threading.Thread(target=attempt, daemon=True)
        worker.start()
        worker.join(60)
    finally:
        childlib.child_sys_path.cache_clear()
    assert not worker.is_alive(), "blocked on a FIFO"
    assert results == {"library": (True, True), "driver": (True, "print('driver')\n")}


def test_two_installs_sharing_a_cache_keep_a_copy_each(tmp_path, monkeypatch):
    """Two installs of the same library version whose bytecode differs (another venv: each file's header names its
    own source's time) each find their own copy, named by a digest of what it holds, and never discard the other's
    (they flipped the copy back and forth, and a child of one found no anytree while the other rebuilt it)."""
    import os

    from grader.sandbox import childlib

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    try:
        first = childlib.child_sys_path()[0]
        kept = os.stat(os.path.join(first, "anytree", "__init__.py")).st_ino
        installed = childlib._installed()
        other = {**installed, "anytree/__init__.py": (installed["anytree/__init__.py"][0] + b"\n", 0o444)}
        monkeypatch.setattr(childlib, "_installed", lambda: other)
        childlib.child_sys_path.cache_clear()
        second = childlib.child_sys_path()[0]
    finally:
        childlib.child_sys_path.cache_clear()
    assert second != first and os.path.isdir(first) and os.path.isdir(second)
    assert os.stat(os.path.join(first, "anytree", "__init__.py")).st_ino == kept


def test_a_copy_put_in_place_while_the_grader_builds_is_checked_like_any_other(tmp_path, monkeypatch):
    """The grader that loses the race to put its copy in place uses the one it finds there only if that one too is
    exactly the installed library (the hundred-and-ninth helper's unconfined child renamed its own copy into place
    while the grader built: it ran in later children); a dangling link in its place is replaced, not used."""
    import os

    from grader.sandbox import childlib

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    real_build, calls = childlib._build, []

    def racing_build(target):
        calls.append(target)
        if len(calls) == 1:  # another process's copy lands first, altered
            real_build(target)
            with open(os.path.join(target, "anytree", "__init__.py"), "a", encoding="utf-8") as handle:
                handle.write("raise SystemExit('PLANTED')\n")
            return
        real_build(target)

    monkeypatch.setattr(childlib, "_build", racing_build)
    try:
        first = childlib.child_sys_path()[0]
        assert len(calls) == 2 and childlib.usable(type(tmp_path)(first))
        monkeypatch.setattr(childlib, "_build", real_build)
        childlib._discard(type(tmp_path)(first))
        os.symlink(tmp_path / "nowhere", first)
        childlib.child_sys_path.cache_clear()
        again = childlib.child_sys_path()[0]
    finally:
        childlib.child_sys_path.cache_clear()
    assert again == first and not os.path.islink(again) and childlib.usable(type(tmp_path)(again))


def test_discarding_a_copy_never_changes_what_a_link_in_it_points_to(tmp_path, monkeypatch):
    import os

    from grader.sandbox import childlib

    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    childlib.child_sys_path.cache_clear()
    try:
        first = childlib.child_sys_path()[0]
    finally:
        childlib.child_sys_path.cache_clear()
    outside_file, outside_folder = tmp_path / "mine.txt", tmp_path / "mine"
    outside_file.write_text("the user's", encoding="utf-8")
    outside_file.chmod(0o644)
    outside_folder.mkdir(mode=0o755)
    outside_folder.chmod(0o755)
    os.symlink(outside_file, os.path.join(first, "anytree", "link.txt"))
    os.symlink(outside_folder, os.path.join(first, "anytree", "link"))
    childlib._discard(type(tmp_path)(first))
    assert not os.path.exists(first)
    assert (outside_file.stat().st_mode & 0o777, outside_folder.stat().st_mode & 0o777) == (0o644, 0o755)
    assert outside_file.read_text(encoding="utf-8") == "the user's"
