"""Class tournaments: students' move-choosing agents against declared baselines and one another.

An exercise whose student writes something that chooses a move (a function returning a move, or
``[move, value]``) may declare a ``[tournament]`` table in its exercise.toml (``declaration``):
the baselines, the openings, the budget per move and the rubric's thresholds. ``schedule``
turns agents and a seed into games (each pairing plays both sides of the same openings);
``agents`` are the players (the baselines in this process, every student's and instructor's
file in its own sandboxed session, one per game); ``referee`` plays one game from plain data,
counting each sandboxed move's budget as the evaluations the grading process was asked for
(the exercise's oracle), so a result never depends on the machine, its load or the executor;
``ratings`` (Wilson intervals, a Bradley-Terry fit) and ``standings`` (the table, the rubric's
points as contract results) read the recorded games alone.

May import: grader.judging, grader.sandbox, grader.version, grader.vocabulary
"""
