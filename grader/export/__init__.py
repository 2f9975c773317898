"""Machine-readable exports of a SubmissionResult for the systems courses already use.

Each exporter is a plain function over one result (``to_junit``, ``to_gradescope``,
``to_classroom``...), so ``check`` and ``grade`` can both call it per submission.

May import: grader.judging, grader.report
"""
