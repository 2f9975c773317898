"""Executors beyond the local pool: where submissions are graded when one machine is not enough.

``grader.executor`` owns the seam (``Job``, ``Task``, ``run(job, tasks)`` yielding ``(task,
result)``) and the default local pool. This package holds the distributed one, split by side:

- ``shipping``: turning a submission and an exercise folder into content (names and bytes) and
  back again on a worker; no Dask here, so it is tested on its own.
- ``on_worker``: what runs inside a Dask worker process: one grading context (exercise, case
  bank, sandbox launcher, warm fork server) per worker thread, kept for the whole batch.
- ``dask_cluster``: the driving side: connect to (or start) a cluster, send the job once, submit
  the tasks, and hand results back as they complete to ``batch``, the one gradebook writer.

It may import ``grader.executor`` and the grading core; nothing in the core imports it, except
the command line, and only when ``--executor dask`` or ``--scheduler`` is asked for.
"""
