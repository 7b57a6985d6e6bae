"""The journal's interface (docs/design.md, "Layers"): the log layer (firmware/sagatfw/log) gives
its users a public API, and no module above it reaches into the journal's private members
(`j._admit`, `j._path`, `j._read_segment`...): a match's records are written by the log layer
(log/matchwrite.py) as a game's are, a segment is opened for reading by the journal's own
methods, the ballast is put back by `make_room`. Every module's source is read (those inside
functions too), as tests/test_firmware_layers.py reads the imports."""

import ast
import os

import pytest

FIRMWARE = os.path.join(os.path.dirname(__file__), "..", "firmware", "sagatfw")  # (this file is in tests/)
LOG = os.path.join(FIRMWARE, "log")
# the classes a journal is made of (wherever in log/ they are): log/journal.py's Journal, and
# log/segments.py's Segments, which it is
JOURNAL_CLASSES = ("Journal", "Segments")
# what names a journal in the firmware: an attribute `journal` (app.journal, srv.app.journal...),
# a Journal(...) made, or a parameter the firmware's convention names so
JOURNAL_PARAMS = ("j", "journal")


def _sources():
    out = {}
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                out[os.path.relpath(path, FIRMWARE)] = path
    return out


SOURCES = _sources()
OUTSIDE_LOG = sorted(rel for rel in SOURCES if not rel.startswith("log" + os.sep))


def _privates(tree, classes=None):
    """The names beginning with one `_` (dunders aside) that the classes of `tree` define (their
    methods, and the attributes their methods set on self), of the classes named in `classes`
    only or of every class but those (`classes` a pair: (names, keep)); with no classes, the
    module's own functions too."""
    names = set()
    nodes = [tree] if classes is None else []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and (classes is None or (node.name in classes[0]) == classes[1]):
            nodes.append(node)
    for top in nodes:
        for sub in ast.walk(top):
            if isinstance(sub, ast.FunctionDef):
                names.add(sub.name)
            elif isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                names.add(sub.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _private_members():
    """(the journal's private members: those Journal and Segments define; the private names of
    every other class and module of the firmware). A name in the first and not in the second can
    mean the journal's member only, whatever object it is reached on."""
    journal, others = set(), set()
    for rel, path in SOURCES.items():
        tree = ast.parse(open(path, encoding="utf-8").read())
        if rel.startswith("log" + os.sep):
            journal |= _privates(tree, (JOURNAL_CLASSES, True))
            others |= _privates(tree, (JOURNAL_CLASSES, False))
        else:
            others |= _privates(tree)
    return journal, others


PRIVATE, OTHERS = _private_members()


def _journal_names(func):
    """The names that hold a journal in a function: its parameters named by the convention, and
    the names assigned from an `X.journal` attribute or a Journal(...) call."""
    held = set()
    for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs:
        if a.arg in JOURNAL_PARAMS:
            held.add(a.arg)
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and _is_journal(node.value, held):
            held.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return held


def _is_journal(node, held):
    if isinstance(node, ast.Attribute) and node.attr == "journal":
        return True
    if isinstance(node, ast.Name) and node.id in held:
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Journal"


def _uses(path):
    """(line, what) for each private member reached on a journal: an attribute beginning with `_`
    (dunders aside) on an expression that holds a journal, or, on anything but `self`, a name only
    the journal's private members have."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    found = set()
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        held = _journal_names(scope) if scope is not tree else set()
        for node in ast.walk(scope):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
                continue
            on_self = isinstance(node.value, ast.Name) and node.value.id == "self"
            if _is_journal(node.value, held) or (node.attr in PRIVATE - OTHERS and not on_self):
                found.add((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_rule_knows_the_journal_s_private_members():
    # the rule is only as good as its list: the writer's and the segments' own privates are in it
    assert {"_header", "_push_text", "_write_backlog", "_new_segment", "_remove_oldest", "_free_room"} <= PRIVATE
    assert "commit" not in PRIVATE and "park" not in PRIVATE


def test_the_rule_finds_a_private_member_reached_every_way(tmp_path):
    src = tmp_path / "user.py"
    src.write_text(
        "def f(app, x, j):\n"
        "    jr = app.journal\n"
        "    jr._a()\n"  # a name that holds the journal
        "    app.journal._b\n"  # the journal itself
        "    j._c\n"  # a parameter the convention names so
        "    x._remove_oldest()\n"  # a name only the journal's members have, on anything
        "    x._own, x.__class__, x.public\n"  # another object's own private, a dunder, a public name
    )
    assert [what for _, what in _uses(str(src))] == ["jr._a", "app.journal._b", "j._c", "x._remove_oldest"]


@pytest.mark.parametrize("rel", OUTSIDE_LOG)
def test_no_module_outside_the_log_layer_uses_a_private_member_of_the_journal(rel):
    uses = _uses(SOURCES[rel])
    assert not uses, f"sagatfw/{rel} reaches into the journal's private members: {uses}"


def test_the_journal_forwards_nothing_through_getattr():
    # log/boot.py's functions (open_log, restore, game_events) are called as the boot's, not
    # reached as the journal's attributes: no class of the log layer answers for another module
    for name in sorted(os.listdir(LOG)):
        if name.endswith(".py"):
            tree = ast.parse(open(os.path.join(LOG, name), encoding="utf-8").read())
            hooks = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]
            assert not hooks, f"log/{name} defines __getattr__"
