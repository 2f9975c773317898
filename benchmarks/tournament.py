"""How fast a class tournament plays, where its time goes, and what a class of 200 would take.

Three measurements, in one run on this machine (so its load falls on all of them):

  * one series per declared baseline, played in this process (``referee.play_series``) by the
    exercise's correct agent: games per second for one core, and the time split between the
    sandbox (starting and stopping the agent's process, and each move's round trip through the
    session: the child's search with its questions to the grading process) and the rest (the
    referee, the baselines' own searches in this process);
  * a class of SIZE distinct agents against every baseline through ``minimax-grader tournament``'s
    own code and the local pool (``--jobs``): games per second for the whole machine;
  * optionally (``--dask``) the same class on a Dask LocalCluster of this machine's cores: games per
    second per machine through Dask, the figure a cluster of such machines multiplies.

It then projects a class of 200 against 4 baselines at 20 games a pairing (16,000 games) from the
measured rates: locally, and on 10 machines like this one through Dask (10 x the per-machine Dask
rate: the driver only writes records, measured below as its share of one core).

    python benchmarks/tournament.py [--exercise ID ...] [--agents DIR] [--size 8] [--games 4]
                                    [--jobs N] [--dask]

By default both aind-isolation (the object route: an agent class, its budget a virtual clock) and
connect-four (the function route: its budget the positions scored) are measured, one after the
other; ``--exercise ID`` (repeatable) chooses. The correct agent is the folder's correct.py, else
the exercise's pinned correct sample (fixtures/submissions/ID/correct/). Exit status 0: it reports,
it does not judge.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLASS, BASELINES, GAMES_PER_PAIRING, MACHINES = 200, 4, 20, 10


def in_process(exercise_id: str, agent: Path, games: int, per_game: bool = False) -> dict:
    """One series per baseline played here; the sandbox's time measured around the session's calls."""
    from grader.judging import exercise as exercises
    from grader.sandbox import launch
    from grader.tournament import agents, declaration, referee, schedule

    exercise = exercises.load(exercise_id)
    declared = declaration.read(exercise)
    launcher = launch.choose()
    spent = {"start": 0.0, "moves": 0.0, "stop": 0.0}

    def timed(name, function):
        def wrapper(*args, **kwargs):
            began = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - began
        return wrapper

    originals = (agents.Sandboxed._open, agents.Sandboxed.close, agents.Sandboxed.choose)
    agents.Sandboxed._open = timed("start", originals[0])
    agents.Sandboxed.close = timed("stop", originals[1])

    def choose(self, state):
        if self.session is None:
            self._open()  # counted as start
        began = time.perf_counter()
        try:
            return originals[2](self, state)
        finally:
            spent["moves"] += time.perf_counter() - began

    agents.Sandboxed.choose = choose
    specs = {"agent": {"id": "agent", "kind": "student", "path": str(agent)}}
    specs.update({b["id"]: b for b in declared.baselines})
    played = moves = 0
    began = time.perf_counter()
    try:
        for baseline in declared.baselines:
            series = schedule.games([("agent", baseline["id"])], games)
            for part in ([[game] for game in series] if per_game else [series]):  # a process per game, or per series
                for record in referee.play_series(part, specs, exercise, declared, launcher, 1):
                    played += 1
                    moves += len(record["moves"])
    finally:  # measured once: the next exercise's run wraps the originals again
        agents.Sandboxed._open, agents.Sandboxed.close, agents.Sandboxed.choose = originals
    total = time.perf_counter() - began
    sandbox = spent["start"] + spent["moves"] + spent["stop"]
    return {"games": played, "moves": moves, "seconds": total, "sandbox": sandbox, "start": spent["start"] + spent["stop"],
            "launcher": launcher.name, "baselines": len(declared.baselines)}


def correct_agent(exercise_id: str, agents_dir: Path) -> Path | None:
    """The folder's correct.py, else the exercise's pinned correct sample (fixtures/submissions/ID/correct/)."""
    found = agents_dir / "correct.py"
    if found.is_file():
        return found
    pinned = sorted((ROOT / "fixtures" / "submissions" / exercise_id / "correct").glob("*.py"))
    return pinned[0] if pinned else None


def make_class(folder: Path, agents_dir: Path, size: int, correct: Path) -> list[Path]:
    """SIZE distinct agents: a correct one and the folder's weak one alternating, each with its own comment."""
    sources = [correct] + [p for p in sorted(agents_dir.glob("*.py")) if p.stem == "weak"]
    folder.mkdir(parents=True)
    for number in range(size):
        source = sources[number % len(sources)]
        (folder / f"student{number:03d}.py").write_text(f"# student {number}\n" + source.read_text())
    return sorted(folder.glob("*.py"))


def busy_seconds() -> float:
    """The whole machine's busy CPU time (Linux), else this process and its waited-for children."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
        ticks = [int(f) for f in fields]
        return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def whole_class(exercise_id: str, klass: Path, out: Path, games: int, jobs: int | None, executor=None) -> dict:
    from grader.bulk import tournament

    driver = resource.getrusage(resource.RUSAGE_SELF)
    busy, began = busy_seconds(), time.perf_counter()
    outcome = tournament.run([klass], exercise_id, out, games=games, seed=7, jobs=jobs, executor=executor)
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {"games": outcome.played_now, "seconds": seconds, "busy": busy_seconds() - busy,
            "driver": (after.ru_utime + after.ru_stime) - (driver.ru_utime + driver.ru_stime),
            "failures": len(outcome.failures)}


def hours(games: float, rate: float) -> str:
    seconds = games / rate
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exercise", action="append", default=None,
                        help="an exercise with a [tournament] table (repeatable; default aind-isolation and connect-four)")
    parser.add_argument("--agents", type=Path, default=None, help="folder of agents (default fixtures/tournament/EXERCISE)")
    parser.add_argument("--size", type=int, default=8, help="agents in the class run")
    parser.add_argument("--games", type=int, default=4, help="games per pairing (even)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--dask", action="store_true", help="also play the class on a Dask LocalCluster")
    args = parser.parse_args()
    for exercise_id in args.exercise or ["aind-isolation", "connect-four"]:
        measure(exercise_id, args)
    return 0


def measure(exercise_id: str, args) -> None:
    agents_dir = args.agents or ROOT / "fixtures" / "tournament" / exercise_id
    correct = correct_agent(exercise_id, agents_dir)
    if correct is None:
        print(f"no agents for {exercise_id}: no correct.py in {agents_dir} and no pinned correct sample")
        return
    from grader.judging import exercise as exercises
    from grader.tournament import declaration

    try:
        declared = declaration.read(exercises.load(exercise_id))
    except (declaration.TournamentError, exercises.ExerciseError) as exc:
        print(f"{exercise_id}: {exc}")
        return

    one = in_process(exercise_id, correct, args.games)
    print(f"{exercise_id} (budget {declared.budget} {declared.unit} a move), sandbox {one['launcher']}: one core, "
          f"{one['games']} games ({one['moves']} moves) against {one['baselines']} baselines in {one['seconds']:.2f} s "
          f"= {one['games'] / one['seconds']:.1f} games/s")
    print(f"  sandbox's share of the time: {one['sandbox'] / one['seconds']:.0%} "
          f"(of which starting and stopping the agent's process {one['start'] / one['seconds']:.0%}, "
          f"one per agent per series; the rest is each move's round trips and the agent's own search)")
    fresh = in_process(exercise_id, correct, args.games, per_game=True)
    print(f"  with a process per agent per game instead of per series: {fresh['games'] / fresh['seconds']:.1f} games/s, "
          f"starting and stopping {fresh['start'] / fresh['seconds']:.0%} of the time")
    with tempfile.TemporaryDirectory(prefix="tournament-bench-") as tmp:
        tmp = Path(tmp)
        make_class(tmp / "class", agents_dir, args.size, correct)
        local = whole_class(exercise_id, tmp / "class", tmp / "local", args.games, args.jobs)
        rate = local["games"] / local["seconds"]
        print(f"  class of {args.size} x {one['baselines']} baselines x {args.games} games, local pool: "
              f"{local['games']} games in {local['seconds']:.1f} s = {rate:.1f} games/s "
              f"({local['busy'] / max(local['games'], 1) * 1000:.0f} ms of machine CPU a game; driver {local['driver']:.2f} s CPU)")
        dask_rate = None
        if args.dask:
            from grader.bulk.dask_cluster import DaskExecutor

            executor = DaskExecutor(jobs=args.jobs or os.cpu_count())
            executor.connect()  # the cluster started before the clock: a real cluster is already up
            on_dask = whole_class(exercise_id, tmp / "class", tmp / "dask", args.games, None, executor=executor)
            dask_rate = on_dask["games"] / on_dask["seconds"]
            print(f"  the same on a Dask LocalCluster of this machine: {on_dask['games']} games in "
                  f"{on_dask['seconds']:.1f} s = {dask_rate:.1f} games/s")
        shutil.rmtree(tmp, ignore_errors=True)
    total = CLASS * BASELINES * GAMES_PER_PAIRING
    print(f"  projection: a class of {CLASS} against {BASELINES} baselines at {GAMES_PER_PAIRING} games a pairing "
          f"= {total} games")
    print(f"    on this machine (local pool, {rate:.1f} games/s): {hours(total, rate)}")
    per_machine = dask_rate or rate
    driver_share = local["driver"] / max(local["games"], 1)  # driver CPU seconds per game
    ceiling = 1 / driver_share if driver_share > 0 else float("inf")
    cluster = min(MACHINES * per_machine, ceiling)
    print(f"    on {MACHINES} machines like this one through Dask ({'measured Dask' if dask_rate else 'local-pool'} rate "
          f"{per_machine:.1f} games/s a machine, x {MACHINES}; the driver's {driver_share * 1000:.1f} ms CPU a game "
          f"caps it at {ceiling:.0f} games/s): {hours(total, cluster)}")


if __name__ == "__main__":
    sys.exit(main())
