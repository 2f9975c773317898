"""The child's side of the channel writes as few frames apart as it can: a note waits for the next frame.

A note (a case begins, an expansion) needs no answer, so the harness keeps it and writes it with the next
question or reply, in one system call: the grader reads the frames in the same order, and is not woken for
a note alone. A note that must be out before anything else runs (``student code starts``: student code
could write a frame of its own after it) goes at once. Real pipes, the harness's own Channel.
"""

from __future__ import annotations

import os
import select

import pytest

harness = pytest.importorskip("grader.sandbox.harness")


@pytest.fixture
def channel():
    requests, to_child = os.pipe()
    from_child, replies = os.pipe()
    found = harness.Channel(requests, replies)
    found.nonce = "0123abcd"
    yield found, from_child, to_child
    for fd in (requests, to_child, from_child, replies):
        os.close(fd)


def readable(fd) -> bool:
    return bool(select.select([fd], [], [], 0)[0])


def test_a_note_goes_out_with_the_next_frame_in_order(channel):
    found, from_child, _ = channel
    found.tell(["case", 0])
    found.tell(["m", 3])
    assert not readable(from_child)  # nothing written yet
    found.send(1, {"results": []})
    data = os.read(from_child, 65536)  # one write: all three frames are there at once
    assert data == (b'MMGN 0123abcd 0 11\n["case", 0]' b'MMGN 0123abcd 0 8\n["m", 3]'
                    b'MMG1 0123abcd 1 15\n{"results": []}')
    assert found.told == b""


def test_a_question_carries_the_notes_before_it(channel):
    found, from_child, to_child = channel
    found.tell(["case", 4])
    os.write(to_child, b"MMGA 0123abcd 1 2\n17")  # the grader's answer, there before it is asked
    assert found.ask(b'["v", 2]') == 17
    assert os.read(from_child, 65536) == b'MMGN 0123abcd 0 11\n["case", 4]MMGQ 0123abcd 1 8\n["v", 2]'


def test_a_note_told_now_is_out_at_once(channel):
    found, from_child, _ = channel
    found.tell(["student code starts"], now=True)
    assert readable(from_child)
    assert os.read(from_child, 65536) == b'MMGN 0123abcd 0 23\n["student code starts"]'


@pytest.mark.parametrize("answer, value", [(b"17", 17), (b"-2.5", -2.5), (b"null", None), (b'{"error": "x"}', {"error": "x"})])
def test_an_answer_is_read_whole_and_what_follows_it_is_never_taken_for_a_request(channel, answer, value):
    """The answer read the quick way (the next frame, whole, in one read), whatever its value (``null`` too). The
    grader sends a request only once the last one is answered, so bytes after an answer are none of its: they stay
    in the buffer, where the student's code could have written them, and ``_receive`` takes no request from them
    (json's C scanner, given bytes it cannot parse, calls whatever ``json.decoder.JSONDecodeError`` is: the
    thirtieth red team)."""
    found, _, to_child = channel
    os.write(to_child, b"MMGA 0123abcd 1 %d\n%s" % (len(answer), answer) + b'MMG1 0123abcd 7 13\n{"op": "run"}')
    assert found.ask(b'["v", 2]') == value
    assert found.buffer == b'MMG1 0123abcd 7 13\n{"op": "run"}'
    assert harness._receive(harness._wire(found), []) == (0, None)


def test_an_answer_cut_across_two_reads_is_still_found(channel):
    found, _, to_child = channel
    os.write(to_child, b"MMGA 0123abcd 1 4\n12")  # the answer cut in two
    import threading

    later = threading.Timer(0.05, lambda: os.write(to_child, b".5"))
    later.start()
    assert found.ask(b'["v", 2]') == 12.5
    later.join()
    assert found.buffer == b""


class _Ended(Exception):
    pass


def test_a_request_read_while_a_question_waits_ends_the_child(channel, monkeypatch):
    """Only a thread a call left asking reads the next request (the grader sends none while a question waits): the
    child ends (exit code 4), and the request is kept nowhere the harness would read it from."""
    found, _, to_child = channel

    def ended(code):
        raise _Ended(code)

    monkeypatch.setattr(harness, "_os_exit", ended)
    os.write(to_child, b'MMG1 0123abcd 8 13\n{"op": "run"}MMGA 0123abcd 1 2\n12')
    with pytest.raises(_Ended) as stopped:
        found.ask(b'["v", 2]')
    assert stopped.value.args == (4,) and not hasattr(found, "pending")
