"""Sandbox side of a game whose positions are the nodes of a given tree (ctp-26, alphabeta).

Turns a case (plain data: ``{"name", "value", "children"}``) into anytree nodes and calls the
student. Runs inside the child next to the student's code, so it holds nothing secret. The
helpers look values up by node identity (names repeat in the trees) and record every node they
are asked about, by its preorder index, so the grader judges evaluation discipline from plain
data. ``grader.kit.tree_hooks.driver_path`` writes this file out with the exercise's ``CALL`` (the
arguments, in order) and ``HELPERS`` (the value and moves helpers' names) appended, as one
module: every defence below (the dict getter taken at import, tuple snapshots) sits in the
driver's own namespace, which the harness seals.
"""

from array import array
from itertools import chain
from operator import methodcaller

from anytree import Node


class Built:
    """One freshly built tree plus the bookkeeping the instrumented helpers need."""

    def __init__(self, case_input):
        self.input = case_input
        self.index_of = {}
        self.values = []
        self.nodes = []
        self.root = self._make(case_input["tree"], None)

    def _make(self, data, parent):
        node = Node(data["name"], parent=parent)
        node.children  # noqa: B018 - anytree adds this private key on first read; have it from the start
        self.index_of[id(node)] = len(self.nodes)
        self.nodes.append(node)
        self.values.append(data["value"])
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


CALL = ("root", "max_depth", "player_a_moves")  # the student's arguments: the root, input keys, "-inf"/"inf"
HELPERS = ("get_value", "get_next_valid_moves")  # the names of the value helper and the moves helper


def helpers(built, trace):
    """The provided functions, instrumented. `trace` is a dict of lists owned by the harness."""

    def get_value(node):
        index = built.index(node, HELPERS[0])
        trace["evaluated"].append(index)
        return built.values[index]

    def get_next_valid_moves(node):
        index = built.index(node, HELPERS[1])
        trace["expanded"].append(index)
        return node.children

    return {HELPERS[0]: get_value, HELPERS[1]: get_next_valid_moves}


def loading_helpers():
    """While the file itself runs (its own module-level tests), helpers that need no grader tree."""

    def get_value(node):
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
    """The tree's state: a quick fingerprint and the careful description behind it. Two snapshots
    are equal when their descriptions are (so ``snapshot(built) != before`` means what it says
    wherever it is used); ``changed`` is the quick way to ask the same question after a call."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is Snapshot and self[1] == other[1]

    def __ne__(self, other):
        return not self == other

    __hash__ = None


def snapshot(built):
    """The tree's state before a call."""
    return Snapshot((_fingerprint(built), _describe(built)))


def changed(built, before):
    """Whether the call changed the tree. Runs after every single call, so the common answer is quick:
    every key, value and child is the very object it was, so nothing changed. Only when some identity
    differs does the careful description decide (a new but equal name string is no change)."""
    fingerprint, description = before
    now = _fingerprint(built)
    if now is None:
        return True  # not anytree's own nodes and dicts any more: changed, and not looked into
    return now != fingerprint and _describe(built) != description


def _fingerprint(built):
    """The identities of every key, value and child of every node, as bytes; None when a node is no
    longer a plain ``Node`` with a plain dict (its class or its ``__dict__`` replaced: student code
    would run if it were looked into).

    C-level passes only (no per-node Python), and bytes rather than a list of ints: comparing
    two is one memcmp, which writes nothing to the warm fork server's shared pages.
    """
    if set(map(type, built.nodes)) != {Node}:
        return None
    dicts = list(map(_dict_of, built.nodes))
    if set(map(type, dicts)) != {dict}:
        return None
    kids = list(map(_children_of, dicts))
    everything = chain(chain.from_iterable(dicts), chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(kids))
    return array("Q", chain(map(len, dicts), map(len, kids), map(id, everything))).tobytes()


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
_children_of = methodcaller("get", "_NodeMixin__children", ())
_dict_get = dict.get
_dict_keys = dict.keys


def _describe(built):
    """Everything about the tree a student could change: names, attributes, children and parents.

    One flat pass over the nodes as built (children and parents by identity, which the same
    objects keep between before and after). Keys and names that are not plain strings are
    never compared as objects: their methods are the student's.
    """
    out = []
    for node in built.nodes:
        attrs = _dict_of(node)  # the real dict (see _instance_dict_reader), read with dict's own methods
        name = _dict_get(attrs, "name")
        kids = _dict_get(attrs, "_NodeMixin__children")
        # anytree adds its own private keys lazily (reading .children creates one): not the student's doing
        keys = tuple(k if type(k) is str else "<not a str>" for k in _dict_keys(attrs)
                     if not (type(k) is str and k.startswith("_NodeMixin__")))
        out.append((name if type(name) is str else "<not a str>", keys,
                    tuple(map(id, kids)) if type(kids) in (list, tuple) else (), id(_dict_get(attrs, "_NodeMixin__parent"))))
    return tuple(out)  # immutable all the way down: gc finds it, but cannot rewrite it in place
