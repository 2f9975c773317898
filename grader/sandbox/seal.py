"""A seal on the harness: what the child still observes itself cannot be changed unseen.

Loaded by the harness (a plain ``python -s -P -S`` script) from its own folder, before any student
code runs; standard library only. The answers are judged in the grading process, and so is the
evidence of the helpers' calls (every value is a question the grading process answered and
logged: ``session.py``). What is still observed inside the child is whether the student's call
left its input as it found it. Student code shares that process, so it can reach the harness
through ``gc`` or a helper's ``__closure__``; the ``Seal`` makes a change to what that
observation rests on show: identities of everything the harness relies on, taken before the
submission loads (its module's globals, its classes' methods, its objects' attributes, the
driver's functions and classes, each function's code, defaults and closure
contents). ``check(anchor)`` says whether any of it was swapped: the whole seal once per request,
and after every call the smaller anchor of what runs between two calls (``Harness.window``), with
each call's own helpers and "before" snapshot (``call_seal``). The harness then reports tampering
and the grader zeroes the whole submission.

What this does not stop: code that writes the process's memory directly (``ctypes``). The
security page of the docs says so; bubblewrap or Landlock do not change that.
"""

import _hashlib
import _random
import gc
import os as _os
import sys
from array import array as _array_type
import types
import weakref
from itertools import chain as _chain
from itertools import repeat as _repeat
from operator import attrgetter, is_
from operator import itemgetter as _itemgetter

# Every builtin the checks below call is bound here, at import, before any student code runs:
# a name looked up in builtins at check time is whatever the student (or a restore of builtins
# they managed to poison) put there.
_len = len
_vars = vars
_getattr = getattr
_dict_items = dict.items
_ValueError = ValueError
_TypeError = TypeError
_issubclass = issubclass
_tuple_repr = tuple.__repr__
_tuple_iter = tuple.__iter__
_tuple_hash = tuple.__hash__
_weakref = weakref.ref
_all = all
_sum = sum
_is = is_
_setswitchinterval = sys.setswitchinterval
_gc_isenabled = gc.isenabled
_gc_disable = gc.disable
_gc_enable = gc.enable
_gc_get_referents = gc.get_referents
_gettrace = sys.gettrace
_getprofile = sys.getprofile
SWITCH_SECONDS = sys.getswitchinterval()  # the interpreter's own, read before any student code could change it


_repr = repr
_id = id
_type = type
_tuple = tuple
_map = map
_dict_keys = dict.keys
_dict_values = dict.values
_dict_get = dict.get
_chain_from_iterable = _chain.from_iterable
_proxy_values = types.MappingProxyType.values
_FunctionType = types.FunctionType

# The dicts of the builtin types the harness's code goes through between two calls. A key planted in one of
# them (its real dict is within reach of gc), whose hash collides with a name and which comes ahead of it,
# has its __eq__ run by any lookup of that name on an object of that type that misses the interpreter's type
# cache (and the student can evict an entry): student code on the harness's thread (the thirteenth red
# team, through ``object``'s dict and the function type's). ``check`` looks at these first, with
# C-level calls only, before any attribute is looked up; so does the harness after every wait.
GUARDED_TYPES = (
    # Only types whose dicts an attribute lookup goes through: an operator, a call, a subscript, ``in`` or a
    # descriptor's ``__get__`` on a builtin type goes through its C slots, never its dict.
    object, type, dict, list, tuple, str, bytes, types.FunctionType, types.MethodType, types.FrameType,
    types.CellType, types.MappingProxyType,
)


def type_guard(extra=()):
    """``(dicts, referents, keys)`` of ``GUARDED_TYPES`` and ``extra``: each type's own dict (the real one behind its
    mapping proxy, which ``gc`` reaches as the student's code can), what ``gc.get_referents`` finds in them all, and
    every key in order, taken before any student code runs. Whole when::

        len(found := gc.get_referents(*dicts)) == len(referents) and all(map(is_, found, referents))
            and tuple(chain.from_iterable(dicts)) == keys

    The referents of a dict whose keys are all exact strings are its values, in order: the very values (a method
    of the student's put in place of ``bytes.partition`` or ``list.append`` runs on the harness's thread at its next
    lookup that misses the type cache: the lookup probe's find, ``forge_type_value``), no key added. A key
    of any other type (a ``str`` subclass whose hash collides with a name, put ahead of it: the thirteenth red
    team's) turns the dict into one whose referents are its keys and values both, for good: the count differs.
    So the keys are exact strings by then, and comparing them with ``==`` runs nothing of the student's; it
    finds a key renamed. Two C-level passes and one comparison, about half the time of an identity pass over
    keys and values each (``benchmarks/sandbox_cost.py``)."""
    dicts = _tuple(_gc_get_referents(_vars(klass))[0] for klass in (*GUARDED_TYPES, *extra))
    if not _all(_type(each) is dict for each in dicts):
        raise RuntimeError("a guarded type's namespace is not a plain dict")
    return dicts, _tuple(_gc_get_referents(*dicts)), _tuple(_chain_from_iterable(dicts))


# The harness's random generator's C class, hashes and the tree driver's arrays: looked up between calls. (Not
# ``random.Random``, the generator's Python class: a student may add a method to it; the harness seals its
# plumbing and ``gauss_next`` alone, see ``harness.GENERATOR_PLUMBING``.)
# And the scratch test's ``os.statvfs`` result: making one reads ``n_fields`` and ``n_sequence_fields`` from its
# type's dict by key (the lookup probe found it, ``tests/test_lookup_probe.py``).
_GUARD_EXTRA = (_random.Random, type(_hashlib.new("sha512")), _array_type,
                *((_os.statvfs_result,) if hasattr(_os, "statvfs_result") else ()))
TYPE_GUARD = type_guard(_GUARD_EXTRA)
_GUARDED_ALL = (*GUARDED_TYPES, *_GUARD_EXTRA)  # in the order of TYPE_GUARD's dicts


def _version_reader():
    """``view(d)``: a read-only view of a dict's own header (``[0]`` its size, ``[1]`` its version tag), or None
    where this Python does not keep such a tag the way the checks need (every change of a dict gives it a new,
    never reused version: CPython 3.11 to 3.13 on a 64-bit machine; verified here on a probe dict, not assumed).

    Why: a version the same as before says, in one read, that the dict was not changed at all, where the identity
    passes below read every key and value (about 500 in the builtin types' dicts alone, after every call of the
    student's). ``check`` reads the versions first and takes the identity passes only where one differs: the
    common case, nothing changed, is quicker. A version that moved also says what the passes cannot: a dict put
    back as it was has still been written (see ``_versions``). One write leaves the version alone and changes
    what the passes would count: a ``str`` subclass key written over an equal key with the value it already had
    turns the dict into one with general keys, the same keys and values (the fifty-fourth red team); the passes
    called that tampering, the versions do not, and nothing of the student's is left in the dict to run. The view
    is made with ``PyMemoryView_FromMemory`` through ctypes, before any student code runs; reading it later
    (``read_version``) is a memoryview's subscript, C alone. Code that writes the process's memory could set a version back, as it could change
    anything else here (see the module's docstring)."""
    try:
        import ctypes

        if ctypes.sizeof(ctypes.c_void_p) != 8 or sys.implementation.name != "cpython":
            return None
        make = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int)(
            ("PyMemoryView_FromMemory", ctypes.pythonapi))
    except Exception:  # noqa: BLE001 - no ctypes (or no such function): the identity passes alone, as ever
        return None

    def view(space):
        if _type(space) is not dict:
            raise _TypeError("only a plain dict has a version to read")
        return make(_id(space) + 16, 16, 0x100).cast("Q")  # after the object's header; 0x100: PyBUF_READ

    try:  # the layout and the behaviour both, on a dict of our own
        probe = {}
        header = view(probe)
        seen = {header[1]}
        for change in (lambda: probe.__setitem__("a", 1), lambda: probe.__setitem__("b", 2),
                       lambda: probe.__setitem__("a", 3), lambda: probe.pop("a"), lambda: probe.setdefault("c", 4),
                       lambda: probe.update(d=5), probe.popitem, probe.clear):
            change()
            if header[0] != _len(probe) or header[1] in seen:
                return None
            seen.add(header[1])
    except Exception:  # noqa: BLE001 - another layout: the identity passes alone
        return None
    return view


_VIEW = _version_reader()
read_version = _itemgetter(1)  # a view's version (``[0]`` is the dict's size)


_MRO_OF = vars(type)["__mro__"].__get__  # a class's method resolution order, read by type's own getter
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: no attribute of the type can be set, from Python
_type_setattr = type.__setattr__


def _refresher(klass, real):
    """What a changed version of a class's dict asks of ``check`` (see ``_versions``): True, tampering, for a
    type whose attributes no Python code can set (the builtin types', the C types'): its dict was written through
    ``gc``; else ``(the class, "__module__", its dict)``, whose caches ``check`` makes the interpreter forget."""
    if klass.__flags__ & _IMMUTABLE_TYPE or _type(klass) is not type or _type(real.get("__module__")) is not str:
        return True
    return klass, "__module__", real


def _versions(dicts, classes=None):
    """``(read, views, versions, how, set_type_attribute)`` of these dicts, for ``check``'s first look (see
    ``_version_reader``); None where this Python has no versions to read. ``classes``: the class each dict
    belongs to (None for a module's namespace), in the same order.

    A version that moved says more than "look the careful way". The interpreter keeps what it found in a class's
    dict (its type attribute cache, and the specialised instructions' inline caches), and a write to the real
    dict through ``gc`` does not tell it: a function of the student's written under a name, looked up once (so
    cached), and the dict put back as it was, leaves every pass over the dict content and every later lookup of
    that name on the student's function, on the harness's thread (the fifty-third red team: ``dict.get``, which
    the tree driver's fingerprint calls, handing the harness each reordered children list in its old order).
    So ``how`` says, per dict: None (a module: its lookups cache where a name is, never what it holds), True (a
    type no Python code may change: a moved version is tampering) or what ``check`` needs to make the
    interpreter forget a mutable class's caches once the passes found its dict as sealed: the class's
    ``__module__`` set to the very value it holds, through ``type.__setattr__``, which calls
    ``PyType_Modified``, writes the same value (no change, no new version) and runs no code of the student's."""
    if _VIEW is None:
        return None
    views = _tuple(_map(_VIEW, dicts))
    how = _tuple(None if klass is None else _refresher(klass, space)
                 for klass, space in zip(classes or (None,) * _len(dicts), dicts))
    return read_version, views, _tuple(_map(read_version, views)), how, _type_setattr


# The views of the dicts of the guarded types no Python code may change (see _refresher), for the harness's own
# looks at the builtin types after a wait (``guard_still``): made once, here, before any student code runs.
_GUARD_STILL_VIEWS = _tuple(_VIEW(space) for klass, space in zip(_GUARDED_ALL, TYPE_GUARD[0])
                            if _refresher(klass, space) is True) if _VIEW is not None else ()


def guard_still():
    """``(read, views, versions)``: the versions of the immutable guarded types' dicts as they are now, taken by the
    harness before any student code runs, for the places it looks at the builtin types' dicts itself (after a
    wait, a flush, the files' load: ``harness._receive`` and the rest). There, as in ``check``, a dict of such a
    type written and put back is tampering (see ``_versions``): the interpreter may still hold what was written.
    Empty where this Python keeps no versions."""
    return read_version, _GUARD_STILL_VIEWS, _tuple(_map(read_version, _GUARD_STILL_VIEWS))


code_of = vars(types.FunctionType)["__code__"].__get__  # a function's code, read without looking anything up
func_of = vars(types.MethodType)["__func__"].__get__  # a bound method's function, likewise
_FUNCTION_PARTS = (attrgetter("__code__"), attrgetter("__defaults__"), attrgetter("__kwdefaults__"))
_cell_contents = attrgetter("cell_contents")
_SCALARS = (int, float, bool, str, bytes, type(None))
# Told apart by identity: ``type(v) in _SCALARS`` compares with ``==``, and a class whose metaclass
# has an ``__eq__`` of the student's would run it here and could pass for an int.
_SCALAR_IDS = frozenset(map(id, _SCALARS))
_is_scalar_id = _SCALAR_IDS.__contains__

# Attributes the harness itself reassigns while serving (the channel's buffer, the watchdog's
# alarm, what loading the submission finds): their keys are sealed, not their values.
VOLATILE = frozenset({"buffer", "asked", "told", "armed", "fired", "tick", "due", "module", "modules", "entry", "submission_files"})


# What decides how an instance's attributes are read and written: a class that gains or swaps one
# of these can show the driver a node's state of its choosing.
PLUMBING = ("__dict__", "__getattribute__", "__getattr__", "__setattr__", "__delattr__", "__class__", "__slots__",
            # set, it flags the class abstract: ``object.__new__`` then iterates it, to word its error
            "__abstractmethods__")


# Entries the standard library itself adds to a class as it works (copy and pickle cache the
# slot names of a class whose instances they copied): not tampering.
CLASS_CACHES = frozenset({"__slotnames__"})


def _functions_of(namespace_values):
    return [value for value in namespace_values if _type(value) is _FunctionType]


class Seal:
    """Identities of the harness's working parts, taken once into ``anchor``; ``check(anchor)`` compares them again.

    ``anchor`` is an immutable tuple: the harness keeps it in its serving frame, which student code
    cannot reach, and hands it to every check. The seal object itself is on the heap (``gc`` finds it):
    nothing it holds is trusted once student code has run.
    """

    def __init__(self, namespaces=(), objects=(), classes=(), functions=(), lenient=(), plumbing=()):
        """``lenient``: namespaces whose plain scalars may be rebound (a driver counting in a global).
        ``plumbing``: library classes (anytree's nodes, the standard library's ``random.Random``) whose attribute
        machinery alone is sealed (``PLUMBING``): a student may give them methods of their own, not a new
        ``__dict__``. An item may be ``(class, names)``: those names sealed too, the ones the harness itself
        reaches through the class (``gauss_next``, set on the harness's generator between calls)."""
        namespaces = [vars(n) if not isinstance(n, dict) else n for n in namespaces]
        lenient = [vars(n) if not isinstance(n, dict) else n for n in lenient]
        for space in namespaces + lenient:
            # Where ``warnings`` records what it has shown, made now, so that a warning of the student's
            # attributed to a sealed module (an unclosed file, ``stacklevel=2``) changes that dict and adds no key.
            if space.get("__warningregistry__") is None:
                space["__warningregistry__"] = {}
        objects = list(objects)
        classes = [k for k in classes if isinstance(k, type)]
        plumbing = [(k, ()) if isinstance(k, type) else k for k in plumbing]
        plumbing = [(k, (*PLUMBING, *names)) for k, names in plumbing if isinstance(k, type)]
        found = list(functions)
        for space in namespaces + lenient:
            found += _functions_of(_dict_values(space))
        for klass in classes:
            found += _functions_of(vars(klass).values())
            found += [v.__func__ for v in vars(klass).values() if _type(v) in (staticmethod, classmethod)]
        # and the functions a sealed function holds in its closure (a factory's helpers: ``call_seal``)
        queue, seen = list(found), {}
        while queue:
            function = queue.pop()
            if _type(function) is not _FunctionType or _id(function) in seen:
                continue
            seen[_id(function)] = function
            for cell in function.__closure__ or ():
                if _has_contents(cell) and _type(cell.cell_contents) is _FunctionType:
                    queue.append(cell.cell_contents)
        functions = _tuple(seen.values())
        cells = _tuple(cell for f in functions for cell in (f.__closure__ or ()) if _has_contents(cell))
        self.anchor = _anchor(namespaces, lenient, objects, classes, plumbing, functions, cells)

    def broken(self):
        """Whether anything sealed changed (for the grader's own tests: the harness calls ``check`` itself)."""
        intact, collecting = check(self.anchor)
        release(collecting)
        return not intact


def _anchor(namespaces, lenient, objects, classes, plumbing, functions, cells):
    """Everything ``check`` compares, as tuples of the very objects (held, so no identity is reused),
    with the C-level callables it needs: ``check`` reads no global name, so its code object, which
    cannot be changed, is all that must be verified before it is trusted."""
    spaces = _tuple((s, _len(s), _tuple(_dict_keys(s)), _tuple(_dict_values(s))) for s in namespaces)
    loose = []
    for s in lenient:
        items = _tuple(_dict_items(s))
        scalar = [_is_scalar_id(_id(_type(v))) for _, v in items]
        kept = [(k, v) for (k, v), plain in zip(items, scalar) if not plain]
        # The quick way (``check``): the very keys, in order, so each value is found by its position.
        keys = _tuple(k for k, _ in items)
        plain_keys = _tuple(k for (k, _), plain in zip(items, scalar) if plain)
        loose.append((s, keys if _all(_type(k) is str for k in keys) else None, _tuple(k for k, _ in kept),
                      _tuple(v for _, v in kept), keys, plain_keys, _tuple(v for _, v in items),
                      _tuple(i for i, plain in enumerate(scalar) if not plain),
                      _tuple(i for i, plain in enumerate(scalar) if plain)))
    held = []
    for obj in objects:
        attrs = _getattr(obj, "__dict__", {})
        kept = [(k, v) for k, v in _dict_items(attrs) if k not in VOLATILE]
        held.append((obj, attrs, _len(attrs), _tuple(_dict_keys(attrs)), _tuple(k for k, _ in kept), _tuple(v for _, v in kept)))
    kinds = []
    for klass in classes:
        proxy = _vars(klass)
        names = _tuple(name for name in proxy if name not in CLASS_CACHES)
        kinds.append((proxy, _len(names), names, _tuple(_map(proxy.get, names))))
    # The quick way over every class at once (``check``): the same lengths, the very keys in order, the
    # very values; anything else is decided the careful way, class by class.
    proxies = _tuple(k[0] for k in kinds)
    every_key = _tuple(_chain(*proxies))
    classes_at_once = (proxies, _tuple(_map(_len, proxies)), every_key,
                       _tuple(_chain(*_map(_proxy_values, proxies)))) if _all(_type(k) is str for k in every_key) else None
    # Each class's real dict (gc reaches it) and the ``dict.get`` of its plumbing names, read by C alone: a mapping
    # proxy's ``get`` calls the dict's ``get`` by name, a lookup per name (after every call, since the eighteenth red
    # team: anytree's classes).
    pipes = _tuple((_gc_get_referents(_vars(k))[0], names, _tuple(_map(_vars(k).get, names)), _tuple(_repeat(
        _gc_get_referents(_vars(k))[0], _len(names)))) for k, names in plumbing)
    plumbing = _tuple(k for k, _ in plumbing)
    parts = _tuple(_tuple(_map(getter, functions)) for getter in _FUNCTION_PARTS)  # codes, defaults, kwdefaults
    try:
        contents = _tuple(_map(_cell_contents, cells))
    except _ValueError:
        contents = None
    tools = (_all, _map, _is, _len, _getattr, _type, _sum, _FUNCTION_PARTS,
             _cell_contents, _is_scalar_id, CLASS_CACHES, _dict_values, _id, zip, _repeat(str), _gettrace,
             _getprofile, _tuple, _chain_from_iterable, _proxy_values, TYPE_GUARD, _gc_get_referents, _dict_get)
    switches = (_setswitchinterval, _gc_isenabled, _gc_disable)
    # Every dict the identity passes read, but the objects' own (``held``: the harness reassigns some of their
    # attributes as it serves, so their versions move all the time): the builtin types', the namespaces', the
    # classes' real ones (behind their mapping proxies) and the library classes'.
    versioned = (*TYPE_GUARD[0], *namespaces, *lenient, *(_gc_get_referents(k[0])[0] for k in kinds),
                 *(pipe[0] for pipe in pipes))
    owners = (*_GUARDED_ALL, *(None for _ in namespaces), *(None for _ in lenient), *classes, *plumbing)
    # Every sealed class's method resolution order, the very tuple (the fifty-fifth red team re-based the tree
    # driver's Snapshot and the warm harness's class with ``__bases__ = ...``, which writes no dict: student code
    # then ran on the harness's thread). A re-base makes a new tuple, even one put back as it was.
    ranked = _tuple(k for k in (*classes, *plumbing, *_map(_type, objects)) if _type(k) is type)
    orders = (_MRO_OF, ranked, _tuple(_map(_MRO_OF, ranked)))
    return (tools, switches, spaces, _tuple(loose), _tuple(held), (_tuple(kinds), classes_at_once), pipes, functions,
            parts, cells, contents, _tuple(objects), _tuple(_map(_type, objects)), _versions(versioned, owners), orders)


def check(anchor):
    """Hold the interpreter, then say whether anything sealed in ``anchor`` changed: ``(intact, collecting)``.

    Holding comes first: the switch interval goes up (a thread of the student's gets the interpreter
    only when the holder blocks, or after a second; they may have set the interval to a microsecond)
    and garbage collection goes off (a collection may run any ``__del__`` of theirs). From here
    until ``release`` no student code runs unless the harness calls it, so what this finds whole
    stays whole while the harness uses it. ``collecting``: whether collection was on, for ``release``.

    Reads no global name (every callable comes in the anchor): the harness verifies this function's
    ``__code__`` before it calls it, and the rest follows. All comparisons are C-level passes over
    identities (``operator.is_``): cheap enough for every call, and no student method runs (an
    ``__eq__`` of the student's is never asked).
    """
    switch, collecting_now, stop_collecting = anchor[1]
    switch(1.0)
    collecting = collecting_now()
    stop_collecting()
    try:
        (tools, _switches, spaces, loose, held, kinds, pipes, functions, parts, cells, contents, objects,
         types_, versions, (mro_of, ranked, orders)) = anchor
        (all_, map_, is_, len_, getattr_, type_, sum_, function_parts, cell_contents,
         is_scalar_id, caches, values_, id_, zip_, strs, gettrace, getprofile, tuple_, chained,
         proxy_values, (guarded, guarded_referents, guarded_keys), referents_of, dict_get) = tools
        # First the versions of every dict the passes below read (see _version_reader): each the same as when the
        # seal was made means none of those dicts changed at all, and their passes are skipped. A memoryview's
        # subscript and a comparison of two tuples of exact ints: no attribute is looked up, nothing of the
        # student's runs. (A view the student's code released fails the read: tampering, as any other change.)
        moved = ()
        if versions is None:
            untouched = False
        else:
            read, views, then, how, set_type_attribute = versions
            now = tuple_(map_(read, views))
            untouched = now == then
            if not untouched:  # which class dicts moved (see _versions): an immutable type's is tampering
                for version, was, each in zip_(now, then, how):
                    if version != was and each is not None:
                        if each is True:
                            return False, collecting
                        moved += (each,)
        # The builtin types' dicts first: every attribute looked up below goes through them (see GUARDED_TYPES).
        if not untouched:
            found = referents_of(*guarded)
            if len_(found) != len_(guarded_referents) or not all_(map_(is_, found, guarded_referents)) \
                    or tuple_(chained(guarded)) != guarded_keys:
                return False, collecting
            found = None
        # A trace or profile function on this thread sees every frame of the harness and can rewrite
        # their variables: none may be set (the student's code never runs on this thread).
        if gettrace() is not None or getprofile() is not None:
            return False, collecting
        if not all_(map_(is_, map_(mro_of, ranked), orders)):  # a sealed class re-based (see _anchor)
            return False, collecting
        if not all_(map_(is_, map_(type_, objects), types_)):
            return False, collecting
        if untouched:  # every namespace and class as it was: only what is not a dict is left to look at
            spaces = loose = pipes = ()
            kinds = ((), None)
        for space, size, keys, values in spaces:
            if len_(space) != size or not all_(map_(is_, space, keys)) or not all_(map_(is_, values_(space), values)):
                return False, collecting
        # Keys are plain strings before any name is looked up: a planted key whose hash collides with a
        # name would have its own __eq__ run by the lookup (by this check, or by the code it vouches for).
        for space, every_key, keys, values, anchored, plain_keys, every_value, kept_at, plain_at in loose:
            # The quick way: the very same keys, in order, so nothing was added, removed or planted, and each
            # value sits where it sat. Then the kept values are the very objects and the plain ones still plain
            # (what the careful way below asks too): at once when every value is the very one it was (the
            # common case), else one by one. Anything else is left to the careful way.
            if every_key is not None and len_(space) == len_(every_key) and all_(map_(is_, space, every_key)):
                if all_(map_(is_, values_(space), every_value)):
                    continue
                at = tuple_(values_(space)).__getitem__
                if all_(map_(is_, map_(at, kept_at), values)) and \
                        all_(map_(is_scalar_id, map_(id_, map_(type_, map_(at, plain_at))))):
                    continue
                return False, collecting
            # The careful way: plain-string keys, exactly the keys there were (a new name, even bound to a
            # plain value, would shadow a builtin the driver reads: ``str = 0``), the very objects, and the
            # plain values still plain (a driver may count in a global).
            if not all_(map_(is_, map_(type_, space), strs)) or len_(space) != len_(anchored):
                return False, collecting
            if not all_(map_(space.__contains__, anchored)) or not all_(map_(is_, map_(space.get, keys), values)):
                return False, collecting
            if not all_(map_(is_scalar_id, map_(id_, map_(type_, map_(space.get, plain_keys))))):
                return False, collecting
        for obj, attrs, size, keys, kept_keys, kept in held:
            if getattr_(obj, "__dict__", None) is not attrs or len_(attrs) != size or not all_(map_(is_, attrs, keys)):
                return False, collecting
            if not all_(map_(is_, map_(attrs.get, kept_keys), kept)):
                return False, collecting
        kinds, at_once = kinds
        if at_once is not None:
            proxies, lengths, every_key, every_value = at_once
            if tuple_(map_(len_, proxies)) == lengths and all_(map_(is_, chained(proxies), every_key)) and \
                    all_(map_(is_, chained(map_(proxy_values, proxies)), every_value)):
                kinds = ()  # every class as it was: nothing left to look at
        for proxy, size, names, values in kinds:
            if not all_(map_(is_, map_(type_, proxy), strs)):
                return False, collecting
            if len_(proxy) - sum_(map_(proxy.__contains__, caches)) != size:
                return False, collecting
            if not all_(map_(is_, map_(proxy.get, names), values)):
                return False, collecting
        for space, names, values, spaces_again in pipes:
            # plain-string keys only: a dict that ever held another kind of key has its keys among its referents
            # as well as its values (see type_guard), so the count tells, in C, without a pass over every key
            if len_(referents_of(space)) != len_(space) \
                    or not all_(map_(is_, map_(dict_get, spaces_again, names), values)):
                return False, collecting
        for getter, kept in zip_(function_parts, parts):
            if not all_(map_(is_, map_(getter, functions), kept)):
                return False, collecting
        if contents is None:
            intact = len_(cells) == 0
        else:
            intact = all_(map_(is_, map_(cell_contents, cells), contents))
        if intact:  # a class whose dict moved and is found as sealed: its caches forgotten (see _versions)
            for klass, key, real in moved:
                value = dict_get(real, key)
                if type_(value) is not type_(key):  # a plain string, as when the seal was made
                    return False, collecting
                set_type_attribute(klass, key, value)
        return intact, collecting
    except:  # noqa: E722 - a bare except looks no name up (BaseException would be a lookup student code can poison)
        return False, collecting


def release(collecting):
    """The interpreter's usual switching again (the watchdog must be able to interrupt the next call),
    and collection back on if it was. Nothing rests on this: a student who swaps it only makes their
    own calls wait longer to be interrupted; a call's time is measured by the harness's own clock."""
    _setswitchinterval(SWITCH_SECONDS)
    if collecting:
        _gc_enable()


def _has_contents(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def call_seal():
    """``(evidence, broken)``: one call's own seal, as closures over C-level tools taken now (before any
    student code runs).

    ``evidence(helpers, before, built)``, taken before the call: the helpers handed to the student (their code,
    defaults and closures), the driver's object for the case (``parts_of_built``) and the tree's "before" snapshot (the object, its class, and what it is
    compared by: the hash of its items, read with tuple's own iteration and without the weak references
    a driver keeps its root by; its text when it holds a list). An exact tuple, kept in the harness's
    own frame: student code may find it with ``gc`` but cannot change it, and nothing is cached between
    calls, where the student could write what a later call is compared with. ``broken(kept, before, built)``,
    after the call (and at the audit): whether a helper's code or closure, the driver's object, or the snapshot
    or its class, changed (a class of
    the student's would iterate as they chose wherever the driver unpacks the snapshot).

    Neither reads a global name, so the harness can use them between two calls, where only code whose
    whole behaviour the per-call check vouches for may run: their code objects and their closures'
    contents are in that check, and nothing else they read can change."""
    tuple_, map_, id_, type_, function_type, weak_type = _tuple, _map, _id, _type, _FunctionType, _weakref
    code_of, defaults_of, kwdefaults_of = _FUNCTION_PARTS
    cell_contents, is_scalar_id, issubclass_ = _cell_contents, _is_scalar_id, _issubclass
    tuple_iter, tuple_hash, tuple_repr, repr_ = _tuple_iter, _tuple_hash, _tuple_repr, _repr
    type_error, value_error = _TypeError, _ValueError
    vars_, dict_type, keys_of, values_of, all_, is__, len_ = _vars, dict, _dict_keys, _dict_values, _all, _is, _len

    def token_of(snapshot):
        if issubclass_(type_(snapshot), tuple_):
            kept = []  # a loop, not a comprehension: making its function reads this module's globals by key
            for item in tuple_iter(snapshot):
                if type_(item) is not weak_type:
                    kept.append(item)
            items = tuple_(kept)
            try:
                return tuple_hash(items)
            except type_error:
                return tuple_repr(items)
        return repr_(snapshot)

    def parts_of(helpers):
        return (tuple_(map_(id_, map_(code_of, helpers))), tuple_(map_(id_, map_(defaults_of, helpers))),
                tuple_(map_(id_, map_(kwdefaults_of, helpers))))

    def parts_of_built(built):
        """The driver's object for the case as the call found it: its class, its dict, and the dict's keys and values
        as the objects themselves, compared after the call by identity (never ``==``, which runs an ``__eq__``). A
        driver reads its input back through it after the call, and honest code never reaches it; the hundred and
        sixteenth red team did, with ``gc``: pointed ``built.handed`` at an untouched copy, gave ``built`` a class
        with a property of theirs, planted a key that hashed as ``"handed"``, and the look after the call saw no
        change, or ran their code."""
        kind = type_(built)
        if kind is dict_type:
            attrs = built
        else:
            try:
                attrs = vars_(built)
            except type_error:  # no dict: its class and identity are all there is
                return (kind, None, (), ())
        if type_(attrs) is not dict_type:
            return (kind, attrs, (), ())
        return (kind, attrs, tuple_(keys_of(attrs)), tuple_(values_of(attrs)))

    def same(one, other):
        return len_(one) == len_(other) and all_(map_(is__, one, other))

    def evidence(helpers, before, built=None):
        functions = ()  # a loop, not a comprehension (see token_of)
        for helper in helpers:
            if type_(helper) is function_type:
                functions += (helper,)
        helpers = functions
        cells = []
        for helper in helpers:
            for cell in helper.__closure__ or ():
                try:
                    held = cell_contents(cell)
                except value_error:
                    continue
                if not is_scalar_id(id_(type_(held))):  # a helper may count in a closure variable
                    cells.append(cell)
        cells = tuple_(cells)
        return (helpers, parts_of(helpers), cells, tuple_(map_(id_, map_(cell_contents, cells))), before,
                type_(before), token_of(before), parts_of_built(built))

    def broken(kept, before, built=None, built_only=False):
        """``built_only``: the driver's object alone (the audit: the helpers of a call long over are no evidence of
        anything any more, and the snapshot's hash, worked out again for every input of the session, was most of
        the audit's time)."""
        try:
            helpers, parts, cells, contents, kept_before, kept_type, token, built_parts = kept
            if before is not kept_before or type_(before) is not kept_type:
                return True
            if not built_only and token_of(before) != token:
                return True
            if type_(built) is not built_parts[0]:
                return True  # first: only a class it had (which the per-call check vouches for) is asked for its dict
            now = parts_of_built(built)  # its dict: the very one, with the very keys and values, in their order
            if now[1] is not built_parts[1] or not same(now[2], built_parts[2]) or not same(now[3], built_parts[3]):
                return True
            if built_only:
                return False
            if parts_of(helpers) != parts:
                return True
            return tuple_(map_(id_, map_(cell_contents, cells))) != contents
        except:  # noqa: E722 - a bare except looks no name up
            return True

    return evidence, broken
