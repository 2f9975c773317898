"""What the kit driver's traces say, read once for the hooks' checks and the mistake families alike.

A trace is plain data from the sandbox: ``evaluated`` lists the positions whose evaluation the
student asked for, each as its path of child indices from the root (``"?"`` for a state the kit
never handed out). Standard library only.
"""

from __future__ import annotations


def evaluated_paths(trace: dict) -> list[tuple] | None:
    """The evaluated positions of a trace as paths; None when one of them was not handed out by the kit."""
    found = []
    for entry in trace.get("evaluated") or []:
        if type(entry) is not list or not all(type(i) is int for i in entry):
            return None
        found.append(tuple(entry))
    return found
