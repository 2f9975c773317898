"""A fork server's home in shared memory is locked while its grader lives, and swept once the grader is gone.

Before, a grader killed with its fork server running (kill -9, the out-of-memory killer) left the home in
/dev/shm for good: the machine's memory, and copies of submissions in it. The test suite alone left one or two
a run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT
from grader.sandbox import forkserver, homes

OLD = time.time() - homes.YOUNG - 60  # a home this old, unlocked, is a dead grader's


def _home(parent, name, old=True):
    """A home as a dead grader leaves it: its log, a session's scratch with a copy of a submission, nobody's lock."""
    home = parent / (homes.PREFIX + name)
    home.mkdir()
    (home / "zygote.log").write_text("")
    (home / "minimax-grader-x").mkdir()
    (home / "minimax-grader-x" / "submission.py").write_text("def minimax(): pass\n")
    if old:
        os.utime(home, (OLD, OLD))
    return home


def _made_in(parent, monkeypatch):
    """``homes.make`` with its memory folder pointed at ``parent``."""
    monkeypatch.setattr(homes, "memory_folder", lambda: str(parent))
    return homes.make()


def test_making_a_home_sweeps_the_ones_nobody_holds_and_its_own_stays_locked(tmp_path, monkeypatch):
    dead = _home(tmp_path, "dead")
    made, fd = _made_in(tmp_path, monkeypatch)  # this process's own, locked
    try:
        assert not dead.exists()  # swept as the new one was made
        os.utime(made, (OLD, OLD))
        assert homes.sweep(str(tmp_path)) == []  # in use: left alone, however old
        assert made.is_dir()
    finally:
        homes.release(made, fd)
    assert not made.exists()


def test_a_home_locked_by_another_living_process_is_left_alone(tmp_path):
    home = _home(tmp_path, "other")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, sys
        fd = os.open({str(home)!r}, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("held", flush=True)
        sys.stdin.read()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert homes.sweep(str(tmp_path)) == []
        assert home.is_dir()
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert homes.sweep(str(tmp_path)) == [home.name]  # its holder gone: swept


def test_a_live_home_whose_files_a_child_replaced_is_still_left_alone(tmp_path, monkeypatch):
    """The lock is on the folder itself: a child that writes in the home as the grader's user (bubblewrap as an
    ordinary user) and puts a file of its own where a lock file might be, or removes everything it can, changes
    nothing the sweep reads (the hundredth helper's find against a lock file inside the home)."""
    made, fd = _made_in(tmp_path, monkeypatch)
    try:
        (made / ".alive").write_text("")  # a lock file nobody holds, as a child could plant
        (made / "moved-lock").write_text("")
        os.utime(made, (OLD, OLD))
        assert homes.sweep(str(tmp_path)) == []
        assert made.is_dir()
    finally:
        homes.release(made, fd)


def test_a_young_home_nobody_holds_is_left_alone(tmp_path):
    young = _home(tmp_path, "young", old=False)  # maybe another grader's, between making the folder and locking it
    assert homes.sweep(str(tmp_path)) == []
    assert young.is_dir()


def test_links_files_and_other_names_are_never_touched(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "kept").write_text("")
    link = tmp_path / (homes.PREFIX + "link")
    link.symlink_to(target, target_is_directory=True)
    os.utime(link, (OLD, OLD), follow_symlinks=False)
    fifo = tmp_path / (homes.PREFIX + "fifo")
    os.mkfifo(fifo)
    os.utime(fifo, (OLD, OLD))
    (tmp_path / (homes.PREFIX + "file")).write_text("not a folder")
    other = tmp_path / "minimax-grader-something-else"
    other.mkdir()
    os.utime(other, (OLD, OLD))
    assert homes.sweep(str(tmp_path)) == []
    assert (target / "kept").exists() and other.is_dir() and fifo.exists()


def test_another_user_s_home_is_never_touched(tmp_path, monkeypatch):
    home = _home(tmp_path, "theirs")
    monkeypatch.setattr(os, "getuid", lambda: os.lstat(home).st_uid + 1)  # the folder is someone else's
    assert homes.sweep(str(tmp_path)) == []
    assert home.is_dir()


def test_a_dead_home_too_deep_to_remove_costs_no_grader_its_start(tmp_path, monkeypatch):
    """3.11's rmtree recurses, and a tree deeper than the interpreter's recursion limit raises RecursionError,
    which ``ignore_errors`` does not cover (the hundredth helper's find): a new home is made all the same."""
    _home(tmp_path, "deep")

    def too_deep(path, ignore_errors=False):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(homes.shutil, "rmtree", too_deep)
    made, fd = _made_in(tmp_path, monkeypatch)
    homes.release(made, fd)
    monkeypatch.undo()
    assert made.is_dir()  # left by the failing rmtree, and nothing raised


def test_a_fork_server_closed_twice_lets_go_of_its_own_lock_only(monkeypatch):
    """A worker whose cold fallback failed too closes its fork server again: the second close must not close the
    descriptor number the first let go of, which another fork server may hold by then (the hundredth helper's
    find: that server's live home was then swept)."""
    released = []
    monkeypatch.setattr(homes, "release", lambda home, fd: released.append(fd))
    server = object.__new__(forkserver.ForkServer)
    server.home, server._home_lock = ROOT / "nowhere", 12345
    server._release_home()
    server._release_home()
    assert released == [12345]


GRADER_HOLDING_A_FORK_SERVER = """
import sys, time
from grader.judging import bank, exercise
from grader.sandbox import forkserver, launch
ex = exercise.load("ctp-26")
server = forkserver.ForkServer(ex, bank.build(ex, seed=26, examples=2), launch.choose())
print(server.home, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not forkserver.available() or homes.memory_folder() is None, reason="no fork server here")
def test_a_grader_killed_with_its_fork_server_leaves_a_home_the_next_one_sweeps():
    """A real grading process with a real fork server, killed with SIGKILL: its home stays behind (nothing of it
    could remove it), unlocked; the next fork server made on the machine by this user, once it is a minute old,
    removes it."""
    grader = subprocess.Popen([sys.executable, "-c", GRADER_HOLDING_A_FORK_SERVER], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        home = grader.stdout.readline().strip()
        assert home and os.path.isdir(home), home
    finally:
        os.killpg(grader.pid, signal.SIGKILL)
        grader.wait(timeout=30)
    assert os.path.isdir(home)  # left behind by the killed grader
    os.utime(home, (OLD, OLD))
    made, fd = homes.make()
    try:
        assert not os.path.exists(home)
        assert made.is_dir()
    finally:
        homes.release(made, fd)
