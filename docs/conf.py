"""Sphinx configuration of the documentation site (Markdown pages through MyST, the API through autodoc).

Build: python -m sphinx -W -b html docs docs/_build/html
"""

import sys
from pathlib import Path

# autodoc imports the grader from this checkout, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

project = "minimax-grader"
author = "minimax-grader contributors"
release = "0.1.0"

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
highlight_language = "none"

autodoc_member_order = "bysource"
autodoc_typehints = "description"

html_theme = "alabaster"
html_title = "minimax-grader"
