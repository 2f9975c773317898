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
