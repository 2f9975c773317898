"""Grader side of tic-tac-toe: the mistakes students make, read from their answers.

A position's score does not depend on tie-breaks, so wrong searches are modelled on the
score alone: each model below is the reference search with one thing changed, and it names
the mistake when it gives the student's score on every position they answered, wrong ones
included. The move does depend on tie-breaks, so mistakes in the move are read by rules
(scores right, moves not) and the board and the answer's shape from the behaviour checks.
Nothing here shows code; each text ends with a question.
"""

from __future__ import annotations

from functools import lru_cache

from grader.diagnose import Finding, best_per_code, clear_winners, fit_hypothesis, supported_by

MAX, MIN = +1, -1
LINES = ([[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
         + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]])

CODES = {
    "min-max-swapped": (
        "MAX and MIN choose the wrong way round: where the computer (+1) is to move your search keeps the "
        "lowest score, and where the person (-1) is to move the highest.",
        "Which player wants the score high, and which one wants it low?"),
    "always-max": (
        "Your search keeps the highest score at every level, also where MIN (-1) is to move; MIN picks the "
        "move that is worst for the computer.",
        "When it is the person's turn, which of the scores would they pick?"),
    "always-min": (
        "Your search keeps the lowest score at every level, also where MAX (+1) is to move.",
        "When it is the computer's turn, which of the scores would it pick?"),
    "no-alternation": (
        "The player does not change from one move to the next: the same side plays every move of the search.",
        "After one player has put a mark on the board, who puts the next one?"),
    "missing-terminal-check": (
        "The search does not stop when somebody has already won: it keeps filling the board, so a won game "
        "can be scored as something else.",
        "Is a game over only when the board is full?"),
    "depth-off-by-one": (
        "The search stops one move too early: when one free cell is left, the board is scored as it is, "
        "without playing that last cell.",
        "With depth 1 left, is the game over already?"),
    "one-ply-search": (
        "Each move is scored by the board right after it, without looking at the answers the opponent has.",
        "After your move, what can the other player still do?"),
    "ignores-player-argument": (
        "Who is to move is not taken from the player argument (for example it is worked out from the number "
        "of free cells), so positions where the other side is to move come out wrong.",
        "Two positions with the same free cells but a different player to move: should they get the same answer?"),
    "wrong-move-recorded": (
        "The score is right, but the [row, col] you return is not the cell tried at this level: it is the move "
        "passed up from deeper in the search (or never set), so a finished game's [-1, -1] can come back "
        "for a position that still has free cells.",
        "Where in your loop do row and col get the cell you just tried?"),
    "suboptimal-move": (
        "The score is right, but the move you return does not always get that score: the cell is kept even "
        "when its score was not the best one.",
        "When you remember a new best score, do you remember the cell that got it at the same moment?"),
    "board-not-restored": (
        "The board is not the same after your function returns: a mark put down while searching stays there, "
        "and later moves of the search then see a board that never happened.",
        "Is every mark you put down taken back on every path out of the loop, early returns included?"),
    "wrong-return-type": (
        "minimax must return a list [row, col, score] every time, a finished game included ([-1, -1, score]).",
        "What does the caller do with the answer of a call one level deeper?"),
}

CHECK_CODES = {
    "board-restored": {"code": "board-not-restored", "even_if_skipped": True},
    "returns-row-col-score": {"code": "wrong-return-type", "even_if_skipped": True},
}

MODELS = []  # scores are matched by the rules below: a move's tie-break must never decide a mistake


# -- wrong searches, on boards as tuples of rows ------------------------------------------------

def _winner(board):
    for line in LINES:
        (r1, c1), (r2, c2), (r3, c3) = line
        mark = board[r1][c1]
        if mark != 0 and mark == board[r2][c2] == board[r3][c3]:
            return mark
    return 0


def _evaluate(board):
    wins_max = any(all(board[r][c] == MAX for r, c in line) for line in LINES)
    wins_min = any(all(board[r][c] == MIN for r, c in line) for line in LINES)
    return +1 if wins_max else -1 if wins_min else 0


def _free(board):
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == 0]


def _play(board, cell, player):
    r, c = cell
    row = board[r][:c] + (player,) + board[r][c + 1:]
    return board[:r] + (row,) + board[r + 1:]


@lru_cache(maxsize=None)
def _search(board, player, variant):
    free = _free(board)
    depth = len(free)
    stop = depth == 0 or (variant != "missing-terminal-check" and _winner(board) != 0)
    if variant == "depth-off-by-one":
        stop = stop or depth <= 1
    if stop:
        return _evaluate(board)
    mover = player
    if variant == "ignores-player-argument":
        mover = MAX if depth % 2 == 1 else MIN
    nxt = mover if variant == "no-alternation" else -mover
    if variant == "one-ply-search":
        scores = [_evaluate(_play(board, cell, mover)) for cell in free]
    else:
        scores = [_search(_play(board, cell, mover), nxt, variant) for cell in free]
    wants_max = mover == MAX
    if variant == "min-max-swapped":
        wants_max = not wants_max
    elif variant == "always-max":
        wants_max = True
    elif variant == "always-min":
        wants_max = False
    return max(scores) if wants_max else min(scores)


@lru_cache(maxsize=None)
def _below_root(board, player, variant):
    """The root's own loop is right (its terminal test, its choice for ``player``); the helper that values
    each move has the mistake ``variant``: a root written apart from the search below it."""
    free = _free(board)
    if not free or _winner(board) != 0:
        return _evaluate(board)
    scores = [_search(_play(board, cell, player), -player, variant) for cell in free]
    return max(scores) if player == MAX else min(scores)


BELOW_ROOT = ("min-max-swapped", "always-max", "always-min", "missing-terminal-check")
SCORE_VARIANTS = ["min-max-swapped", "always-max", "always-min", "no-alternation", "missing-terminal-check",
                  "depth-off-by-one", "one-ply-search", "ignores-player-argument"] + [f"{v}/below-root" for v in BELOW_ROOT]
# The player argument replaced by one fixed player: the right search, always started for MAX (or MIN).
SCORE_VARIANTS += ["ignores-player-argument/as-max", "ignores-player-argument/as-min"]


def _score_of(case_key, variant):
    if variant.endswith(("/as-max", "/as-min")):
        return _search(case_key[0], MAX if variant.endswith("/as-max") else MIN, "right")
    if variant.endswith("/below-root"):
        return _below_root(*case_key, variant.split("/")[0])
    return _search(*case_key, variant)


def _triple(answer):
    """(row, col, score) from a well-shaped answer, else None."""
    if answer is None or answer.kind not in ("list", "tuple") or len(answer.items) != 3:
        return None
    row, col, score = answer.items
    if row.kind != "int" or col.kind != "int" or not score.is_number:
        return None
    return row.value, col.value, score.value


def _answered(facts):
    out = []
    for outcome in facts.outcomes:
        reply = facts.reply(outcome)
        triple = _triple(outcome.answer) if reply is not None and reply[0] != "raised" else None
        if triple is not None:
            out.append((outcome, triple))
    return sorted(out, key=lambda pair: facts.size(pair[0]))


def _key(case_input):
    return tuple(tuple(row) for row in case_input["board"]), case_input["player"]


def _finding(code, facts, compared, explained, example, check="scores", fit=None):
    text, question = CODES[code]
    answer = example.answer.describe() if example.answer is not None else "no answer"
    shown = f"for example {facts.call(example)}: you returned {answer}, the position is worth {example.expected['score']}"
    if fit is not None and not fit.complete:
        evidence = (f"this mistake fits {fit.agreed} of the {compared} positions it was compared on and {explained} "
                    f"of your {fit.wrong} wrong scores ({shown}); it differs at {facts.call(fit.missed)}")
    else:
        evidence = (f"this mistake gives exactly your scores on all {compared} positions it was compared on, "
                    f"including the {explained} where they are wrong ({shown})")
    return Finding(code, evidence, text, question, (check,))


def _bare_scores(facts):
    """Numbers returned where a list was due: a finished game answered with its score alone."""
    bare = [o for o in facts.outcomes if o.answer is not None and o.answer.is_number and facts.reply(o) is not None]
    if not bare:
        return None
    example = min(bare, key=facts.size)
    text, question = CODES["wrong-return-type"]
    crashed = sum(1 for o in facts.outcomes if (facts.reply(o) or ("",))[0] == "raised")
    evidence = (f"{len(bare)} answers were a bare number (for example {facts.call(example)} returned "
                f"{example.answer.text}, where [-1, -1, {example.answer.text}] was due)"
                + (f"; {crashed} calls raised, as a caller one level up cannot use a bare number" if crashed else ""))
    return Finding("wrong-return-type", evidence, text, question, ("finished-games",))


def _left_marks(facts):
    """Wrong scores together with boards left changed: the leftover marks explain the scores."""
    changed = [o for o in facts.outcomes if o.raw.get("answer") is not None and o.raw.get("mutated")]
    if not changed:
        return None
    example = min(changed, key=facts.size)
    text, question = CODES["board-not-restored"]
    evidence = (f"the board was different after {len(changed)} of the calls that returned (for example "
                f"{facts.call(example)}); a mark left behind also changes the rest of that search, "
                f"which is why scores come out wrong")
    return Finding("board-not-restored", evidence, text, question, ("board-restored",))


def rules(facts):
    found = [f for f in (_bare_scores(facts), _left_marks(facts)) if f is not None]
    if found:
        return found
    answered = _answered(facts)
    if not answered:
        return []
    score_wrong = [(o, t) for o, t in answered if t[2] != o.expected["score"]]
    found = []
    triples = {id(o): t for o, t in answered}
    ordered = [o for o, t in answered if t[2] != o.expected["score"]] + [o for o, t in answered
                                                                         if t[2] == o.expected["score"]]
    fits = []
    for variant in SCORE_VARIANTS if score_wrong else ():
        fit = fit_hypothesis(variant.split("/")[0], ordered,
                             lambda o, v=variant: _score_of(_key(o.case.input), v) == triples[id(o)][2],
                             lambda o: triples[id(o)][2] != o.expected["score"])
        if fit is not None:
            fits.append(fit)
    for fit in clear_winners(best_per_code(fits), supported=supported_by(getattr(facts, "supporting", []))):
        found.append(_finding(fit.model.code, facts, fit.compared, fit.explained, fit.example, fit=fit))
    if found or score_wrong:
        return found
    # Every score is right: what is wrong is the move.
    move_wrong = [(o, t) for o, t in answered if o.expected["moves"] and [t[0], t[1]] not in o.expected["moves"]]
    if not move_wrong:
        return []
    example, triple = move_wrong[0]
    shown = f"{facts.call(example)}: you returned {example.answer.describe()}"
    if any((t[0], t[1]) == (-1, -1) for _, t in move_wrong):
        code = "wrong-move-recorded"
        example, triple = next((o, t) for o, t in move_wrong if (t[0], t[1]) == (-1, -1))
        shown = f"{facts.call(example)}: you returned {example.answer.describe()} with free cells on the board"
    else:
        code = "suboptimal-move"
    text, question = CODES[code]
    evidence = (f"every score you returned is right, but on {len(move_wrong)} of {len(answered)} positions the move "
                f"is not one that gets it ({shown})")
    return [Finding(code, evidence, text, question, ("optimal-moves",))]
