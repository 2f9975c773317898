"""The kit's one error: ``exercise.toml`` declares something the kit cannot do.

Raised while the declaration is read (``declaration``, ``answer_shape``, ``groups``), so it lives
below all three; ``grader.kit.declaration.DeclarationError`` is the same class.
"""

from __future__ import annotations


class DeclarationError(Exception):
    """exercise.toml declares something the kit cannot do."""
