"""The host's plan (docs/design.md, "The host's layers"): host/sagat's modules stand in layers, and a
module imports only from its own layer or the ones below it, never from above; no two modules import
each other, however long the way round. Every import is read from the source, those inside functions
too (a lazy import is still a dependency), as tests/test_firmware_layers.py does for the firmware.
The firmware's pure modules (sagatfw) are below every host module and are not walked here."""

import ast
import os

from conftest import ROOT

HOST = os.path.join(ROOT, "host", "sagat")

# bottom to top: a module of a layer imports from its own layer and those below. A module that is in
# none of them is a new part of the plan, to be placed here first.
LAYERS = (
    ("sagat", "sagat.i18n", "sagat.reasons", "sagat.client", "sagat.image", "sagat.firmware"),  # words, the link, files
    ("sagat.pull",),  # a pulled folder written (it reads and verifies nothing)
    ("sagat.log",),  # a log read, replayed and verified: one verify
    ("sagat.round",),  # the round's folder, pairings, TRF, PGN, the report
    ("sagat.hall", "sagat.sim", "sagat.deploy"),  # the live hall; the simulator; deploying the firmware
    ("sagat.cliutil", "sagat.commands", "sagat.cli", "sagat.entry", "sagat.__main__"),  # the command
)


def _modules() -> dict[str, str]:
    out = {}
    for dirpath, _dirs, files in os.walk(HOST):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, HOST)[:-3].replace(os.sep, ".")
                out["sagat" if rel == "__init__" else "sagat." + rel.removesuffix(".__init__")] = path
    return out


MODULES = _modules()


def _imports(mod: str, path: str) -> set[str]:
    """The host modules `mod` imports, at the top or inside a function (`from . import x` is the
    module x when there is one, else the package)."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    base = mod if path.endswith("__init__.py") else mod.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "sagat"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                target = ".".join(parts[:len(parts) - (node.level - 1)]) + (f".{node.module}" if node.module else "")
            else:
                target = node.module or ""
            if target.split(".")[0] != "sagat":
                continue
            for a in node.names:
                found.add(f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target)
    return {m for m in found if m in MODULES and m != mod}


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def _layer(mod: str) -> int | None:
    for i, names in enumerate(LAYERS):
        if any(mod == n or (n != "sagat" and mod.startswith(n + ".")) for n in names):
            return i
    return None


def test_every_host_module_has_its_place_in_the_plan():
    assert not [m for m in MODULES if _layer(m) is None]


def test_no_host_module_imports_from_a_layer_above():
    up = sorted(f"{m} -> {n}" for m, names in GRAPH.items() for n in names if _layer(n) > _layer(m))
    assert not up, "imports up a layer (hand the lower layer what it needs instead):\n" + "\n".join(up)


def test_no_import_circle_in_the_host():
    # Tarjan's strongly connected components: a component of more than one module is a circle
    index, low, stack, on, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not circles, circles


def test_the_walk_sees_imports_inside_functions_and_relative_ones():
    # (the walk itself: serve.py imports the pairings inside a function, relatively; the pull imports
    # the client at the top)
    assert "sagat.round.pairings" in GRAPH["sagat.hall.serve"]
    assert "sagat.client" in GRAPH["sagat.pull"]
    assert "sagat.log.verify" in GRAPH["sagat.round.report"]
