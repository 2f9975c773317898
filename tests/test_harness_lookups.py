"""The harness's thread looks nothing up by key in a dict where student code could have planted a key.

A ``str`` subclass whose hash collides with a name, put ahead of it in a dict, has its ``__eq__`` run by a
lookup, an insertion or a deletion of that name: the student's code on the harness's thread, where it can set
a trace function that rewrites the harness's variables (the twelfth session's red team). The channel's dict is
read by key after every wait, when a thread of the student's may have planted such a key: the harness must
refuse it before the lookup. The harness is a plain script, so it is loaded from its file as the child does.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import sys
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent.parent / "grader" / "sandbox" / "harness.py"


@pytest.fixture(scope="module")
def harness():
    spec = importlib.util.spec_from_file_location("_test_harness_lookups", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Exited(Exception):
    pass


def _planted_channel(harness, name):
    """A channel whose dict has, ahead of ``name``, a key colliding with it that records every comparison."""
    request_r, request_w = os.pipe()
    reply_r, reply_w = os.pipe()
    channel = harness.Channel(request_r, reply_w)
    channel.nonce = "0123456789abcdef"
    compared = []

    class Colliding(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            compared.append(str(other))
            return False

        __ne__ = object.__ne__

    attrs = vars(channel)
    value = attrs.pop(name)
    attrs[Colliding(name)] = None  # takes the name's slot: met first by a lookup of the name
    attrs[name] = value
    compared.clear()  # putting the name back compared it with the planted key: that was this test, not the harness
    return channel, compared, (request_r, request_w, reply_r, reply_w)


def _exit(code):
    raise _Exited(code)


@pytest.mark.parametrize("name", ["pending", "buffer"])
def test_receive_refuses_a_planted_key_before_reading_the_channel_by_key(harness, name):
    """No request comes out (the seal then finds the channel changed), and the planted key is never compared."""
    channel, compared, fds = _planted_channel(harness, name)
    wire = list(harness._wire(channel))
    wire[7] = _exit
    os.write(fds[1], b'MMG1 0123456789abcdef 2 2\n{}')
    interval = sys.getswitchinterval()
    try:
        assert harness._receive(tuple(wire), []) == (0, None)
    finally:
        sys.setswitchinterval(interval)
        gc.enable()
        for fd in fds:
            os.close(fd)
    assert compared == []


def test_send_refuses_a_planted_key_before_reading_the_channel_by_key(harness):
    """The reply goes out without the channel's dict read by key, under a nonce the grader refuses."""
    channel, compared, fds = _planted_channel(harness, "told")
    interval = sys.getswitchinterval()
    try:
        harness._send(harness._wire(channel), 2, b"{}", b"k" * 16, [])
        sent = os.read(fds[2], 1 << 16)
    finally:
        sys.setswitchinterval(interval)
        gc.enable()
        for fd in fds:
            os.close(fd)
    assert sent.startswith(b"MMG1 - 2 2 ") and compared == []


def test_a_plain_channel_is_read_as_before(harness):
    """The refusal is for a planted key only: a channel as the harness made it gives its request."""
    request_r, request_w = os.pipe()
    reply_r, reply_w = os.pipe()
    channel = harness.Channel(request_r, reply_w)
    channel.nonce = "0123456789abcdef"
    os.write(request_w, b'MMG1 0123456789abcdef 2 13\n{"op": "run"}')
    interval = sys.getswitchinterval()
    try:
        assert harness._receive(harness._wire(channel), []) == (2, {"op": "run"})
        harness._send(harness._wire(channel), 2, b"{}", b"k" * 16, [])
        assert os.read(reply_r, 1 << 16).startswith(b"MMG1 0123456789abcdef 2 2 ")
    finally:
        sys.setswitchinterval(interval)
        gc.enable()
        for fd in (request_r, request_w, reply_r, reply_w):
            os.close(fd)
