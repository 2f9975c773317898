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


def _home(parent, name, lock=True):
    """A home as ``homes.make`` leaves it, with its lock file, which nobody holds (its grader is gone)."""
    home = parent / (homes.PREFIX + name)
    home.mkdir()
    (home / "zygote.log").write_text("")
    (home / "minimax-grader-x").mkdir()
    (home / "minimax-grader-x" / "submission.py").write_text("def minimax(): pass\n")
    if lock:
        (home / homes.ALIVE).write_text("")
    return home


def test_making_a_home_sweeps_the_ones_nobody_holds_and_its_own_stays_locked(tmp_path):
    dead = _home(tmp_path, "dead")
    made, fd = _made_in(tmp_path)  # this process's own, locked
    try:
        assert not dead.exists()  # swept as the new one was made
        assert made.is_dir() and (made / homes.ALIVE).exists()
        assert homes.sweep(str(tmp_path)) == []  # in use: left alone
        assert made.is_dir()
    finally:
        homes.release(made, fd)
    assert not made.exists()


def _made_in(parent):
    """``homes.make`` with its memory folder pointed at ``parent``."""
    original = homes.memory_folder
    homes.memory_folder = lambda: str(parent)
    try:
        return homes.make()
    finally:
        homes.memory_folder = original


def test_a_home_locked_by_another_living_process_is_left_alone(tmp_path):
    home = _home(tmp_path, "other")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import fcntl, os, sys, time
        fd = os.open({str(home / homes.ALIVE)!r}, os.O_RDWR)
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


def test_a_home_without_a_lock_file_is_swept_only_when_old(tmp_path):
    fresh, old = _home(tmp_path, "fresh", lock=False), _home(tmp_path, "old", lock=False)
    hour_ago = time.time() - homes.UNLOCKED_AGE - 60
    os.utime(old, (hour_ago, hour_ago))
    assert homes.sweep(str(tmp_path)) == [old.name]
    assert fresh.is_dir()  # maybe another grader's, between making the folder and locking it


def test_links_files_and_other_names_are_never_touched(tmp_path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / homes.ALIVE).write_text("")
    (tmp_path / (homes.PREFIX + "link")).symlink_to(target, target_is_directory=True)
    (tmp_path / (homes.PREFIX + "file")).write_text("not a folder")
    other = tmp_path / "minimax-grader-something-else"
    other.mkdir()
    linked_lock = _home(tmp_path, "linked-lock", lock=False)
    (linked_lock / homes.ALIVE).symlink_to(target / homes.ALIVE)
    assert homes.sweep(str(tmp_path)) == []
    assert target.is_dir() and (target / homes.ALIVE).exists() and other.is_dir() and linked_lock.is_dir()


def test_another_user_s_home_is_never_touched(tmp_path, monkeypatch):
    home = _home(tmp_path, "theirs")
    monkeypatch.setattr(os, "getuid", lambda: os.lstat(home).st_uid + 1)  # the folder is someone else's
    assert homes.sweep(str(tmp_path)) == []
    assert home.is_dir()


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
    could remove it), unlocked; the next fork server made anywhere on the machine by this user removes it."""
    grader = subprocess.Popen([sys.executable, "-c", GRADER_HOLDING_A_FORK_SERVER], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        home = grader.stdout.readline().strip()
        assert home and os.path.isdir(home), home
    finally:
        os.killpg(grader.pid, signal.SIGKILL)
        grader.wait(timeout=30)
    assert os.path.isdir(home)  # left behind by the killed grader
    made, fd = homes.make()
    try:
        assert not os.path.exists(home)
        assert made.is_dir()
    finally:
        homes.release(made, fd)
