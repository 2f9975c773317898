"""The warm fork server: same verdicts as a freshly started child, and nothing carried between children."""

from __future__ import annotations

import pytest

from bulk_class import ROOT
from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.sandbox import forkserver, launch

pytestmark = pytest.mark.skipif(not forkserver.available(), reason="no fork() on this platform: grade uses fresh children")

HOSTILE = ROOT / "fixtures" / "submissions" / "hostile"
VOLATILE = ("duration_seconds", "sandbox")


@pytest.fixture(scope="module")
def setting():
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=99)
    plain = launch.choose()
    warm = forkserver.ZygoteLauncher.wrap(plain, exercise, bank)
    yield exercise, bank, plain, warm
    warm.close()


def grade(path, setting, warm=True):
    exercise, bank, plain, zygote = setting
    result = judge.grade(submissions.load(path), exercise, bank, zygote if warm else plain).to_dict()
    return {k: v for k, v in result.items() if k not in VOLATILE}


@pytest.mark.parametrize("name", ["recursion_segfault.py", "os_exit_in_call.py", "memory_bomb.py", "vandal_home.py",
                                  "sys_exit_at_import.py", "eq_always_equal.py", "fork_bomb.py", "write_every_fd.py"])
def test_hostile_samples_get_the_same_verdict(name, setting):
    # What an attack manages to print depends on which descriptors its process happens to hold
    # (a forked child holds exactly five), so captured output is left out of the comparison.
    warm, fresh = grade(HOSTILE / name, setting), grade(HOSTILE / name, setting, warm=False)
    warm.pop("output"), fresh.pop("output")
    assert warm == fresh


def test_nothing_is_carried_from_one_child_to_the_next(tmp_path, setting):
    first = tmp_path / "first.py"
    first.write_text(
        "import builtins, gc, os\n"
        "builtins.LEFT_BEHIND = 'yes'\n"
        "open('left_behind.txt', 'w').write('x')\n"
        "def minimax(node, max_depth, player_a_moves):\n"
        "    for obj in gc.get_objects():\n"
        "        if type(obj).__name__ == 'Node':\n"
        "            obj.name = 'vandalised'\n"
        "    return 0\n")
    second = tmp_path / "second.py"
    second.write_text(
        "import builtins, os, sys\n"
        "SEEN = [hasattr(builtins, 'LEFT_BEHIND'), os.path.exists('left_behind.txt'), 'first' in sys.modules,\n"
        "        sorted(int(fd) for fd in os.listdir('/proc/self/fd'))]\n"
        "def minimax(node, max_depth, player_a_moves):\n"
        "    if node.name == 'vandalised':\n"
        "        raise RuntimeError('a tree was left vandalised')\n"
        "    raise RuntimeError(f'saw {SEEN} pgid {os.getpgid(0) == os.getpid()}')\n")
    grade(first, setting)
    message = grade(second, setting)["checks"][0]["message"]
    assert "saw [False, False, False," in message and "pgid True" in message, message
    fds = message.split("saw [False, False, False, ")[1].split("]")[0]
    # 0-4, the four ends of the runner's hand-over pipes (the child makes them itself, after the fork) and
    # what listdir itself opens: nothing of the fork server's, nothing of the first child's
    assert max(int(fd) for fd in fds.strip("[").split(", ")) <= 9, fds


def test_correct_and_buggy_samples_match_a_fresh_child(setting):
    samples = ROOT / "fixtures" / "submissions" / "ctp-26"
    for path in [samples / "correct" / "memo_by_identity.py", samples / "buggy" / "mutates_tree.py",
                 samples / "buggy" / "state_across_calls.py", samples / "correct" / "prints_a_lot.py"]:
        assert grade(path, setting) == grade(path, setting, warm=False), path.name


def _inner_launchers():
    from test_sandbox_limits import _bwrap_problem

    return [pytest.param("posix", id="posix"),
            pytest.param("bwrap", id="bwrap", marks=pytest.mark.skipif(
                _bwrap_problem() is not None, reason=f"bubblewrap unusable here: {_bwrap_problem()}"))]


@pytest.mark.parametrize("inner", _inner_launchers())
def test_the_zygote_sweeps_what_a_session_left_behind(tmp_path, inner, monkeypatch):
    """A grandchild in a session of its own (missed by the group kill) comes back to the zygote,
    a subreaper, which kills it before it reports the exit; the grader then has no need to look
    through every process of the machine for the session's uid."""
    import time
    import uuid

    from test_sandbox_limits import _processes_with, escaper

    from grader.sandbox import identity

    looked: list[int] = []
    real = identity._has_processes
    monkeypatch.setattr(identity, "_has_processes", lambda uid: looked.append(uid) or real(uid))
    exercise = exercises.load("ctp-26")
    bank = banks.build(exercise, seed=99, examples=0)
    warm = forkserver.ZygoteLauncher.wrap(launch.choose(inner), exercise, bank)
    try:
        marker = f"minimax-escaper-{uuid.uuid4().hex}"
        path = tmp_path / "escaper.py"
        path.write_text(escaper(marker))
        result = judge.grade(submissions.load(path), exercise, bank, warm)
        assert result.status != "passed"
        assert warm.server.swept, "the zygote did not report a sweep"
        deadline = time.monotonic() + 30  # event-driven: ends as soon as they are gone; slack for a busy machine
        while _processes_with(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes_with(marker) == []
        assert looked == [], "a swept session still had its uid looked for"
    finally:
        warm.close()


def test_a_reused_pid_starts_with_nothing_said_about_it():
    """pids wrap around in the zygote's namespace: an exit status or a sweep reported for an earlier
    child must not be taken for the new child that got the same pid."""
    import json
    import socket
    import struct
    import threading

    ours, theirs = socket.socketpair()
    server = forkserver.ForkServer.__new__(forkserver.ForkServer)
    server.lock, server.buffer, server.sock, server.dead = threading.Lock(), b"", ours, False
    server.forked, server.exits, server.swept = {}, {}, set()

    def say(message):
        payload = json.dumps(message).encode()
        theirs.sendall(struct.pack("!I", len(payload)) + payload)

    say({"op": "exited", "pid": 7, "code": 0, "swept": True})
    server._pump(1.0)
    assert server.exits == {7: 0} and server.swept == {7}
    say({"op": "forked", "token": 1, "pid": 7})
    server._pump(1.0)
    assert 7 not in server.exits and 7 not in server.swept and server.forked[1]["pid"] == 7
    ours.close(), theirs.close()


def test_a_tree_changed_by_a_call_is_never_asked_about_again(tmp_path, setting):
    """The warm child asks the re-asking pass about the very tree of the first pass only when the
    call left it unchanged; a call that cut a subtree off gets a fresh copy, as a fresh child would."""
    path = tmp_path / "prunes.py"
    path.write_text(
        "def minimax(node, max_depth, player_a_moves):\n"
        "    if max_depth == 0 or not node.children:\n"
        "        return get_value(node)\n"
        "    values = [minimax(c, max_depth - 1, not player_a_moves) for c in get_next_valid_moves(node)]\n"
        "    best = max(values) if player_a_moves else min(values)\n"
        "    if node.parent is None and len(node.children) > 1:\n"
        "        node.children = node.children[1:]  # vandalism after the fact: the answer was right\n"
        "    return best\n")
    warm, fresh = grade(path, setting), grade(path, setting, warm=False)
    consistent = next(c for c in warm["checks"] if c["name"] == "consistent-answers")
    assert consistent["status"] == "passed", consistent
    assert warm == fresh


def _zygote_module():
    """zygote.py as the fork server runs it (a script next to the harness), imported here to look at its pool."""
    import importlib.util

    path = ROOT / "grader" / "sandbox" / "zygote.py"
    spec = importlib.util.spec_from_file_location("_zygote_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_forked_child_takes_the_pool_ledger_the_zygote_made(monkeypatch, setting):
    """What each prebuilt pair was made as (about 2 ms for a bank of 250 cases) is worked out once by the zygote,
    before any fork: the child's pool uses it as handed over and works out nothing again, and still hands out
    only the pairs in it (a pair slipped in is refused and the case is built afresh from its input)."""
    import importlib.util

    exercise, bank = setting[0], setting[1]
    zygote = _zygote_module()
    driver_spec = importlib.util.spec_from_file_location("_driver_under_test", exercise.driver_path)
    driver = importlib.util.module_from_spec(driver_spec)
    driver_spec.loader.exec_module(driver)
    cases = bank.cases[:3]
    inputs = {case.id: exercise.hook("child_input")(case.input) for case in cases}
    prebuilt = {case_id: [(built, driver.snapshot(built)) for built in (driver.build(data),)]
                for case_id, data in inputs.items()}
    ledger = zygote.pool_ledger(prebuilt, inputs)
    assert ledger[0] == tuple(inputs) and len(ledger[2]) == len(cases)

    def worked_out_again(*args):
        raise AssertionError("the child worked the ledger out again")

    monkeypatch.setattr(zygote, "pool_ledger", worked_out_again)
    channel = zygote.harness.Channel(-1, -1)
    take, put = zygote.WarmHarness(channel, driver, prebuilt, inputs, ledger).pool()
    first = cases[0].id
    kept = prebuilt[first][0]
    assert take(first, []) is kept  # the pair the zygote built, handed out as it is
    put(first, *kept)
    assert prebuilt[first] == [kept]  # unchanged: given back for the re-asking pass
    slipped = driver.build(inputs[first])
    prebuilt[first][:] = [(slipped, driver.snapshot(slipped))]  # not one the zygote made
    grave = []
    fresh, before = take(first, grave)
    assert fresh is not slipped and grave and grave[0][0] is slipped
    assert before == driver.snapshot(fresh)
    with pytest.raises(AssertionError):  # and a harness handed no ledger works it out itself, as before
        zygote.WarmHarness(channel, driver, prebuilt, inputs).pool()


def test_a_child_of_a_gone_zygote_is_not_taken_for_ended():
    """``Session._ended`` (a wait for the reply pipe came back empty: has the child ended?) asks a fork server's child
    ``ended``, not ``poll``: ``poll`` says -9 once the zygote is gone, while under the posix fork server its children
    outlive it and may still answer (the review of the sixty-seventh red team's fix). What the zygote told stands."""
    class Server:
        def __init__(self, dead, exits):
            self.dead, self.exits = dead, exits

        def exit_code(self, pid, timeout):
            code = self.exits.get(pid)
            return -9 if code is None and self.dead else code

    assert forkserver.ForkedChild(7, Server(True, {}), None, None).poll() == -9  # what poll says, and ended does not
    assert forkserver.ForkedChild(7, Server(True, {}), None, None).ended() is False
    assert forkserver.ForkedChild(7, Server(False, {}), None, None).ended() is False
    told = forkserver.ForkedChild(7, Server(False, {7: 4}), None, None)
    assert told.ended() is True and told.returncode == 4


def test_the_session_asks_a_fork_server_s_child_what_its_zygote_told():
    from grader.sandbox.session import Session

    class Child:  # a child of a gone zygote: poll guesses -9, ended knows nothing
        def poll(self):
            return -9

        def ended(self):
            return False

    class Reader:
        buffer, closed = bytearray(), False

        def wait(self, timeout, seen=0):
            pass

    session = Session.__new__(Session)
    session.process, session.reader = Child(), Reader()
    assert session._ended() is False
    del Child.ended  # a plain process: poll is the word
    assert session._ended() is True
