"""Near-duplicate submissions: which students handed in copies of each other's code.

Owns the detection (``fingerprints``: tokens to winnowed k-gram hashes; ``clusters``: the
class compared through an inverted index, minus the exercise's own shapes), reading the
sources of a class (``sources``) and the context of the summary page's side-by-side view
(``view``). It reads submission files as text and never imports or runs them; it imports
only the standard library and, in ``sources``, the exercise and submission records.

The public entry is :func:`find_near_duplicates` (plain texts in, plain clusters out);
:func:`grader.similarity.sources.for_class` is the batch's one call.

May import: grader.judging, grader.paths, grader.python_source
"""

from grader.similarity.clusters import Settings, find_near_duplicates

__all__ = ["Settings", "find_near_duplicates"]
