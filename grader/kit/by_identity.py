"""Values remembered by the identity of the plain data they were computed from.

The bank's case inputs and trees are asked about again and again (by every check, by every mistake
family, by every failing submission a bulk worker grades), and they are dicts, so they cannot be
keys. An entry holds its object, so an id is never reused while the entry lives; the memory is
dropped whole once it outgrows ``cap`` (a new bank, shrinking candidates), never trimmed piece by piece.
"""

from __future__ import annotations


class ByIdentity:
    def __init__(self, cap: int):
        self.cap = cap
        self._entries: dict[tuple, tuple] = {}

    def get(self, obj, compute, tag=None):
        """``compute()`` for ``obj`` (and ``tag``, when one object has several values), remembered."""
        key = (id(obj), tag)
        hit = self._entries.get(key)
        if hit is None or hit[0] is not obj:
            if len(self._entries) > self.cap:
                self._entries.clear()
            hit = self._entries[key] = (obj, compute())
        return hit[1]

    def clear(self) -> None:
        self._entries.clear()
