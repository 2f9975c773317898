"""A submission's source text as a set of fingerprints that survive disguise.

The method is MOSS's winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) over a
normalised token stream: comments, docstrings and layout are dropped; a name the student
chose becomes ``V``, a number ``N``, a string ``S``; keywords, operators, builtins and the
exercise's vocabulary (the names the statement fixes, such as ``get_value`` or
``forecast_move``, which a copier cannot rename) stay as they are. Renaming, reformatting,
changing comments and reordering functions therefore leave most fingerprints unchanged, and
the set of fingerprints ignores order.

The tokens come from one compiled regular expression, not from the standard ``tokenize``
module: ``tokenize`` builds a named tuple with positions for every token and was two thirds
of the time of comparing a class of a thousand (10 of 16 s on a loaded machine); the
expression scans in C, and it never gives up on text that is not valid Python (a half-broken
copy is still compared on what it has).

Hashes are built from CRC-32 of each token and Python's hash of a tuple of ints, which is
the same in every process (only ``str`` hashes are salted), so fingerprints may be compared
across runs and workers.
"""

from __future__ import annotations

import builtins
import keyword
import re
import zlib
from collections.abc import Iterable

KEPT_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
OPENING, CLOSING = frozenset("([{"), frozenset(")]}")
# Strings as Python reads them, escapes included (a docstring holding \""" does not end there), and a string left
# open ends at its line's end (a short one) or the text's (a long one), as an error-tolerant lexer ends it: never a
# scan to the line's end from every quote of a line (a passing file whose docstring held one line of "\ pairs cost
# 112 s of every grade of its class: the hundred and tenth helper). Every match is linear: the choices inside a
# string never overlap.
_TRIPLE_DOUBLE = '"' * 3 + r"(?:[^\\]|\\[\s\S])*?(?:" + '"' * 3 + r"|\\?\Z)"
_TRIPLE_SINGLE = "'" * 3 + r"(?:[^\\]|\\[\s\S])*?(?:" + "'" * 3 + r"|\\?\Z)"
_SHORT_DOUBLE = r'"(?:\\[\s\S]|[^"\\\n])*\\?(?:"|(?=\n)|\Z)'
_SHORT_SINGLE = r"'(?:\\[\s\S]|[^'\\\n])*\\?(?:'|(?=\n)|\Z)"
TOKEN = re.compile("|".join([
    r"(?P<comment>#[^\n]*)",
    rf"(?P<string>[rRbBuUfF]{{0,2}}(?:{_TRIPLE_DOUBLE}|{_TRIPLE_SINGLE}|{_SHORT_DOUBLE}|{_SHORT_SINGLE}))",
    r"(?P<number>0[xXoObB][0-9a-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?)",
    r"(?P<name>[^\W\d]\w*)",
    r"(?P<newline>\n)",
    r"(?P<op>\*\*=?|//=?|>>=?|<<=?|->|:=|\.\.\.|[-+*/%@&|^<>=!]=|[-+*/%@&|^~<>=()\[\]{},:;.])",
]))


def tokens(text: str, vocabulary: Iterable[str] = ()) -> list[str]:
    """The normalised token stream of ``text``.

    A string that stands alone as a statement (a docstring, or a string used as a comment)
    is dropped; a comma just before a closing bracket is dropped (formatters add and remove
    it). Characters that are no token (a stray ``$`` or ``?``, a backslash) are skipped.
    """
    kept = KEPT_NAMES | frozenset(vocabulary)
    out: list[str] = []
    depth = 0
    statement_start = True
    for match in TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "comment":
            continue
        if kind == "newline":
            if depth == 0:
                statement_start = True
            continue
        if kind == "string":
            if not statement_start:
                out.append("S")
            continue  # a string at the start of a statement is a docstring or a comment
        if kind == "name":
            value = match.group()
            out.append(value if value in kept else "V")
        elif kind == "number":
            out.append("N")
        else:
            value = match.group()
            if value in OPENING:
                depth += 1
            elif value in CLOSING:
                depth = max(depth - 1, 0)
                if out and out[-1] == ",":
                    out.pop()
            out.append(value)
        statement_start = False
    return canonical(out)


COMPARISONS = {">": "<", ">=": "<=", "<": "<", "<=": "<="}
AUGMENTED = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^=", "<<=", ">>=", "@="}
ATOMS = frozenset("VNS")


def canonical(stream: list[str]) -> list[str]:
    """Two rewrites that change no meaning but many tokens, undone so that they cost nothing:

    * a comparison reads one way: ``>`` becomes ``<`` (``>=``, ``<=``), and when both sides are
      single names or literals they are put in a fixed order, so ``0 >= depth`` and
      ``depth <= 0`` are the same tokens;
    * an augmented assignment to a plain name is spelt out: ``x += 1`` as ``x = x + 1``.

    Anything longer (``a.b > c[0]``) only has its operator turned.
    """
    out: list[str] = []
    for token in stream:
        if token in AUGMENTED and out and out[-1] == "V" and (len(out) < 2 or out[-2] not in (".", ")", "]")):
            out += ["=", "V", token[:-1]]
            continue
        out.append(COMPARISONS.get(token, token))
    last = len(out) - 1
    for i in range(1, last):
        if out[i] in ("<", "<=") and out[i - 1] in ATOMS and out[i + 1] in ATOMS:
            left_alone = i < 2 or out[i - 2] not in (".", ")", "]")
            right_alone = i + 2 > last or out[i + 2] not in ("(", "[", ".")
            if left_alone and right_alone and out[i - 1] > out[i + 1]:
                out[i - 1], out[i + 1] = out[i + 1], out[i - 1]
    return out


def kgram_hashes(stream: list[str], k: int) -> list[int]:
    """One hash per run of ``k`` consecutive tokens (none when the stream is shorter than ``k``).

    Written with ``map`` and ``zip`` so that the loops run in C: this is the inner loop of a
    class of a thousand."""
    table = {token: zlib.crc32(token.encode("utf-8")) for token in set(stream)}
    codes = list(map(table.__getitem__, stream))
    return list(map(hash, zip(*(codes[j:] for j in range(k)))))


def winnow(hashes: list[int], window: int) -> set[int]:
    """The minimum hash of every window of ``window`` consecutive k-gram hashes (MOSS's selection).

    Any run of ``k + window - 1`` tokens shared by two texts shares at least one selected
    fingerprint, while far fewer hashes are kept than k-grams. ``window`` 1 keeps them all.
    """
    if window <= 1:
        return set(hashes)
    if len(hashes) <= window:
        return {min(hashes)} if hashes else set()
    return set(map(min, *(hashes[j:] for j in range(window))))


def fingerprints(text: str, k: int, window: int, vocabulary: Iterable[str] = ()) -> set[int]:
    return winnow(kgram_hashes(tokens(text, vocabulary), k), window)
