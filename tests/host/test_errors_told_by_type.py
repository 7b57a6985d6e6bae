"""What went wrong travels as a type or a code, never as matched English text: no host module
decides on the words of an exception's message (`"serial link lost" in str(e)`,
`str(e).startswith(...)`, `"unknown_cmd" in e.text()`). The words are for the person reading them
(and change with a translation or a reworded message); LinkError has its code and LinkLost,
NotAClock its types; a verify's problems have codes (sagat/log/problem.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import sagat

HOST = Path(sagat.__file__).parent


def _caught(tree) -> set:
    """The names `except ... as NAME` binds anywhere in the module."""
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name}


def _words_of(node, names: set) -> bool:
    """Whether `node` is an exception's words: str(e), repr(e), e.text(), e.args, e.args[0] (e caught)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("str", "repr") and \
            len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in names:
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "text" and \
            isinstance(node.func.value, ast.Name) and node.func.value.id in names:
        return True
    return isinstance(node, ast.Attribute) and node.attr == "args" and isinstance(node.value, ast.Name) and \
        node.value.id in names


def _deciding_on_words(tree) -> list[int]:
    names = _caught(tree)
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq))
                                              for op in n.ops):
            sides = [n.left, *n.comparators]
            if any(_words_of(s, names) for s in sides) and any(
                    isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                found.append(n.lineno)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr in ("startswith", "endswith", "find", "index", "count") and \
                _words_of(n.func.value, names):
            found.append(n.lineno)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("match", "search") and \
                any(_words_of(a, names) for a in n.args):
            found.append(n.lineno)
    return found


def test_no_host_module_decides_on_an_exceptions_words():
    found = []
    for path in sorted(HOST.rglob("*.py")):
        for line in _deciding_on_words(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(HOST)}:{line}")
    assert found == [], "an error told by its words, not its type or code: " + ", ".join(found)


def test_the_check_sees_words_matched_in_each_form():
    # (the walk above would pass on nothing if it did not recognise the forms it is for)
    src = '''
try:
    pass
except LinkError as e:
    if "serial link lost" in str(e) or "no answer" in str(e):
        raise
    if str(e).startswith("clock refused"):
        pass
    if e.text() == "x" or "unknown_cmd" in e.args[0]:
        pass
    if re.search("busy", str(e)):
        pass
    if e.code == "unknown_cmd" or isinstance(e, LinkLost):
        pass
'''
    assert sorted(_deciding_on_words(ast.parse(src))) == [5, 5, 7, 9, 9, 11]
