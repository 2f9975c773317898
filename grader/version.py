"""The grader's version, on its own so that any layer can say which grader it is without importing
the package's public API (``grader.check``, which is the doors). ``pyproject.toml`` states it too.

May import: nothing
"""

__version__ = "0.2.0"
