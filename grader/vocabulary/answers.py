"""What the student's function returned, decoded from plain data with its exact type.

The sandbox never sends objects, only tags. Numbers are ``int`` and ``float`` (exactly those
types, not ``bool`` and not subclasses); ``bool``, ``None`` and ``str`` are tagged as
themselves; exact ``list``, ``tuple`` and ``dict`` (with ``str`` keys) carry their items,
each decoded the same way, so an exercise can ask "a list of exactly three ints" without
ever touching a foreign object. Anything else carries its type name and a short repr and
can never equal an expected value, whatever its ``__eq__`` would have said.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


SCALARS = ("int", "float", "bool", "none", "str")
CONTAINERS = ("list", "tuple", "dict")
MAX_DEPTH = 10


LONG_INT_DIGITS = 30  # an int with more digits is shown by its ends and its length


def int_text(value: int) -> str:
    """An int as reports show it: in full, or, past ``LONG_INT_DIGITS`` digits (a student's ``10 ** 400``), its
    first and last digits and how many there are, so a wrong answer's line stays a line."""
    text = str(value)
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    if len(digits) <= LONG_INT_DIGITS:
        return text
    return f"{sign}{digits[:12]}...{digits[-6:]} (a {len(digits)}-digit integer)"


@dataclass(frozen=True)
class Answer:
    kind: str  # "int", "float", "bool", "none", "str", "list", "tuple", "dict" or "other"
    value: Any = None  # the plain value: scalars as themselves, containers rebuilt from their items
    type_name: str = ""
    text: str = ""
    items: tuple = ()  # containers: the decoded items (Answers); dicts: (key, Answer) pairs

    @classmethod
    def decode(cls, data: Any, _depth: int = 0) -> "Answer":
        if not isinstance(data, dict) or _depth > MAX_DEPTH:
            return cls("other", type_name="?", text="(undecodable answer)")
        kind = data.get("t")
        if kind == "int" and type(data.get("v")) is int:
            return cls("int", data["v"], "int", int_text(data["v"]))
        if kind == "float" and type(data.get("v")) is str:
            try:
                value = float.fromhex(data["v"])
            except (ValueError, OverflowError):  # "0x1p99999" is no float the harness writes
                return cls("other", type_name="?", text="(undecodable float)")
            return cls("float", value, "float", repr(value))
        if kind == "bool" and type(data.get("v")) is bool:
            return cls("bool", data["v"], "bool", repr(data["v"]))
        if kind == "none":
            return cls("none", None, "NoneType", "None")
        if kind == "str" and type(data.get("v")) is str:
            return cls("str", data["v"], "str", repr(data["v"]))
        if kind in ("list", "tuple") and type(data.get("v")) is list:
            items = tuple(cls.decode(item, _depth + 1) for item in data["v"])
            return cls._container(kind, items)
        if kind == "dict" and type(data.get("v")) is list:
            pairs = []
            for pair in data["v"]:
                if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                    return cls("other", type_name="?", text="(undecodable answer)")
                pairs.append((pair[0], cls.decode(pair[1], _depth + 1)))
            return cls._container("dict", tuple(pairs))
        return cls("other", None, str(data.get("type", "?"))[:80], str(data.get("repr", ""))[:200])

    @classmethod
    def _container(cls, kind: str, items: tuple) -> "Answer":
        if kind == "dict":
            value = {key: item.value for key, item in items}
            text = "{" + ", ".join(f"{key!r}: {item.text}" for key, item in items) + "}"
        elif kind == "list":
            value = [item.value for item in items]
            text = "[" + ", ".join(item.text for item in items) + "]"
        else:
            value = tuple(item.value for item in items)
            text = "(" + ", ".join(item.text for item in items) + ("," if len(items) == 1 else "") + ")"
        return cls(kind, value, kind, text, items)

    @property
    def is_number(self) -> bool:
        return self.kind in ("int", "float")

    @property
    def is_plain(self) -> bool:
        """True when this answer and everything inside it is plain data (no ``other`` anywhere)."""
        if self.kind == "other":
            return False
        if self.kind == "dict":
            return all(item.is_plain for _, item in self.items)
        return all(item.is_plain for item in self.items)

    def is_sequence_of(self, kinds: tuple[str, ...], length: int | None = None,
                       containers: tuple[str, ...] = ("list", "tuple")) -> bool:
        """A list (or tuple) whose items all have one of ``kinds``, e.g. exactly three ints."""
        return (self.kind in containers and (length is None or len(self.items) == length)
                and all(item.kind in kinds for item in self.items))

    def same_as(self, expected: Any) -> bool:
        """Exact equality with plain data: same types all the way down (``True`` is not ``1``,
        ``(1, 2)`` is not ``[1, 2]``), floats compared by value, NaN equal to nothing."""
        kind = type(expected)
        if kind is bool:
            return self.kind == "bool" and self.value is expected
        if expected is None:
            return self.kind == "none"
        if kind in (int, float):
            return self.kind == kind.__name__ and not (kind is float and math.isnan(expected)) and self.value == expected
        if kind is str:
            return self.kind == "str" and self.value == expected
        if kind in (list, tuple):
            return (self.kind == kind.__name__ and len(self.items) == len(expected)
                    and all(item.same_as(e) for item, e in zip(self.items, expected)))
        if kind is dict:
            return (self.kind == "dict" and [k for k, _ in self.items] == list(expected)
                    and all(item.same_as(expected[k]) for k, item in self.items))
        return False

    def equals_number(self, expected: int | float) -> bool:
        """Numeric equality between exact ints/floats; 7.0 equals 7, NaN equals nothing."""
        if not self.is_number or type(expected) not in (int, float):
            return False
        if isinstance(self.value, float) and math.isnan(self.value):
            return False
        return self.value == expected

    def show(self) -> str:
        text = self.text if len(self.text) <= 80 else self.text[:77] + "..."
        if self.is_number:
            return text
        if self.type_name == "int":  # an exact int the sandbox would not print (too many digits)
            return f"{text} (too large to compare)"
        return f"{text} (of type {self.type_name}, not an int or a float)"

    def describe(self) -> str:
        """The answer with its type, for exercises whose answers are not numbers."""
        if self.kind in CONTAINERS or self.is_number:
            return self.text
        return f"{self.text} (a {self.type_name})"

    def to_plain(self) -> Any:
        """For the JSON contract: numbers as numbers, anything else as its description."""
        if self.kind == "int":
            return self.value
        if self.kind == "float":
            return self.value if math.isfinite(self.value) else repr(self.value)
        return self.show()

    def plain(self) -> Any:
        """The answer as JSON data (tuples become lists, non-finite floats and ``other`` become text)."""
        return self._inner_plain()

    def _inner_plain(self) -> Any:
        if self.kind in ("list", "tuple"):
            return [item._inner_plain() for item in self.items]
        if self.kind == "dict":
            return {key: item._inner_plain() for key, item in self.items}
        if self.kind == "float":
            return self.value if math.isfinite(self.value) else repr(self.value)
        if self.kind in SCALARS:
            return self.value
        return self.describe()
