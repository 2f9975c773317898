"""The kit's case bank: fixture positions, every reachable position (small games), seeded play.

A case input is plain data: ``{"state": <encoded position>, "depth": d}`` (the depth only when
the student's function takes one). Random positions come from a hypothesis strategy built
from small integers (which start, how many moves, which move each time, which depth), so
hypothesis shrinks toward the first start, fewer moves and the first moves; the judge's own
shrinker then walks toward positions with fewer moves left.
"""

from __future__ import annotations

import json
from pathlib import Path


class FixtureError(Exception):
    """A fixture file the kit cannot read (the instructor's problem, named by file and entry)."""


def _input(game, state, depth, decl) -> dict:
    data = {"state": game.encode(state)}
    if decl["depth_limited"]:
        data["depth"] = game.moves_left(state) if decl["depth_to_end"] else depth
    return data


def fixture_cases(game, decl, folder: Path) -> list[dict]:
    """Positions from ``*.json`` files: ``{"positions": [{"name", "state", "depth"?, "value"?}]}``."""
    return [_case(game, decl, path, number, item) for path, number, item in _positions(folder)]


def _positions(folder: Path):
    """(file, number, entry) for every position of every ``*.json`` file, in order."""
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            items = json.loads(path.read_text(encoding="utf-8"))["positions"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise FixtureError(f"{path.name}: not a positions file ({exc})") from None
        for number, item in enumerate(items, 1):
            if not isinstance(item, dict) or "state" not in item:
                raise FixtureError(f"{path.name}: position {number} has no state")
            yield path, number, item


def _case(game, decl, path: Path, number: int, item: dict) -> dict:
    depth = item.get("depth", decl["depths"][0] if decl["depth_limited"] else None)
    name = str(item.get("name", number))
    return {"id": f"{path.stem}/{name}", "group": "fixtures", "title": str(item.get("title", name)),
            "input": _input(game, game.decode(item["state"]), depth, decl), "known": item.get("value")}


def stated_values(game, decl, folder: Path) -> list[tuple[str, dict, object]]:
    """(case id, case input, stated value) for every fixture position that states its value: what the
    exercise checks against the reference when it loads (the bank itself may come shipped)."""
    cases = [_case(game, decl, path, number, item) for path, number, item in _positions(folder)
             if item.get("value") is not None]
    return [(case["id"], case["input"], case["known"]) for case in cases]


def reachable_cases(game, decl) -> list[dict]:
    """Every reachable position up to the cap, each with one of the declared depths in turn."""
    if decl["positions"] != "reachable":
        return []
    cases = []
    for index, state in enumerate(game.reachable(decl["cap"])):
        depth = decl["depths"][index % len(decl["depths"])] if decl["depth_limited"] else None
        data = _input(game, state, depth, decl)
        cases.append({"id": f"reachable/{json.dumps(data, sort_keys=True, separators=(',', ':'))}",
                      "group": "reachable", "input": data})
    return cases


def strategy(game, decl):
    """Random positions reached by legal play from a start position, with a declared depth."""
    from hypothesis import strategies as st

    fewest, most = decl["random_moves"]

    @st.composite
    def positions(draw):
        state = game.starts[draw(st.integers(0, len(game.starts) - 1))]
        for _ in range(draw(st.integers(fewest, most))):
            if game.is_terminal(state):
                break
            moves = game.actions(state)
            state = game.result(state, moves[draw(st.integers(0, len(moves) - 1))])
        depth = draw(st.sampled_from(decl["depths"])) if decl["depth_limited"] else None
        return _input(game, state, depth, decl)

    return positions()
