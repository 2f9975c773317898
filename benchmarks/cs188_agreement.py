"""Agreement with CS188's own public game-tree tests: actions and expanded states.

CS188's multi-agent project ships small graph game trees for its questions 2, 3 and 4 (minimax,
alpha-beta, expectimax): ``test_cases/q2/*.test`` with a ``.solution`` beside each. A ``.test`` of
class ``GraphGameTreeTest`` names the algorithm, the depth, the number of agents, the start state,
the win and lose states, the successors (``state action next`` lines) and the evaluations; its
``.solution`` gives the expected action and the expected set of states generated (``generated``,
``expanded`` in older releases).

The files are not ours and are never committed: this script reads them at run time from a copy of
a public repository that holds the project (a git mirror, e.g. what ``fetch`` brings, read with
``git show``; or a plain folder), runs the kit's references (``reference/multiagent.py``) on every
tree and prints how many actions and expanded sets agree, and each disagreement.

    python benchmarks/cs188_agreement.py --git /work/.mirror/OWNER+REPO/repo[/.git] [--commit SHA]
    python benchmarks/cs188_agreement.py --dir path/to/multiagent/test_cases
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.kit.agents.search import search  # noqa: E402
from grader.kit.agents.trees import TreeError, from_successors, pacman  # noqa: E402

ALGORITHMS = {"minimax": ("min", False), "alphabeta": ("min", True), "expectimax": ("chance", False)}
QUESTIONS = ("q2", "q3", "q4")


def algorithm_of(name: str) -> str | None:
    """MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent (and forks' renamings such as AgentPacmanMinimaxAlphaBeta)."""
    lowered = name.lower()
    if "alphabeta" in lowered or "alpha" in lowered:
        return "alphabeta"
    if "expecti" in lowered:
        return "expectimax"
    if "minimax" in lowered:
        return "minimax"
    return None


def parse(text: str) -> dict:
    """``key: "value"`` lines and ``key: \"\"\"`` blocks; ``#`` starts a comment line."""
    out, lines, i = {}, text.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = re.match(r'^(\w+):\s*(.*)$', line)
        if not found:
            continue
        key, rest = found.groups()
        if rest.startswith('"""'):
            block = []
            while i < len(lines) and lines[i].strip() != '"""':
                block.append(lines[i])
                i += 1
            i += 1
            out[key] = "\n".join(block)
        else:
            out[key] = rest.strip().strip('"')
    return out


def tree_of(test: dict):
    successors = [line.split() for line in test.get("successors", "").splitlines() if line.strip()]
    evaluation = {}
    for line in test.get("evaluation", "").splitlines():
        if line.strip():
            name, value = line.split()
            evaluation[name] = float(value)
    return from_successors(test["start_state"], successors, set(test.get("win_states", "").split()),
                           set(test.get("lose_states", "").split()), evaluation)


def compare(test: dict, solution: dict) -> tuple[bool, bool, str]:
    """(action agrees, expanded set agrees, what differs)."""
    algorithm = algorithm_of(test.get("alg", ""))
    ghosts, prune = ALGORITHMS[algorithm]
    tree = tree_of(test)
    names = {i: s["name"] for i, s in enumerate(_preorder(tree))}
    found = search(tree, pacman(int(test["num_agents"]), ghosts), int(test["depth"]), prune)
    if found.raised:
        return False, False, f"the reference raised: {found.raised}"
    want_action = solution.get("action", "")
    want_states = set((solution.get("generated") or solution.get("expanded") or "").split())
    ours = {names[i] for i in found.expanded}
    said = []
    if found.action != want_action:
        said.append(f"action {found.action!r}, CS188 {want_action!r}")
    if ours != want_states:
        said.append(f"expanded +{sorted(ours - want_states)} -{sorted(want_states - ours)}")
    return found.action == want_action, ours == want_states, "; ".join(said)


def _preorder(tree):
    out, stack = [], [tree]
    while stack:
        state = stack.pop()
        out.append(state)
        stack.extend(child for _, child in reversed(state["moves"]))
    return out


def files_from_git(git_dir: str, commit: str) -> dict[str, str]:
    listing = subprocess.run(["git", f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", commit],
                             capture_output=True, text=True, check=True).stdout.split()
    wanted = [p for p in listing if re.search(r"test_cases/q[234]/[^/]+\.(test|solution)$", p)]
    if any("multiagent" in p.lower() for p in wanted):  # a repository of several projects: this one's tests only
        wanted = [p for p in wanted if "multiagent" in p.lower()]
    out = {}
    for path in wanted:
        out[path] = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
                                   capture_output=True, text=True, check=True).stdout
    return out


def files_from_dir(folder: str) -> dict[str, str]:
    base = Path(folder)
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*"))
            if p.suffix in (".test", ".solution") and p.parent.name in QUESTIONS}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git", help="a git directory holding CS188's multiagent project")
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--dir", help="a folder holding test_cases/q2, q3, q4")
    args = parser.parse_args(argv)
    if not args.git and not args.dir:
        parser.error("give --git or --dir")
    files = files_from_git(args.git, args.commit) if args.git else files_from_dir(args.dir)
    tally = {q: [0, 0, 0, 0] for q in QUESTIONS}  # trees, actions agreeing, expanded agreeing, both
    differences = []
    for path in sorted(p for p in files if p.endswith(".test")):
        test = parse(files[path])
        if test.get("class") != "GraphGameTreeTest" or algorithm_of(test.get("alg", "")) is None:
            continue
        solution = parse(files.get(path[:-len(".test")] + ".solution", ""))
        question = next((q for q in QUESTIONS if f"/{q}/" in "/" + path), "?")
        try:
            action_ok, states_ok, said = compare(test, solution)
        except (TreeError, KeyError, ValueError) as exc:
            action_ok, states_ok, said = False, False, f"could not read the tree: {exc}"
        row = tally.setdefault(question, [0, 0, 0, 0])
        row[0] += 1
        row[1] += action_ok
        row[2] += states_ok
        row[3] += action_ok and states_ok
        if said:
            differences.append(f"  {path}: {said}")
    total = [sum(row[i] for row in tally.values()) for i in range(4)]
    for question, (trees, actions, states, both) in tally.items():
        print(f"{question}: {trees} trees, actions {actions}/{trees}, expanded sets {states}/{trees}, both {both}/{trees}")
    print(f"all: {total[0]} trees, actions {total[1]}/{total[0]}, expanded sets {total[2]}/{total[0]}, both {total[3]}/{total[0]}")
    if differences:
        print("differences:")
        print("\n".join(differences))
    return 0 if total[0] and total[3] == total[0] else 1


if __name__ == "__main__":
    sys.exit(main())
