"""The harness's thread looks nothing up by key in a dict where student code could have planted a key.

A ``str`` subclass whose hash collides with a name, put ahead of it in a dict, has its ``__eq__`` run by a
lookup, an insertion or a deletion of that name: the student's code on the harness's thread, where it can set
a trace function that rewrites the harness's variables (the twelfth red team). The channel's dict is
read by key after every wait, when a thread of the student's may have planted such a key: the harness must
refuse it before the lookup. The harness is a plain script, so it is loaded from its file as the child does.
"""

from __future__ import annotations

import contextlib
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


def _colliding(name, compared):
    """A key whose hash is ``name``'s and that records, in ``compared``, every comparison made with it."""

    class Colliding(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            compared.append(str(other))
            return False

        __ne__ = object.__ne__

    return Colliding(name)


def _plant(channel, name, compared):
    """Ahead of ``name`` in the channel's dict, a key colliding with it that records every comparison."""
    attrs = vars(channel)
    value = attrs.pop(name)
    attrs[_colliding(name, compared)] = None  # takes the name's slot: met first by a lookup of the name
    attrs[name] = value
    compared.clear()  # putting the name back compared it with the planted key: that was this test, not the harness


def _exit(code):
    raise _Exited(code)


RUN = b'MMG1 0123456789abcdef 2 13\n{"op": "run"}'  # a request of this channel's nonce


@contextlib.contextmanager
def _wired(harness, waiting=RUN, planted=None):
    """A channel over two fresh pipes, its nonce set and ``waiting`` written to its requests' pipe, with the
    harness's wire to it (its exit raising ``_Exited``): yields ``(channel, wire, (request_r, request_w, reply_r,
    reply_w))``. ``planted``: ``(name, compared)``, a colliding key planted ahead of that name first (``_plant``).
    Afterwards the switch interval and collection as they were (the harness's looks change both), and the pipes
    closed."""
    fds = (*os.pipe(), *os.pipe())
    channel = harness.Channel(fds[0], fds[3])
    channel.nonce = "0123456789abcdef"
    if planted is not None:
        _plant(channel, *planted)
    if waiting:
        os.write(fds[1], waiting)
    wire = list(harness._wire(channel))
    wire[7] = _exit
    interval = sys.getswitchinterval()
    try:
        yield channel, tuple(wire), fds
    finally:
        sys.setswitchinterval(interval)
        gc.enable()
        for fd in fds:
            os.close(fd)


@pytest.mark.parametrize("name", ["buffer"])
def test_receive_refuses_a_planted_key_before_reading_the_channel_by_key(harness, name):
    """No request comes out (the seal then finds the channel changed), and the planted key is never compared."""
    compared = []
    with _wired(harness, b'MMG1 0123456789abcdef 2 2\n{}', planted=(name, compared)) as (_, wire, _fds):
        assert harness._receive(wire, []) == (0, None)
    assert compared == []


def test_send_refuses_a_planted_key_before_reading_the_channel_by_key(harness):
    """The reply goes out without the channel's dict read by key, under a nonce the grader refuses."""
    compared = []
    with _wired(harness, b"", planted=("told", compared)) as (_, wire, fds):
        harness._send(wire, 2, b"{}", b"k" * 16, [])
        sent = os.read(fds[2], 1 << 16)
    assert sent.startswith(b"MMG1 - 2 2 ") and compared == []


def test_a_plain_channel_is_read_as_before(harness):
    """The refusal is for a planted key only: a channel as the harness made it gives its request."""
    with _wired(harness) as (channel, wire, fds):
        assert harness._receive(wire, []) == (2, {"op": "run"})
        harness._send(wire, 2, b"{}", b"k" * 16, [])
        assert os.read(fds[2], 1 << 16).startswith(b"MMG1 0123456789abcdef 2 2 ")


def test_a_key_planted_in_a_builtin_type_s_dict_breaks_the_seal_before_any_lookup(harness):
    """``object``'s own dict is within reach of gc; a key planted there (colliding with a name, ahead of it) runs
    its ``__eq__`` in any lookup of that name that misses the type cache, as the driver's ``self.index_of = {}``
    did (the thirteenth red team). ``seal.check`` looks at the builtin types' dicts first, with
    C-level calls only: the planted key is found, and never compared."""
    seal = harness._seal
    anchor = seal.Seal(namespaces=[{"plain": 1}]).anchor
    interval = sys.getswitchinterval()
    compared = []
    real = gc.get_referents(vars(object))[0]
    key = _colliding("__a_name_nothing_looks_up__", compared)
    items = list(real.items())
    try:
        assert seal.check(anchor)[0] is True
        real[key] = None
        assert seal.check(anchor)[0] is False
    finally:
        # The key out, and the dict made again of its own items in their order: a dict that held a key other than
        # an exact string stays of the general kind (its referents are then keys and values both), and this is
        # the process's own ``object``
        real.clear()
        real.update(items)
        sys._clear_type_cache()
        sys.setswitchinterval(interval)
        gc.enable()
    # Put back as it was, the dict is at another version: the interpreter's caches may still hold what was written
    # (the fifty-third red team), so the seal taken before stays broken; one taken now finds the types whole.
    assert seal.check(anchor)[0] is False and compared == []
    assert seal.check(seal.Seal(namespaces=[{"plain": 1}]).anchor)[0] is True and compared == []
    sys.setswitchinterval(interval)
    gc.enable()


def test_code_objects_are_read_without_a_lookup(harness):
    """``f.__code__`` looks ``__code__`` up in the function type's dict; the harness reads code objects through the
    type's own getter instead (a key planted there after the files load would run in that lookup)."""
    seal = harness._seal
    assert seal.code_of(harness._receive) is harness._receive.__code__
    assert seal.code_of(seal.func_of(harness.Harness(None).serve)) is harness.Harness.serve.__code__
    source = HARNESS.read_text(encoding="utf-8")
    body = source[source.index("    def serve(self):"):source.index("def _signal_handlers")]
    calls = [line for line in body.splitlines() if "__code__" in line and not line.lstrip().startswith(("#", "``"))]
    assert not [line for line in calls if ".__code__ is" in line or ".__code__ is not" in line], calls


def test_a_value_swapped_in_a_builtin_type_s_dict_breaks_the_seal_and_the_wire(harness):
    """Not a key this time: ``dict.get`` itself, swapped in the dict type's own dict (gc reaches it), runs the
    student's code at the harness's next ``attrs.get`` that misses the type cache (the lookup probe's find,
    ``forge_type_value``). ``seal.check``, ``_receive`` and ``_send`` compare the builtin types' values too, by
    identity, before any lookup: the swap is found, and the swapped method never runs for the harness."""
    seal = harness._seal
    anchor = seal.Seal(namespaces=[{"plain": 1}]).anchor
    real_get = dict.get
    ran = []

    def swapped_get(self, *args):
        if sys._getframe(1).f_code.co_filename == str(HARNESS):
            ran.append(sys._getframe(1).f_code.co_name)
        return real_get(self, *args)

    space = gc.get_referents(vars(dict))[0]
    interval = sys.getswitchinterval()
    with _wired(harness) as (channel, wire, fds):
        try:
            assert seal.check(anchor)[0] is True
            space["get"] = swapped_get
            sys._clear_type_cache()  # as the student evicts it: the next lookup of get finds the swapped one
            whole = seal.check(anchor)[0]
            received = harness._receive(wire, [])
            harness._send(wire, 2, b"{}", b"k" * 16, [])
        finally:
            space["get"] = real_get
            sys._clear_type_cache()
        sent = os.read(fds[2], 1 << 16)
    assert (whole, received, ran) == (False, (0, None), [])
    assert sent.startswith(b"MMG1 - 2 2 ")
    # Put back as it was, the dict is at another version: the interpreter's caches may still hold what was written
    # (the fifty-third red team), so the seal taken before stays broken; one taken now finds the types whole.
    assert seal.check(anchor)[0] is False
    assert seal.check(seal.Seal(namespaces=[{"plain": 1}]).anchor)[0] is True
    sys.setswitchinterval(interval)
    gc.enable()


def test_a_failed_check_ends_the_request_without_a_lookup(harness):
    """Once a check has failed, the builtin types' dicts may hold the student's methods: ``_finish`` then makes the
    reply without calling anything (a ``str.encode`` of theirs, run there, could put the guard back and hand over a
    reply of its own making), and flushes nothing of theirs."""
    called = []

    def recorder(name):
        def tool(*args, **kwargs):
            called.append(name)
            return "{}"
        return tool

    tools = (type, bytes, recorder("loads"), recorder("dumps"), recorder("join"), recorder("encode"),
             recorder("scratch_full"), None, _exit, recorder("switch"), 0.005, [False], [False],
             recorder("code_of"), recorder("func_of"), dict, str, recorder("fromhex"), recorder("keep"), BaseException,
             list, tuple, dict.items)
    payload = harness._finish({"ok": True}, True, None, recorder("check"), None, tools, [])
    assert (payload, called) == (b'{"fatal": "tampered"}', [])


def test_signal_handlers_are_read_and_quieted_by_the_c_module(harness, monkeypatch):
    """The file's handlers are read and set with ``_signal``'s C functions (``signal.getsignal`` reads names from
    the ``signal`` module's globals, where a file may plant keys: ``forge_load_tail``); a handler the file set
    becomes "ignore", and every handler read is handed back to be held. Windows has neither SIGKILL nor SIGSTOP:
    the list is made without them there."""
    import _signal
    import types

    class FakeSignal(types.ModuleType):
        SIG_IGN = _signal.SIG_IGN

    fake = FakeSignal("_signal")
    handlers = {2: _signal.SIG_DFL, 15: _signal.SIG_DFL}
    fake.valid_signals = lambda: {2, 15}
    fake.getsignal = handlers.__getitem__
    fake.signal = handlers.__setitem__
    monkeypatch.setitem(sys.modules, "_signal", fake)  # no SIGKILL, no SIGSTOP, as on Windows
    kept = harness._signal_handlers()
    assert kept[0] == (2, 15)

    def the_files_handler(number, frame):
        pass

    handlers[15] = the_files_handler
    held = harness._quiet_signals(kept)
    assert handlers == {2: _signal.SIG_DFL, 15: _signal.SIG_IGN}
    assert the_files_handler in held


def test_a_key_renamed_in_a_builtin_type_s_dict_breaks_the_seal(harness):
    """The guard reads a type's values through ``gc.get_referents`` (an exact-string dict's referents are its values):
    a key renamed with its value kept in place (the last one: deleted, and put back under another name) leaves those
    the same, and is found by the keys' own comparison (exact strings by then: nothing of the student's runs)."""
    import types

    seal = harness._seal
    anchor = seal.Seal(namespaces=[{"plain": 1}]).anchor
    interval = sys.getswitchinterval()
    real = gc.get_referents(vars(types.CellType))[0]
    last = list(real)[-1]
    try:
        assert seal.check(anchor)[0] is True
        real["renamed_" + last] = real.pop(last)
        sys._clear_type_cache()
        assert seal.check(anchor)[0] is False
    finally:
        real[last] = real.pop("renamed_" + last)
        sys._clear_type_cache()
        sys.setswitchinterval(interval)
        gc.enable()
    # Put back as it was, the dict is at another version: the interpreter's caches may still hold what was written
    # (the fifty-third red team), so the seal taken before stays broken; one taken now finds the types whole.
    assert seal.check(anchor)[0] is False
    assert seal.check(seal.Seal(namespaces=[{"plain": 1}]).anchor)[0] is True
    sys.setswitchinterval(interval)
    gc.enable()


def test_receive_refuses_a_key_planted_in_the_json_scanner_s_memo(harness):
    """json's C scanner keeps one dict between parses, its memo of object keys (emptied at the end of each parse),
    and gc reaches it: a key colliding with "op" planted there ran its __eq__ in the next request's parse, after
    every check of ``_receive`` (the seventeenth red team). The memo must be empty when a parse starts: no request
    comes out, and the planted key is never compared. The scanner's own parts are C (``parse_constant`` is float)."""
    memo = harness._json_memo
    assert type(memo) is dict and memo == {}
    compared = []
    key = _colliding("op", compared)
    with _wired(harness) as (channel, wire, fds):
        memo[key] = None
        try:
            assert harness._receive(wire, []) == (0, None)
        finally:
            memo.pop(key, None)
    assert compared == [] and memo == {}
    scanned = harness._json_scanner('{"op": "run", "bad": NaN}', 0)[0]
    assert scanned["op"] == "run" and scanned["bad"] != scanned["bad"]  # NaN, made by float itself


def test_receive_parses_no_bytes_left_on_the_heap(harness, monkeypatch):
    """Bytes in the channel's buffer when a request is awaited are the student's (the grader sends a request only
    once the last one is answered): ``_receive`` gives no request and hands them to no parser. json's C scanner,
    given bytes it cannot parse, calls whatever ``json.decoder.JSONDecodeError`` is: the thirtieth red team named
    a function of theirs so, and had the harness's thread parse ``{`` from the heap."""
    import json.decoder

    called = []
    monkeypatch.setattr(json.decoder, "JSONDecodeError", lambda *args: called.append(args) or ValueError("x"))
    with _wired(harness) as (channel, _, fds):
        channel.buffer = b"MMG1 - 1 1\n{"  # the wire reads the buffer where the channel holds it: made again below
        refused = harness._receive(harness._wire(channel), [])
        channel.buffer = b""
        taken = harness._receive(harness._wire(channel), [])
    assert (refused, taken, called) == ((0, None), (2, {"op": "run"}), [])


def test_a_builtin_type_s_dict_written_and_put_back_stops_the_wire(harness):
    """Where the harness looks at the builtin types' dicts itself after a wait (here ``_receive``, before it reads
    the next request), a dict of a type no Python code may change, written and put back exactly as it was, is
    tampering as in the per-call check: the passes find it whole, the interpreter's caches may not be (the
    fifty-third red team). No request comes out."""
    import types

    real = gc.get_referents(vars(types.MappingProxyType))[0]
    with _wired(harness) as (channel, wire, fds):
        assert harness._receive(wire, [])[0] == 2  # whole: the request comes out
        os.write(fds[1], b'MMG1 0123456789abcdef 3 13\n{"op": "run"}')
        real["zz_written"] = None
        del real["zz_written"]
        received = harness._receive(wire, [])
    assert received == (0, None)
