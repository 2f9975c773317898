"""The doors: how students, instructors and CI reach the grader, at both ends of the flow.

``cli`` (``minimax-grader check``, ``grade``, ``exercises``, ...), ``api`` (``check`` for
scripts), ``student_door`` (the statement and a runnable starter), ``pytest_plugin`` (plain
``pytest`` in a student's repository), ``github_actions`` and ``ci_workflow`` (Actions output,
the Classroom workflow) and ``gradescope_bundle`` (the autograder zip). Each turns a request
into a call to ``grader.judging`` (one submission) or ``grader.bulk`` (a class) and hands the
``SubmissionResult`` to ``grader.report`` and ``grader.export``; none judges anything. A door
may import every other layer; only ``grader.similarity.sources`` imports a door (the starter
text, from ``student_door``). This ``__init__`` imports nothing: the pytest plugin is loaded
by every pytest run in an environment where the grader is installed.

May import: grader.bulk, grader.config, grader.export, grader.file_names, grader.judging, grader.kit, grader.paths, grader.python_source, grader.report, grader.sandbox, grader.similarity, grader.version, grader.vocabulary
"""
