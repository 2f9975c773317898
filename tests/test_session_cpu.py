"""While a session talks with its child, the grading thread and the child share one CPU (Linux).

Every question the child asks wakes the grading process and every answer wakes the child; on two
CPUs each of those wake-ups crosses CPUs. ``launch.pin_to_this_cpu`` binds the grading thread to the
CPU it runs on when the child starts; the child inherits it (a fork server's child is bound by the
server); closing the session gives the thread its CPUs back. Real children, as the machine runs them.
"""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging.submissions import load
from grader.sandbox import forkserver, launch
from grader.sandbox.session import Session

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                                reason="CPU binding: Linux with two CPUs or more")

TELLS_ITS_CPUS = textwrap.dedent('''
    import os

    def minimax(node, max_depth, player_a_moves):
        raise RuntimeError("cpus " + ",".join(map(str, sorted(os.sched_getaffinity(0)))))
''')


def _child_cpus(result: dict) -> set[int]:
    said = result["raised"]
    return {int(cpu) for cpu in said.split("cpus ", 1)[1].split(" ")[0].split(",")}


@pytest.fixture(scope="module")
def ctp26():
    exercise = exercises.load("ctp-26")
    return exercise, banks.build(exercise, seed=26, examples=0)


@pytest.mark.parametrize("warm", [False, True], ids=["child", "fork-server child"])
def test_the_child_runs_on_the_grading_threads_cpu_until_the_session_closes(ctp26, tmp_path, warm):
    exercise, bank = ctp26
    source = tmp_path / "tells.py"
    source.write_text(TELLS_ITS_CPUS, encoding="utf-8")
    before = os.sched_getaffinity(0)
    launcher = launch.choose()
    if warm:
        if not forkserver.available():
            pytest.skip("no fork server on this platform")
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    try:
        with (launcher.session_class if warm else Session)(load(str(source)), exercise, launcher) as session:
            assert session.open()["ok"]
            during = os.sched_getaffinity(0)
            result = session.run([bank.cases[0].to_request()])[0]
        after = os.sched_getaffinity(0)
    finally:
        if warm:
            launcher.close()
    assert len(during) == 1 and during <= before  # one CPU, one it was allowed before
    assert _child_cpus(result) == during
    assert after == before


def test_a_session_closed_by_another_thread_gives_the_opener_its_cpus_back(ctp26, tmp_path):
    import threading

    exercise, bank = ctp26
    source = tmp_path / "tells.py"
    source.write_text(TELLS_ITS_CPUS, encoding="utf-8")
    opened, closed, seen = threading.Event(), threading.Event(), {}
    session = Session(load(str(source)), exercise, launch.choose())

    def opener():
        seen["before"] = os.sched_getaffinity(0)
        assert session.open()["ok"]
        seen["during"] = os.sched_getaffinity(0)
        opened.set()
        closed.wait(60)
        seen["after"] = os.sched_getaffinity(0)

    thread = threading.Thread(target=opener)
    thread.start()
    assert opened.wait(60)
    closer_before = os.sched_getaffinity(0)
    session.close()
    closed.set()
    thread.join(60)
    assert len(seen["during"]) == 1
    assert seen["after"] == seen["before"]
    assert os.sched_getaffinity(0) == closer_before  # the closing thread's own CPUs are not touched
