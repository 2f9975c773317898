"""``minimax-grader gradescope-bundle``: the autograder zip Gradescope asks for, ready to upload.

Gradescope unpacks the zip into ``/autograder/source``, runs ``setup.sh`` once to build the
image, then runs ``run_autograder`` for every submission with the student's files in
``/autograder/submission``; whatever ends up in ``/autograder/results/results.json`` is the grade.

The zip carries the grader itself as a wheel, packed from the very code that builds the
bundle (package, exercises, references and fixtures), so the image grades exactly like the
instructor's machine and needs no package index to know about minimax-grader (its
dependencies still come from PyPI). ``run_autograder`` always leaves a results.json behind,
even when the grader cannot start, so a student never sees an empty result page.

``AUTOGRADER_ROOT`` (default ``/autograder``) moves the whole layout, which is how the tests
run the real scripts in a temporary folder.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import shlex
import zipfile
from pathlib import Path

from grader import paths

FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # every entry gets the same date: same inputs, same bytes
SKIP_PARTS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image.
# It installs minimax-grader from the wheel in this bundle into its own virtual environment.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$ROOT/minimax-grader-venv"

usable() {  # a Python new enough for the grader (3.11 or later)
  command -v "$1" >/dev/null 2>&1 && "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}
find_python() {
  for candidate in ${MINIMAX_GRADER_SETUP_PYTHON:-} python3.13 python3.12 python3.11 python3; do
    if usable "$candidate"; then echo "$candidate"; return 0; fi
  done
  return 1
}

if [ "${MINIMAX_GRADER_SKIP_APT:-0}" != "1" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # bubblewrap gives the student's code its own namespaces; the grader warns loudly without it.
  apt-get install -y -qq bubblewrap || echo "setup.sh: bubblewrap unavailable, grading without it" >&2
  if ! find_python >/dev/null; then
    apt-get install -y -qq python3.11 python3.11-venv || apt-get install -y -qq python3 python3-venv
  fi
  apt-get install -y -qq python3-venv >/dev/null 2>&1 || true
fi

PYTHON="$(find_python)" || { echo "setup.sh: minimax-grader needs Python 3.11 or newer" >&2; exit 1; }
"$PYTHON" -m venv ${MINIMAX_GRADER_VENV_ARGS:-} "$VENV"
"$VENV/bin/python" -m pip install --disable-pip-version-check ${MINIMAX_GRADER_PIP_ARGS:-} "$SOURCE"/wheels/*.whl
# Smoke test: the installed grader starts and knows the exercise (grep reads everything: with
# -q it could stop early and the grader's next line would die of a broken pipe).
"$VENV/bin/python" -P -m grader exercises __EXERCISES_ARGS__ | grep -- __EXERCISE_GREP__ >/dev/null
# The grading cases of this bundle's seed, drawn once here into the image's cache: every submission then starts
# grading at once, on the same cases (a container that cannot read the cache builds them again, the same ones).
export MINIMAX_GRADER_CACHE="${MINIMAX_GRADER_CACHE:-$ROOT/minimax-grader-cache}"
"$VENV/bin/python" -P -c 'import sys; from pathlib import Path; from grader.judging import bank, exercise
bank.build(exercise.load(sys.argv[1], [Path(d) for d in sys.argv[3:]] or None), seed=int(sys.argv[2]))' \
  __EXERCISE__ __SEED__ __EXERCISES_DIRS__
# The seed is in these scripts: readable by root alone, so that no process of a student's, whatever user the sandbox
# gives it, reads it (the cases' cache is 0600 already)
# (the scripts only: the exercises a bundle carries stay readable, a child may load an exercise's driver by path)
chmod go-rwx "$SOURCE/run_autograder" "$SOURCE/setup.sh" 2>/dev/null || true
[ -f "$ROOT/run_autograder" ] && chmod go-rwx "$ROOT/run_autograder" 2>/dev/null
echo "minimax-grader installed in $VENV; grading cases of seed __SEED__ ready"
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission. It grades $AUTOGRADER_ROOT/submission and always
# writes $AUTOGRADER_ROOT/results/results.json, even if the grader itself cannot start.
set -u
ROOT="${AUTOGRADER_ROOT:-/autograder}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Gradescope copies this script to $ROOT/run_autograder; the rest of the bundle is in $ROOT/source.
if [ -d "$HERE/wheels" ]; then SOURCE="$HERE"; else SOURCE="$ROOT/source"; fi
PYTHON="${MINIMAX_GRADER_PYTHON:-$ROOT/minimax-grader-venv/bin/python}"
RESULTS="$ROOT/results/results.json"
chmod go-rwx "${BASH_SOURCE[0]}" 2>/dev/null  # it holds the bundle's secret seed (see setup.sh)
export MINIMAX_GRADER_CACHE="${MINIMAX_GRADER_CACHE:-$ROOT/minimax-grader-cache}"  # setup.sh drew the cases there
mkdir -p "$ROOT/results"
rm -f "$RESULTS"

# -P: whatever folder this runs in is never on the grader's import path (a file there named like a library would run
# as the grader, outside the sandbox)
# The seed by the environment, never on the command line: every process of the machine reads command lines in
# /proc where the sandbox has no Landlock, and a child given a throw-away uid does not read root's environment
MINIMAX_GRADER_SEED=__SEED__ "$PYTHON" -P -m grader check "$ROOT/submission" --exercise __EXERCISE__ --format gradescope --output "$RESULTS" __EXERCISES_ARGS__
code=$?

if [ ! -s "$RESULTS" ]; then
  cat > "$RESULTS" <<JSON
{"score": 0, "output": "The autograder could not grade this submission (exit code $code). Please tell your instructor.", "output_format": "text", "stdout_visibility": "hidden", "tests": []}
JSON
fi
# Exit 0: a low score is a result, not a failure of the autograder.
exit 0
"""


def seed_of(bundle: Path) -> int:
    """The seed a bundle grades with (the one ``build`` drew, where it was given none): read from its
    ``run_autograder``, which hands it to ``check`` through ``MINIMAX_GRADER_SEED``."""
    with zipfile.ZipFile(bundle) as archive:
        script = archive.read("run_autograder").decode("utf-8")
    found = re.search(r"^MINIMAX_GRADER_SEED=(-?\d+) ", script, re.MULTILINE)  # --seed takes any integer
    if found is None:
        raise ValueError(f"{bundle} is no bundle of this grader's: its run_autograder names no seed")
    return int(found.group(1))


def build(exercise_id: str, out: Path, *, exercises_dir: list[Path] | None = None, wheel: Path | None = None,
          feedback: str | None = None, seed: int | None = None) -> Path:
    """Write the autograder zip for ``exercise_id`` to ``out`` and return its path.

    ``seed``: the grading cases' seed, the same for every submission of the assignment; None draws a fresh secret
    one, as ``grade`` does for a class: Gradescope is where grades are given, and the public seed's cases are the
    ones every student has seen counterexamples of in ``check`` (docs/instructors.md). The seed drawn is read back
    with ``seed_of(path)``, to grade the same cases again on your machine."""
    import secrets

    from grader.judging import exercise as exercises

    seed = secrets.randbits(32) if seed is None else seed

    exercises.load(exercise_id, exercises_dir)  # an unknown exercise fails here, not on Gradescope
    extra = [Path(d) for d in exercises_dir or ()]
    in_bundle = [f"exercises-extra/{i}" for i in range(len(extra))]
    wheel_name, wheel_bytes = (wheel.name, wheel.read_bytes()) if wheel else pack_wheel()
    run_args = " ".join([f'--exercises-dir "$SOURCE/{d}"' for d in in_bundle]
                        + ([f"--feedback {shlex.quote(feedback)}"] if feedback else []))
    setup_args = " ".join(f'--exercises-dir "$SOURCE/{d}"' for d in in_bundle)
    setup_dirs = " ".join(f'"$SOURCE/{d}"' for d in in_bundle)
    entries: dict[str, tuple[bytes, int]] = {
        "setup.sh": (SETUP_SH.replace("__EXERCISES_ARGS__", setup_args).replace("__EXERCISES_DIRS__", setup_dirs)
                     .replace("__EXERCISE_GREP__", shlex.quote(f"{exercise_id} "))
                     .replace("__EXERCISE__", shlex.quote(exercise_id)).replace("__SEED__", str(int(seed))).encode(),
                     0o755),
        "run_autograder": (RUN_AUTOGRADER.replace("__EXERCISE__", shlex.quote(exercise_id))
                           .replace("__SEED__", str(int(seed)))
                           .replace("__EXERCISES_ARGS__", run_args).encode(), 0o755),
        f"wheels/{wheel_name}": (wheel_bytes, 0o644),
        "README.txt": (_readme(exercise_id).encode(), 0o644),
    }
    for folder, name in zip(extra, in_bundle):
        for path, rel in _walk(folder):
            entries[f"{name}/{rel}"] = (path.read_bytes(), 0o644)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _write_zip(out, entries)
    return out


def pack_wheel() -> tuple[str, bytes]:
    """A pure-Python wheel of the running grader, built from its files (no build backend needed).

    Works the same from a checkout (editable install) and from an installed wheel: the package
    folder plus the exercises, references and fixtures under ``grader/_data``, with the
    installed distribution's own METADATA and entry points.
    """
    import importlib.metadata as md

    dist = md.distribution("minimax-grader")
    version = dist.version
    dist_info = f"minimax_grader-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path, rel in _walk(paths.PACKAGE_DIR):
        if rel.split("/", 1)[0] != "_data":
            files[f"grader/{rel}"] = path.read_bytes()
    for name, folder in (("exercises", paths.exercises_dir()), ("reference", paths.reference_dir()),
                         ("fixtures", paths.fixtures_dir())):
        for path, rel in _walk(folder):
            files[f"grader/_data/{name}/{rel}"] = path.read_bytes()
    files[f"{dist_info}/METADATA"] = (dist.read_text("METADATA") or "").encode()
    files[f"{dist_info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: minimax-grader {version}\n"
                                   "Root-Is-Purelib: true\nTag: py3-none-any\n").encode()
    entry_points = dist.read_text("entry_points.txt")
    if entry_points:
        files[f"{dist_info}/entry_points.txt"] = entry_points.encode()
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in sorted(files.items())]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    _write_zip(buffer, {name: (data, 0o644) for name, data in files.items()})
    return f"minimax_grader-{version}-py3-none-any.whl", buffer.getvalue()


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _walk(folder: Path):
    for path in sorted(Path(folder).rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not SKIP_PARTS.intersection(rel.parts) and path.suffix not in (".pyc", ".pyo"):
            yield path, rel.as_posix()


def _write_zip(target, entries: dict[str, tuple[bytes, int]]) -> None:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            data, mode = entries[name]
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def _readme(exercise_id: str) -> str:
    return (f"Gradescope autograder for the minimax-grader exercise {exercise_id}.\n\n"
            "Upload this zip as the autograder of a programming assignment (Ubuntu base image).\n"
            "Students submit their solution file; the autograder reports one test per rubric check,\n"
            "with the smallest counterexample for every check that fails.\n")
