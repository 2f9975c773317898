"""Sphinx configuration of the documentation site (Markdown pages through MyST, the API through autodoc).

Build: python -m sphinx -W -b html docs docs/_build/html
"""

import sys
from pathlib import Path

# autodoc imports the grader from this checkout, installed or not.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

project = "minimax-grader"
author = "minimax-grader contributors"
from grader.version import __version__ as release  # noqa: E402 - one place states the version

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
highlight_language = "none"

autodoc_member_order = "bysource"
autodoc_typehints = "description"
# A dataclass without a docstring gets its signature as one: read the signature from the class itself.
autodoc_docstring_signature = False

html_theme = "alabaster"
html_title = "minimax-grader"
html_static_path = ["_static"]  # alabaster loads _static/custom.css by itself
html_show_copyright = False
html_theme_options = {
    # The README's code lines run to about 105 characters: a wider page shows them whole.
    "page_width": "1160px",
    "sidebar_width": "230px",
    "code_font_size": "0.8em",
}
