"""``[mistake_texts]`` of exercise.toml: a mistake code in the exercise's own words.

``[mistake_texts.min-max-swapped]`` gives ``text`` and ``question``; a key ``"code/name"`` words one
model of the code (one family with its parameter, one wrong search of the exercise's own) and needs
only a ``text``. The kit's own texts (``CODES``, one per family of ``grader.kit.families``) speak of MAX, MIN, positions and
moves; an exercise says the same in the words of its statement. Read for the declared exercises by
``KitMistakes`` and for an exercise with a mistakes module of its own by ``of_folder``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

# The kit's own words for each family's code (``grader.kit.families`` names the families by them).
CODES = {
    "assumes-alternation": ("Your search takes the players to alternate at every move, but in this game a player "
                            "sometimes moves again: after such a move the same side is to move, and your search "
                            "lets the other side choose there.",
                            "After a move that gives an extra turn, who chooses the next move?"),
    "depth-counts-turns": ("Your search uses up depth only when the player changes, but the depth counts every move "
                           "(ply): after an extra turn your search looks one move further ahead than it should.",
                           "When a player moves twice in a row, how much of the depth do those two moves use?"),
    "depth-counts-plies": ("Your search uses up depth at every move, but here the depth counts turns: a move that "
                           "gives the same player another move should not use any.",
                           "When a player moves twice in a row, how much of the depth do those two moves use?"),
    "terminal-test-inverted": ("Your test for the end of the game is the wrong way round: a position where the game "
                               "goes on is scored as it stands, and a finished game is searched on for moves.",
                               "Which positions should be scored straight away, and which ones searched further?"),
    "copied-helper": ("The part of your search for one player is a copy of the other player's part: there it keeps "
                      "the other player's choice and goes on with itself instead of handing the next move over, so "
                      "below it one side keeps choosing for the other.",
                      "In the part of your search for each player, which value is kept, and which part is asked "
                      "about the next move?"),
    "min-max-swapped": ("Where MAX is to move your search keeps the lowest value, and where MIN is to move the highest.",
                        "Which player wants the value high, and which one wants it low?"),
    "always-max": ("Your search keeps the highest value at every level, also where MIN is to move.",
                   "When it is MIN's turn, which of the values would MIN pick?"),
    "always-min": ("Your search keeps the lowest value at every level, also where MAX is to move.",
                   "When it is MAX's turn, which of the values would MAX pick?"),
    "no-alternation": ("The player does not change from one move to the next: the side to move at the start plays "
                       "every move of your search.",
                       "After one player has moved, whose turn is it?"),
    "ignores-player-argument": ("Your search always starts as MAX, whoever is to move, so positions where MIN is "
                                "to move come out wrong.",
                                "Where does your function learn whose turn it is?"),
    "depth-off-by-one": ("Your search stops one move too early: it scores positions with one move of depth left "
                         "instead of looking at that move.",
                         "With depth 1 left, how many more moves should be looked at?"),
    "depth-not-decremented": ("Your search does not stop at the depth limit: the depth never goes down as it goes "
                              "deeper, or nothing stops it when the depth runs out, so it only stops at the end of "
                              "the game.",
                              "Where does your search stop once the depth has run out, and what depth does the next "
                              "call get?"),
    "missing-terminal-check": ("Your search does not stop at a finished game: it keeps playing after the game is "
                               "won, or looks for moves where there are none.",
                               "What should happen when the game is already over?"),
    "sign-flip": ("Your values have the wrong sign: positions good for MAX are scored as bad and the other way round.",
                  "Whose point of view is the value given from?"),
    "bad-initial-bound": ("The best value so far starts at 0 instead of minus or plus infinity, so when every move "
                          "is worse than 0 for the player to move, the 0 is kept.",
                          "What should the best value be before any move has been looked at?"),
    "first-child-only": ("Your search returns after the first move it looks at, so only the first move is ever "
                         "considered.",
                         "Where is the return in your loop over the moves?"),
    "averages-children": ("Your search averages the values of the moves instead of picking the best one for the "
                          "player to move.",
                          "Does a player care about the average of their moves, or about one of them?"),
    "one-ply-search": ("Each move is scored by the position right after it, without looking at the replies.",
                       "After this move, what can the other player still do?"),
    "suboptimal-move": ("The value is right, but the move you return does not always get that value.",
                        "When you remember a new best value, do you remember the move that got it at the same moment?"),
    "no-moves-root": ("Where there is no move to make (the game is over, or no depth is left), the answer should "
                      "carry no move, but yours does.",
                      "What move is there to return when no move is looked at?"),
    "over-pruning": ("Your search cuts off moves it should still look at: it evaluates fewer positions than alpha-beta "
                     "does (pruning on equal values, for example, or with the wrong bound).",
                     "Should a move be cut off when its value only equals the bound?"),
    "under-pruning": ("Your search looks at positions alpha-beta would cut off: the bounds do not prune as they should.",
                      "Are alpha and beta updated and passed on to the next call?"),
    "evaluates-internal-nodes": ("Your search evaluates positions in the middle of the search, not only finished "
                                 "games and positions at the depth limit.",
                                 "Which positions need to be scored by the evaluation?"),
    "horizon-not-evaluated": ("Your search misses positions it should evaluate.",
                              "Is every position at the depth limit, and every finished game, scored?"),
    "wrong-return-type": ("The answer does not have the declared shape or types.",
                          "What exactly does the caller expect back?"),
    "mutates-tree": ("Your function changes the position it was given.",
                     "Could the caller use the position again, unchanged, after the call?"),
    "board-not-restored": ("The position is not the same after your function returns: a move tried while searching "
                           "stays there, and the rest of the search then sees a position that never happened.",
                           "Is every move you try taken back on every path out of the loop, early returns included?"),
    "wrong-move-recorded": ("The value is right, but the move you return is not the one tried at this level: it is "
                            "the move passed up from deeper in the search (or never set), so \"no move\" can come "
                            "back for a position that still has moves.",
                            "Where in your loop does the answer get the move you just tried?"),
}


def read(meta: dict) -> dict[str, tuple[str, str]]:
    """``{code or "code/name": (text, question)}`` from an exercise's parsed exercise.toml."""
    worded = meta.get("mistake_texts") or {}
    return {str(code): (str(t.get("text", "")), str(t.get("question", "")))
            for code, t in worded.items() if isinstance(t, dict)}


def of_folder(folder) -> dict[str, tuple[str, str]]:
    """The kit's texts, each code the exercise words replaced by its own (the exercise.toml in ``folder``)."""
    with open(Path(folder) / "exercise.toml", "rb") as handle:
        return {**CODES, **read(tomllib.load(handle))}


def text_of(words: dict, code: str, name: str | None = None) -> tuple[str, str]:
    """(text, question) of one model: its own text and question where the exercise words them (``name``), else the
    code's."""
    text, question = words.get(code, ("", ""))
    if name in words:
        return words[name][0] or text, words[name][1] or question
    return text, question
