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
import contextlib
import json
from grader import python_source
from grader.bulk import lms_names
from grader.file_names import readable
from grader.judging.submissions import SKIPPED_FOLDERS, code_folder, graded_folder
import hashlib
import os
import re
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# An archive is often a whole class's download, so what one member does is refused for that member alone, never
# for the archive (one student's 5 MiB PDF, or 500 files, once spoiled a class's export: the hundred and fourteenth
# helper); a refused code file becomes that student's error, anything else a line of the account.
MAX_MEMBERS = 5000            # entries in one archive (a class's download: a file or more per student)
MAX_MEMBER_BYTES = 4 << 20    # one unpacked file
MAX_OTHER_BYTES = 256 << 10   # a file that is neither code nor an export's metadata: larger, it is left packed
MAX_OWNER_BYTES = 16 << 20    # one owner's files (a top folder, an LMS user's files, a top file)
MAX_TOTAL_BYTES = 256 << 20   # one unpacked archive
MAX_STAGED_BYTES = 512 << 20  # every archive one run unpacks, nested ones included
MAX_RATIO = 200             # unpacked/packed bytes of a member larger than RATIO_FLOOR
RATIO_FLOOR = 64 << 10      # (63 members of 1 MiB of zeros, each under a 1 MiB floor, made 2.5 GB from 40 zips)
CODE_SUFFIXES = (".py", ".zip")
BENIGN = "not code"  # how the reason begins for a member left packed only for its size (a PDF beside the code)
KEPT_SUFFIXES = CODE_SUFFIXES + (".yml", ".yaml")  # and a Gradescope export's metadata
MAX_NESTING = 2             # an archive may hold archives (a class of students' zips), no deeper
MAX_PATH_DEPTH = 32         # folders in a path within a submission or an archive (Python's own walks recurse)

IGNORED = SKIPPED_FOLDERS
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
    _PARSED[0] = 0  # the parse budget is one survey's
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
                                                    or entry.is_dir() and code_folder(entry) is not None)
                        for entry in entries)
    readable = [a for a in archives.values() if type(a) is tuple]
    sections = sections_given or bool(readable) and not students_here and all(a[2] for a in readable)
    lms = lms_names.read(entries, staging, shown, refused)
    skipped.extend(Skipped(f"{shown}/{entry.name}", reason) for entry, reason in lms.skipped.items())
    found = _left_out_students(folder, shown, lms.users)
    for entry in entries:
        if entry in lms.skipped or entry in lms.absorbed:
            continue
        display = f"{shown}/{entry.name}"
        owner = lms.owners.get(entry)
        if owner is not None:
            found.append(_owned(entry, owner, root, display, depth, skipped, staging, archives.get(entry)))
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


def _left_out_students(folder: Path, shown: str, users: set) -> list[Found]:
    """The students of an LMS's download every file of whom was left out of the archive (too large, a name the file
    system refuses): each one line of their own, never lost to the account's skipped entries alone."""
    if folder.name != "files" or not (folder.parent / "refused.json").is_file():
        return []
    found, seen = [], set(users)
    for record in refusals(folder):
        if record["reason"].startswith(BENIGN):
            continue  # a file left packed for being large and not code: a line of the account, as any non-code file
        top = PurePosixPath(record.get("member") or "").parts[:1]
        owner = lms_names.owner_of_name(top[0]) if top else None
        key = lms_names.key_of_name(top[0], folders=True) if owner is not None else None
        if owner is not None and key not in seen:
            seen.add(key)
            found.append(Found(owner.student, None, f"{shown}/{record['member'][:120]}",
                               f"{record['member'][:120]} was left out of its archive: {record['reason']}",
                               lms_id=owner.lms_id, named_by_lms=True))
    return found


def _owned(entry: Path, owner, root: Path, display: str, depth: int, skipped: list[Skipped], staging: Path,
           opened=None) -> Found:
    """An entry of an LMS download whose names say whose it is (``lms_names.Owner``): graded as any entry of its kind,
    under the student's name and with the LMS's id for them. Links are refused as anywhere else."""
    if owner.problem is not None:
        found = Found(owner.student, None, owner.display or display, owner.problem)
    elif owner.folder is not None:
        found = _student_folder(owner.folder, owner.student, owner.folder.resolve(), owner.display)
    elif entry.is_symlink():
        found = Found(owner.student, None, display, f"{entry.name} is a link: a submission is graded from its own files")
    elif entry.is_dir() and code_folder(entry) is None and depth < MAX_NESTING \
            and len(zips := [p for p in entry.iterdir() if p.suffix.lower() == ".zip" and p.is_file()
                             and not p.is_symlink()]) == 1:
        # A Moodle student who uploaded their code as an archive: read as their own archive, as Canvas's are
        found = _unpacked_archive(zips[0], _opened(zips[0], staging), f"{display}/{zips[0].name}", depth + 1, skipped,
                                  staging, may_be_a_class=False, student=owner.student)[0]
    elif entry.is_dir():
        found = _student_folder(entry, owner.student, root, display)
    elif entry.suffix.lower() == ".zip" and entry.is_file():
        # A student's own archive, named by the LMS: never a class (it would name other students)
        if depth >= MAX_NESTING:
            found = Found(owner.student, None, display, f"{entry.name}: archives nested too deeply")
        else:
            found = _unpacked_archive(entry, opened or _opened(entry, staging), display, depth + 1, skipped, staging,
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
    why = refused(path)
    if why is not None:
        return Found(student, None, display, why)
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
    why = refused(folder)
    if why is not None:
        return Found(student, None, display, why)
    target = graded_folder(folder)  # the rule check and the Gradescope bundle read a folder by (submissions.load)
    if target is None:
        return Found(student, None, display, f"the folder {display} contains no Python file")
    shown = display if target == folder else f"{display}/{target.relative_to(folder).as_posix()}"
    # The student's own folder is what is loaded (submissions.load finds the same code in it): the file its table
    # names, and links judged against the student's folder, not the code's (the 123rd helper: a link from src/ to
    # the student's lib/ was refused by grade and graded by check)
    return Found(student, folder, shown)


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
    # An LMS's download, told by its own names (cheaply, before any file is parsed): imports decide nothing there (a
    # student's ``import 李明_558_assignsubmission_file_`` made a Moodle export one student's program: the hundred and
    # fourteenth helper), and the names of members left out count too (a download of two students, one whose every
    # file was left out, is still not the other one's archive)
    left_out = [PurePosixPath(r["member"]).parts[0] for r in refusals(folder) if top == folder and r.get("member")]
    named = lms_names.students_named_by([p.name for p in top.iterdir() if not _ignored(p) and not p.is_symlink()]
                                        + left_out)
    return folder, top, named > 1 or _holds_a_class(top)


def _unpacked_archive(path: Path, unpacked, display: str, depth: int, skipped: list[Skipped], staging: Path,
                      may_be_a_class: bool, student: str | None = None) -> list[Found]:
    """``unpacked``: ``(folder, top, holds a class)`` or the ArchiveError it gave. ``may_be_a_class``: False where it
    was found among students (see ``_class_folder``), where one that holds several submissions is its owner's error.
    ``student``: the owner's id where something other than the archive's name says it (an LMS download's names)."""
    student = student or _student_of(path)
    if isinstance(unpacked, ArchiveError):
        return [Found(student, None, display, refused(path) or str(unpacked))]
    folder, top, holds_a_class = unpacked
    records = refusals(folder)
    if not holds_a_class:
        # One student's own archive: what was left out of it for being unsafe is their error, as it always was
        serious = [r for r in records if not r["reason"].startswith(BENIGN)]
        if serious:
            return [Found(student, None, display, f"{path.name} holds {serious[0]['member'][:80]!r}: "
                                                  f"{serious[0]['reason']}; not unpacked")]
    skipped.extend(Skipped(f"{display}/{record['member']}", f"left out of the archive: {record['reason']}")
                   for record in records if not record.get("placeholder"))
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
    files = [[f] for f in python_files(top)]
    folders = []
    for entry in entries:
        if entry.is_dir() and not entry.is_symlink() and entry.name not in ("tests", "test"):
            code = code_folder(entry)
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
        unread = 0
        for path in files:
            tree = None  # the last file's tree let go of first: an archive's two 4 MiB files of list literals, parsed
            # whole with the first tree still held, took the grader to 2.9 GB (the hundred and tenth helper)
            try:
                data = read_source(path)
                if len(data) > MAX_SOURCE_BYTES:  # never graded either (too large): read as no file at all
                    continue
                if len(data) > MAX_PARSED_BYTES or _PARSED[0] + len(data) > MAX_PARSED_TOTAL:
                    unread += 1  # not parsed to decide this (1 MiB of "x=1" took 5 s and 630 MB: the 114th helper)
                    continue
                _PARSED[0] += len(data)
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
        if unread and not names:
            continue  # a unit only too large to read says nothing either way
        shared = shared or bool(names & seen) or not names
        seen |= names
    return shared


MAX_PARSED_BYTES = 128 << 10  # a file parsed to tell one program from several students' (a module is far smaller)
MAX_PARSED_TOTAL = 8 << 20    # every such parse of one process: then nothing more is parsed for it
_PARSED = [0]


def _single_top(folder: Path) -> Path:
    """An archive that holds one folder and nothing else stands for that folder."""
    entries = [p for p in folder.iterdir() if p.name not in IGNORED]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return folder


def unpack(archive: Path, staging: Path) -> Path:
    """Unpack ``archive`` into a fresh folder under ``staging``, or raise ArchiveError saying why not.

    Whole archives are refused only where they cannot be read, hold more than ``MAX_MEMBERS`` entries or unpack to
    more than the caps allow; a member that is unsafe (a path out of its folder, a link, nested too deep, a name the
    file system refuses), too large, too compressed, or lies about its size is left out alone. A code file left out
    (``.py``, ``.zip``) leaves an empty file in its place, known to ``refused`` by its path: the student it belongs
    to gets the reason as their error. Every member left out is listed (``refusals``) for the account. Sizes are
    enforced again while reading, since a zip's declared sizes can lie.
    """
    name = archive.name
    try:
        digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    except OSError as exc:
        raise ArchiveError(f"cannot read {name}: {exc.strerror or exc}") from None
    target = staging / f"{_slug(archive.stem)}-{digest}"
    if (target / ".complete").is_file():
        _remember_refusals(target)
        return target / "files"
    shutil.rmtree(target, ignore_errors=True)
    left_out: list[dict] = []
    try:
        with zipfile.ZipFile(archive) as zf:
            members = _checked_members(zf, name, left_out)
            files = target / "files"
            files.mkdir(parents=True)
            total, owners = 0, {}
            for info, relative, reason in members:
                if reason is not None:
                    left_out.append(_left_out(info, relative, reason, files))
                    continue
                destination = files.joinpath(*relative.parts)
                if info.is_dir():
                    try:
                        destination.mkdir(parents=True, exist_ok=True)
                    except OSError as exc:
                        left_out.append(_left_out(info, relative, f"a folder the file system refuses ({exc.strerror})"))
                    continue
                owner = _owner_of(relative)
                why = _extract(zf, info, destination, total, owners.get(owner, 0))
                if isinstance(why, str):
                    left_out.append(_left_out(info, relative, why, files))
                    continue
                total += why
                owners[owner] = owners.get(owner, 0) + why
                _account_staged(staging, why)
    except ArchiveError:
        shutil.rmtree(target, ignore_errors=True)
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError, ValueError, RuntimeError) as exc:
        shutil.rmtree(target, ignore_errors=True)
        raise ArchiveError(f"{name} is not a readable zip archive ({str(exc)[:120] or type(exc).__name__})") from None
    (target / "refused.json").write_text(json.dumps(left_out, ensure_ascii=False), encoding="utf-8")
    (target / ".complete").write_text("ok\n")
    _remember_refusals(target)
    return target / "files"


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, destination: Path, total: int, owned: int) -> int | str:
    """The member written to ``destination``: its size, or why it was left out (nothing of it left on disk)."""
    if owned + info.file_size > MAX_OWNER_BYTES:
        return f"its owner's files unpack to more than {MAX_OWNER_BYTES >> 20} MiB"
    if total + info.file_size > MAX_TOTAL_BYTES or _staged(destination) + info.file_size > MAX_STAGED_BYTES:
        return f"the archive unpacks to more than {MAX_TOTAL_BYTES >> 20} MiB"
    written = 0
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as source, open(destination, "wb") as out:
            while True:
                chunk = source.read(1 << 16)
                if not chunk:
                    break
                written += len(chunk)
                if written > min(info.file_size, MAX_MEMBER_BYTES):
                    raise _Lying()
                out.write(chunk)
    except _Lying:
        destination.unlink(missing_ok=True)
        return "it unpacks to more than it declares (a zip bomb?)"
    except OSError as exc:
        with contextlib.suppress(OSError):
            destination.unlink(missing_ok=True)
        return f"the file system refuses it ({exc.strerror or type(exc).__name__})"
    except (zipfile.BadZipFile, EOFError, ValueError, RuntimeError, NotImplementedError) as exc:
        destination.unlink(missing_ok=True)
        return f"it cannot be read ({str(exc)[:80] or type(exc).__name__})"
    return written


class _Lying(Exception):
    pass


def _owner_of(relative: PurePosixPath) -> object:
    """Whose a member is, as far as the archive's layout says: its top folder, or for a top file, the LMS user its
    name gives (``lms_names``) or the file itself."""
    top = relative.parts[0]
    if len(relative.parts) > 1:
        return ("folder", top)
    key = lms_names.key_of_name(top)
    return key if key is not None else ("file", top)


_STAGED: dict[str, int] = {}  # bytes unpacked so far under each staging folder of this process


def _account_staged(staging: Path, size: int) -> None:
    key = str(staging)
    _STAGED[key] = _STAGED.get(key, 0) + size


def _staged(destination: Path) -> int:
    for key, size in _STAGED.items():
        if str(destination).startswith(key + os.sep):
            return size
    return 0


_REFUSED: dict[str, str] = {}  # the empty file left in a refused code file's place (resolved) -> why


def _left_out(info: zipfile.ZipInfo, relative: PurePosixPath | None, reason: str, files: Path | None = None) -> dict:
    """A member left out, for the account; a code file's place is kept by an empty file (see ``unpack``)."""
    shown = relative.as_posix() if relative is not None else info.filename[:120]
    record = {"member": shown, "reason": reason}
    if files is not None and relative is not None and relative.suffix.lower() in CODE_SUFFIXES:
        place = files.joinpath(*relative.parts)
        with contextlib.suppress(OSError):
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_bytes(b"")
            record["placeholder"] = True
    return record


def _remember_refusals(target: Path) -> None:
    try:
        records = json.loads((target / "refused.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    for record in records:
        if record.get("placeholder"):
            path = (target / "files").joinpath(*PurePosixPath(record["member"]).parts)
            _REFUSED[str(path.resolve())] = f"{record['member']} was left out of its archive: {record['reason']}"


def refusals(folder: Path) -> list[dict]:
    """The members ``unpack`` left out of the archive unpacked in ``folder``: ``{"member", "reason"}``."""
    try:
        return json.loads((folder.parent / "refused.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []


def refused(path: Path) -> str | None:
    """Why the code file at ``path`` (or any under it, for a folder) was left out of its archive, else None."""
    if not _REFUSED:
        return None
    try:
        resolved = str(path.resolve())
    except OSError:
        return None
    found = _REFUSED.get(resolved)
    if found is None and path.is_dir():
        prefix = resolved + os.sep
        found = next((why for where, why in _REFUSED.items() if where.startswith(prefix)), None)
    return found


def _checked_members(zf: zipfile.ZipFile, name: str, left_out: list[dict]):
    infos = zf.infolist()
    if len(infos) > MAX_MEMBERS:
        raise ArchiveError(f"{name} holds {len(infos)} files, more than the {MAX_MEMBERS} allowed; not unpacked")
    out = []
    for info in infos:
        info.filename = _member_name(info)  # (what zf.open compares with the member's own header stays orig_filename)
        relative = _safe_relative(info.filename)
        if relative is None:
            left_out.append(_left_out(info, None, "a path that leads outside its folder"))
            continue
        if relative.parts and relative.parts[0] in IGNORED:
            continue
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            left_out.append(_left_out(info, relative, "a link"))
            continue
        if len(relative.parts) > MAX_PATH_DEPTH:  # unpacked, it would outrun every walk that recurses (see _walk)
            left_out.append(_left_out(info, None, f"nested more than {MAX_PATH_DEPTH} folders deep"))
            continue
        if info.is_dir():
            out.append((info, relative, None))
            continue
        suffix = relative.suffix.lower()
        if suffix not in KEPT_SUFFIXES and info.file_size > MAX_OTHER_BYTES:
            out_reason = f"{BENIGN}, and larger than {MAX_OTHER_BYTES >> 10} KiB"
        elif info.file_size > MAX_MEMBER_BYTES:
            out_reason = f"larger than {MAX_MEMBER_BYTES >> 20} MiB (a zip bomb?)"
        elif info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            out_reason = f"compressed more than {MAX_RATIO}:1 (a zip bomb?)"
        else:
            out_reason = None
        out.append((info, relative, out_reason))
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
