"""Finding every student's submission in whatever an instructor downloaded.

Accepted shapes, mixed freely: a folder of ``.py`` files (one per student); a folder of
per-student folders (several modules each); ``.zip`` archives (a whole class, or one per
student); a Gradescope export (``submission_metadata.yml`` beside ``submission_NNN/``
folders); a GitHub Classroom clone (one repository folder per student, named
``<assignment>-<user>``); a Canvas or Moodle submissions download (``lms_names``: a student per
user, named as the LMS names them). Student ids come from file and folder names (Gradescope: from the
metadata when it names the student; Canvas and Moodle: from the names the LMS gave the entries).

Nothing is trusted: archives are unpacked by hand under caps on member count, member size,
total size and compression ratio, and a member whose path would land outside its folder
(absolute, ``..``, a link) spoils that archive; a link that leads out of the folder being
graded spoils that submission. Each problem becomes one ``Found`` with a one-line
``problem`` for that student, and discovery goes on with the rest.

Nobody is lost without a word: ``survey`` returns, beside the submissions, every entry it
looked at and left out (a README, the LMS's metadata, ``__MACOSX``), each with the reason, so
the instructor can read the whole account before grading starts.

An archive named on the command line is a class when it holds several submissions (per-student
archives, or several ``.py`` files or code folders that each define the same top-level names,
i.e. alternatives to one another), and one student's submission (named after the archive)
otherwise. Inside a folder (or another archive) archives are read so too only where the folder holds
nothing else to grade and every archive in it holds a class (sections of one download); among
students' submissions an archive is one student's, and one that holds several submissions is that
student's error: read as a class, a student's archive could name other students, take their ids
and their rows in the LMS import. Likewise a link
inside a class is refused, and one inside a student's folder must stay in that folder: a link to a
neighbour's files would grade them as this student's.
"""

from __future__ import annotations

import ast
from grader import python_source
from grader.bulk import lms_names
from grader.file_names import readable
import hashlib
import os
import re
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_MEMBERS = 500          # files in one archive
MAX_MEMBER_BYTES = 4 << 20  # one unpacked file
MAX_TOTAL_BYTES = 64 << 20  # one unpacked archive
MAX_RATIO = 200             # unpacked/packed bytes of a member larger than RATIO_FLOOR
RATIO_FLOOR = 1 << 20
MAX_NESTING = 2             # an archive may hold archives (a class of students' zips), no deeper
MAX_PATH_DEPTH = 32         # folders in a path within a submission or an archive (Python's own walks recurse)

IGNORED = {"__MACOSX", "__pycache__", ".git", ".github", ".DS_Store", ".idea", ".vscode", "node_modules", ".venv", "venv"}
GRADESCOPE_METADATA = "submission_metadata.yml"


@dataclass
class Found:
    student: str
    path: Path | None          # a .py file or a folder to grade; None when there is a problem
    display: str               # what reports call it: the path as the instructor knows it
    problem: str | None = None
    # Read off an LMS download's own names (``lms_names``): the LMS's user id (Canvas's numeric ID, which its import
    # matches rows by), and whether ``student`` is the LMS's name for the student rather than a login
    lms_id: str = ""
    named_by_lms: bool = False

    def __post_init__(self):
        # What is shown and stored is UTF-8, whatever bytes the file system had (``grader.file_names``).
        self.student, self.display = readable(self.student), readable(self.display)
        self.problem = None if self.problem is None else readable(self.problem)


@dataclass
class Skipped:
    """Something discovery looked at and did not grade, with the reason."""

    path: str      # as the instructor knows it (inside an archive: archive/member)
    reason: str

    def __post_init__(self):
        self.path, self.reason = readable(self.path), readable(self.reason)


@dataclass
class Survey:
    """What discovery found: the submissions to grade and everything it left out."""

    found: list[Found]
    skipped: list[Skipped]
    # Several archives named, without ``sections``, and every one of them holds several submissions: what the
    # instructor most likely meant is sections, which a command should say before it grades anything (``grade``
    # refuses with this line); no student can bring it about alone, since one archive of a student's own among them
    # is enough for it not to hold
    sections_needed: str | None = None

    def account(self) -> dict:
        """Plain data for ``discovery.json`` and the summary page: every entry, graded or skipped."""
        return {
            "submissions": len(self.found),
            "graded": [{"student": f.student, "from": f.display, "problem": f.problem} for f in self.found],
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
        }

    def lines(self) -> list[str]:
        """The account as text: one line per submission with a problem and one per skipped entry."""
        out = [f"found {len(self.found)} submission{'s' if len(self.found) != 1 else ''}"
               f"{f', skipped {len(self.skipped)}' if self.skipped else ''}"]
        out += [f"skipped {s.path}: {s.reason}" for s in self.skipped]
        out += [f"{f.student}: cannot be graded: {f.problem} ({f.display})" for f in self.found if f.problem]
        return out


class ArchiveError(Exception):
    """An archive that cannot be unpacked safely; the message is the student's one line."""


# -- entry point -------------------------------------------------------------------------


def discover(paths: list[Path], staging: Path, sections: bool = False) -> list[Found]:
    """Every submission under ``paths``; archives are unpacked below ``staging`` (``sections``: see ``survey``)."""
    return survey(paths, staging, sections).found


def survey(paths: list[Path], staging: Path, sections: bool = False) -> Survey:
    """Every submission under ``paths`` and every entry left out, with the reason.

    An archive named on the command line that holds several submissions is a class where it is the only archive
    named (an LMS export, with late students' files beside it or not) or where the instructor says the archives are
    classes (``sections``: one export per section); otherwise each archive named is one student's, and one holding
    several submissions is its owner's error. Nothing in an archive tells a class export from a student's archive
    made to look like one: read as a class, ``aaron.zip`` holding a broken ``bob.py`` took bob's id and his LMS row
    in ``grade downloads/*.zip`` (the hundred and tenth helper), and every rule by ids either let a student name a
    classmate who had not submitted or refused an honest export (the hundred and eleventh and twelfth)."""
    found: list[Found] = []
    skipped: list[Skipped] = []
    paths = [Path(path) for path in paths]
    named = [path for path in paths if path.suffix.lower() == ".zip" and path.is_file()]
    classes_allowed = sections or len(named) <= 1
    refused = []  # named archives refused as classes for want of --sections
    for path in paths:
        if path.is_symlink() and not path.exists():
            found.append(Found(_student_of(path), None, str(path), f"{path.name} is a broken link"))
        elif path.is_file() and path.suffix.lower() == ".zip":
            unpacked = _opened(path, staging)
            holds_a_class = type(unpacked) is tuple and unpacked[2]
            if holds_a_class and not classes_allowed:
                refused.append(path)
                found.append(Found(_student_of(path), None, str(path),
                                   f"{path.name} holds several submissions, and other archives are named beside it, "
                                   "each read as one student's: name a class archive alone, or give --sections to "
                                   "read every archive that holds several submissions as a class"))
                continue
            inner: list[Skipped] = []
            read = _unpacked_archive(path, unpacked, str(path), 1, inner, staging, may_be_a_class=True)
            # A class in which a submission has the archive's own id (``mallory.zip`` holding ``mallory.py`` and
            # ``bob.py``) is that student's archive, read alone too
            if _owners_own(path, unpacked, read):
                found.append(Found(_student_of(path), None, str(path), OWNERS_OWN.format(name=path.name)))
                continue
            skipped.extend(inner)
            found.extend(read)
        elif path.is_dir():
            found.extend(_class_folder(path, root=path.resolve(), staging=staging, shown=str(path), skipped=skipped,
                                       sections_given=sections))
        elif path.is_file():
            owner = lms_names.named_file(path)  # a late student's file from the LMS's download, named beside it
            if owner is None:
                found.append(_single_file(path, path.parent.resolve(), str(path)))
            else:
                found.append(_single_file(path, path.parent.resolve(), str(path), student=owner.student))
                found[-1].lms_id, found[-1].named_by_lms = owner.lms_id, True
        else:
            found.append(Found(_student_of(path), None, str(path), f"no such file or folder: {path}"))
    needed = None
    if len(refused) == len(named) > 1:
        needed = (f"each of the {len(named)} archives named holds several submissions ({', '.join(p.name for p in named)}): "
                  "if they are one export per section, give --sections; if they are students' own archives, name the "
                  "folder that holds them instead")
    return Survey(_unique_ids(found), skipped, needed)


OWNERS_OWN = ("{name} holds several submissions, one of them its own owner's: one student's archive, not a class; "
              "submit one solution")


def _owners_own(path: Path, unpacked, read: list[Found]) -> bool:
    """A class archive in which a submission has the archive's own id (``mallory.zip`` holding ``mallory.py`` and
    ``bob.py``): that student's archive, read as a class nowhere, ``--sections`` or not."""
    return type(unpacked) is tuple and unpacked[2] and any(f.student.casefold() == _student_of(path).casefold()
                                                           for f in read)


# -- folders -------------------------------------------------------------------------------


def _ignored(entry: Path) -> bool:
    return entry.name in IGNORED or entry.name.startswith(".")


def _class_folder(folder: Path, root: Path, staging: Path, shown: str, skipped: list[Skipped], depth: int = 0,
                  sections_given: bool = False) -> list[Found]:
    """``sections_given``: the instructor said the archives of this (named) folder that hold several submissions are
    section exports (``--sections``), whatever else the folder holds (a late student's file beside them)."""
    if (folder / GRADESCOPE_METADATA).is_file():
        return _gradescope(folder, root, staging, shown, depth, skipped)
    everything = sorted(folder.iterdir())
    for entry in everything:
        if _ignored(entry):
            skipped.append(Skipped(f"{shown}/{entry.name}", "hidden, or a tool's metadata (not a submission)"))
    entries = [p for p in everything if not _ignored(p)]
    repos = [p for p in entries if p.is_dir() and not p.is_symlink() and _repository(p)]
    prefix = _common_prefix([p.name for p in repos]) if len(repos) > 1 else ""
    archives = {}  # each archive here, unpacked: an ArchiveError, or (its folder, its top, whether it holds a class)
    if depth < MAX_NESTING:
        for entry in entries:
            if entry.suffix.lower() == ".zip" and entry.is_file() and not entry.is_symlink():
                archives[entry] = _opened(entry, staging)
    # Archives here are classes (sections of one download: the instructor's folder of issue 12) only where the folder
    # holds nothing else to grade and every archive in it holds a class; anywhere else an archive is one student's,
    # and one that holds several submissions is that student's error: read as a class, a student's archive named
    # other students (the forty-sixth red team: ``aaron.zip`` holding a broken ``bob.py``, beside bob's own
    # submission, took bob's id and his row in the LMS import).
    # (an archive that could not be unpacked, or a folder with no code in it, says nothing either way)
    students_here = any(not entry.is_symlink() and (entry.suffix == ".py" and entry.is_file()
                                                    or entry.is_dir() and _code_folder(entry) is not None)
                        for entry in entries)
    readable = [a for a in archives.values() if type(a) is tuple]
    sections = sections_given or bool(readable) and not students_here and all(a[2] for a in readable)
    lms = lms_names.read(entries, staging, shown)
    skipped.extend(Skipped(f"{shown}/{entry.name}", reason) for entry, reason in lms.skipped.items())
    found = []
    for entry in entries:
        if entry in lms.skipped or entry in lms.absorbed:
            continue
        display = f"{shown}/{entry.name}"
        owner = lms.owners.get(entry)
        if owner is not None:
            found.append(_owned(entry, owner, root, display, depth, skipped, staging))
            continue
        if entry.is_symlink() and not _inside(entry, root):
            found.append(Found(_student_of(entry), None, display, f"{entry.name} is a link that leads outside {shown}"))
        elif entry.is_symlink():
            # Inside the class, a link is another submission under a second name: graded as this one's, and the
            # student it leads to flagged as this one's copy (the forty-sixth red team: ``mallory.py -> alice.py``)
            found.append(Found(_student_of(entry), None, display, f"{entry.name} is a link to another entry of {shown}: "
                                                                  "a submission is graded from its own files"))
        elif entry.is_dir():
            student = entry.name[len(prefix):] if entry in repos and prefix else entry.name
            found.append(_student_folder(entry, student, root, display))
        elif entry.suffix.lower() == ".zip" and entry.is_file():
            if depth >= MAX_NESTING:
                found.append(Found(_student_of(entry), None, display, f"{entry.name}: archives nested too deeply"))
            else:
                read = _unpacked_archive(entry, archives[entry], display, depth + 1, skipped, staging,
                                         may_be_a_class=sections)
                if sections_given and _owners_own(entry, archives[entry], read):
                    found.append(Found(_student_of(entry), None, display, OWNERS_OWN.format(name=entry.name)))
                else:
                    found.extend(read)
        elif entry.suffix == ".py" and entry.is_file():
            found.append(_single_file(entry, root, display))
        else:
            skipped.append(Skipped(display, "neither a Python file (.py), a folder nor a .zip archive"))
    return found


def _owned(entry: Path, owner, root: Path, display: str, depth: int, skipped: list[Skipped], staging: Path) -> Found:
    """An entry of an LMS download whose names say whose it is (``lms_names.Owner``): graded as any entry of its kind,
    under the student's name and with the LMS's id for them. Links are refused as anywhere else."""
    if owner.problem is not None:
        found = Found(owner.student, None, owner.display or display, owner.problem)
    elif owner.folder is not None:
        found = _student_folder(owner.folder, owner.student, owner.folder.resolve(), owner.display)
    elif entry.is_symlink():
        found = Found(owner.student, None, display, f"{entry.name} is a link: a submission is graded from its own files")
    elif entry.is_dir():
        found = _student_folder(entry, owner.student, root, display)
    elif entry.suffix.lower() == ".zip" and entry.is_file():
        # A student's own archive, named by the LMS: never a class (it would name other students)
        if depth >= MAX_NESTING:
            found = Found(owner.student, None, display, f"{entry.name}: archives nested too deeply")
        else:
            found = _unpacked_archive(entry, _opened(entry, staging), display, depth + 1, skipped, staging,
                                      may_be_a_class=False, student=owner.student)[0]
    else:
        found = _single_file(entry, root, display, student=owner.student)
    found.lms_id, found.named_by_lms = owner.lms_id, True
    return found


def _repository(folder: Path) -> bool:
    """Whether ``folder`` is a git clone; False where it cannot be looked into (a student's folder without search
    permission, as ``unzip`` can restore one: ``exists`` raised PermissionError for the whole class)."""
    try:
        return (folder / ".git").exists()
    except OSError:
        return False


def _single_file(path: Path, root: Path, display: str, student: str | None = None) -> Found:
    student = student or _student_of(path)
    if path.is_symlink() and not _inside(path, root):
        return Found(student, None, display, f"{path.name} is a link that leads outside the folder being graded")
    if path.suffix != ".py":
        return Found(student, None, display, f"{path.name} is not a Python file (.py)")
    return Found(student, path, display)


def _student_folder(folder: Path, student: str, root: Path, display: str) -> Found:
    """A student's folder: its own Python files, or the first folder below it that has some. A link in it must
    stay in it: one into a neighbour's folder would grade the neighbour's code as this student's (the forty-sixth
    red team's GitHub Classroom clone: ``hw-mallory/solution.py -> ../hw-alice/solution.py``)."""
    own = folder.resolve()
    try:
        for path in _walk(folder):
            if path.is_symlink() and not _inside(path, root):
                return Found(student, None, display, f"{path.relative_to(folder)} is a link that leads outside the folder being graded")
            if path.is_symlink() and not _inside(path, own):
                return Found(student, None, display, f"{path.relative_to(folder)} is a link that leads outside {display}: "
                                                     "a submission is graded from its own files")
    except TooDeep:
        return Found(student, None, display, f"the folder {display} is nested more than {MAX_PATH_DEPTH} folders deep")
    target = _code_folder(folder)
    if target is None:
        return Found(student, None, display, f"the folder {display} contains no Python file")
    shown = display if target == folder else f"{display}/{target.relative_to(folder).as_posix()}"
    return Found(student, target, shown)


def _code_folder(folder: Path) -> Path | None:
    """Where the solution lives: the folder itself if it has Python files, else the shallowest subfolder that has."""
    from grader.judging.submissions import python_files

    queue = [folder]
    while queue:
        current = queue.pop(0)
        try:
            if python_files(current):
                return current
            queue.extend(sorted(p for p in current.iterdir() if p.is_dir() and not p.is_symlink()
                                and p.name not in IGNORED and not p.name.startswith(".") and p.name not in ("tests", "test")))
        except OSError:
            continue
    return None


class TooDeep(Exception):
    """A folder nested more than MAX_PATH_DEPTH deep below the one being walked."""


def _walk(folder: Path):
    """Every entry below ``folder`` (links not followed, tools' folders left out), folders first at each level.

    With a stack, not ``os.walk``: that recurses once per level, and a student's folder nested a thousand deep
    (1,100 empty folders in a clone, or an archive's) raised RecursionError, which stopped discovery for the whole
    class (the hundred and tenth helper). Deeper than ``MAX_PATH_DEPTH``: ``TooDeep``, that student's error."""
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError:
            continue
        below = []
        for entry in listed:
            path = current / entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_folder = False
            if is_folder and entry.name in IGNORED:
                continue
            yield path
            if is_folder:
                below.append(path)
        if below and depth + 1 >= MAX_PATH_DEPTH:
            raise TooDeep(below[0])
        stack.extend((path, depth + 1) for path in reversed(below))


def _inside(path: Path, root: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a loop of links
        return False


# -- Gradescope ------------------------------------------------------------------------------


def _gradescope(folder: Path, root: Path, staging: Path, shown: str, depth: int, skipped: list[Skipped]) -> list[Found]:
    names = gradescope_students(folder / GRADESCOPE_METADATA)
    found = []
    for entry in sorted(folder.iterdir()):
        display = f"{shown}/{entry.name}"
        if entry.name == GRADESCOPE_METADATA:
            skipped.append(Skipped(display, "Gradescope's metadata (read for the students' ids)"))
            continue
        if _ignored(entry):
            skipped.append(Skipped(display, "hidden, or a tool's metadata (not a submission)"))
            continue
        key = entry.stem if entry.suffix.lower() == ".zip" else entry.name
        student = names.get(key) or key
        if entry.is_symlink() and not _inside(entry, root):
            found.append(Found(student, None, display, f"{entry.name} is a link that leads outside {shown}"))
        elif entry.is_symlink():  # another submission under a second name (see _class_folder)
            found.append(Found(student, None, display, f"{entry.name} is a link to another entry of {shown}: "
                                                       "a submission is graded from its own files"))
        elif entry.is_dir():
            found.append(_student_folder(entry, student, root, display))
        elif entry.suffix.lower() == ".zip" and entry.is_file() and depth < MAX_NESTING:
            one = _student_archive(entry, staging, display)
            one.student = student
            found.append(one)
        else:
            skipped.append(Skipped(display, "not a submission folder or archive of this Gradescope export"))
    return found


_SUBMISSION_KEY = re.compile(r"^(submission_\d+)\s*:\s*$")
_FIELD = re.compile(r"^\s*-?\s*:(sid|email|name)\s*:\s*(.*?)\s*$")


def gradescope_students(metadata: Path) -> dict[str, str]:
    """``submission_NNN`` -> a student id (sid, else e-mail, else name; a group joined by '+').

    Read line by line (the file is YAML with Ruby-style symbol keys); an unreadable file only
    means the folder names are used instead.
    """
    try:
        lines = metadata.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    people: dict[str, list[dict]] = {}
    current = None
    for line in lines:
        match = _SUBMISSION_KEY.match(line)
        if match:
            current = match.group(1)
            people[current] = []
            continue
        field_match = _FIELD.match(line)
        if current is None or not field_match:
            continue
        key, value = field_match.group(1), field_match.group(2).strip("'\"")
        if line.lstrip().startswith("-") or not people[current]:
            people[current].append({})
        people[current][-1].setdefault(key, value)
    out = {}
    for submission, submitters in people.items():
        ids = [p.get("sid") or p.get("email") or p.get("name") for p in submitters]
        ids = [i for i in ids if i]
        if ids:
            out[submission] = "+".join(ids)
    return out


# -- archives -----------------------------------------------------------------------------


def _opened(path: Path, staging: Path):
    """The archive unpacked: ``(folder, top, whether it holds a class)``, or the ArchiveError saying why not."""
    try:
        folder = unpack(path, staging)
    except ArchiveError as exc:
        return exc
    top = _single_top(folder)
    return folder, top, _holds_a_class(top)


def _unpacked_archive(path: Path, unpacked, display: str, depth: int, skipped: list[Skipped], staging: Path,
                      may_be_a_class: bool, student: str | None = None) -> list[Found]:
    """``unpacked``: ``(folder, top, holds a class)`` or the ArchiveError it gave. ``may_be_a_class``: False where it
    was found among students (see ``_class_folder``), where one that holds several submissions is its owner's error.
    ``student``: the owner's id where something other than the archive's name says it (an LMS download's names)."""
    student = student or _student_of(path)
    if isinstance(unpacked, ArchiveError):
        return [Found(student, None, display, str(unpacked))]
    folder, top, holds_a_class = unpacked
    if not holds_a_class:
        return [_student_folder(top, student, folder.resolve(), display)]
    if not may_be_a_class:
        return [Found(student, None, display,
                      f"{path.name} holds several submissions (files or folders that are alternatives to one another) "
                      "among other students' submissions, where an archive is one student's and should hold one solution "
                      "(section exports are read as classes when named on the command line, or with --sections)")]
    inner: list[Skipped] = []
    found = _class_folder(top, root=folder.resolve(), staging=staging, shown=display, skipped=inner, depth=depth)
    skipped.extend(inner)
    return found


def _student_archive(path: Path, staging: Path, display: str) -> Found:
    """One student's archive (a Gradescope export names its owner): never read as a class."""
    try:
        folder = unpack(path, staging)
    except ArchiveError as exc:
        return Found(_student_of(path), None, display, str(exc))
    return _student_folder(_single_top(folder), _student_of(path), folder.resolve(), display)


def _holds_a_class(top: Path) -> bool:
    """Several submissions: archives, or several units of code (``.py`` files, folders with code)
    that are alternatives to one another rather than the modules of one program."""
    from grader.judging.submissions import python_files

    entries = [p for p in top.iterdir() if not _ignored(p)]
    if any(p.suffix.lower() == ".zip" and p.is_file() for p in entries):
        return True
    if lms_names.students_named(entries) > 1:  # an LMS's download, told by its own names: imports decide nothing
        # (a student's ``import 李明_558_assignsubmission_file_`` made a Moodle export one student's program: the
        # hundred and fourteenth helper)
        return True
    files = [[f] for f in python_files(top)]
    folders = []
    for entry in entries:
        if entry.is_dir() and not entry.is_symlink() and entry.name not in ("tests", "test"):
            code = _code_folder(entry)
            if code is not None:
                folders.append(python_files(code))
    if not files:  # folders with code and nothing beside them: one per student, when they are alternatives too (an
        # honest archive of ``code/`` and ``experiments/`` is one program's parts: the forty-sixth red team's was split)
        return len(folders) > 1 and _alternatives(folders, {p.name for p in entries})
    units = files + folders
    return len(units) > 1 and _alternatives(units, {p.stem for p in entries})


def _alternatives(units: list[list[Path]], modules: set[str]) -> bool:
    """True when none imports another (by module name) and either two units define a top-level
    name in common (copies of one solution by different students, not one program's parts) or
    one defines nothing readable (a broken file is more likely a student's than a module's:
    listed on its own, it is seen as an error, where folded into a neighbour it would be lost)."""
    from grader.judging.submissions import MAX_SOURCE_BYTES, read_source

    seen: set[str] = set()
    shared = False
    for files in units:
        names: set[str] = set()
        for path in files:
            tree = None  # the last file's tree let go of first: an archive's two 4 MiB files of list literals, parsed
            # whole with the first tree still held, took the grader to 2.9 GB (the hundred and tenth helper)
            try:
                data = read_source(path)
                if len(data) > MAX_SOURCE_BYTES:  # never graded either (too large): read as no file at all
                    continue
                tree = python_source.parse(data)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
                elif isinstance(node, ast.Import) and any(a.name.split(".")[0] in modules for a in node.names):
                    return False
                elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in modules:
                    return False
        shared = shared or bool(names & seen) or not names
        seen |= names
    return shared


def _single_top(folder: Path) -> Path:
    """An archive that holds one folder and nothing else stands for that folder."""
    entries = [p for p in folder.iterdir() if p.name not in IGNORED]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return folder


def unpack(archive: Path, staging: Path) -> Path:
    """Unpack ``archive`` into a fresh folder under ``staging``, or raise ArchiveError saying why not.

    Every member is checked before anything is written (count, declared sizes, ratio, safe
    relative path, no links), then sizes are enforced again while reading, since a zip's
    declared sizes can lie.
    """
    name = archive.name
    try:
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    except OSError as exc:
        raise ArchiveError(f"cannot read {name}: {exc.strerror or exc}") from None
    target = staging / f"{_slug(archive.stem)}-{digest}"
    if (target / ".complete").is_file():
        return target / "files"
    shutil.rmtree(target, ignore_errors=True)
    try:
        with zipfile.ZipFile(archive) as zf:
            members = _checked_members(zf, name)
            files = target / "files"
            files.mkdir(parents=True)
            total = 0
            for info, relative in members:
                destination = files.joinpath(*relative.parts)
                if info.is_dir():
                    destination.mkdir(parents=True, exist_ok=True)
                    continue
                destination.parent.mkdir(parents=True, exist_ok=True)
                written = 0
                with zf.open(info) as source, open(destination, "wb") as out:
                    while True:
                        chunk = source.read(1 << 16)
                        if not chunk:
                            break
                        written += len(chunk)
                        total += len(chunk)
                        if written > min(info.file_size, MAX_MEMBER_BYTES) or total > MAX_TOTAL_BYTES:
                            raise ArchiveError(f"{name} unpacks to more than it declares or than {MAX_TOTAL_BYTES >> 20} MiB "
                                               f"(a zip bomb?); not unpacked")
                        out.write(chunk)
    except ArchiveError:
        shutil.rmtree(target, ignore_errors=True)
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError, RuntimeError) as exc:
        shutil.rmtree(target, ignore_errors=True)
        raise ArchiveError(f"{name} is not a readable zip archive ({str(exc)[:120] or type(exc).__name__})") from None
    (target / ".complete").write_text("ok\n")
    return target / "files"


def _checked_members(zf: zipfile.ZipFile, name: str):
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ArchiveError(f"{name} holds {len(infos)} files, more than the {MAX_MEMBERS} allowed; not unpacked")
    declared = 0
    out = []
    for info in infos:
        info.filename = _member_name(info)  # (what zf.open compares with the member's own header stays orig_filename)
        relative = _safe_relative(info.filename)
        if relative is None:
            raise ArchiveError(f"{name} holds a path that leads outside its folder ({info.filename[:80]!r}); not unpacked")
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise ArchiveError(f"{name} holds a link ({info.filename[:80]!r}); not unpacked")
        if len(relative.parts) > MAX_PATH_DEPTH:  # unpacked, it would outrun every walk that recurses (see _walk)
            raise ArchiveError(f"{name} holds a path nested more than {MAX_PATH_DEPTH} folders deep; not unpacked")
        if relative.parts and relative.parts[0] in IGNORED:
            continue
        declared += info.file_size
        if info.file_size > MAX_MEMBER_BYTES or declared > MAX_TOTAL_BYTES:
            raise ArchiveError(f"{name} unpacks to more than {MAX_TOTAL_BYTES >> 20} MiB or holds a file over "
                               f"{MAX_MEMBER_BYTES >> 20} MiB (a zip bomb?); not unpacked")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ArchiveError(f"{name} compresses {info.filename[:60]!r} more than {MAX_RATIO}:1 (a zip bomb?); not unpacked")
        out.append((info, relative))
    return out


UTF8_FLAG = 0x800
UNICODE_PATH_FIELD = 0x7075  # Info-ZIP's "Unicode Path Extra Field": version 1, the CRC-32 of the header name, UTF-8


def _member_name(info: zipfile.ZipInfo) -> str:
    """The member's name as its writer meant it. A name without the UTF-8 flag is read by ``zipfile`` as code page 437,
    the format's old default, but Info-ZIP's ``zip`` on Linux and macOS's Finder write UTF-8 without setting the flag:
    ``núñez.py`` came out ``n├║├▒ez.py``, in ids, exports and on the roster's side (the hundred and thirteenth
    helper). Such a name is taken from Info-ZIP's Unicode path field where it has one that matches, else as UTF-8 where
    its bytes are UTF-8 (text in code page 437 rarely is), else as code page 437. ``_safe_relative`` reads the result
    like any name."""
    name = info.filename
    if info.flag_bits & UTF8_FLAG:
        return name
    try:
        raw = info.orig_filename.encode("cp437")
    except UnicodeEncodeError:
        return name
    extra = info.extra
    while len(extra) >= 4:
        kind, size = int.from_bytes(extra[:2], "little"), int.from_bytes(extra[2:4], "little")
        body, extra = extra[4:4 + size], extra[4 + size:]
        if kind == UNICODE_PATH_FIELD and len(body) > 5 and body[0] == 1 \
                and int.from_bytes(body[1:5], "little") == zlib.crc32(raw):
            try:
                return body[5:].decode("utf-8")
            except UnicodeDecodeError:
                break
    if raw.isascii():
        return name
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return name


def _safe_relative(member: str) -> PurePosixPath | None:
    """The member's path as a plain relative path, or None if it could escape (absolute, '..', a drive)."""
    text = member.replace("\\", "/")
    if not text or text.startswith("/") or re.match(r"^[A-Za-z]:", text) or "\x00" in text:
        return None
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    return PurePosixPath(*parts) if parts else PurePosixPath(".")


# -- ids -------------------------------------------------------------------------------------


def _student_of(path: Path) -> str:
    name = path.name
    for suffix in (".zip", ".py"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def _common_prefix(names: list[str]) -> str:
    """The shared ``<assignment>-`` of GitHub Classroom repository names (up to a dash), or ''."""
    prefix = os.path.commonprefix(names)
    cut = prefix.rfind("-")
    if cut <= 0:
        return ""
    prefix = prefix[: cut + 1]
    return prefix if all(len(n) > len(prefix) for n in names) else ""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "student"


def safe_name(student: str) -> str:
    """A file name for a student's reports: readable, no separators, no leading dot, ASCII (a link to it works
    whatever normal form a file system keeps names in). Accented letters keep their base letter (``núñezjosé`` ->
    ``nunezjose``, where it was ``n_ezjos``: the hundred and thirteenth helper)."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", student) if not unicodedata.combining(c))
    return _slug(plain)[:80]


def _unique_ids(found: list[Found]) -> list[Found]:
    """Two submissions with one id (``alice.py`` and ``alice/``) keep both: the second becomes ``alice~2``, or
    the first ``alice~N`` that no submission is called already (the forty-fifth red team's class held ``bob/``,
    ``bob.py`` and ``bob~2.py``: two rows ``bob~2`` in every output, the LMS import and the copy detection)."""
    taken = {item.student for item in found}
    used: set[str] = set()
    for item in found:
        key = item.student
        if key in used:
            number = 2
            while f"{key}~{number}" in taken or f"{key}~{number}" in used:
                number += 1
            item.student = f"{key}~{number}"
        used.add(item.student)
    return found
