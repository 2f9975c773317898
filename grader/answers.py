"""What the student's function returned, decoded from plain data with its exact type.

The sandbox never sends objects, only a tag: ``int`` and ``float`` (exactly those types, not
``bool`` and not subclasses) carry their value; anything else carries its type name and a
short repr and can never equal an expected value, whatever its ``__eq__`` would have said.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    kind: str  # "int", "float", "other"
    value: Any = None
    type_name: str = ""
    text: str = ""

    @classmethod
    def decode(cls, data: Any) -> "Answer":
        if not isinstance(data, dict):
            return cls("other", type_name="?", text="(undecodable answer)")
        kind = data.get("t")
        if kind == "int" and type(data.get("v")) is int:
            return cls("int", data["v"], "int", str(data["v"]))
        if kind == "float" and type(data.get("v")) is str:
            try:
                value = float.fromhex(data["v"])
            except ValueError:
                return cls("other", type_name="?", text="(undecodable float)")
            return cls("float", value, "float", repr(value))
        return cls("other", None, str(data.get("type", "?"))[:80], str(data.get("repr", ""))[:200])

    @property
    def is_number(self) -> bool:
        return self.kind in ("int", "float")

    def equals_number(self, expected: int | float) -> bool:
        """Numeric equality between exact ints/floats; 7.0 equals 7, NaN equals nothing."""
        if not self.is_number or type(expected) not in (int, float):
            return False
        if isinstance(self.value, float) and math.isnan(self.value):
            return False
        return self.value == expected

    def show(self) -> str:
        if self.is_number:
            return self.text
        return f"{self.text} (a {self.type_name}, not a number)"

    def to_plain(self) -> Any:
        """For the JSON contract: numbers as numbers, anything else as its description."""
        if self.kind == "int":
            return self.value
        if self.kind == "float":
            return self.value if math.isfinite(self.value) else repr(self.value)
        return self.show()
