"""``[mistake_texts]`` of exercise.toml: a mistake code in the exercise's own words.

``[mistake_texts.min-max-swapped]`` gives ``text`` and ``question``; a key ``"code/name"`` words one
model of the code (one family with its parameter, one wrong search of the exercise's own) and needs
only a ``text``. The kit's own texts (``grader.kit.families.CODES``) speak of MAX, MIN, positions and
moves; an exercise says the same in the words of its statement. Read for the declared exercises by
``KitMistakes`` and for an exercise with a mistakes module of its own by ``of_folder``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def read(meta: dict) -> dict[str, tuple[str, str]]:
    """``{code or "code/name": (text, question)}`` from an exercise's parsed exercise.toml."""
    worded = meta.get("mistake_texts") or {}
    return {str(code): (str(t.get("text", "")), str(t.get("question", "")))
            for code, t in worded.items() if isinstance(t, dict)}


def of_folder(folder) -> dict[str, tuple[str, str]]:
    """The kit's texts, each code the exercise words replaced by its own (the exercise.toml in ``folder``)."""
    from grader.kit.families import CODES

    with open(Path(folder) / "exercise.toml", "rb") as handle:
        return {**CODES, **read(tomllib.load(handle))}


def text_of(words: dict, code: str, name: str | None = None) -> tuple[str, str]:
    """(text, question) of one model: its own text where the exercise words it (``name``), else the code's."""
    text, question = words.get(code, ("", ""))
    return (words[name][0] if name in words and words[name][0] else text), question
