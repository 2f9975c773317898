"""Submissions and exercise folders as content: names and bytes that travel, never paths.

A worker on another machine cannot open ``/home/instructor/class/alice.py``. The driving
process reads what the sandbox would copy (exactly ``Submission.files``, the files staging
hands the child) and sends their names and bytes; the worker writes them into a private
folder under the same names (tracebacks and ``import`` between a student's modules use
them) and loads that as the submission. An instructor's exercise folder travels the same
way, as one zip per ``--exercises-dir``, unpacked once per worker process.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from grader.judging import submissions

MAX_EXERCISES_BYTES = 64 << 20  # an exercise folder is code and fixtures, not a data set
SKIPPED_PARTS = {"__pycache__", ".git", ".hg", ".svn", ".mypy_cache", ".pytest_cache"}


class ShippingError(Exception):
    """Something cannot be sent to the workers as it is (one line, said before grading starts)."""


@dataclass(frozen=True)
class Parcel:
    """One submission as content: its folder's (or file's) name and every file the sandbox gets."""

    name: str                              # "alice.py" for one file, "alice" for a folder
    folder: bool
    files: tuple[tuple[str, bytes], ...]   # (file name, bytes), in the order Submission.files has


def pack_submission(path: str | Path) -> Parcel:
    """Read a submission the way ``submissions.load`` does and keep only what grading uses.

    Raises ``ShippingError`` when it cannot be read: batch only hands over submissions that
    loaded cleanly a moment ago, so this is a file changed or removed under the grader's feet.
    """
    sub = submissions.load(path)
    if sub.problem:
        raise ShippingError(sub.problem)
    files = []
    for file in sub.files:
        try:
            files.append((file.name, file.read_bytes()))
        except OSError as exc:
            raise ShippingError(f"cannot read {file}: {exc.strerror or exc}") from None
    return Parcel(name=sub.path.name, folder=sub.is_folder, files=tuple(files))


def unpack_submission(parcel: Parcel, into: Path) -> Path:
    """Write the parcel under ``into`` and return the path to load as the submission.

    Every name is checked to be a plain file name (the sender is the grader, but a name with a
    slash would still write outside ``into``: refuse rather than trust).
    """
    _plain_name(parcel.name)
    if not parcel.folder:
        if len(parcel.files) != 1:
            raise ShippingError(f"a one-file submission arrived with {len(parcel.files)} files")
        name, data = parcel.files[0]
        target = into / _plain_name(name)
        target.write_bytes(data)
        return target
    folder = into / parcel.name
    folder.mkdir()
    for name, data in parcel.files:
        (folder / _plain_name(name)).write_bytes(data)
    return folder


def _plain_name(name: str, separators: tuple[str, ...] | None = None) -> str:
    """``name`` if it is one file name on this worker's file system. A backslash is a character of a name on POSIX
    (the local pool grades ``we\\ird.py`` there) and a separator on Windows: refused only where it is one, so a worker
    grades what a local pool on its own system would."""
    separators = separators if separators is not None else _separators()
    if not name or name in (".", "..") or "\0" in name or any(sep in name for sep in separators):
        raise ShippingError(f"refusing the file name {name!r}")
    return name


def _separators() -> tuple[str, ...]:
    """What may not be in a file name on the system this process runs on: its path separators (``/`` always: the
    sender's separator too), and on Windows the drive colon (``C:x.py`` joined to a folder is a path on drive C:,
    outside it: the 122nd helper)."""
    return tuple({"/", os.sep, *([os.altsep] if os.altsep else []), *([":"] if os.name == "nt" else [])})


# -- exercise folders ------------------------------------------------------------------------


def zip_folder(folder: Path) -> bytes:
    """The folder's files (caches and VCS folders left out) as one zip, the same bytes every time."""
    buffer = io.BytesIO()
    total = 0
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(Path(folder).rglob("*")):
            relative = path.relative_to(folder)
            if SKIPPED_PARTS & set(relative.parts) or not path.is_file() or path.suffix == ".pyc":
                continue
            data = path.read_bytes()
            total += len(data)
            if total > MAX_EXERCISES_BYTES:
                raise ShippingError(f"the exercises folder {folder} holds more than {MAX_EXERCISES_BYTES >> 20} MiB; "
                                    "move data the exercise does not need elsewhere")
            info = zipfile.ZipInfo(relative.as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def unzip_folder(data: bytes, into: Path) -> Path:
    """Unpack a ``zip_folder`` archive into ``into`` (created), refusing any member that would leave it."""
    into.mkdir(parents=True, exist_ok=True)
    root = into.resolve()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            member = PurePosixPath(info.filename)
            if member.is_absolute() or ".." in member.parts:
                raise ShippingError(f"refusing the archive member {info.filename!r}")
            target = (root / Path(*member.parts)).resolve()
            if root not in target.parents:
                raise ShippingError(f"refusing the archive member {info.filename!r}")
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))
    return into


DIGEST_LENGTH = 16  # hex characters of a ``digest``


def digest(chunks: list[bytes]) -> str:
    """A short name for what was shipped: equal content, equal name, on every machine."""
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(str(len(chunk)).encode() + b"\0" + chunk)
    return h.hexdigest()[:DIGEST_LENGTH]


def private_folder(parent: str | os.PathLike | None, prefix: str) -> Path:
    import tempfile

    return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
