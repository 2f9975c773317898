"""The Gradescope autograder zip: built for real, unpacked, set up and run in a temporary root."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import site
import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import jsonschema
import pytest

from grader.export import gradescope

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures/submissions/ctp-26"
# What Gradescope's image has: no PYTHONPATH of a checkout (a worktree's would shadow the bundled wheel), and no
# cache of the test session's (the scripts keep theirs in the autograder root, as on Gradescope).
OUTSIDE = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MINIMAX_GRADER_CACHE")}


def grader(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    run = grader("gradescope-bundle", "--exercise", "ctp-26", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory, bundle):
    return install(tmp_path_factory, bundle)


def install(tmp_path_factory, bundle: Path) -> Path:
    """An autograder root after setup.sh: the bundle in source/, the grader in its own venv.

    setup.sh runs for real (minus apt-get). So that it needs no package index here, the venv
    is prepared to see this interpreter's packages (the grader's dependencies) behind its own:
    the grader itself must then come from the bundled wheel.
    """
    root = tmp_path_factory.mktemp("autograder")
    source = root / "source"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(source)
    for name in ("setup.sh", "run_autograder"):
        (source / name).chmod(0o755)  # zipfile does not restore modes; Gradescope's unpacking does
    venv = root / "minimax-grader-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    venv_site = Path(subprocess.run([str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                    capture_output=True, text=True, check=True).stdout.strip())
    outer = [p for p in {*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
             if Path(p).is_dir()]
    # The outer packages minus the grader itself (installed there too when the suite runs from a
    # regular install, as in CI): the venv must get the grader from the bundled wheel only.
    deps = root / "outer-dependencies"
    deps.mkdir()
    for folder in outer:
        for entry in Path(folder).iterdir():
            lowered = entry.name.lower()
            if entry.name == "grader" or lowered.startswith(("minimax_grader", "__editable__")) or entry.suffix == ".pth":
                continue
            if not (deps / entry.name).exists():
                (deps / entry.name).symlink_to(entry)
    venv_site.mkdir(parents=True, exist_ok=True)
    (venv_site / "zz_outer_site.pth").write_text(f"{deps}\n", encoding="utf-8")
    env = {**OUTSIDE, "AUTOGRADER_ROOT": str(root), "MINIMAX_GRADER_SKIP_APT": "1",
           "MINIMAX_GRADER_SETUP_PYTHON": sys.executable}
    setup = subprocess.run(["bash", str(source / "setup.sh")], env=env, capture_output=True, text=True, timeout=600,
                           cwd=source)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    where = subprocess.run([str(venv / "bin/python"), "-c", "import grader; print(grader.__file__)"],
                           capture_output=True, text=True, check=True, cwd=root, env=OUTSIDE).stdout.strip()
    assert Path(where).is_relative_to(venv), f"the venv imports the grader from {where}, not from the bundled wheel"
    return root


def run_autograder(root: Path, submission: Path, *, beside: dict | None = None, inside: bool = False,
                   **extra_env) -> dict:
    """``beside``: more files of the student's, by name; ``inside``: the script run from the submission's folder."""
    folder = root / "submission"
    if folder.exists():
        for old in folder.iterdir():
            old.unlink()
    folder.mkdir(exist_ok=True)
    (folder / "solution.py").write_bytes(submission.read_bytes())
    for name, text in (beside or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    env = {**OUTSIDE, "AUTOGRADER_ROOT": str(root), **extra_env}
    run = subprocess.run(["bash", str(root / "source/run_autograder")], env=env, capture_output=True, text=True,
                         timeout=300, cwd=folder if inside else root)
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads((root / "results/results.json").read_text(encoding="utf-8"))
    jsonschema.validate(results, gradescope.schema())
    return results


def test_the_zip_has_the_scripts_at_its_top_level(bundle):
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        setup_sh = archive.read("setup.sh").decode()
        runner = archive.read("run_autograder").decode()
    assert {"setup.sh", "run_autograder"} <= set(names)
    assert all(modes[name] & stat.S_IXUSR for name in ("setup.sh", "run_autograder"))
    wheels = [n for n in names if n.startswith("wheels/") and n.endswith(".whl")]
    assert len(wheels) == 1
    assert setup_sh.startswith("#!/usr/bin/env bash") and runner.startswith("#!/usr/bin/env bash")
    # setup.sh installs the bundled wheel (no index needs to know minimax-grader) into a venv,
    # after fetching bubblewrap and a new enough Python with apt.
    assert '"$SOURCE"/wheels/*.whl' in setup_sh and "-m venv" in setup_sh
    assert "apt-get install -y -qq bubblewrap" in setup_sh and "python3.11" in setup_sh
    assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in setup_sh and 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in runner
    assert '"$ROOT/submission" --exercise ctp-26 --format gradescope' in runner
    for script in ("setup.sh", "run_autograder"):
        check = subprocess.run(["bash", "-n", "/dev/stdin"], input=(setup_sh if script == "setup.sh" else runner),
                               capture_output=True, text=True)
        assert check.returncode == 0, f"{script}: {check.stderr}"


def test_the_bundled_wheel_is_complete_and_its_record_is_right(bundle, tmp_path):
    with zipfile.ZipFile(bundle) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".whl"))
        (tmp_path / "grader.whl").write_bytes(archive.read(name))
    with zipfile.ZipFile(tmp_path / "grader.whl") as wheel:
        names = set(wheel.namelist())
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        for line in wheel.read(record).decode().splitlines():
            path, digest, size = line.rsplit(",", 2)
            if path == record:
                continue
            data = wheel.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(data), path
        entry_points = wheel.read(record.replace("RECORD", "entry_points.txt")).decode()
    assert "grader/doors/cli.py" in names and "grader/export/gradescope.schema.json" in names
    assert "grader/_data/exercises/ctp-26/exercise.toml" in names
    assert any(n.startswith("grader/_data/reference/") for n in names)
    assert not any("__pycache__" in n for n in names)
    assert "minimax-grader = grader.doors.cli:main" in entry_points


def _seed_of(root: Path) -> int:
    import re

    return int(re.search(r"MINIMAX_GRADER_SEED=(\d+) ", (root / "source/run_autograder").read_text(encoding="utf-8")).group(1))


def test_the_bundle_grades_with_its_own_secret_seed_drawn_once_into_the_image(installed, tmp_path):
    """The 120th helper: every Gradescope submission was graded on the public seed's cases (26), the ones students
    see counterexamples of in ``check``, where docs/instructors.md promises graded cases never are. A bundle draws a
    secret seed (said at build, ``--seed`` to give one), the same for every submission, and setup.sh builds its
    cases once into the image's cache."""
    seed = _seed_of(installed)
    assert seed != 26
    for script in (installed / "source/run_autograder", installed / "source/setup.sh"):
        assert script.stat().st_mode & 0o077 == 0, script  # the seed is root's to read (the 122nd helper)
    cached = list((installed / "minimax-grader-cache" / "banks").glob(f"ctp-26-*-s{seed}-*.json"))
    assert len(cached) == 1, list((installed / "minimax-grader-cache").rglob("*"))
    banks = installed / "minimax-grader-cache" / "banks"
    assert banks.stat().st_mode & 0o077 == 0  # a bank's name holds its seed: the folder is root's to list
    results = run_autograder(installed, SUBMISSIONS / "buggy/always_max.py")
    assert list(banks.glob("ctp-26-*.json")) == cached  # graded on those cases, none drawn afresh
    # Never on a command line (/proc/*/cmdline is any process's to read without Landlock), never in the results
    # Gradescope hands to later runs (the 123rd helper)
    runner = (installed / "source/run_autograder").read_text(encoding="utf-8")
    assert "--seed" not in runner and "seed" not in results["extra_data"] and str(seed) not in json.dumps(results)
    out = tmp_path / "given.zip"
    run = grader("gradescope-bundle", "--exercise", "ctp-26", "--out", str(out), "--seed", "4242")
    assert run.returncode == 0 and "seed 4242" in run.stdout, run.stderr
    with zipfile.ZipFile(out) as archive:
        assert "MINIMAX_GRADER_SEED=4242 " in archive.read("run_autograder").decode()
        assert " 4242 " in archive.read("setup.sh").decode()


def test_run_autograder_grades_a_repository_handed_in_whole(installed):
    """A GitHub repository uploaded to Gradescope: the solution in ``src/``, nothing at the top (was 0: "the folder
    contains no Python file")."""
    folder = installed / "submission"
    results = run_autograder(installed, SUBMISSIONS / "correct/negamax.py")
    (folder / "src").mkdir()
    (folder / "solution.py").rename(folder / "src" / "solution.py")
    (folder / "README.md").write_text("# homework\n", encoding="utf-8")
    run = subprocess.run(["bash", str(installed / "source/run_autograder")], capture_output=True, text=True,
                         timeout=300, cwd=installed, env={**OUTSIDE, "AUTOGRADER_ROOT": str(installed)})
    assert run.returncode == 0, run.stderr
    moved = json.loads((installed / "results/results.json").read_text(encoding="utf-8"))
    assert moved["score"] == results["score"] == 10, moved.get("output")
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()


def test_run_autograder_grades_a_buggy_and_a_correct_submission(installed):
    buggy = run_autograder(installed, SUBMISSIONS / "buggy/always_max.py")
    assert buggy["score"] == 0
    assert [t["name"] for t in buggy["tests"]][:3] == ["published-cases", "fixture-trees", "random-trees"]
    assert buggy["tests"][0]["status"] == "failed" and "yours: `10`" in buggy["tests"][0]["output"]
    correct = run_autograder(installed, SUBMISSIONS / "correct/negamax.py")
    assert correct["score"] == 10
    assert all(t["status"] == "passed" for t in correct["tests"])


def test_run_autograder_run_from_the_submission_folder_runs_none_of_the_students_files_as_the_grader(installed):
    """Wherever the script runs, the grader comes from its venv: a student's ``grader.py`` in the working folder was
    what ``python -m grader`` ran instead (no results: "could not grade"), and a ``jinja2.py`` there was imported by
    the grader itself, outside the sandbox. (Their own code may import their own files: a ``json.py`` of theirs is
    their submission's ``json``, in the sandbox.)"""
    # Harmless where the submission's own files load (the sandbox, which loads every module of it): they fail only as
    # the program ``python -m grader`` runs, or imported where the command line is (click loaded)
    shadow = ("import sys\nif __name__ == '__main__' or 'click' in sys.modules:\n"
              "    raise SystemExit('a student file ran as the grader')\n")
    results = run_autograder(installed, SUBMISSIONS / "correct/negamax.py", inside=True,
                             beside={"grader.py": shadow, "jinja2.py": shadow})
    assert results["score"] == 10, results.get("output")


def test_run_autograder_leaves_a_result_even_when_the_grader_cannot_start(installed):
    results = run_autograder(installed, SUBMISSIONS / "correct/negamax.py", MINIMAX_GRADER_PYTHON="/bin/false")
    assert results["score"] == 0
    assert "could not grade" in results["output"]


def test_the_feedback_level_reaches_run_autograder(tmp_path):
    out = tmp_path / "hints.zip"
    run = grader("gradescope-bundle", "--exercise", "ctp-26", "--out", str(out), "--feedback", "hints")
    assert run.returncode == 0, run.stderr
    with zipfile.ZipFile(out) as archive:
        assert "--format gradescope" in (runner := archive.read("run_autograder").decode())
    assert "--feedback hints" in runner


def test_an_unknown_exercise_is_refused_at_build_time(tmp_path):
    run = grader("gradescope-bundle", "--exercise", "no-such-exercise", "--out", str(tmp_path / "x.zip"))
    assert run.returncode == 2
    assert not (tmp_path / "x.zip").exists()


@pytest.fixture(scope="module")
def aind_installed(tmp_path_factory) -> Path:
    """The same for aind-isolation: an agent class over a board object, graded through the object route."""
    out = tmp_path_factory.mktemp("aind-bundle") / "autograder.zip"
    run = grader("gradescope-bundle", "--exercise", "aind-isolation", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return install(tmp_path_factory, out)


def test_run_autograder_grades_an_isolation_agent(aind_installed):
    samples = ROOT / "fixtures/submissions/aind-isolation"
    buggy = run_autograder(aind_installed, samples / "buggy/timer_checked_only_at_root.py")
    failed = [t["name"] for t in buggy["tests"] if t["status"] == "failed"]
    assert "minimax-timeout" in failed and "alphabeta-timeout" in failed, buggy
    assert 0 < buggy["score"] < 23.0
    correct = run_autograder(aind_installed, samples / "correct/ordered_negamax.py")  # imports isolation, sample_players
    assert correct["score"] == 23.0 and all(t["status"] == "passed" for t in correct["tests"]), correct


def test_a_seed_drawn_by_build_is_read_back_from_the_bundle(tmp_path):
    """``build(seed=None)`` from Python drew a secret seed and said nothing of it (the command line says it): the
    instructor could not grade the same cases at home. ``seed_of`` reads it from the bundle's own script."""
    from grader.doors import gradescope_bundle as bundle

    wheel = tmp_path / "minimax_grader-0-py3-none-any.whl"
    wheel.write_bytes(b"not read here")
    drawn = {bundle.seed_of(bundle.build("ctp-26", tmp_path / f"{i}.zip", wheel=wheel)) for i in range(3)}
    assert len(drawn) == 3 and all(0 <= seed < 2 ** 32 for seed in drawn)  # drawn afresh, each said
    assert bundle.seed_of(bundle.build("ctp-26", tmp_path / "given.zip", wheel=wheel, seed=4242)) == 4242
    assert bundle.seed_of(bundle.build("ctp-26", tmp_path / "negative.zip", wheel=wheel, seed=-5)) == -5  # --seed -5
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("run_autograder", "#!/bin/sh\necho hi\n")
    with pytest.raises(ValueError, match="names no seed"):
        bundle.seed_of(other)
