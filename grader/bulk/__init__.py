"""Grading a whole class: from the instructor's downloads to a gradebook and class outputs.

``discover`` turns folders and archives into one entry per student; ``batch`` skips what the
``gradebook`` (SQLite, one writer, survives crashes and re-runs) already holds and hands the
rest, as tasks, to an executor: ``executor`` owns the seam (``Job``, ``Task``, ``run(job,
tasks)`` yielding ``(task, result)`` in any order) and the default ``LocalPool`` of warm
``worker`` processes; ``dask_cluster`` (driving side), ``on_worker`` (inside a Dask worker)
and ``shipping`` (submissions and exercise folders as content) are the same seam on a Dask
cluster, imported only when ``--executor dask`` or ``--scheduler`` asks for it.
``tournament`` plays a class tournament of agents (``grader.tournament``) through the same
executors, a game per task, and writes its journal, standings and pages. ``part_credit`` turns a part-only result into the instructor's grade. In the flow, bulk fans
submissions out to ``grader.judging`` in worker processes, gathers plain result dictionaries
back into the gradebook, and writes the class's outputs from the gradebook alone through
``grader.report``, ``grader.export`` and ``grader.similarity``. Only the doors import it.

May import: grader.export, grader.file_names, grader.judging, grader.paths, grader.python_source, grader.report, grader.sandbox, grader.similarity, grader.tournament, grader.version
"""
