"""Whose each entry of an LMS's submissions download is, read off the names the LMS gives them.

Canvas ("Download Submissions") names every file ``<name>_<user id>_<attachment id>_<the student's file name>``
(``<name>_LATE_<user id>_…`` when late), where ``<name>`` is the student's sortable name squashed to lower case
(``garciaana``) and the user id is the number Canvas's gradebook import matches rows by. Moodle ("Download all
submissions") makes a folder per student and plugin, ``<Full Name>_<participant id>_assignsubmission_file_`` (the
files) beside ``…_assignsubmission_onlinetext_`` (the online text), or, downloaded without folders, prefixes each file
so. Read as plain file and folder names, a Canvas student was ``garciaana_12341_67891_minimax``, matched no roster and
filled no ID column, and a Moodle student with online text beside the files was two students (the hundred and
thirteenth helper). Here the entries of one student are grouped: the student's id is the LMS's name for them, the
Canvas user id goes with it, a student's several files become one folder of their own files under their own names,
and what is not code (Moodle's online text, a PDF beside the code) is left out with the reason.

Written here by hand: no maintained library reads these download layouts (LMS client libraries talk to the LMS's web
API, not to the files it hands out). Names that match neither pattern are left to ``discover`` as they are.

"""

from __future__ import annotations

import hashlib
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from grader import paths

CANVAS = re.compile(r"(?P<name>[^_]+)_(?:late_)?(?P<user>[0-9]+)_(?P<attachment>[0-9]+)_(?P<file>.+)\Z", re.IGNORECASE)
# The LMS's part comes first; the rest is the student's own file name, which may itself look like the LMS's: the first
# match is the LMS's (a greedy name let ``Mallory_111_assignsubmission_file_Bob_555_assignsubmission_file_x.py`` join
# the participant 555's files and spoil Bob's submission with a second file of his file's name)
MOODLE_FOLDER = re.compile(r"(?P<name>.+?)_(?P<user>[0-9]+)_assignsubmission_(?P<plugin>[a-z]+)_\Z")
MOODLE_FILE = re.compile(r"(?P<name>.+?)_(?P<user>[0-9]+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<file>.+)\Z")
CODE_PLUGIN = "file"  # Moodle's plugin for uploaded files; the others (onlinetext, comments) hold no code
MAX_STAGED_BYTES = 4 << 20  # a student's file copied into a folder of their own: more is not a source anyway


@dataclass
class Owner:
    """Whose an entry is: ``student`` (the LMS's name for them), ``lms_id`` (Canvas's user id, "" for Moodle, whose
    participant id no import reads). ``folder``: the folder made of the student's several files, where they had
    several; ``problem``: why the student's entries cannot be graded."""

    student: str
    lms_id: str = ""
    folder: Path | None = None
    display: str = ""
    problem: str | None = None


@dataclass
class Reading:
    owners: dict = field(default_factory=dict)    # entry -> Owner: the one entry graded for each student
    absorbed: set = field(default_factory=set)    # entries graded as part of another's (a student's other files)
    skipped: dict = field(default_factory=dict)   # entry -> why it is left out (not code)
    users: set = field(default_factory=set)       # every (lms, user id) the entries name


def read(entries: list[Path], staging: Path, shown: str, refused=lambda path: None) -> Reading:
    """The LMS's names among ``entries`` (one folder's), grouped by student; links are left to ``discover``.
    ``refused(path)``: why a file was left out of its archive (its owner's error), else None."""
    reading = Reading()
    groups: dict[tuple, list] = {}
    for entry in entries:
        if entry.is_symlink():
            continue
        key = _key(entry)
        if key is not None:
            groups.setdefault(key[0], []).append((entry, key[1], key[2]))
    for (lms, user), members in groups.items():
        reading.users.add((lms, user))
        name = members[0][1]
        student_id = user if lms == "canvas" else ""
        code, other = [], []
        for entry, _, plugin in members:
            (code if plugin == CODE_PLUGIN and _code(entry) else other).append(entry)
        for entry in other:
            reading.skipped[entry] = (f"not code: {_what(entry, lms)} of {name}'s submission"
                                      + ("" if code else ", who handed in no code"))
        if not code:
            continue
        lead = code[0]
        owner = Owner(name, student_id)
        loose = [entry for entry in code if entry.is_file() and entry.suffix == ".py"]
        left_out = next((why for why in map(refused, code) if why is not None), None)
        if left_out is not None:
            owner.display, owner.problem = f"{shown}/{lead.name}", left_out
        elif len(code) > 1 and len(loose) == len(code):  # several files: one folder of them, under their own names
            owner.folder, owner.problem = _folder_of(loose, lms, user, staging)
            owner.display = f"{shown}/{lead.name}" + (f" and {len(loose) - 1} more" if len(loose) > 1 else "")
        elif len(code) > 1:
            owner.display = f"{shown}/{lead.name}"
            owner.problem = (f"the download holds {len(code)} pieces of code for {name} (folders or archives among "
                             "them): not one submission")
        reading.owners[lead] = owner
        reading.absorbed.update(code[1:])
    return reading


def owner_of_name(name: str) -> Owner | None:
    """Whose a top file or folder an LMS named ``name`` is (``Owner``), else None."""
    found = _parsed(name, folder=None)
    return None if found is None else Owner(found[2], found[1] if found[0] == "canvas" else "")


def students_named_by(names: list[str]) -> int:
    """How many students the LMS's names among ``names`` name (entries and members left out of an archive alike): two
    or more is a download of a class, whatever its files import (an import of a classmate's entry once made a whole
    export one program, one student's)."""
    return len({key for key in (key_of_name(name, folders=True) for name in names) if key is not None})


def named_file(path: Path) -> Owner | None:
    """Whose a ``.py`` file named on its own is, where the LMS named it (a late submission downloaded alone)."""
    key = _key(path) if path.suffix == ".py" and path.is_file() and not path.is_symlink() else None
    if key is None or key[2] != CODE_PLUGIN:
        return None
    (lms, user), name, _ = key
    return Owner(name, user if lms == "canvas" else "")


def key_of_name(name: str, folders: bool = False):
    """(lms, user) of a top file an LMS named ``name`` (Canvas, or Moodle without folders; ``folders``: a Moodle
    folder's name too), else None."""
    found = _parsed(name, folder=None if folders else False)
    return None if found is None else found[:2]


def _key(entry: Path):
    """((lms, user), the student's name, the plugin) of an entry the LMS named, else None."""
    found = _parsed(entry.name, folder=entry.is_dir())
    return None if found is None else (found[:2], found[2], found[3])


def _parsed(name: str, folder: bool | None):
    """(lms, user, the student's name, the plugin, the student's own file name or None) of a name the LMS gave: a
    folder's (``folder`` True), a file's (False), either (None: a file's patterns first); None where it gave none."""
    patterns = (((MOODLE_FILE, "moodle"), (CANVAS, "canvas")) if folder is not True else ()) \
        + (((MOODLE_FOLDER, "moodle"),) if folder is not False else ())
    for pattern, lms in patterns:
        found = pattern.match(name)
        if found:
            return (lms, found["user"], found["name"], found.groupdict().get("plugin") or CODE_PLUGIN,
                    found.groupdict().get("file"))
    return None


def _code(entry: Path) -> bool:
    return entry.is_dir() or entry.is_file() and entry.suffix.lower() in (".py", ".zip")


def _what(entry: Path, lms: str) -> str:
    found = _parsed(entry.name, folder=True) if lms == "moodle" and entry.is_dir() else None
    return entry.name if found is None else f"Moodle's {found[3]} part"


def original_name(entry: Path) -> str:
    """The student's own name for a file the LMS renamed (``garciaana_12341_67891_minimax.py`` -> ``minimax.py``)."""
    found = _parsed(entry.name, folder=False)
    return entry.name if found is None else found[4]


def _folder_of(files: list[Path], lms: str, user: str, staging: Path) -> tuple[Path | None, str | None]:
    """A folder of the student's files under their own names (their modules import each other by those names), in
    ``staging``; (None, why) where it cannot be made."""
    names = [original_name(path) for path in files]
    if len(set(names)) < len(names):
        return None, f"two of the files have one name once the LMS's prefix is taken off ({', '.join(sorted(names))})"
    digest = hashlib.sha256()
    for path, name in zip(files, names):
        size = path.lstat().st_size
        if size > MAX_STAGED_BYTES:
            return None, f"{path.name} is larger than {MAX_STAGED_BYTES >> 20} MiB"
        digest.update(f"{name}\0{size}\0{path.stat().st_mtime_ns}\0".encode())
    folder = staging / f"{lms}-{user}-{digest.hexdigest()[:16]}"
    if not (folder / ".complete").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        (folder / "files").mkdir(parents=True)
        for path, name in zip(files, names):
            _copy_regular(path, folder / "files" / name)
        (folder / ".complete").write_text("ok\n")
    return folder / "files", None


def _copy_regular(source: Path, target: Path) -> None:
    """``source``'s bytes, read only as a regular file and never waiting (a FIFO in a file's place)."""
    handle, _ = paths.opened_regular(source, follow_links=False)
    with handle, open(target, "wb") as out:
        out.write(handle.read(MAX_STAGED_BYTES + 1))
