"""A submission's source text as a set of fingerprints that survive disguise.

The method is MOSS's winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) over a
normalised token stream: Python's own ``tokenize`` splits the text; comments, docstrings and
layout are dropped; a name the student chose becomes ``V``, a number ``N``, a string ``S``;
keywords, operators, builtins and the exercise's vocabulary (the names the statement fixes,
such as ``get_value`` or ``forecast_move``, which a copier cannot rename) stay as they are.
Renaming, reformatting, changing comments and reordering functions therefore leave most
fingerprints unchanged, and the set of fingerprints ignores order.

Hashes are built from CRC-32 of each token and Python's hash of a tuple of ints, which is
the same in every process (only ``str`` hashes are salted), so fingerprints may be compared
across runs and workers.
"""

from __future__ import annotations

import builtins
import io
import keyword
import tokenize
import zlib
from collections.abc import Iterable

KEPT_NAMES = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)
LAYOUT = {tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
          tokenize.ENCODING, tokenize.ENDMARKER}
CLOSING = {")", "]", "}"}


def tokens(text: str, vocabulary: Iterable[str] = ()) -> list[str]:
    """The normalised token stream of ``text``; what cannot be tokenised ends the stream there.

    A string that stands alone as a statement (a docstring, or a string used as a comment)
    is dropped; a comma just before a closing bracket is dropped (formatters add and remove
    it). Unparsable code still yields the tokens before the fault, so a half-broken copy is
    compared on what it has.
    """
    kept = KEPT_NAMES | frozenset(vocabulary)
    out: list[str] = []
    statement_start = True
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, value = tok.type, tok.string
            if kind in LAYOUT:
                if kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                    statement_start = True
                continue
            if kind == tokenize.STRING and statement_start:
                continue  # a docstring or a string used as a comment
            statement_start = False
            if kind == tokenize.NAME:
                out.append(value if value in kept else "V")
            elif kind == tokenize.NUMBER:
                out.append("N")
            elif kind == tokenize.STRING:
                out.append("S")
            elif kind == tokenize.OP:
                if value in CLOSING and out and out[-1] == ",":
                    out.pop()
                out.append(value)
            else:
                out.append(value)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def _token_code(token: str) -> int:
    return zlib.crc32(token.encode("utf-8"))


def kgram_hashes(stream: list[str], k: int) -> list[int]:
    """One hash per run of ``k`` consecutive tokens (none when the stream is shorter than ``k``)."""
    codes = [_token_code(t) for t in stream]
    return [hash(tuple(codes[i:i + k])) for i in range(len(codes) - k + 1)]


def winnow(hashes: list[int], window: int) -> set[int]:
    """The minimum hash of every window of ``window`` consecutive k-gram hashes (MOSS's selection).

    Any run of ``k + window - 1`` tokens shared by two texts shares at least one selected
    fingerprint, while far fewer hashes are kept than k-grams. ``window`` 1 keeps them all.
    """
    if window <= 1 or len(hashes) <= window:
        return set(hashes) if window <= 1 else ({min(hashes)} if hashes else set())
    return {min(hashes[i:i + window]) for i in range(len(hashes) - window + 1)}


def fingerprints(text: str, k: int, window: int, vocabulary: Iterable[str] = ()) -> set[int]:
    return winnow(kgram_hashes(tokens(text, vocabulary), k), window)
