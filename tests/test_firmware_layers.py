"""The firmware's plan (docs/design.md, "Layers"): sagatfw's subpackages stand in layers, and a
module imports only from its own layer or the ones below it, never from above, not even lazily
inside a function (where a lower layer needs something from above, the caller hands it in). No two
modules import each other, however long the way round. Every import is read from the source, those
inside functions too, so a lazy import up a layer fails here as a top-level one does."""

import ast
import os

import pytest
import sizes  # tests/kits/sizes.py: the size rule's one counter (code lines), the host's test uses it too

FIRMWARE = os.path.join(os.path.dirname(__file__), "..", "firmware", "sagatfw")  # (this file is in tests/)

# bottom to top; a package not listed here is a new layer the plan must name first
LAYERS = ("", "core", "engine", "log", "faces", "ui", "link", "app", "boards")
TOP = {"app", "boards"}  # one layer: the app runs on a board, the simulator runs the app
MAX_TOP_MODULES = 10


def _modules():
    out = {}
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
                mod = "sagatfw" if rel == "__init__" else "sagatfw." + rel.removesuffix(".__init__")
                out[mod] = path
    return out


MODULES = _modules()


def _imports(mod, path):
    """Every sagatfw module `mod` imports, at the top or in a function, with its line."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: a relative import (the firmware imports by full name)"
            base = node.module or ""
            for a in node.names:
                sub = base + "." + a.name
                found.append((sub if sub in MODULES else base, node.lineno))
    return [(m, line) for m, line in found if m in MODULES and m != mod]


def _layer(mod):
    parts = mod.split(".")
    name = parts[1] if len(parts) > 2 else ""  # a module at the top of sagatfw is the root's
    if name in TOP:
        return LAYERS.index("app")
    assert name in LAYERS, f"{mod}: package {name!r} is in no layer of LAYERS (docs/design.md, Layers)"
    return LAYERS.index(name)


def test_every_package_is_a_layer_of_the_plan():
    packages = {m.split(".")[1] for m in MODULES if m.count(".") >= 2}
    assert packages <= set(LAYERS), packages - set(LAYERS)
    assert packages == set(LAYERS) - {""}, set(LAYERS) - {""} - packages


@pytest.mark.parametrize("mod", sorted(MODULES))
def test_no_import_goes_up_a_layer(mod):
    mine = _layer(mod)
    up = [f"line {line}: {dep} ({LAYERS[_layer(dep)] or 'root'})" for dep, line in _imports(mod, MODULES[mod])
          if _layer(dep) > mine]
    assert not up, f"{mod} ({LAYERS[mine] or 'root'}) imports from a higher layer: {up}"


def test_no_import_circle():
    graph = {m: sorted({d for d, _ in _imports(m, p)}) for m, p in MODULES.items()}
    done, on_path, circles = set(), [], []

    def visit(m):
        if m in on_path:
            circles.append(on_path[on_path.index(m) :] + [m])
            return
        if m in done:
            return
        on_path.append(m)
        for d in graph[m]:
            visit(d)
        on_path.pop()
        done.add(m)

    for m in sorted(graph):
        visit(m)
    assert not circles, [" -> ".join(c) for c in circles]


def test_no_dotted_import_of_a_layer_module():
    """`import sagatfw.log.journal as J` reads the module as an attribute of its package, which
    sagatfw.forget drops on a board; `from sagatfw.log import journal as J` finds it in sys.modules."""
    dotted = []
    for mod, path in MODULES.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                dotted += [f"{mod}: line {node.lineno}: import {a.name}" for a in node.names if a.name.count(".") >= 2]
    assert not dotted, dotted


def test_the_walk_sees_lazy_imports():
    """The check itself: an import inside a function is found (app/main.py loads the link lazily)."""
    deps = {d for d, _ in _imports("sagatfw.app.main", MODULES["sagatfw.app.main"])}
    assert "sagatfw.link.server" in deps, deps


def test_no_module_is_too_long_and_few_stand_at_the_top():
    # code lines (sizes.py): comments, blank lines and docstrings are not counted, so a reason is never
    # cut to meet the rule; a module over it has more than one job: split it along its seams
    long = sizes.over(MODULES)
    assert not long, f"modules over {sizes.MAX_CODE_LINES} code lines: split them along their seams: {long}"
    top = [m for m in MODULES if m.count(".") == 1]
    assert len(top) <= MAX_TOP_MODULES, top


def test_the_size_rule_counts_code_lines_only():
    text = ('''"""A module's docstring,
over two lines."""
# a comment

import os  # a comment after code


class K:
    """A class's docstring."""

    def f(self, x):
        """A function's docstring."""
        s = """a string that is code,
over two lines"""
        return (x,
                s)
''')
    # import, class, def, the string's two lines, the bracket's two lines
    assert sizes.code_lines(text) == 7
    assert sizes.code_lines(text.replace("# a comment\n", "# a comment\n" * 500)) == 7
