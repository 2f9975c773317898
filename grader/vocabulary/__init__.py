"""The judge's vocabulary: the plain data that judging, the kit and mistake models all speak.

``answers``: what the student's function returned, decoded from the sandbox's tags with its exact
type (``Answer``); ``findings``: what a mistake finding is (``Model``, ``Finding``, ``Support``) and
how a hypothesis is weighed (``Fit``, ``fit_hypothesis``, ``clear_winners``, the local rules at a
first wrong node). It is the bottom of the grading layers: ``grader.kit`` and ``grader.judging``
both import it, and it imports nothing of the grader's, so neither needs the other for it.

May import: nothing
"""
