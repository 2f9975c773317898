"""Settings a project keeps in its own ``pyproject.toml``, under ``[tool.minimax-grader]``.

One reader for every door (the command line, the Python API, the pytest plugin), so an
instructor who writes ``exercises-dir = "my-exercises"`` once gets the same exercises
everywhere. Only the current folder's ``pyproject.toml`` counts: walking up the tree would
let a file far away change what a student's command means without them seeing it.
Relative paths are taken relative to the folder holding the ``pyproject.toml``, not to
wherever the command happens to run from later.

May import: nothing
"""

from __future__ import annotations

import tomllib
from pathlib import Path

TABLE = "minimax-grader"


class ConfigError(Exception):
    """The ``[tool.minimax-grader]`` table is unreadable or says something impossible."""


def pyproject_path(folder: Path | None = None) -> Path | None:
    """``folder``'s (by default the working folder's) pyproject.toml; None where the working folder no longer exists
    (removed under a shell still in it: every command printed a traceback)."""
    if folder is None:
        try:
            folder = Path.cwd()
        except FileNotFoundError:
            return None
    return Path(folder) / "pyproject.toml"


def read_table(folder: Path | None = None) -> dict:
    """The ``[tool.minimax-grader]`` table of ``folder``'s pyproject.toml ({} when there is none)."""
    path = pyproject_path(folder)
    if path is None:
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    table = data.get("tool", {}).get(TABLE, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.{TABLE}] must be a table")
    return table


def exercises_dirs(folder: Path | None = None) -> list[Path]:
    """The ``exercises-dir`` setting as absolute paths: one string or a list of them."""
    table = read_table(folder)
    value = table.get("exercises-dir")
    if value is None:
        return []
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise ConfigError(f"{pyproject_path(folder)}: exercises-dir must be a folder name or a list of them")
    base = pyproject_path(folder).parent.resolve()
    return [(base / v).resolve() for v in values]
