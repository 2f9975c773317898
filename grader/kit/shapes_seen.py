"""Two mistakes read straight from the replies, before any search family is tried, since they explain the values too.

- A bare number where the declared answer is a container (``0`` for ``[-1, -1, 0]``): the callers one
  level up cannot read it, so they crash or compute nonsense; the return type is the mistake.
- The position handed over left changed after calls that returned (a move tried in place and not
  undone): every later step of that search saw a position that never happened.
"""

from __future__ import annotations

from grader.vocabulary.findings import Finding

RESTORE_KINDS = ("restored", "board-restored")


def bare_values(mistakes, facts) -> Finding | None:
    hooks = mistakes.hooks
    if hooks.decl["returns"]["container"] is None:
        return None
    bare = [o for o in facts.outcomes if o.answer is not None and o.answer.is_number and facts.reply(o) is not None]
    if not bare:
        return None
    example = min(bare, key=facts.size)
    crashed = sum(1 for o in facts.outcomes if (facts.reply(o) or ("",))[0] == "raised")
    evidence = (f"{len(bare)} answers were a bare number (for example {facts.call(example)} returned "
                f"{example.answer.text}, where {hooks.show_expected(example.case.input, example.expected)} was due)"
                + (f"; {crashed} calls raised, as a caller one level up cannot use a bare number" if crashed else ""))
    groups = {o.case.group for o in bare}
    checks = tuple(s.name for s in hooks.exercise.checks if set(s.groups) & groups)
    text, question = mistakes.CODES["wrong-return-type"]
    return Finding("wrong-return-type", evidence, text, question, checks)


def left_changed(mistakes, facts) -> Finding | None:
    specs = [s for s in mistakes.hooks.exercise.checks if s.kind in RESTORE_KINDS]
    # a change the grader saw (not one it could not rule out: a process that ended before its last look)
    changed = [o for o in facts.outcomes if o.raw.get("answer") is not None and o.raw.get("mutated")
               and not o.raw.get("unverified")]
    if not specs or not changed:
        return None
    example = min(changed, key=facts.size)
    code = str(specs[0].params.get("mistake", "mutates-tree"))
    text, question = mistakes.CODES.get(code, ("", ""))
    change = example.raw.get("change")  # where, in words, as the child saw it (driver._change_words)
    evidence = (f"the {mistakes.hooks.decl['state_name'] or 'position'} was different after {len(changed)} of the calls "
                f"that returned (for example {facts.call(example)}{': ' + change if change else ''}); a move left "
                f"behind also changes the rest of that search, which is why values come out wrong")
    return Finding(code, evidence, text, question, (specs[0].name,))
