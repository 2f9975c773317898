"""A seal on the harness: what the child still observes itself cannot be changed unseen.

Loaded by the harness (a plain ``python -I -S`` script) from its own folder, before any student
code runs; standard library only. The answers are judged in the grading process, and so is the
evidence of the helpers' calls (every value is a question the grading process answered and
logged: ``session.py``). What is still observed inside the child is whether the student's call
left its input as it found it. Student code shares that process, so it can reach the harness
through ``gc`` or a helper's ``__closure__``; the ``Seal`` makes a change to what that
observation rests on show: identities of everything the harness relies on, taken before the
submission loads (its module's globals, its classes' methods, its objects' attributes, the
driver's functions and classes, the json encoder, each function's code, defaults and closure
contents). ``broken()`` before every reply says whether any of it was swapped (each call's
helpers and "before" snapshot are checked right after the call); the harness then reports
tampering and the grader zeroes the whole submission.

What this does not stop: code that writes the process's memory directly (``ctypes``). The
security page of the docs says so; bubblewrap or Landlock do not change that.
"""

import types
import weakref
from itertools import chain
from operator import attrgetter

# Every builtin the checks below call is bound here, at import, before any student code runs:
# a name looked up in builtins at check time is whatever the student (or a restore of builtins
# they managed to poison) put there.
_len = len
_list_iter = list.__iter__
_vars = vars
_getattr = getattr
_isinstance = isinstance
_dict_get = dict.get
_dict_clear = dict.clear
_dict_items = dict.items
_str_join = str.join
_str_encode = str.encode
_BaseException = BaseException
_ValueError = ValueError
_issubclass = issubclass
_tuple_repr = tuple.__repr__
_weakref = weakref.ref


def _text_of(snapshot):
    """A snapshot's text; a tuple subclass's by tuple's own repr (its class could be swapped for
    one whose ``__repr__`` is the student's, and that would run here, on the harness's thread).
    Weak references in it (a driver's way to hold the root it walks from) are left out: nothing
    can point them elsewhere, and their text would look up the referent's ``__name__``."""
    if _issubclass(_type(snapshot), tuple):
        return _tuple_repr(_tuple(item for item in snapshot if _type(item) is not _weakref))
    return _repr(snapshot)
_list_append = list.append
_repr = repr
_id = id
_type = type
_tuple = tuple
_map = map
_dict_keys = dict.keys
_dict_values = dict.values
_FunctionType = types.FunctionType
_function_parts = attrgetter("__code__", "__defaults__", "__kwdefaults__")
_cell_contents = attrgetter("cell_contents")
_SCALARS = (int, float, bool, str, bytes, type(None))

# Attributes the harness itself reassigns while serving (the channel's buffer, the watchdog's
# alarm, what loading the submission finds): their keys are sealed, not their values.
VOLATILE = frozenset({"buffer", "asked", "told", "armed", "fired", "tick", "due", "module", "modules", "entry", "submission_files"})


# What decides how an instance's attributes are read and written: a class that gains or swaps one
# of these can show the driver a node's state of its choosing.
PLUMBING = ("__dict__", "__getattribute__", "__getattr__", "__setattr__", "__delattr__", "__class__", "__slots__")


# Entries the standard library itself adds to a class as it works (copy and pickle cache the
# slot names of a class whose instances they copied): not tampering.
CLASS_CACHES = frozenset({"__slotnames__"})


def _functions_of(namespace_values):
    return [value for value in namespace_values if _type(value) is _FunctionType]


class Seal:
    """Identities of the harness's working parts, taken once; ``broken()`` compares them again."""

    def __init__(self, namespaces=(), objects=(), classes=(), functions=(), lenient=(), plumbing=()):
        """``lenient``: namespaces whose plain scalars may be rebound (a driver counting in a global).
        ``plumbing``: library classes (anytree's nodes) whose attribute machinery alone is sealed
        (``PLUMBING``): a student may give them methods of their own, not a new ``__dict__``."""
        self.namespaces = [vars(n) if not isinstance(n, dict) else n for n in namespaces]
        self.lenient = [vars(n) if not isinstance(n, dict) else n for n in lenient]
        self.objects = list(objects)
        self.classes = [k for k in classes if isinstance(k, type)]
        self.plumbing = [k for k in plumbing if isinstance(k, type)]
        found = list(functions)
        for space in self.namespaces + self.lenient:
            found += _functions_of(_dict_values(space))
        for klass in self.classes:
            found += _functions_of(vars(klass).values())
            found += [v.__func__ for v in vars(klass).values() if _type(v) in (staticmethod, classmethod)]
        self.functions = list({_id(f): f for f in found}.values())
        self.cells = [cell for f in self.functions for cell in (f.__closure__ or ()) if _has_contents(cell)]
        self.taken = self._take()

    def _take(self):
        spaces = [(_tuple(_map(_id, _dict_keys(s))), _tuple(_map(_id, _dict_values(s)))) for s in self.namespaces]
        spaces += [_tuple(_id(v) for v in _dict_values(s) if _type(v) not in _SCALARS) for s in self.lenient]
        kinds = _tuple(_map(_id, _map(_type, self.objects)))
        objects = []
        for obj in self.objects:
            attrs = _getattr(obj, "__dict__", {})
            objects.append((_tuple(_map(_id, _dict_keys(attrs))),
                            _tuple(_id(v) for k, v in _dict_items(attrs) if k not in VOLATILE)))
        klasses = [_tuple(_id(v) for name, v in _vars(k).items() if name not in CLASS_CACHES) for k in self.classes]
        klasses += [_tuple(_id(_vars(k).get(name)) for name in PLUMBING) for k in self.plumbing]
        parts = _tuple(_map(_id, chain.from_iterable(_map(_function_parts, self.functions))))
        try:
            cells = _tuple(_map(_id, _map(_cell_contents, self.cells)))
        except _ValueError:  # a cell emptied
            cells = None
        return spaces, kinds, objects, klasses, parts, cells

    def broken(self):
        try:
            return self._take() != self.taken
        except _BaseException:
            return True


def _has_contents(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def call_evidence(helpers, before, texts):
    """One call's seal, taken before the call: the helpers handed to the student (their code and
    closures) and the tree's "before" snapshot with its text (plain data the driver made).

    An exact tuple of identities, ints and a str, for the harness to keep in its own frame: student
    code may find it with ``gc`` but cannot change it (an object with attributes or slots, or a
    list, could be rewritten in place). ``texts`` caches the text by snapshot: a warm child asks
    about the same prebuilt tree again and again; the text this call is compared with is read
    from the cache before the call, so poisoning the cache can only break later calls' seals.
    """
    helpers = _tuple(h for h in helpers if _type(h) is _FunctionType)
    parts = _tuple(_map(_id, chain.from_iterable(_map(_function_parts, helpers))))
    # A helper may count in a closure variable (``nonlocal calls``): cells holding plain scalars
    # are left out; a swapped trace dict or tree is not.
    cells = _tuple(cell for h in helpers for cell in (h.__closure__ or ())
                   if _has_contents(cell) and _type(cell.cell_contents) not in _SCALARS)
    contents = _tuple(_map(_id, _map(_cell_contents, cells)))
    known = _dict_get(texts, _id(before))
    if known is None or _type(known) is not _tuple or known[0] is not before:
        if _len(texts) > 4096:  # a cold child builds a fresh tree per call: keep the cache small
            _dict_clear(texts)
        known = texts[_id(before)] = (before, _text_of(before))
    return helpers, parts, cells, contents, before, known[1]


def call_broken(evidence, before):
    """Whether the call swapped a helper's code or closure, or changed or replaced the snapshot."""
    try:
        helpers, parts, cells, contents, kept_before, before_text = evidence
        if before is not kept_before or _text_of(before) != before_text:
            return True
        if _tuple(_map(_id, chain.from_iterable(_map(_function_parts, helpers)))) != parts:
            return True
        return _tuple(_map(_id, _map(_cell_contents, cells))) != contents
    except _BaseException:
        return True
