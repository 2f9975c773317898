"""What a mistake model predicts for one case, in the form the diagnosis compares with a student's reply.

Kept apart from ``grader.judging.diagnose`` because the public banks ship these predictions
(``grader.judging.shipped_banks``): their fingerprint covers this module and the kit the models are
written with, so the diagnosis can change without making the shipped predictions stale.
"""

from __future__ import annotations


def predict(model, case_input) -> tuple:
    """("number", value), ("raised", the exception's name) or ("other", its repr)."""
    try:
        value = model.answer(case_input)
    except Exception as exc:  # the model's own crash is its prediction (e.g. choosing among no moves)
        return ("raised", type(exc).__name__)
    if type(value) in (int, float):
        return ("number", value)
    return ("other", repr(value))


def model_keys(models) -> dict:
    """Each model under a name that stays the same from one process to the next (its place in the list and its
    code): the key of its column in a shipped predictions table."""
    return {f"{index}:{model.code}": model for index, model in enumerate(models)}
