"""A regular (non-editable) install works on its own, away from the checkout.

Students get the grader from a wheel, not from a clone: the exercises, the references and
the fixture data must travel inside the package. The test builds a wheel, installs it into a
fresh virtualenv (borrowing the already installed dependencies, so nothing is downloaded),
and runs the installed command from a folder that has nothing to do with the checkout.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "fixtures" / "submissions" / "ctp-26"

PACKAGE_DATA = [
    "grader/_data/exercises/ctp-26/exercise.toml",
    "grader/_data/exercises/ctp-26/exercise.py",
    "grader/kit/tree_driver.py",  # ctp-26's sandbox side, written out per exercise by grader/kit/tree_hooks.py
    "grader/_data/exercises/ctp-26/statement.md",
    "grader/_data/exercises/ctp-26/starter.py",
    "grader/_data/reference/ctp_26.py",
    "grader/_data/fixtures/trees/ctp-26/exercise.json",
    "grader/_data/fixtures/submissions/ctp-26/expected.toml",
    "grader/report/templates/report.txt.j2",
    "grader/report/templates/report.html.j2",
    "grader/sandbox/harness.py",
]

PROBE = """
import json, grader, grader.paths as paths
from grader.judging import exercise
ex = exercise.load("ctp-26")
print(json.dumps({"package": grader.__file__, "data": str(paths.data_root()), "reference": ex.reference.__file__,
                  "fixtures": str(ex.fixtures_path),
                  # ctp-26's driver is the kit's tree driver, written out into the cache: the file it is made from
                  "driver": str((ex.driver_files or [ex.driver_path])[0])}))
"""


def _bin(venv: Path, name: str) -> Path:
    folder = venv / ("Scripts" if os.name == "nt" else "bin")
    return folder / (name + (".exe" if os.name == "nt" else ""))


def _run(argv, **kwargs):
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=600, **kwargs)
    return result


def _see_the_dependencies_of_this_environment(python: Path) -> None:
    """Let the new venv import the libraries the running tests import, without downloading them.

    ``--system-site-packages`` shows the *base* interpreter's packages; when the tests run
    inside a virtualenv themselves (as ``.ci/run`` does), the dependencies live in that
    virtualenv instead, so its site folders are added with a ``.pth`` file. They come after
    the new venv's own folder, so the freshly installed ``grader`` still wins.
    """
    if sys.prefix == sys.base_prefix:
        return
    import site

    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(purelib) / "_outer_environment.pth").write_text("".join(f"{p}\n" for p in outer), encoding="utf-8")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtualenv with the project installed from a freshly built wheel."""
    base = tmp_path_factory.mktemp("install")
    wheels = base / "wheels"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT])
    assert built.returncode == 0, built.stderr
    wheel = next(wheels.glob("minimax_grader-*.whl"))
    venv = base / "venv"
    # No pip of its own (seeding one costs seconds): this pip installs into it with --python.
    made = _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv])
    assert made.returncode == 0, made.stderr
    python = _bin(venv, "python")
    added = _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "-q", wheel])
    assert added.returncode == 0, added.stderr
    _see_the_dependencies_of_this_environment(python)  # after pip, so pip cannot mistake a copy there for ours
    outside = base / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MINIMAX_GRADER_EXERCISES", "VIRTUAL_ENV")}
    env["MINIMAX_GRADER_CACHE"] = str(base / "cache")
    return {"wheel": wheel, "venv": venv, "python": python, "cwd": outside, "env": env}


@pytest.mark.slow
def test_wheel_carries_the_package_data(installed):
    with zipfile.ZipFile(installed["wheel"]) as wheel:
        names = set(wheel.namelist())
    missing = [name for name in PACKAGE_DATA if name not in names]
    assert not missing, f"not in the wheel: {missing}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/"))]


@pytest.mark.slow
def test_installed_package_uses_its_own_data(installed):
    probe = _run([installed["python"], "-c", PROBE], cwd=installed["cwd"], env=installed["env"])
    assert probe.returncode == 0, probe.stderr
    where = json.loads(probe.stdout)
    venv = installed["venv"].resolve()
    for key in ("package", "data", "reference", "fixtures", "driver"):
        path = Path(where[key]).resolve()
        assert path.is_relative_to(venv), f"{key} comes from {path}, not from the installed package"
        assert not path.is_relative_to(ROOT.resolve())


@pytest.mark.slow
def test_installed_command_lists_and_grades(installed):
    cwd, env = installed["cwd"], installed["env"]
    command = _bin(installed["venv"], "minimax-grader")

    listed = _run([command, "exercises"], cwd=cwd, env=env)
    assert listed.returncode == 0, listed.stderr
    assert [line for line in listed.stdout.splitlines() if line.startswith("ctp-26 ")]

    shutil.copy(SAMPLES / "correct" / "published_style.py", cwd / "mine.py")
    shutil.copy(SAMPLES / "buggy" / "always_min.py", cwd / "theirs.py")
    good = _run([command, "check", "mine.py", "--format", "json"], cwd=cwd, env=env)
    assert good.returncode == 0, good.stdout + good.stderr
    data = json.loads(good.stdout)
    assert data["status"] == "passed" and data["score"] == data["max_score"] == 10.0

    bad = _run([command, "check", "theirs.py"], cwd=cwd, env=env)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "FAILED" in bad.stdout and "root: " in bad.stdout and "Traceback" not in bad.stderr

    as_module = _run([installed["python"], "-m", "grader", "exercises"], cwd=cwd, env=env)
    assert as_module.returncode == 0 and as_module.stdout == listed.stdout
    # Nothing but the two copied files is left in the student's folder.
    assert sorted(p.name for p in cwd.iterdir()) == ["mine.py", "theirs.py"]
