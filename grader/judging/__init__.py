"""Judging one submission: the middle of the flow, from exercise and submission to a result.

``exercise`` loads an exercise folder (a kit exercise's hooks come from ``grader.kit``),
``submissions`` reads a submission from disk without running it, ``bank`` builds the cases
(``shipped_banks`` and the gzipped public banks in ``banks/``; ``hypothesis_setup``). Then
``grader.sandbox`` runs the student's code and sends back plain data only, and everything is
decided here, in the parent: ``checks`` (the check kinds, on answers decoded by ``grader.vocabulary``),
``judge`` (the order that is the trust boundary: references only after the child answered),
``shrink`` (the smallest counterexample), ``diagnose`` and ``api_mismatch`` (naming the mistake),
``parts`` (part-only submissions) and ``result``: the ``SubmissionResult`` contract, the only
thing the reports, exports and gradebook ever see. ``bank_release`` writes the shipped banks
(``python -m grader.judging.shipped_banks``). It imports ``grader.sandbox``, ``grader.kit`` (through
``exercise``), ``grader.vocabulary``, ``grader.paths``, ``grader.config`` and ``grader.version``;
never a door, ``grader.bulk``, ``grader.report`` or ``grader.export``.

May import: grader.config, grader.file_names, grader.kit, grader.paths, grader.python_source, grader.sandbox, grader.version, grader.vocabulary
"""
