"""Near-duplicate detection: what it flags, what it discounts, and its figures on the held-out corpus.

The held-out half of ``fixtures/similarity`` was never looked at while the settings were
chosen (``split.toml`` was written first; ``tune.py`` reads only the tuning half), so the
figures asserted here are an honest estimate of how the detector does on new classes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from grader.judging import exercise
from grader.similarity import corpus, find_near_duplicates, sources
from grader.similarity.clusters import Settings
from grader.similarity.fingerprints import fingerprints, tokens

ROOT = Path(__file__).resolve().parent.parent

ORIGINAL = textwrap.dedent('''
    """Alice's minimax: keeps the best score and stops early on a sure win."""
    WIN = 1000


    def best_child(children, depth, maximizing):
        chosen = None
        for child in children:
            score = minimax(child, depth - 1, not maximizing)
            if chosen is None or (maximizing and score > chosen) or (not maximizing and score < chosen):
                chosen = score
            if maximizing and chosen >= WIN:
                break
        return chosen


    def minimax(node, max_depth, player_a_moves):
        children = get_next_valid_moves(node)
        if max_depth == 0 or len(children) == 0:
            return get_value(node)
        return best_child(children, max_depth, player_a_moves)
''')

DISGUISED = textwrap.dedent('''
    def minimax(n, d, is_a):
      # recursion on the tree
      kids = get_next_valid_moves(n)
      if d == 0 or len(kids) == 0: return get_value(n)
      return pick(kids, d, is_a)

    BIG = 99999
    def pick(kids, d, is_a):
      # go through every kid
      out = None
      for k in kids:
        v = minimax(k, d - 1, not is_a)
        if out is None or (is_a and v > out) or (not is_a and v < out):
          out = v
        if is_a and out >= BIG:
          break
      return out
''')

OTHER = textwrap.dedent('''
    import math


    def minimax(node, max_depth, player_a_moves):
        moves = get_next_valid_moves(node)
        if not moves or max_depth < 1:
            return get_value(node)
        results = sorted(minimax(m, max_depth - 1, not player_a_moves) for m in moves)
        return results[-1] if player_a_moves else results[0]
''')


def ctp26():
    ex = exercise.load("ctp-26")
    shapes = sources.exercise_texts(ex)
    return shapes, sources.vocabulary(ex)


def test_held_out_half_meets_the_targets():
    total, per_kind = corpus.half_figures("held_out")
    detail = "; ".join(f"{kind}: {figures.line()}" for kind, figures in per_kind.items())
    assert total.copies >= 100 and total.independent_pairs >= 200, detail  # the corpus is all there
    assert all(figures.copies >= 20 for figures in per_kind.values()), detail
    assert total.catch_rate >= 0.90, f"{total.line()}; missed {total.missed}"
    assert total.false_pair_rate <= 0.02, f"{total.line()}; paired {total.wrongly_paired}"


def test_corpus_has_twenty_independent_solutions_and_twenty_copies_per_kind():
    for kind in corpus.kinds():
        names = corpus.split()[kind]["tuning"] + corpus.split()[kind]["held_out"]
        assert len(names) >= 20 and len(set(names)) == len(names), kind
        assert not set(corpus.split()[kind]["tuning"]) & set(corpus.split()[kind]["held_out"]), kind
        copies = list((corpus.corpus_root() / "copies" / kind).iterdir())
        assert len(copies) >= 20, kind


def test_a_renamed_reformatted_reordered_recommented_copy_is_flagged():
    shapes, vocabulary = ctp26()
    found = find_near_duplicates({"alice": ORIGINAL, "bob": DISGUISED, "carol": OTHER}, shapes, vocabulary)
    assert [c["students"] for c in found] == [["alice", "bob"]]
    assert 0.6 <= found[0]["similarity"] <= 1.0


def test_three_copies_are_one_cluster_with_sorted_ids():
    shapes, vocabulary = ctp26()
    third = DISGUISED.replace("out", "acc").replace("# go through every kid", "# loop")
    found = find_near_duplicates({"zed": ORIGINAL, "amy": DISGUISED, "kim": third, "carol": OTHER}, shapes, vocabulary)
    assert [c["students"] for c in found] == [["amy", "kim", "zed"]]


def test_the_exercise_shape_is_discounted():
    """Two students who both write the reference's shape (with their own names) are alike only
    in what the exercise gave them: paired without the discount, not with it."""
    shapes, vocabulary = ctp26()
    first = textwrap.dedent('''
        def minimax(node, max_depth, player_a_moves):
            moves = get_next_valid_moves(node)
            if max_depth == 0 or not moves:
                return get_value(node)
            values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]
            return max(values) if player_a_moves else min(values)
    ''')
    second = (first.replace("moves =", "kids =").replace("not moves", "not kids").replace("in moves", "in kids")
              .replace("values", "scores").replace("child", "c"))
    assert first != second
    class_ = {"ann": first, "ben": second}
    assert find_near_duplicates(class_, [], vocabulary) != []          # alike, with nothing discounted
    assert find_near_duplicates(class_, shapes, vocabulary) == []      # the reference's shape, discounted



def test_students_who_write_the_textbook_search_in_its_common_forms_are_no_group_in_a_small_class():
    """Three students who wrote the search apart, each in a common form (the choice as an if statement, with or
    without else; the end tested by length or by truth), in a class of ten: no idiom is shared by enough students to
    be discounted, and the three were one group at 0.67 (the hundred and thirteenth helper). The exercise's shapes
    hold those forms; a file handed in twice is still a group."""
    shapes, vocabulary = ctp26()
    head = "def minimax(node, max_depth, player_a_moves):\n"
    forms = {
        "ana": head + "    moves = get_next_valid_moves(node)\n    if max_depth == 0 or len(moves) == 0:\n"
                      "        return get_value(node)\n"
                      "    values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]\n"
                      "    if player_a_moves:\n        return max(values)\n    return min(values)\n",
        "li": head + "    if max_depth == 0:\n        return get_value(node)\n"
                     "    results = [minimax(n, max_depth - 1, not player_a_moves) for n in get_next_valid_moves(node)]\n"
                     "    if player_a_moves:\n        return max(results)\n    return min(results)\n",
        "tom": head + "    kids = get_next_valid_moves(node)\n    if max_depth == 0 or not kids:\n"
                      "        return get_value(node)\n"
                      "    vals = [minimax(m, max_depth - 1, player_a_moves) for m in kids]\n"
                      "    if player_a_moves:\n        return max(vals)\n    else:\n        return min(vals)\n",
    }
    others = {f"s{i}": f"def minimax(node, max_depth, player_a_moves):\n    return {i} * max_depth\n" for i in range(7)}
    assert find_near_duplicates({**forms, **others}, shapes, vocabulary) == []
    twice = find_near_duplicates({**forms, **others, "tim": forms["tom"]}, shapes, vocabulary)
    assert [group["students"] for group in twice] == [["tim", "tom"]]

def test_an_idiom_most_of_the_class_shares_is_not_evidence():
    """A helper found in every submission (the lecture's, say) is the class's idiom, not a sign
    of copying: twelve different solutions that all carry it are paired without the discount,
    and not with it."""
    idiom = textwrap.dedent('''
        def lecture_children(node):
            found = get_next_valid_moves(node)
            if found is None:
                return []
            ordered = sorted(found, key=lambda child: str(getattr(child, "name", child)))
            return [child for child in ordered if child is not None]


        def lecture_leaf(node, depth):
            return depth <= 0 or len(lecture_children(node)) == 0
    ''')
    own = sorted((corpus.corpus_root() / "independent" / "ctp-26").glob("*.py"))[:12]
    class_ = {path.stem: path.read_text() + "\n" + idiom for path in own}
    assert len(class_) == 12
    shapes, vocabulary = ctp26()
    everything_counts = Settings(common_share=1.0, common_floor=100)
    assert find_near_duplicates(class_, shapes, vocabulary, everything_counts) != []
    assert find_near_duplicates(class_, shapes, vocabulary) == []


REFERENCE_SHAPE = textwrap.dedent('''
    def minimax(node, max_depth, player_a_moves):
        moves = get_next_valid_moves(node)
        if max_depth == 0 or not moves:
            return get_value(node)
        values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]
        return max(values) if player_a_moves else min(values)
''')


def test_identical_files_are_flagged_even_when_all_boilerplate_but_the_untouched_starter_is_not():
    shapes, vocabulary = ctp26()
    starter = sources._read(exercise.load("ctp-26").starter_path)
    class_ = {"a": REFERENCE_SHAPE, "b": REFERENCE_SHAPE, "c": OTHER, "d": starter, "e": starter}
    assert find_near_duplicates(class_, shapes, vocabulary) == [{"students": ["a", "b"], "similarity": 1.0}]


def test_bad_input_is_compared_on_what_it_has_and_never_raises():
    """Text that is not Python never stops the comparison; a copy that no longer parses (cut
    short, garbage appended) is still compared on the code it kept."""
    half_broken = ORIGINAL[: len(ORIGINAL) * 2 // 3] + "\n  )) ]] $ ?\n'''never closed"
    texts = {"empty": "", "binary": "\x00\x01\ufffd$?" * 50, "garbage": "def (((:\n ]] ''' \\\n" * 20,
             "alice": ORIGINAL, "bob": DISGUISED, "half": half_broken}
    found = find_near_duplicates(texts)
    assert [c["students"] for c in found] == [["alice", "bob", "half"]]


def test_tokens_drop_names_comments_docstrings_and_layout():
    a = tokens('def f(x):\n    """doc"""\n    # note\n    return x + 1  # one\n', ["get_value"])
    b = tokens("def g(y):\n  return y+2\n", ["get_value"])
    assert a == b == ["def", "V", "(", "V", ")", ":", "return", "V", "+", "N"]
    assert tokens("get_value(n, [1, 2,])", ["get_value"]) == ["get_value", "(", "V", ",", "[", "N", ",", "N", "]", ")"]


def test_fingerprints_are_the_same_in_every_process():
    """Only ``str`` hashes are salted per process; fingerprints must not depend on the salt."""
    code = ("from grader.similarity.fingerprints import fingerprints; import sys; "
            "print(sorted(fingerprints(sys.stdin.read(), 9, 3)))")
    outputs = set()
    for salt in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        outputs.add(subprocess.run([sys.executable, "-c", code], input=ORIGINAL, capture_output=True, text=True,
                                   env=env, cwd=ROOT, check=True, timeout=120).stdout)
    assert len(outputs) == 1
    assert outputs.pop().strip() == str(sorted(fingerprints(ORIGINAL, 9, 3)))


def test_the_statement_code_and_the_stand_ins_are_the_exercises_own_text():
    """What every student may paste (the statement's code, the runnable starter's stand-ins) is never evidence."""
    from grader.judging import exercise as exercises
    from grader.doors import student_door
    from grader.similarity import sources

    chosen = exercises.load("ctp-26")
    texts = sources.exercise_texts(chosen)
    blocks = sources._code_blocks((chosen.folder / "statement.md").read_text(encoding="utf-8"))
    assert blocks and all(block in texts for block in blocks)
    assert student_door.starter_text(chosen) in texts
    assert "def get_value" in student_door.starter_text(chosen)  # the stand-ins are in it


def test_a_kit_exercise_discounts_its_generated_stand_ins_and_its_rules():
    from grader.judging import exercise as exercises
    from grader.doors import student_door
    from grader.similarity import sources

    chosen = exercises.load("nim")
    texts = sources.exercise_texts(chosen)
    assert student_door.starter_text(chosen) in texts
    assert chosen.kit.game.path.read_text(encoding="utf-8") in texts


def test_strings_are_read_as_python_reads_them_escapes_and_all():
    """A docstring holding an escaped \\\"\"\" goes on past it; a string left open ends with its line (short) or the
    text (long), as an error-tolerant lexer ends it, so nothing after it is read twice."""
    from grader.similarity.fingerprints import tokens

    assert tokens('"""Notes.\\""" b and c"""\nx = 1\n') == tokens("x = 1\n")
    assert tokens("y = 'open\nx = 1\n") == tokens("y = 'closed'\nx = 1\n")
    assert tokens('y = """never closed\nx = 1\n') == tokens('y = """closed"""\n')


def test_a_line_of_quotes_costs_the_tokenizer_no_more_than_its_length(tmp_path):
    """One passing file whose docstring held a line of "\\ pairs (200,000 characters, the cap) cost 112 s of every
    grade of its class: from each quote of the line a short string was tried to the line's end (the hundred and
    tenth helper). Run in a process of its own with a limit a hundred times above what the linear reading takes
    on a busy machine; the quadratic one needed minutes."""
    script = ("import sys\nfrom grader.similarity.fingerprints import tokens\n"
              "text = '\"\"\"Notes.\\\\\"\"\" ' + '\"\\\\' * 99990 + '\\n\"\"\"\\n# \"\"\"\\n' + 'def minimax(n):\\n    return 0\\n'\n"
              "print(len(tokens(text)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-1000:]
    assert int(done.stdout) > 0
