"""The child's replies, read as hostile input: shape first, then only what the harness writes.

Student code runs in the child, and whatever the child can write on its reply descriptor it can
forge (the nonce, the sequence number and the descriptor are all in its memory). So the parent
reads a reply in two steps, and neither may fail other than by saying ``Refused``:

1. ``loads``: before any parsing, a linear scan of the bytes bounds how deep the JSON nests
   (``json.loads`` recurses in C and raises RecursionError on a few thousand brackets, which
   would be the grader's crash, not the student's verdict); then the JSON itself.
2. ``check_init`` / ``check_run``: the reply has exactly the keys the harness writes for that
   message, each of its exact type, with the harness's own caps on counts and lengths (cases,
   answer items and nesting, text). Anything else was not written by the harness. A case's
   result carries no trace: the evidence of the helpers' calls is the grading process's own log
   of the child's questions (session.py), so a "trace" from the child is refused like any
   unknown key.

A refusal is the submission's error ("tampered with the result channel"), never the grader's.
A new field in a harness reply must be added here as well: an unknown key is refused.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 64            # brackets open at once; an honest reply nests about 30 deep at most
ANSWER_DEPTH = 8          # harness.ANSWER_DEPTH: nesting levels of an answer below its top
ANSWER_ITEMS = 256        # harness.ANSWER_ITEMS: scalars and containers of one answer, all levels
TEXT = 4096               # characters of a message (an error, a reason); the harness's are shorter
FATAL = ("memory", "tampered", "scratch")


class Refused(ValueError):
    """The reply is not one the harness writes; ``detail`` says why (for logs and tests, not students)."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


# -- step 1: bytes to JSON, depth bounded before parsing ----------------------------------

_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_QUOTED = re.compile(rb'"[^"]*(?:"|\Z)')  # a string, escapes gone; one never closed runs to the end
MAX_QUOTED = 4_000_000  # quotes around strings holding brackets: some 500 a case in an honest reply
_ROUNDS = 8  # passes that drop empty pairs ("[]", "{}"): each lowers the deepest nesting by one or two
_CHUNK = 32  # brackets counted together: a depth may be over-estimated by at most this much
SURE_REFUSED = MAX_DEPTH + _CHUNK + 2 * _ROUNDS  # nesting deeper than this is always refused


def depth_within(data: bytes, limit: int = MAX_DEPTH) -> bool:
    """True whenever no more than ``limit`` brackets are open at once outside strings; False whenever
    more than ``limit + _CHUNK + 2 * _ROUNDS`` are (in between, either), or the brackets cannot be JSON.

    Linear in the reply's size and almost all in C (``bytes.translate``, ``bytes.replace``, ``count``):
    strings are taken out (escaped backslashes and quotes first, then everything but brackets and
    quotes, then empty strings, then each string that is left), then the brackets are counted.
    A JSON parser stops at the first byte that is not JSON, so what follows it does not matter.
    """
    reduced = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_BRACKET_OR_QUOTE)
    reduced = reduced.replace(b'""', b"")  # a quote pair side by side: in or out of a string, nothing changes
    if reduced.count(b'"') > MAX_QUOTED:
        return False
    return _brackets_within(_QUOTED.sub(b"", reduced), limit)


def _brackets_within(brackets: bytes, limit: int) -> bool:
    """The same test on brackets alone. Dropping empty pairs keeps every other bracket's depth (a pair
    is dropped only when nothing is left between its two), so only the deepest ones go."""
    for _ in range(_ROUNDS):
        if len(brackets) <= limit:
            return True
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            break
        brackets = shorter
    if len(brackets) <= limit:
        return True
    depth = 0
    for start in range(0, len(brackets), _CHUNK):
        chunk = brackets[start:start + _CHUNK]
        opened = chunk.count(b"[") + chunk.count(b"{")
        if depth + opened > limit + _CHUNK:
            return False
        depth += 2 * opened - len(chunk)
        if depth < 0:  # more closed than opened: not JSON
            return False
    return True


# -- lone surrogates: text no file, database or page can hold ----------------------------------

# JSON may spell half of a UTF-16 pair alone (``"\\ud800"``), and ``json.loads`` makes it a str that no UTF-8
# encoder takes: a student's ``raise ValueError("\\ud800")`` (or a ``__repr__`` that returns one) stopped ``grade``
# for the whole class when its result was stored (sqlite3, every output file), on every run. Such an escape is
# the only way to one: the reply's bytes are decoded strictly.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_lone_surrogates(value):
    """``value`` with every lone surrogate in its strings (keys too) made U+FFFD; nesting already bounded."""
    kind = type(value)
    if kind is str:
        return _SURROGATE.sub("\ufffd", value)
    if kind is list:
        return [_without_lone_surrogates(item) for item in value]
    if kind is dict:
        return {_without_lone_surrogates(key): _without_lone_surrogates(item) for key, item in value.items()}
    return value


def _parsed(payload: bytes):
    """``json.loads`` of the payload, strictly UTF-8, lone surrogates replaced (the common reply has no surrogate
    escape at all: one scan of the bytes in C says so)."""
    value = json.loads(payload.decode("utf-8"))
    return _without_lone_surrogates(value) if _SURROGATE_ESCAPE.search(payload) else value


MESSAGE_DEPTH = 16  # a question or a note: a node's number, a position's path or its plain data


def loads_message(payload: bytes):
    """A question or a note from the child as plain data, or ``Refused`` (depth bounded first, like a reply)."""
    if len(payload) > 2 * MESSAGE_DEPTH and not depth_within(payload, MESSAGE_DEPTH):  # shorter cannot nest deeper
        raise Refused(f"nested more than {MESSAGE_DEPTH} deep")
    try:
        return _parsed(payload)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refused(f"not JSON: {exc}"[:200]) from None


# The two questions the kit's helpers ask thousands of times a case (and the note that starts each case), exactly as the child's json writes them:
# a node's value (``["v", 12]``) and an evaluation by path (``["e", "evaluate", [0, 2], 1]``). Read without the
# json module, to the very value json.loads gives (a strict subset of JSON, bounded repetition); anything else,
# or any other spacing, goes to ``loads_message``.
_NODE = re.compile(rb'\["v", (0|[1-9][0-9]{0,8})\]\Z')
_CASE = re.compile(rb'\["case", (0|[1-9][0-9]{0,8})\]\Z')  # the harness's note: which case begins
_BY_PATH = re.compile(rb'\["e", "(utility|evaluate)", \[((?:0|[1-9][0-9]{0,5})(?:, (?:0|[1-9][0-9]{0,5}))*)?\], ([01])\]\Z')


def loads_question(payload: bytes):
    """A question or note, as ``loads_message`` reads it; the kit's common questions the quick way."""
    found = _NODE.match(payload)
    if found is not None:
        return ["v", int(found[1])]
    found = _CASE.match(payload)
    if found is not None:
        return ["case", int(found[1])]
    found = _BY_PATH.match(payload)
    if found is not None:
        path = [int(step) for step in found[2].split(b", ")] if found[2] else []
        return ["e", found[1].decode(), path, int(found[3])]
    return loads_message(payload)


def loads(payload: bytes) -> dict:
    """The reply as a dict, or ``Refused``: never RecursionError, never a crash of the parent."""
    if not depth_within(payload):
        raise Refused(f"nested more than {MAX_DEPTH} deep")
    try:
        reply = _parsed(payload)
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError, and ints past int->str's digit limit
        raise Refused(f"not JSON: {exc}"[:200]) from None
    except RecursionError:  # cannot happen below MAX_DEPTH; if it does, still the reply's fault
        raise Refused("nested too deep to parse") from None
    if type(reply) is not dict:
        raise Refused("not an object")
    return reply


# -- step 2: only the harness's own keys, of their exact types --------------------------------

def _text(value, cap: int = TEXT) -> bool:
    return type(value) is str and len(value) <= cap


def _only(reply: dict, allowed: dict, what: str) -> None:
    """Every key is one the harness writes for this message, and its value passes that key's test."""
    for key, value in reply.items():
        test = allowed.get(key)
        if test is None:
            raise Refused(f"{what}: unknown key {key[:40]!r}")
        if not test(value):
            raise Refused(f"{what}: bad {key!r}")


def _fatal(value) -> bool:
    return type(value) is str and value in FATAL


def _names(value) -> bool:
    return type(value) is list and len(value) <= 64 and all(_text(v, 200) for v in value)


def _parts(value) -> bool:
    return (type(value) is dict and set(value) <= {"graded", "supplied"}
            and all(_names(v) for v in value.values()))


_INIT = {"ok": lambda v: type(v) is bool, "error": _text, "grader_fault": _text, "parts": _parts, "fatal": _fatal}
_RUN = {"results": lambda v: type(v) is list, "ok": lambda v: type(v) is bool, "error": _text, "fatal": _fatal,
        "late": lambda v: type(v) is list and 0 < len(v) <= LATE_ITEMS and all(type(n) is int and n >= 0 for n in v)}
LATE_ITEMS = 100_000  # numbers of inputs found changed after their own call (harness._serve_cases): one per case at most


def check_init(reply: dict) -> dict:
    """The load reply: ``ok``, with ``parts`` or an ``error`` or a ``grader_fault``; or ``fatal``."""
    _only(reply, _INIT, "load reply")
    return reply


def check_run(reply: dict, cases: list[dict]) -> list[dict]:
    """The run reply's results, one per case in order, each as ``harness.run_case`` writes it.

    A reply without ``results`` (a ``fatal`` is dealt with before this is asked) is refused too.
    """
    _only(reply, _RUN, "run reply")
    results = reply.get("results")
    if type(results) is not list or len(results) != len(cases):
        raise Refused("run reply: not one result per case")
    for case, result in zip(cases, results):
        check_result(result, case["id"])
    return results


def check_late(reply: dict, looked: int) -> list[int]:
    """The reply's ``late``: the numbers (0, 1, ... in the order the session saw them unchanged) of inputs found
    changed after their own call, each once and each one the session has numbered (``looked`` so far)."""
    late = reply.get("late", [])
    if len(set(late)) != len(late) or any(number >= looked for number in late):
        raise Refused("run reply: a late change of an input never looked at")
    return late


def _true(value) -> bool:
    return value is True


def _answer(value) -> bool:
    budget = [ANSWER_ITEMS]
    try:
        return _answer_item(value, 0, budget)
    except RecursionError:  # cannot happen: depth is checked first; refused all the same
        return False


_SCALAR_TAGS = {"int": int, "float": str, "bool": bool, "str": str}


def _answer_item(value, depth: int, budget: list) -> bool:
    """One item of ``harness.encode_answer``'s tagged encoding: ``{"t": tag, ...}``."""
    budget[0] -= 1
    if type(value) is not dict or budget[0] < 0 or depth > ANSWER_DEPTH:
        return False
    tag = value.get("t")
    if tag == "none":
        return len(value) == 1
    if tag == "other":
        return set(value) == {"t", "type", "repr"} and _text(value["type"]) and _text(value["repr"])
    if set(value) != {"t", "v"}:
        return False
    item = value["v"]
    if tag in _SCALAR_TAGS:
        return type(item) is _SCALAR_TAGS[tag]
    if tag in ("list", "tuple"):
        return type(item) is list and all(_answer_item(v, depth + 1, budget) for v in item)
    if tag == "dict":
        return type(item) is list and all(
            type(pair) is list and len(pair) == 2 and type(pair[0]) is str and _answer_item(pair[1], depth + 1, budget)
            for pair in item)
    return False


CHANGE = 400  # characters of what a call changed in its input, in words (``harness``: the driver's ``change_of``)


def _change(value) -> bool:
    return _text(value, CHANGE)


_RESULT = {"id": lambda v: True, "answer": _answer, "raised": _text, "timed_out": _true, "skipped": _text,
           "mutated": _true, "change": _change}


def check_result(result, case_id) -> dict:
    """One case's result: its own id, then only the fields ``harness.run_case`` writes."""
    if type(result) is not dict or result.get("id") != case_id or type(result.get("id")) is not type(case_id):
        raise Refused("a result for another case")
    _only(result, _RESULT, "case result")
    if "change" in result and "mutated" not in result:
        raise Refused("a change said of an input not changed")
    return result
