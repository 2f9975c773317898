"""The game-search kit: exercises declared from a game's rules instead of coded.

An instructor writes a game in the AIMA vocabulary (``to_move``, ``actions``, ``result``,
``is_terminal``, ``utility``, optionally ``evaluate``, ``encode``/``decode``, ``render``) and
declares in ``exercise.toml`` what the student writes (``[game]`` and ``[student]`` tables).
Everything else is written here once for every game:

- ``game``: loading and checking the instructor's game module, plain-data states, positions;
- ``declaration``: reading ``[game]`` and ``[student]`` into one validated, plain description;
- ``search``: the references (depth-limited minimax, alpha-beta with its evaluated states,
  the set of optimal moves) and the mistake families as variants of the same search;
- ``bank``: the cases (reachable positions, seeded play driven by hypothesis, fixture files);
- ``groups``: case groups chosen by a predicate (finished positions, at most k moves left);
- ``answer_shape``: the declared answer (``[*move, value]``, ``no_move``) read and shown in that shape;
- ``families``: naming the mistake from the student's replies and traces (with ``player_families``,
  where the player to move comes from, ``shapes_seen``, a bare value or an input left changed, and
  ``moves_only``, an answer that is a move alone named by the move families);
- ``mistake_texts``: ``[mistake_texts]`` in exercise.toml, a mistake code in the exercise's own words;
- ``tree_game``, ``tree_hooks``, ``tree_driver``, ``tree_mistakes``: the game over a given tree (ctp-26,
  alphabeta): its hooks, its sandbox side, and the kit's families over it as models;
- ``pictures``: boards as text and as inline SVG;
- for exercises that keep hooks of their own (best-move, aima-isolation): ``trees`` (game trees as
  plain data: random trees, shrinking, pictures), ``move_answer`` and ``move_families`` (an answer that
  is a move alone: judged by the value it leads to, its mistake named from the moves chosen),
  ``answer_shapes``, ``rule_fits``, ``value_models`` and ``move_paths`` (answers of other shapes, mistakes
  fitted on them, the kit's families as diagnosis models, positions by the moves that reach them);
- ``student_api``: what the student is handed, for API-mismatch lines and ``show --starter``'s stand-ins;
- ``hooks``: the grader-side hook object that ``grader.judging.exercise`` hands to the judge;
- ``driver``: the sandbox-side generic driver (standard library only, never imports ``grader``);
- ``scaffold``: ``minimax-grader new-exercise``;
- the object route (``[agent]`` in exercise.toml: a board object under the course's method names, agent
  classes, a recorded score function, a virtual clock): ``agent_declaration`` (the table read),
  ``agent_driver`` (the sandbox side, standard library only), ``agent_oracle`` (what the grading process
  answers and records), ``agent_search`` (the references), ``agent_hooks`` (the check kinds),
  ``agent_mistakes`` (mistakes named from the record) and ``agent_pictures`` (boards, positions as moves).

The kit speaks the judge's vocabulary (``grader.vocabulary``: ``answers``, the decoded answer, and
``findings``, what a mistake model, a finding and a fit are), never the judge itself; of the grading
layers only ``grader.judging.exercise`` imports the kit (the doors use ``scaffold`` and ``student_api``).

May import: grader.vocabulary, grader.paths, grader.python_source
"""
