"""Sandbox side of a game whose positions are the nodes of a given tree (ctp-26, alphabeta).

Turns a case's tree shape (plain data: ``{"name", "children"}``; the values stay with the
grader) into anytree nodes and calls the student. Runs inside the child next to the student's
code, so it holds nothing secret: ``get_value`` asks the grading process for a node's value by
the node's preorder number (names repeat, so nodes are known by identity). The grader's log of
those questions is the evidence of evaluation discipline; nothing the child keeps is. ``grader.kit.tree_hooks.driver_path`` writes this file out with the exercise's ``CALL`` (the
arguments, in order) and ``HELPERS`` (the value and moves helpers' names) appended, as one
module: every defence below (the dict getter taken at import, tuple snapshots) sits in the
driver's own namespace, which the harness seals.
"""

from array import array
from itertools import chain, repeat
from operator import is_, methodcaller
from sys import _getframe as _caller
from weakref import ref as _weak

from anytree import Node


class Built:
    """One freshly built tree plus the bookkeeping the instrumented helpers need."""

    def __init__(self, case_input):
        self.input = case_input
        self.index_of = {}
        self.nodes = []
        self.root = self._make(case_input["tree"], None)

    def _make(self, data, parent):
        """One node as ``Node(name, parent=parent)`` makes it, with the children list anytree adds on first
        read, written straight into its dict: no method of anytree's runs. Those methods stay open to
        students (a ``Node.__lt__`` of their own), so a call could swap one to run their code while the
        next tree is built, before its "before" is taken; this builds the same dict, key by key."""
        node = _new_object(Node)
        attrs = _dict_of(node)
        attrs["name"] = data["name"]
        if parent is not None:
            attrs["_NodeMixin__parent"] = parent
            _dict_of(parent)["_NodeMixin__children"].append(node)
        attrs["_NodeMixin__children"] = []
        self.index_of[id(node)] = len(self.nodes)
        self.nodes.append(node)
        for child in data["children"]:
            self._make(child, node)
        return node

    def index(self, node, helper):
        try:
            return self.index_of[id(node)]
        except (KeyError, TypeError):
            raise ValueError(f"{helper}() was given something that is not a node of this tree: {node!r:.80}") from None


def build(case_input):
    return Built(case_input)


# The attributes this driver gives each node (see Built._make): sealed on anytree's classes by the harness, which
# refuses a data descriptor of the student's under one of them (it would hide the node's own, which ``changed``
# compares: harness._library_plumbing).
INSTANCE_NAMES = ("name", "_NodeMixin__parent", "_NodeMixin__children")
CALL = ("root", "max_depth", "player_a_moves")  # the student's arguments: the root, input keys, "-inf"/"inf"
HELPERS = ("get_value", "get_next_valid_moves")  # the names of the value helper and the moves helper


def helpers(built, link):
    """The provided functions: a value comes from the grader, which logs the question. The moves are the
    node's children, which the child holds anyway (no check judges expansions, so none are told), read from
    the node's own dict (``_children``)."""
    ask = link.ask

    def get_value(node):
        value = ask(b'["v", %d]' % built.index(node, HELPERS[0]))  # the question as json.dumps writes it
        if type(value) is dict:  # asked while no call was running (a thread the call left behind)
            raise RuntimeError(str(value.get("error"))[:200])
        return value

    def get_next_valid_moves(node):
        built.index(node, HELPERS[1])
        return _children(node)

    return {HELPERS[0]: get_value, HELPERS[1]: get_next_valid_moves}


def helpers_with_values(built, values):
    """The same helpers for a run whose questions are no evidence (the grader sent the tree's values with
    the case, see ``Session.run``): a value is read here, with nothing asked and nothing logged."""
    def get_value(node):
        return values[built.index(node, HELPERS[0])]

    def get_next_valid_moves(node):
        built.index(node, HELPERS[1])
        return _children(node)

    return {HELPERS[0]: get_value, HELPERS[1]: get_next_valid_moves}


def _children(node):
    """What ``node.children`` gives (a tuple of the node's children list), read from the node's own dict with
    tools taken at import, never through anytree's code. That code is the student's to change (a module global of
    anytree's, a property's getter rewritten in place: the fifty-seventh red team), and a change there changes how
    their own code reads the tree, not the tree: the moves the grader hands out are the nodes' own, which is also
    all ``changed`` compares. A search that re-sorts its own view of the children is then what it is, a search
    that leaves the tree as it was."""
    return _tuple(_children_of(_dict_of(node)))


def loading_helpers():
    """While the file itself runs (its own module-level tests), helpers that need no grader tree.

    A file may keep one under another name as it loads (``evaluate = get_value``, a class's
    ``staticmethod(get_value)``) and call it while a case runs. Then the value helper hands the question to
    the helper the grader put in the caller's namespace for this case, which asks the grader as ever (so the
    question is logged with the case, as any other): it runs in the student's own call, on their thread, and
    calls what their namespace holds, nothing of the grader's more than they could call themselves."""

    def get_value(node):
        frame = _caller(1)  # the nearest caller whose namespace holds a helper of this name: the submission's
        while frame is not None:  # (a library function of theirs, ``heapq.nlargest(key=...)``, may come between)
            current = frame.f_globals.get(HELPERS[0])
            if current is not None and current is not get_value:
                return current(node)  # the case's helper, while grading; never this one (``property(get_value)``)
            frame = frame.f_back
        try:
            return node.value
        except AttributeError:
            raise NameError(f"{HELPERS[0]} is provided by the grader only while grading; "
                            "define your own to run tests at the bottom of your file") from None

    def get_next_valid_moves(node):
        return node.children

    return {HELPERS[0]: get_value, HELPERS[1]: get_next_valid_moves}


def _argument(name, built):
    if name == "root":
        return built.root
    if name in ("-inf", "inf"):
        return float(name)
    return built.input[name]


def call(entry, built):
    return entry(*[_argument(name, built) for name in CALL])


class Snapshot(tuple):
    """The tree's state: a quick fingerprint, the careful description behind it, then every node in
    preorder, the root first, each held by a weak reference (which cannot be pointed elsewhere, whose
    text never runs a node's ``__repr__``, and which a call's seal leaves out of the snapshot's hash, so
    no node's ``__hash__`` runs there either). Two snapshots are equal when their descriptions are (so
    ``snapshot(built) != before`` means what it says wherever it is used); ``changed`` is the quick way
    to ask the same question after a call."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is Snapshot and self[1] == other[1]

    def __ne__(self, other):
        return not self == other

    __hash__ = None


def snapshot(built):
    """The tree's state before a call."""
    nodes = built.nodes
    return Snapshot((_fingerprint(nodes), _describe(nodes), *map(_weak, nodes)))


def changed(built, before):
    """Whether the call changed the tree. Runs after every single call, so the common answer is quick:
    every key, value and child is the very object it was, so nothing changed. Only when some identity
    differs does the careful description decide (a new but equal name string is no change).

    The nodes are the ones ``before`` holds by weak reference, never the driver's list (``built`` is
    reachable from student code, which could swap the list for clones). Nothing needs walking: a node
    added, removed, moved or replaced anywhere changes the children of a node that was there before,
    and a node that is gone (its reference dead) or is no longer a plain ``Node`` is a change too."""
    if type(before) is not Snapshot:
        return True
    items = _tuple(_tuple_iter(before))  # tuple's own iteration, never a class's __iter__
    if len(items) < 3 or type(items[0]) is not bytes or type(items[1]) is not tuple:
        return True
    nodes = list(map(_dereference, items[2:]))  # a dead reference gives None, which is no Node
    now = _fingerprint(nodes)
    if now is None:
        return True  # not anytree's own nodes and dicts any more: changed, and not looked into
    return now != items[0] and _describe(nodes) != items[1]


CHANGE_CAP = 400  # characters of ``change_of``'s words (the grading process refuses a longer "change": replies)
NAME_CAP = 40  # characters of one node's or attribute's name there
LISTED = 6  # nodes named in a list of children; the rest are counted
COMPARED = 2000  # children before and after, past which a change of children is only counted (see _node_change)


def change_of(built, before):
    """What the call changed, in words, for the report: the first node in preorder whose name, attributes,
    children or parent differ from ``before`` (the harness asks only where ``changed`` found a change). "The
    tree was different" leaves a student hunting for the line that did it; "the children of 'Move V' came in
    another order" points at a ``sort`` of theirs. None where it cannot be said without looking into objects
    that are no longer the tree's own: the report then says that the tree changed, as ever.

    Words, not evidence: the check's verdict is ``changed``'s, and the report says that it was observed inside
    the student's process. Read through the same getters as ``changed``, over the nodes ``before`` holds;
    nothing of the student's runs (names and keys that are not plain strings were described as such)."""
    if type(before) is not Snapshot:
        return None
    items = _tuple(_tuple_iter(before))
    if len(items) < 3 or type(items[1]) is not tuple:
        return None
    old = items[1]
    nodes = list(map(_dereference, items[2:]))
    if len(old) != len(nodes):
        return None
    for number, node in enumerate(nodes):
        if node is None:
            return f"{_label(old, number)} was taken out of the tree (and nothing holds it any more)"
        if type(node) is not Node:
            return f"{_label(old, number)} is no longer an anytree Node (its class was changed)"
    if _fingerprint(nodes) is None:
        return None  # a node's dict or children list is no longer a plain one: not looked into
    new = _describe(nodes)
    numbers = {id(node): number for number, node in enumerate(nodes)}
    for number, (was, now) in enumerate(zip(old, new)):
        if was == now:
            continue
        words = _node_change(old, numbers, number, was, now)
        return words if len(words) <= CHANGE_CAP else words[:CHANGE_CAP - 1] + "…"
    return None


def _node_change(old, numbers, number, was, now):
    """One node's change (``_describe``'s entries before and after), in words."""
    name = _label(old, number)
    if was[0] != now[0]:
        return f"{name} was renamed {_shown(now[0])}"
    if was[1] != now[1]:
        added = [key for key in now[1] if key not in was[1] and key != "name"]
        removed = [key for key in was[1] if key not in now[1]]
        parts = []
        if added:
            parts.append(f"was given the attribute{'s' if len(added) > 1 else ''} {_listed(added, _shown)}")
        if removed:
            parts.append(f"lost the attribute{'s' if len(removed) > 1 else ''} {_listed(removed, _shown)}")
        return f"{name} {' and '.join(parts) or 'had its attributes set again'}"
    if was[2] != now[2]:
        def kid(identity):
            found = numbers.get(identity)
            return "a node that was not in the tree" if found is None else _label(old, found)
        if len(was[2]) + len(now[2]) > COMPARED:  # counted, not compared: no sort of a list the student made huge
            return f"the children of {name} changed: {len(now[2])} where there were {len(was[2])}"
        if sorted(was[2]) == sorted(now[2]):
            return f"the children of {name} came in another order: {_listed(now[2], kid)} (they were {_listed(was[2], kid)})"
        had, has = set(was[2]), set(now[2])
        gained = [identity for identity in now[2] if identity not in had]
        lost = [identity for identity in was[2] if identity not in has]
        if lost and not gained:
            return f"{name} lost {'its child' if len(lost) == 1 else 'the children'} {_listed(lost, kid)}"
        if gained and not lost:
            return f"{name} got {_listed(gained, kid)} as {'a child' if len(gained) == 1 else 'children'}"
        return f"the children of {name} changed: {_listed(now[2], kid) or 'none'} (they were {_listed(was[2], kid)})"
    return f"{name} was moved under another node"


def _label(old, number):
    """A node of the tree before the call, by its name then (names may repeat: the report draws the tree)."""
    return "the root " + _shown(old[0][0]) if number == 0 else _shown(old[number][0])


def _shown(text):
    if text == "<not a str>":  # how _describe writes a name or key that is not a plain string
        return "(a name that is not a string)"
    return repr(text if len(text) <= NAME_CAP else text[:NAME_CAP - 1] + "…")


def _listed(things, show):
    shown = [show(thing) for thing in things[:LISTED]]
    if len(things) > LISTED:
        shown.append(f"and {len(things) - LISTED} more")
    return ", ".join(shown)


def _fingerprint(nodes):
    """The identities of every key, value and child of every node, as bytes; None when a node is no
    longer a plain ``Node`` with a plain dict (its class or its ``__dict__`` replaced: student code
    would run if it were looked into).

    C-level passes only (no per-node Python), and bytes rather than a list of ints: comparing
    two is one memcmp, which writes nothing to the warm fork server's shared pages.
    """
    # Exact types, compared by identity (a set of classes would hash them: a metaclass's __hash__ is student
    # code), before anything is measured or iterated: a children list of a list subclass of the student's
    # would run its __len__ or __iter__ here, on the harness's thread (found by the tenth session's red team).
    if not all(map(_is, map(type, nodes), repeat(Node))):
        return None
    dicts = list(map(_dict_of, nodes))
    if not all(map(_is, map(type, dicts), repeat(dict))):
        return None
    if not all(map(_is, map(type, _flat(dicts)), _STRINGS)):
        return None  # a key that is not a plain string: its __eq__ would run in the lookups below
    kids = list(map(_children_of, dicts))
    if not all(map(_is, map(type, kids), repeat(list))):
        return None
    everything = chain(_flat(dicts), _flat(map(_dict_values, dicts)), _flat(kids))
    return array("Q", [*map(len, dicts), *map(len, kids), *map(id, everything)]).tobytes()


def _instance_dict_reader(klass):
    """The C-level getter of ``klass``'s instances' dicts, taken now, before any student code runs.

    ``node.__dict__`` (or ``attrgetter("__dict__")``) asks the class, and student code can put a
    property called ``__dict__`` in the class (through ``gc``, even past its mapping proxy) that
    shows the snapshot a dict of its choosing. The base getset descriptor taken here reads the
    real dict whatever the class says later.
    """
    for base in klass.__mro__:
        found = base.__dict__.get("__dict__")
        if found is not None:
            if type(found).__name__ != "getset_descriptor":
                raise TypeError(f"{klass.__name__}.__dict__ is not the interpreter's own")
            return found.__get__
    raise TypeError(f"{klass.__name__} instances have no __dict__")


_dict_of = _instance_dict_reader(Node)
# Between two calls (building a tree, its snapshot, the comparison after a call) this driver reads nodes
# only through _dict_of and makes them with object.__new__, which still consults Node's abstract flag: the
# harness checks anytree's classes' machinery (seal.PLUMBING) after every call.
_new_object = object.__new__
_tuple_iter = tuple.__iter__
_tuple = tuple
_dereference = _weak.__call__
_is = is_
_STRINGS = repeat(str)
_children_of = methodcaller("get", "_NodeMixin__children", ())
_dict_get = dict.get
_dict_values = dict.values
# Bound now: ``chain.from_iterable`` is looked up in chain's own dict, where a key planted through gc would run
# on the harness's thread between two calls (the fourteenth red team).
_flat = chain.from_iterable
_dict_keys = dict.keys
# anytree's own private keys, added lazily (reading .children creates one): not the student's doing. Exactly
# these: any other key, whatever its name, is an attribute the student gave a node.
_ANYTREE_KEYS = frozenset({"_NodeMixin__children", "_NodeMixin__parent"})


def _describe(nodes):
    """Everything about the tree a student could change: names, attributes, children and parents.

    One flat pass over the nodes in preorder (children and parents by identity, which the same
    objects keep between before and after). Keys and names that are not plain strings are
    never compared as objects: their methods are the student's.
    """
    out = []
    for node in nodes:
        attrs = _dict_of(node)  # the real dict (see _instance_dict_reader), read with dict's own methods
        name = _dict_get(attrs, "name")
        kids = _dict_get(attrs, "_NodeMixin__children")
        # anytree adds its own private keys lazily (reading .children creates one): not the student's doing
        keys = tuple(k if type(k) is str else "<not a str>" for k in _dict_keys(attrs)
                     if not (type(k) is str and k in _ANYTREE_KEYS))
        out.append((name if type(name) is str else "<not a str>", keys,
                    tuple(map(id, kids)) if type(kids) is list or type(kids) is tuple else (),
                    id(_dict_get(attrs, "_NodeMixin__parent"))))
    return tuple(out)  # immutable all the way down: gc finds it, but cannot rewrite it in place
